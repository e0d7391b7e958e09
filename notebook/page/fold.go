package page

import (
	"gradbook/notebook/block"
)

// Predictions keep their secret: what follows a prediction (a quiz the
// lesson marks predict) is folded until the learner answers it or skips
// it, and Run all stops before it. The build renders each fold (package
// lesson); the page opens it.

// wireFolds opens the folds of predictions made before and lets the
// learner skip the others.
func (p *Page) wireFolds() {
	for _, f := range p.doc.QueryAll(block.Of(block.ClassFold)) {
		quiz := f.Attr(block.AttrPredicts)
		if r := p.keep.get(kindQuiz, quiz); r.Answer != "" || r.Skipped {
			f.AddClass(block.ClassOpen)
			continue
		}
		if skip := f.Query(block.Sel("button", block.ClassSkip)); skip != nil {
			p.listen(skip, "click", func(Event) {
				p.Do(func() {
					p.openFold(quiz)
					r := p.keep.get(kindQuiz, quiz)
					r.Skipped = true
					p.put(r)
				})
			})
			skip.SetDisabled(false)
		}
	}
}

// openFold opens the fold of prediction quiz, if any.
func (p *Page) openFold(quiz string) {
	f := withAttr(p.doc.QueryAll(block.Of(block.ClassFold)), block.AttrPredicts, quiz)
	if f == nil || f.HasClass(block.ClassOpen) {
		return
	}
	f.AddClass(block.ClassOpen)
	for _, v := range p.views {
		v.relayout() // drawings that were hidden had no width to fit
	}
}

// folded returns the prediction a cell waits for, or "" if it is not in
// a closed fold.
func (c *Cell) folded() string {
	f := c.root.Closest(block.Of(block.ClassFold))
	if f == nil || f.HasClass(block.ClassOpen) {
		return ""
	}
	return f.Attr(block.AttrPredicts)
}
