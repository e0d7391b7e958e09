//go:build js && wasm

package web

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"honnef.co/go/js/dom/v2"

	"gradbook/notebook"
	"gradbook/notebook/block"
	"gradbook/notebook/progress"
	"gradbook/notebook/runner"
)

func (p *Page) wireExercise(el dom.Element) {
	area := el.QuerySelector("textarea.editor").(*dom.HTMLTextAreaElement)
	out := el.QuerySelector("output.out")
	report := el.QuerySelector(".report")
	drawings := el.QuerySelector(".drawings")
	check := el.GetAttribute("data-check")
	var tests []block.Test
	for _, t := range el.QuerySelectorAll("template.test") {
		if tpl, ok := t.(*dom.HTMLTemplateElement); ok {
			tests = append(tests, block.Test{Name: t.GetAttribute("data-name"), Code: tpl.Content().TextContent()})
		}
	}
	id := el.GetAttribute("data-cell-id")
	var drawn handlers // the handlers of the drawings shown now
	var run func()
	var save func(passed bool)
	editor := p.newEditor(&p.on, area, el.QuerySelector(".cell-label").TextContent(), func() { p.keep.later(id, func() { save(false) }) }, func() { run() })
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
			el.SetAttribute("data-state", "passed")
			report.SetTextContent("You passed this exercise before. Press Check to run the tests again.")
		}
		if r.Authored != "" && r.Authored != progress.Hash(editor.DefaultValue()) && r.Source != editor.DefaultValue() {
			p.offerNewVersion(el, editor, progress.KindExercise, p.keep.lesson, id)
		}
	}
	runButton, checkButton := button(el, "button.run"), button(el, "button.check")
	// job runs a job for the exercise, with its buttons off meanwhile.
	job := func(j runner.Job, lines func(int, string)) (runner.Result, error) {
		runButton.SetDisabled(true)
		checkButton.SetDisabled(true)
		el.SetAttribute("aria-busy", "true")
		defer func() {
			runButton.SetDisabled(false)
			checkButton.SetDisabled(false)
			el.RemoveAttribute("aria-busy")
		}()
		start := time.Now()
		r, err := p.runner.Do(j, lines)
		if err != nil {
			err = errors.New(endedWithout(err, time.Since(start).Seconds()*1000))
		}
		return r, err
	}
	run = func() {
		var streamed strings.Builder
		out.SetTextContent("Running…")
		r, err := job(runner.Job{Cells: []string{editor.Value()}}, func(_ int, text string) {
			streamed.WriteString(text + "\n")
			out.SetTextContent(streamed.String())
		})
		var res notebook.CellResult
		if err == nil && len(r.Cells) == 1 {
			res = r.Cells[0]
		} else {
			res.Output = streamed.String()
			res.Err = &notebook.CellError{Msg: endedWithout(err, 0)}
		}
		text, line := res.Output, 0
		if res.Err != nil {
			text += res.Err.Error()
			if res.Err.Where == "" {
				line = res.Err.Line
			}
		}
		editor.Mark(line)
		if text == "" {
			text = "(ran; nothing printed)"
		}
		out.SetTextContent(text)
		drawn.release()
		drawings.SetInnerHTML("")
		for _, pl := range res.Plots {
			p.showPlot(drawings, pl)
		}
		for k, d := range res.Drawings {
			newDrawingView(p, drawings, &drawn, d, fmt.Sprintf("%s-d%d", el.GetAttribute("data-cell-id"), k+1))
		}
	}
	checkIt := func() {
		report.SetTextContent("Checking…")
		res, err := job(runner.Job{Check: check, Tests: tests, Source: editor.Value()}, nil)
		if err != nil || res.Report == nil {
			report.SetTextContent("The check did not finish: " + endedWithout(err, 0) + ".")
			return
		}
		r := *res.Report
		save(r.Passed)
		text := strings.Join(r.Lines, "\n")
		if r.Passed {
			text = "All tests pass. Well done!\n" + text
			el.SetAttribute("data-state", "passed")
		} else {
			text += "\n" + r.Why
			el.SetAttribute("data-state", "failed")
		}
		report.SetTextContent(strings.TrimSpace(text))
	}
	p.listen(runButton, "click", func(dom.Event) { spawn(func() { run() }) })
	p.listen(checkButton, "click", func(dom.Event) { spawn(func() { checkIt() }) })
	p.listen(button(el, "button.reset"), "click", func(dom.Event) {
		spawn(func() {
			if editor.Value() == editor.DefaultValue() {
				return
			}
			p.confirmBox(el, editor.elem(), "Replace your code with the starter code?", "Reset the exercise", "Keep my code", func() {
				editor.SetValue(editor.DefaultValue())
				out.SetTextContent("")
				report.SetTextContent("")
				el.RemoveAttribute("data-state")
				p.forget(progress.KindExercise, p.keep.lesson, id)
			})
		})
	})
	if hint := button(el, "button.hint"); hint != nil {
		p.listen(hint, "click", func(dom.Event) {
			spawn(func() {
				hidden := el.QuerySelectorAll(".hint-list li[hidden]")
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
	for _, b := range []string{"button.run", "button.check", "button.reset"} {
		button(el, b).SetDisabled(false)
	}
}
