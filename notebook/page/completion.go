package page

import (
	"fmt"
	"strings"

	"gradbook/notebook/block"
	"gradbook/notebook/progress"
)

// showCompletion shows on the index how much of each lesson is done, and
// where the learner left off.
func (p *Page) showCompletion() {
	prog := p.keep.prog
	for _, li := range p.doc.QueryAll(block.With("li", block.AttrItems)) {
		items := strings.Fields(li.Attr(block.AttrItems))
		done := prog.Completion(li.Attr(block.AttrLesson), items)
		li.Query(block.Of(block.ClassCompletion)).SetText(fmt.Sprintf("%d of %d done", done, len(items))) // every entry has its place for it
		if done == len(items) && done > 0 {
			li.AddClass(classComplete)
		}
	}
	p.showContinue()
}

// showContinue links the index to where the learner left off: the lesson
// the index lists that they visited last (a visit record is data, and
// names no page of its own: a later visit of a lesson taken off the site,
// or of a course page's cells, leaves the link where it was), at the cell
// they were at.
func (p *Page) showContinue() {
	cont := p.doc.ByID(block.IDContinue)
	if cont == nil {
		return
	}
	lessons := p.doc.QueryAll(block.With("li", block.AttrLesson))
	var last *progress.Record
	var li Node
	for _, r := range p.keep.prog.All(kindVisit, "") {
		if el := withAttr(lessons, block.AttrLesson, r.Lesson); el != nil && (last == nil || r.Updated > last.Updated) {
			last, li = r, el
		}
	}
	if last == nil {
		return
	}
	link := li.Query(block.SelLink) // every entry of the index has one
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
