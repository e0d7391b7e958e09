package page

import (
	"gradbook/notebook/block"
	"gradbook/notebook/kernel"
	"gradbook/notebook/progress"
	"gradbook/notebook/runner"
)

// exercise is an exercise on the page: the learner's code, Run, Check
// with its hidden tests, Reset, and hints one at a time.
type exercise struct {
	p                 *Page
	el                Node
	id, check         string
	tests             []block.Test
	editor            *codeEditor
	out, report       Node
	drawings          Node
	run, checkB, hint Node
	drawn             handlers // the listeners of the drawings shown now
	compareShown      bool     // the drawings box shows the check's drawing
}

func (p *Page) wireExercise(el Node) {
	x := &exercise{p: p, el: el, id: el.Attr(block.AttrCellID), check: el.Attr(block.AttrCheck)}
	p.exercises = append(p.exercises, x)
	x.out = el.Query(block.Sel("output", block.ClassOut))
	x.report = el.Query(block.Of(block.ClassReport))
	x.drawings = el.Query(block.Sel("div", block.ClassDrawings))
	for _, t := range el.QueryAll(block.Sel("template", block.ClassTest)) {
		x.tests = append(x.tests, block.Test{Name: t.Attr(block.AttrName), Code: t.TemplateText()})
	}
	area := el.Query(block.Sel("textarea", block.ClassEditor))
	label := el.Query(block.Of(block.ClassCellLabel)).Text()
	x.editor = p.newEditor(&p.on, area, label, func() { p.keep.later(x.id, func() { x.save(false) }) }, x.runIt)
	x.restore()
	x.run = el.Query(block.Sel("button", block.ClassRun))
	x.checkB = el.Query(block.Sel("button", block.ClassCheck))
	reset := el.Query(block.Sel("button", block.ClassReset))
	p.listen(x.run, "click", func(Event) { p.Do(x.runIt) })
	p.listen(x.checkB, "click", func(Event) { p.Do(x.checkIt) })
	p.listen(reset, "click", func(Event) { p.Do(x.askReset) })
	if x.hint = el.Query(block.Sel("button", block.ClassHint)); x.hint != nil {
		p.listen(x.hint, "click", func(Event) { p.Do(x.nextHint) })
		x.hint.SetDisabled(false)
	}
	for _, b := range []Node{x.run, x.checkB, reset} {
		b.SetDisabled(false)
	}
}

// save keeps the learner's code, and a pass: a pass stays passed.
func (x *exercise) save(passed bool) {
	r := x.p.keep.get(kindExercise, x.id)
	r.Source = x.editor.Value()
	r.Authored = progress.Hash(x.editor.DefaultValue())
	r.Passed = r.Passed || passed
	x.p.put(r)
}

// restore puts the learner's saved code back, says whether they passed
// before, and offers the lesson's new code if it changed under theirs.
func (x *exercise) restore() {
	r := x.p.keep.get(kindExercise, x.id)
	if r.Updated == 0 {
		return
	}
	if r.Source != "" && !x.editor.typed {
		x.editor.SetValue(r.Source)
	}
	if r.Passed {
		x.el.SetAttr(block.AttrState, Passed)
		x.report.SetText("You passed this exercise before. Press Check to run the tests again.")
	}
	if r.Outdated(x.editor.DefaultValue()) {
		x.p.offerNewVersion(x.el, x.editor, kindExercise, x.p.keep.lesson, x.id)
	}
}

// job runs a job for the exercise, with its buttons off meanwhile, and
// says how long it ran.
func (x *exercise) job(j runner.Job, hooks kernel.Hooks) (runner.Result, float64, error) {
	x.run.SetDisabled(true)
	x.checkB.SetDisabled(true)
	x.el.SetAttr("aria-busy", "true")
	defer func() {
		x.run.SetDisabled(false)
		x.checkB.SetDisabled(false)
		x.el.RemoveAttr("aria-busy")
	}()
	start := x.p.clock.Now()
	r, err := x.p.do(j, hooks)
	return r, x.p.clock.Now().Sub(start).Seconds() * 1000, err
}

// runIt runs the learner's code, as a cell.
func (x *exercise) runIt() {
	streamed := printed{out: x.out, doc: x.p.doc}
	x.out.SetText("Running…")
	res, ms, err := x.job(runner.Job{Cells: []string{x.editor.Value()}}, kernel.Hooks{Line: func(_ int, text string) {
		if streamed.text.Len() == 0 {
			streamed.reset()
		}
		streamed.add(text)
	}})
	r := Outcome(res, 0, 0, err, streamed.String(), ms)
	x.p.showResult(r, Show(r, 0), x.id, x.out, x.drawings, &x.drawn, x.editor)
	x.compareShown = false
}

// checkIt runs the hidden tests and says how they went. A failed
// backward comes with the hidden graph, the learner's gradients beside
// the engine's; it replaces what the box showed, and a pass clears it.
func (x *exercise) checkIt() {
	x.report.SetText("Checking…")
	res, ms, err := x.job(runner.Job{Check: x.check, Tests: x.tests, Source: x.editor.Value()}, kernel.Hooks{})
	if err != nil || res.Report == nil {
		x.report.SetText("The check did not finish: " + Why(err, ms) + ".")
		return
	}
	r := *res.Report
	if r.Passed {
		x.el.SetAttr(block.AttrState, Passed)
	} else {
		x.el.SetAttr(block.AttrState, Failed)
	}
	x.report.SetText(r.Text())
	if r.Drawing != nil || x.compareShown {
		x.drawn.release()
		x.drawings.SetText("")
		x.compareShown = false
	}
	if r.Drawing != nil {
		x.p.newDrawingView(x.drawings, &x.drawn, r.Drawing, x.id+"-check")
		x.compareShown = true
	}
	x.save(r.Passed)
}

// askReset puts the starter code back, asking first.
func (x *exercise) askReset() {
	if !x.editor.Edited() {
		return
	}
	x.p.ask(x.el, x.editor.elem(), "Replace your code with the starter code?", "Reset the exercise", "Keep my code", func() {
		x.editor.SetValue(x.editor.DefaultValue())
		x.out.SetText("")
		x.report.SetText("")
		x.el.RemoveAttr(block.AttrState)
		x.p.forget(kindExercise, x.p.keep.lesson, x.id)
	}, nil)
}

// nextHint shows the next hint, one at a time.
func (x *exercise) nextHint() {
	var hidden []Node
	for _, li := range x.el.QueryAll(block.SelHintItems) {
		if li.HasAttr("hidden") {
			hidden = append(hidden, li)
		}
	}
	if len(hidden) > 0 {
		hidden[0].RemoveAttr("hidden")
	}
	if len(hidden) <= 1 {
		x.hint.SetDisabled(true)
		x.hint.SetText("No more hints")
	}
}
