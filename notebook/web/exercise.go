//go:build js && wasm

package web

import (
	"fmt"
	"strings"

	"honnef.co/go/js/dom/v2"

	"gradbook/notebook"
	"gradbook/notebook/block"
	"gradbook/notebook/progress"
)

func (p *Page) wireExercise(el dom.Element) {
	editor := el.QuerySelector("textarea.editor").(*dom.HTMLTextAreaElement)
	out := el.QuerySelector("output.out")
	report := el.QuerySelector(".report")
	drawings := el.QuerySelector(".drawings")
	check := el.GetAttribute("data-check")
	id := el.GetAttribute("data-cell-id")
	var drawn handlers // the handlers of the drawings shown now
	save := func(passed bool) {
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
	p.listen(editor, "input", func(dom.Event) { spawn(func() { p.keep.later(id, func() { save(false) }) }) })
	run := func() {
		res := notebook.Run([]string{editor.Value()}, 0)[0]
		text := res.Output
		if res.Err != nil {
			text += res.Err.Error()
		}
		if text == "" {
			text = "(ran; nothing printed)"
		}
		out.SetTextContent(text)
		drawn.release()
		drawings.SetInnerHTML("")
		for k, d := range res.Drawings {
			newDrawingView(p, drawings, &drawn, d, fmt.Sprintf("%s-d%d", el.GetAttribute("data-cell-id"), k+1))
		}
	}
	checkIt := func() {
		checker := block.Checkers[check]
		if checker == nil {
			report.SetTextContent("This exercise has no checker called " + check + ".")
			return
		}
		r := checker(editor.Value())
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
	p.listen(button(el, "button.run"), "click", func(dom.Event) { spawn(func() { run() }) })
	p.listen(button(el, "button.check"), "click", func(dom.Event) { spawn(func() { checkIt() }) })
	p.listen(button(el, "button.reset"), "click", func(dom.Event) {
		spawn(func() {
			if editor.Value() == editor.DefaultValue() {
				return
			}
			p.confirmBox(el, editor, "Replace your code with the starter code?", "Reset the exercise", "Keep my code", func() {
				editor.SetValue(editor.DefaultValue())
				out.SetTextContent("")
				report.SetTextContent("")
				el.RemoveAttribute("data-state")
				p.forget(progress.KindExercise, p.keep.lesson, id)
			})
		})
	})
	p.listen(editor, "keydown", func(ev dom.Event) {
		k, ok := ev.(*dom.KeyboardEvent)
		if !ok || k.Key() != "Enter" || !(k.ShiftKey() || k.CtrlKey() || k.MetaKey()) {
			return
		}
		ev.PreventDefault()
		spawn(func() { run() })
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
