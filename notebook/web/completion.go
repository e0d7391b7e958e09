//go:build js && wasm

package web

import (
	"fmt"
	"html"
	"strings"

	"gradbook/notebook/block"
)

func escape(s string) string { return html.EscapeString(s) }

// showCompletion shows on the index how much of each lesson is done, and
// where the learner left off.
func (p *Page) showCompletion() {
	if p.keep == nil {
		return
	}
	for _, li := range p.doc.QuerySelectorAll(block.With("li", block.AttrItems)) {
		items := strings.Fields(li.GetAttribute(block.AttrItems))
		lesson := li.GetAttribute(block.AttrLesson)
		p.keep.mu.Lock()
		done := p.keep.prog.Completion(lesson, items)
		p.keep.mu.Unlock()
		if el := li.QuerySelector(block.Of(block.ClassCompletion)); el != nil {
			el.SetTextContent(fmt.Sprintf("%d of %d done", done, len(items)))
			if done == len(items) && done > 0 {
				li.Class().Add(classComplete)
			}
		}
	}
	cont := p.doc.GetElementByID(block.IDContinue)
	if cont == nil {
		return
	}
	p.keep.mu.Lock()
	last := p.keep.prog.LastVisit()
	p.keep.mu.Unlock()
	if last == nil {
		return
	}
	// Only a lesson the index lists: a visit record is data, and names no
	// page of its own.
	li := withAttr(p.doc.QuerySelectorAll(block.With("li", block.AttrLesson)), block.AttrLesson, last.Lesson)
	if li == nil {
		return
	}
	link := li.QuerySelector(anchor)
	if link == nil {
		return
	}
	href := link.GetAttribute("href")
	if last.Anchor != "" {
		href += "#" + last.Anchor // an attribute's value, never markup: the browser encodes it
	}
	a := p.doc.CreateElement("a")
	a.SetAttribute("href", href)
	a.SetTextContent(link.TextContent())
	cont.SetTextContent("Continue where you left off: ")
	cont.AppendChild(a)
	cont.RemoveAttribute("hidden")
}
