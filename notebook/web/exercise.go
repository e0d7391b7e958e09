//go:build js && wasm

package web

import (
	"strings"
	"time"

	"gradbook/notebook/block"
	"gradbook/notebook/kernel"
	"gradbook/notebook/page"
	"gradbook/notebook/progress"
	"gradbook/notebook/runner"
)

func (p *Page) wireExercise(el *element) {
	area := el.QuerySelector(block.Sel("textarea", block.ClassEditor))
	out := el.QuerySelector(block.Sel("output", block.ClassOut))
	report := el.QuerySelector(block.Of(block.ClassReport))
	drawings := el.QuerySelector(block.Sel("div", block.ClassDrawings))
	check := el.GetAttribute(block.AttrCheck)
	var tests []block.Test
	for _, t := range el.QuerySelectorAll(block.Sel("template", block.ClassTest)) {
		if content := t.Content(); content != nil {
			tests = append(tests, block.Test{Name: t.GetAttribute(block.AttrName), Code: content.TextContent()})
		}
	}
	id := el.GetAttribute(block.AttrCellID)
	var drawn handlers    // the handlers of the drawings shown now
	compareShown := false // the drawings box shows the check's drawing
	var run func()
	var save func(passed bool)
	editor := p.newEditor(&p.on, area, el.QuerySelector(block.Of(block.ClassCellLabel)).TextContent(), func() { p.keep.later(id, func() { save(false) }) }, func() { run() })
	save = func(passed bool) {
		r := p.keep.get(progress.KindExercise, id)
		r.Source = editor.Value()
		r.Authored = progress.Hash(editor.DefaultValue())
		r.Passed = r.Passed || passed
		p.put(r)
	}
	if r := p.keep.get(progress.KindExercise, id); r.Updated != 0 {
		if r.Source != "" {
			editor.SetValue(r.Source)
		}
		if r.Passed {
			el.SetAttribute(block.AttrState, page.Passed)
			report.SetTextContent("You passed this exercise before. Press Check to run the tests again.")
		}
		if r.Authored != "" && r.Authored != progress.Hash(editor.DefaultValue()) && r.Source != editor.DefaultValue() {
			p.offerNewVersion(el, editor, progress.KindExercise, p.keep.lesson, id)
		}
	}
	runButton, checkButton := button(el, block.Sel("button", block.ClassRun)), button(el, block.Sel("button", block.ClassCheck))
	// job runs a job for the exercise, with its buttons off meanwhile, and
	// says how long it ran.
	job := func(j runner.Job, ev kernel.Hooks) (runner.Result, float64, error) {
		runButton.SetDisabled(true)
		checkButton.SetDisabled(true)
		el.SetAttribute("aria-busy", "true")
		defer func() {
			runButton.SetDisabled(false)
			checkButton.SetDisabled(false)
			el.RemoveAttribute("aria-busy")
		}()
		start := time.Now()
		r, err := p.runner.Do(j, ev)
		return r, time.Since(start).Seconds() * 1000, err
	}
	run = func() {
		var streamed strings.Builder
		out.SetTextContent("Running…")
		res, ms, err := job(runner.Job{Cells: []string{editor.Value()}}, kernel.Hooks{Line: func(_ int, text string) {
			if streamed.Len() == 0 {
				out.SetTextContent("")
			}
			streamed.WriteString(text + "\n")
			out.AppendChild(p.doc.CreateTextNode(text + "\n"))
		}})
		r := page.Outcome(res, 0, 0, err, streamed.String(), ms)
		p.showResult(r, page.Show(r, 0), id, out, drawings, &drawn, editor)
		compareShown = false
	}
	checkIt := func() {
		report.SetTextContent("Checking…")
		res, ms, err := job(runner.Job{Check: check, Tests: tests, Source: editor.Value()}, kernel.Hooks{})
		if err != nil || res.Report == nil {
			report.SetTextContent("The check did not finish: " + page.Why(err, ms) + ".")
			return
		}
		r := *res.Report
		save(r.Passed)
		if r.Passed {
			el.SetAttribute(block.AttrState, page.Passed)
		} else {
			el.SetAttribute(block.AttrState, page.Failed)
		}
		report.SetTextContent(r.Text())
		// A failed backward comes with the hidden graph, the learner's
		// gradients beside the engine's; it replaces what the box showed,
		// and a pass clears it.
		if r.Drawing != nil || compareShown {
			drawn.release()
			drawings.SetInnerHTML("")
			compareShown = false
		}
		if r.Drawing != nil {
			newDrawingView(p, drawings, &drawn, r.Drawing, id+"-check")
			compareShown = true
		}
	}
	p.listen(runButton, "click", func(*event) { spawn(func() { run() }) })
	p.listen(checkButton, "click", func(*event) { spawn(func() { checkIt() }) })
	p.listen(button(el, block.Sel("button", block.ClassReset)), "click", func(*event) {
		spawn(func() {
			if editor.Value() == editor.DefaultValue() {
				return
			}
			p.confirmBox(el, editor.elem(), "Replace your code with the starter code?", "Reset the exercise", "Keep my code", func() {
				editor.SetValue(editor.DefaultValue())
				out.SetTextContent("")
				report.SetTextContent("")
				el.RemoveAttribute(block.AttrState)
				p.forget(progress.KindExercise, p.keep.lesson, id)
			})
		})
	})
	if hint := button(el, block.Sel("button", block.ClassHint)); hint != nil {
		p.listen(hint, "click", func(*event) {
			spawn(func() {
				var hidden []*element
				for _, li := range el.QuerySelectorAll(block.Of(block.ClassHintList) + " li") {
					if li.HasAttribute("hidden") {
						hidden = append(hidden, li)
					}
				}
				if len(hidden) > 0 {
					hidden[0].RemoveAttribute("hidden")
				}
				if len(hidden) <= 1 {
					hint.SetDisabled(true)
					hint.SetTextContent("No more hints")
				}
			})
		})
		hint.SetDisabled(false)
	}
	for _, b := range []string{block.ClassRun, block.ClassCheck, block.ClassReset} {
		button(el, block.Sel("button", b)).SetDisabled(false)
	}
}
