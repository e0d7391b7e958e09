//go:build js && wasm

package web

import (
	"gradbook/notebook/block"
	"gradbook/notebook/progress"
)

// Predictions keep their secret: what follows a prediction (a quiz the
// lesson marks predict) is folded until the learner answers it or skips
// it, and Run all stops before it. The build renders each fold (package
// lesson); the page opens it.

// wireFolds closes the folds of predictions not yet made and lets the
// learner skip them.
func (p *Page) wireFolds() {
	for _, f := range p.doc.QuerySelectorAll(block.Of(block.ClassFold)) {
		quiz := f.GetAttribute(block.AttrPredicts)
		if r := p.keep.get(progress.KindQuiz, quiz); r.Answer != "" || r.Skipped {
			f.Class().Add(block.ClassOpen)
			continue
		}
		if skip := f.QuerySelector(block.Sel("button", block.ClassSkip)); skip != nil {
			p.listen(skip, "click", func(*event) {
				spawn(func() {
					p.openFold(quiz)
					r := p.keep.get(progress.KindQuiz, quiz)
					r.Skipped = true
					p.put(r)
				})
			})
			skip.SetDisabled(false)
		}
	}
}

// answered opens what the prediction quiz folds, now that it is made.
func (p *Page) answered(quiz string) { p.openFold(quiz) }

// openFold opens the fold of prediction quiz, if any.
func (p *Page) openFold(quiz string) {
	f := withAttr(p.doc.QuerySelectorAll(block.Of(block.ClassFold)), block.AttrPredicts, quiz)
	if f == nil || f.Class().Contains(block.ClassOpen) {
		return
	}
	f.Class().Add(block.ClassOpen)
	for _, v := range p.views {
		v.relayout() // drawings that were hidden had no width to fit
	}
}

// folded returns the prediction a cell waits for, or "" if it is not in
// a closed fold.
func (c *Cell) folded() string {
	f := c.root.Closest(block.Of(block.ClassFold))
	if f == nil || f.Class().Contains(block.ClassOpen) {
		return ""
	}
	return f.GetAttribute(block.AttrPredicts)
}
