package page

import (
	"fmt"
	"strings"

	"gradbook/notebook/block"
)

// showCompletion shows on the index how much of each lesson is done, and
// where the learner left off.
func (p *Page) showCompletion() {
	if p.keep == nil {
		return
	}
	prog := p.keep.prog
	for _, li := range p.doc.QueryAll(block.With("li", block.AttrItems)) {
		items := strings.Fields(li.Attr(block.AttrItems))
		done := prog.Completion(li.Attr(block.AttrLesson), items)
		if el := li.Query(block.Of(block.ClassCompletion)); el != nil {
			el.SetText(fmt.Sprintf("%d of %d done", done, len(items)))
			if done == len(items) && done > 0 {
				li.AddClass(classComplete)
			}
		}
	}
	p.showContinue()
}

// showContinue links the index to where the learner left off: a lesson
// the index lists (a visit record is data, and names no page of its own),
// at the cell they were at.
func (p *Page) showContinue() {
	cont := p.doc.ByID(block.IDContinue)
	if cont == nil {
		return
	}
	last := p.keep.prog.LastVisit()
	if last == nil {
		return
	}
	li := withAttr(p.doc.QueryAll(block.With("li", block.AttrLesson)), block.AttrLesson, last.Lesson)
	if li == nil {
		return
	}
	link := li.Query(block.SelLink)
	if link == nil {
		return
	}
	href := link.Attr("href")
	if last.Anchor != "" {
		href += "#" + last.Anchor // an attribute's value, never markup: the browser encodes it
	}
	a := p.doc.Create("a")
	a.SetAttr("href", href)
	a.SetText(link.Text())
	cont.SetText("Continue where you left off: ")
	cont.Append(a)
	cont.RemoveAttr("hidden")
}
