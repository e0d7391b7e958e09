//go:build js && wasm

package web

import (
	"strings"

	"honnef.co/go/js/dom/v2"

	"gradbook/internal/jsontext"
	"gradbook/notebook/block"
	"gradbook/notebook/progress"
)

func (p *Page) wireQuiz(el dom.Element) {
	check := button(el, "button.answer")
	feedback := el.QuerySelector(".feedback")
	kind := el.GetAttribute("data-quiz")
	tries := 0
	var numeric *block.Numeric
	var expErr error
	if kind == "numeric" {
		numeric, expErr = block.NumericOf(blockData(el))
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
			fb := withAttr(el.QuerySelectorAll(".choice-feedback"), "data-choice", given)
			if fb == nil {
				feedback.SetTextContent("Choose an answer first.")
				return
			}
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
				label := in.ID()
				if l := withAttr(el.QuerySelectorAll("label"), "for", in.ID()); l != nil {
					label = l.TextContent()
				}
				got, ok := block.ParseNumber(in.(*dom.HTMLInputElement).Value())
				if !ok {
					right = false
					lines = append(lines, label+": type a number.")
					continue
				}
				switch good, why := numeric.Judge(i, got); {
				case good:
					lines = append(lines, label+": right.")
				case why != "":
					right = false
					lines = append(lines, label+": not right yet. "+why)
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
			if in, ok := withAttr(el.QuerySelectorAll("input[type=radio]"), "value", r.Answer).(*dom.HTMLInputElement); ok {
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
