//go:build js && wasm

package web

import (
	"errors"
	"fmt"
	"strings"

	"honnef.co/go/js/dom/v2"

	"gradbook/internal/jsontext"
	"gradbook/notebook"
	"gradbook/notebook/progress"
)

// wireKinds brings the page's quizzes, explore blocks and exercises to life.
func (p *Page) wireKinds() {
	for _, el := range p.doc.QuerySelectorAll(`section[data-kind="quiz"]`) {
		p.wireQuiz(el)
	}
	for _, el := range p.doc.QuerySelectorAll(`section[data-kind="explore"]`) {
		p.wireExplore(el)
	}
	for _, el := range p.doc.QuerySelectorAll(`section[data-kind="exercise"]`) {
		p.wireExercise(el)
	}
}

func button(el dom.Element, sel string) *dom.HTMLButtonElement {
	b, _ := el.QuerySelector(sel).(*dom.HTMLButtonElement)
	return b
}

// --- quizzes

func (p *Page) wireQuiz(el dom.Element) {
	check := button(el, "button.answer")
	feedback := el.QuerySelector(".feedback")
	kind := el.GetAttribute("data-quiz")
	tries := 0
	var expected []float64
	var expErr error
	if kind == "numeric" {
		expected, expErr = quizExpected(blockData(el))
	}
	id := el.GetAttribute("data-cell-id")
	// answer checks the learner's answer, shows feedback, and, if save is
	// set, keeps it.
	answer := func(save bool) {
		tries++
		right := false
		var given string
		defer func() {
			if save && given != "" {
				p.put(progress.Record{Kind: progress.KindQuiz, Lesson: p.keep.lesson, ID: id, Answer: given, Passed: right})
			}
		}()
		switch kind {
		case "choice":
			picked := el.QuerySelector("input[type=radio]:checked")
			if picked == nil {
				feedback.SetTextContent("Choose an answer first.")
				return
			}
			given = picked.(*dom.HTMLInputElement).Value()
			fb := el.QuerySelector(fmt.Sprintf(`.choice-feedback[data-choice="%s"]`, given))
			right = fb.GetAttribute("data-correct") == "true"
			verdictText := "Not quite. "
			if right {
				verdictText = "Right. "
			}
			feedback.SetTextContent(verdictText + fb.TextContent())
			el.SetAttribute("data-state", map[bool]string{true: "right", false: "wrong"}[right])
		case "numeric":
			if expErr != nil {
				feedback.SetTextContent("This question cannot be checked: " + expErr.Error())
				return
			}
			var lines, typed []string
			right = true
			for i, in := range el.QuerySelectorAll("input.answer-input") {
				typed = append(typed, in.(*dom.HTMLInputElement).Value())
				label := el.QuerySelector(fmt.Sprintf(`label[for="%s"]`, in.ID())).TextContent()
				got, ok := notebook.ParseNumber(in.(*dom.HTMLInputElement).Value())
				switch {
				case !ok:
					right = false
					lines = append(lines, label+": type a number.")
				case i < len(expected) && notebook.Close(got, expected[i]):
					lines = append(lines, label+": right.")
				default:
					right = false
					lines = append(lines, label+": not right yet.")
				}
			}
			given = string(jsontext.Encode(typed))
			if right {
				lines = append([]string{"All right."}, lines...)
			} else {
				lines = append([]string{"Not quite."}, lines...)
			}
			feedback.SetTextContent(strings.Join(lines, " "))
			el.SetAttribute("data-state", map[bool]string{true: "right", false: "wrong"}[right])
			if ex := el.QuerySelector(".explain"); ex != nil && (right || tries >= 2) {
				ex.RemoveAttribute("hidden")
			}
		case "open":
			el.QuerySelector(".model").RemoveAttribute("hidden")
			feedback.SetTextContent("Compare your answer with the model answer below.")
			el.SetAttribute("data-state", "answered")
			given = el.QuerySelector("textarea").(*dom.HTMLTextAreaElement).Value()
			right = strings.TrimSpace(given) != ""
		}
	}
	p.listen(check, "click", func(dom.Event) { spawn(func() { answer(true) }) })
	// Put a saved answer back, with its feedback.
	if r := p.keep.get(progress.KindQuiz, id); r.Updated != 0 && r.Answer != "" {
		switch kind {
		case "choice":
			if in, ok := el.QuerySelector(fmt.Sprintf(`input[type=radio][value="%s"]`, r.Answer)).(*dom.HTMLInputElement); ok {
				in.SetChecked(true)
			}
		case "numeric":
			v, _ := jsontext.Decode([]byte(r.Answer))
			typed, _ := v.([]any)
			for i, in := range el.QuerySelectorAll("input.answer-input") {
				if i < len(typed) {
					if s, ok := typed[i].(string); ok {
						in.(*dom.HTMLInputElement).SetValue(s)
					}
				}
			}
		case "open":
			el.QuerySelector("textarea").(*dom.HTMLTextAreaElement).SetValue(r.Answer)
		}
		answer(false)
		tries = 0
	}
	if kind == "open" {
		text := el.QuerySelector("textarea").(*dom.HTMLTextAreaElement)
		p.listen(text, "input", func(dom.Event) {
			tried := strings.TrimSpace(text.Value()) != ""
			spawn(func() { check.SetDisabled(!tried) })
		})
		check.SetDisabled(strings.TrimSpace(text.Value()) == "")
		return
	}
	check.SetDisabled(false)
}

// blockData decodes the data the build put next to a block (see
// notebook.dataScript), or returns nil.
func blockData(el dom.Element) any {
	script := el.QuerySelector("script.block-data")
	if script == nil {
		return nil
	}
	v, _ := jsontext.DecodeOrdered([]byte(script.TextContent()))
	return v
}

// quizExpected reads a numeric quiz's expected numbers from its data.
func quizExpected(data any) ([]float64, error) {
	o, _ := data.(jsontext.Object)
	for _, m := range o {
		if list, ok := m.Value.([]any); ok && m.Name == "expected" {
			xs := make([]float64, len(list))
			for i, x := range list {
				xs[i], _ = x.(float64)
			}
			return xs, nil
		}
	}
	return nil, errors.New("the page carries no expected answers")
}

// --- explore blocks

type exploreView struct {
	p     *Page
	el    dom.Element
	e     *notebook.Explore
	vals  map[string]float64
	state dom.Element
	view  *drawingView
	box   dom.Element
	done  []bool
}

func (p *Page) wireExplore(el dom.Element) {
	e, err := notebook.ExploreOf(el.GetAttribute("data-cell-id"), blockData(el))
	state := el.QuerySelector(".explore-state")
	if err != nil {
		state.SetTextContent("This graph cannot be explored: " + err.Error())
		return
	}
	e.Caption = el.QuerySelector(".explore-caption").TextContent()
	v := &exploreView{p: p, el: el, e: e, vals: e.Start(), state: state, box: el.QuerySelector(".drawings"), done: make([]bool, len(e.Tasks))}
	for i, t := range el.QuerySelectorAll("li.task") {
		if r := p.keep.get(progress.KindTask, v.taskID(t)); r.Passed {
			v.done[i] = true
			tick(t)
		}
	}
	for _, l := range el.QuerySelectorAll(".leaf") {
		name := l.GetAttribute("data-leaf")
		r := l.QuerySelector("input[type=range]").(*dom.HTMLInputElement)
		n := l.QuerySelector("input[type=number]").(*dom.HTMLInputElement)
		p.listen(r, "input", func(dom.Event) {
			s := r.Value()
			spawn(func() {
				n.SetValue(s)
				v.set(name, s)
			})
		})
		p.listen(n, "input", func(dom.Event) {
			s := n.Value()
			spawn(func() {
				if _, ok := notebook.ParseNumber(s); ok {
					r.SetValue(s)
					v.set(name, s)
				}
			})
		})
	}
	v.update()
}

func (v *exploreView) set(name, s string) {
	x, ok := notebook.ParseNumber(s)
	if !ok {
		return
	}
	v.vals[name] = x
	v.update()
}

// update recomputes values, gradients, the drawing and the tasks.
func (v *exploreView) update() {
	vals, grads, met, err := v.e.State(v.vals)
	if err != nil {
		v.state.SetTextContent(err.Error())
		v.el.SetAttribute("data-state", "error")
		return
	}
	v.el.RemoveAttribute("data-state")
	v.state.SetInnerHTML(v.e.StateHTML(vals, grads))
	d := v.e.Drawing(vals)
	if v.view == nil {
		v.view = newDrawingView(v.p, v.box, &v.p.on, d, v.el.GetAttribute("data-cell-id")+"-d")
	} else {
		v.view.setDrawing(d)
	}
	for i, t := range v.el.QuerySelectorAll("li.task") {
		if met[i] && !v.done[i] {
			v.done[i] = true
			tick(t)
			v.p.say("Task done: " + strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(t.TextContent(), "✓"), "(done)")))
			spawn(func() {
				v.p.put(progress.Record{Kind: progress.KindTask, Lesson: v.p.keep.lesson, ID: v.taskID(t), Passed: true})
			})
		}
	}
}

// taskID names a task for its progress record: explore id and task id.
func (v *exploreView) taskID(t dom.Element) string {
	return v.el.GetAttribute("data-cell-id") + ":" + t.GetAttribute("data-task")
}

// tick shows a task as done.
func tick(t dom.Element) {
	t.Class().Add("done")
	t.QuerySelector(".tick").SetTextContent("✓")
	t.QuerySelector(".task-state").SetTextContent("(done)")
}

// --- exercises

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
		checker := notebook.Checkers[check]
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
