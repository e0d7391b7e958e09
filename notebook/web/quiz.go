//go:build js && wasm

package web

import (
	"strings"

	"gradbook/internal/jsontext"
	"gradbook/notebook/block"
	"gradbook/notebook/progress"
)

// The states a quiz shows once answered (its data-state).
const (
	stateRight    = "right"
	stateWrong    = "wrong"
	stateAnswered = "answered"
)

func rightOrWrong(right bool) string {
	if right {
		return stateRight
	}
	return stateWrong
}

func (p *Page) wireQuiz(el *element) {
	check := button(el, block.Sel("button", block.ClassAnswer))
	feedback := el.QuerySelector(block.Of(block.ClassFeedback))
	kind := el.GetAttribute(block.AttrQuiz)
	wrong := 0 // wrong answers given on this page
	var numeric *block.Numeric
	var expErr error
	if kind == "numeric" {
		numeric, expErr = block.NumericOf(blockData(el))
	}
	inputs := el.QuerySelectorAll(block.Sel("input", block.ClassAnswerInput))
	radios := el.QuerySelectorAll(block.SelRadio)
	id := el.GetAttribute(block.AttrCellID)
	// answer checks the learner's answer, shows feedback, and, if save is
	// set, keeps it.
	answer := func(save bool) {
		right := false
		var given string
		defer func() {
			if given == "" {
				return
			}
			if !right && save {
				wrong++
			}
			// After two wrong answers, the hint; after three, the answer.
			hint, worked := block.Reveal(wrong, right)
			if h := el.QuerySelector(block.Of(block.ClassQuizHint)); h != nil && hint {
				h.RemoveAttribute("hidden")
			}
			if ex := el.QuerySelector(block.Of(block.ClassExplain)); ex != nil && worked && kind != "open" {
				ex.RemoveAttribute("hidden")
			}
			p.answered(id)
			if save {
				p.put(progress.Record{Kind: progress.KindQuiz, Lesson: p.keep.lesson, ID: id, Answer: given, Passed: right})
			}
		}()
		switch kind {
		case "choice":
			for _, r := range radios {
				if in := r; in.Checked() {
					given = in.Value()
				}
			}
			fb := withAttr(el.QuerySelectorAll(block.Of(block.ClassChoiceFB)), block.AttrChoice, given)
			if fb == nil {
				given = ""
				feedback.SetTextContent("Choose an answer first.")
				return
			}
			right = fb.GetAttribute(block.AttrCorrect) == "true"
			// Both are the build's own markup: the choice's feedback, rendered
			// from the lesson with everything escaped.
			feedback.SetInnerHTML(block.ChoiceFeedback(right, fb.Get("innerHTML").String()))
			el.SetAttribute(block.AttrState, rightOrWrong(right))
		case "numeric":
			if expErr != nil {
				feedback.SetTextContent("This question cannot be checked: " + expErr.Error())
				return
			}
			var typed []string
			for _, in := range inputs {
				typed = append(typed, in.Value())
			}
			var text string
			right, text = numeric.Feedback(typed)
			given = string(jsontext.Encode(typed))
			feedback.SetInnerHTML(text) // escaped by Feedback
			el.SetAttribute(block.AttrState, rightOrWrong(right))
		case "open":
			el.QuerySelector(block.Of(block.ClassModel)).RemoveAttribute("hidden")
			feedback.SetTextContent("Compare your answer with the model answer below.")
			el.SetAttribute(block.AttrState, stateAnswered)
			given = el.QuerySelector(block.Sel("textarea", block.ClassOpenAnswer)).Value()
			right = strings.TrimSpace(given) != ""
		}
	}
	p.listen(check, "click", func(*event) { spawn(func() { answer(true) }) })
	// Enter in an answer's field, or on a choice, checks it.
	for _, in := range append(inputs, radios...) {
		p.listen(in, "keydown", func(ev *event) {
			if ev.Key() == "Enter" {
				ev.PreventDefault()
				spawn(func() { answer(true) })
			}
		})
	}
	// Put a saved answer back, with its feedback.
	if r := p.keep.get(progress.KindQuiz, id); r.Updated != 0 && r.Answer != "" {
		switch kind {
		case "choice":
			if in := withAttr(radios, "value", r.Answer); in != nil {
				in.SetChecked(true)
			}
		case "numeric":
			v, _ := jsontext.Decode([]byte(r.Answer))
			typed, _ := v.([]any)
			for i, in := range inputs {
				if i < len(typed) {
					if s, ok := typed[i].(string); ok {
						in.SetValue(s)
					}
				}
			}
		case "open":
			el.QuerySelector(block.Sel("textarea", block.ClassOpenAnswer)).SetValue(r.Answer)
		}
		answer(false)
	}
	if kind == "open" {
		text := el.QuerySelector(block.Sel("textarea", block.ClassOpenAnswer))
		p.listen(text, "input", func(*event) {
			tried := strings.TrimSpace(text.Value()) != ""
			spawn(func() { check.SetDisabled(!tried) })
		})
		check.SetDisabled(strings.TrimSpace(text.Value()) == "")
		return
	}
	check.SetDisabled(false)
}
