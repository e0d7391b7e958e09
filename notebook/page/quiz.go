package page

import (
	"fmt"
	"strings"

	"gradbook/internal/jsontext"
	"gradbook/notebook/block"
	"gradbook/notebook/progress"
)

func rightOrWrong(right bool) string {
	if right {
		return stateRight
	}
	return stateWrong
}

// quiz is a quiz on the page: its kind, its inputs, and the wrong answers
// given on this page (after two the hint shows, after three the answer).
type quiz struct {
	p        *Page
	el       Node
	id, kind string
	check    Node
	feedback Node
	inputs   []Node // a numeric quiz's answers
	radios   []Node // a choice quiz's choices
	text     Node   // an open question's answer
	choices  *block.Choices
	numeric  *block.Numeric
	bad      error // the quiz's data could not be read
	wrong    int
}

func (p *Page) wireQuiz(el Node) {
	q := &quiz{p: p, el: el, id: el.Attr(block.AttrCellID), kind: el.Attr(block.AttrQuiz)}
	p.quizzes = append(p.quizzes, q)
	q.check = el.Query(block.Sel("button", block.ClassAnswer))
	q.feedback = el.Query(block.Of(block.ClassFeedback))
	switch q.kind {
	case block.QuizChoice:
		q.choices, q.bad = block.ChoicesOf(blockData(el))
		q.radios = el.QueryAll(block.SelRadio)
	case block.QuizNumeric:
		q.numeric, q.bad = block.NumericOf(blockData(el))
		q.inputs = el.QueryAll(block.Sel("input", block.ClassAnswerInput))
	case block.QuizOpen:
		q.text = el.Query(block.Sel("textarea", block.ClassOpenAnswer))
	}
	p.listen(q.check, "click", func(Event) { p.Do(func() { q.answer(true) }) })
	// Enter in an answer's field, or on a choice, checks it.
	for _, in := range append(q.inputs, q.radios...) {
		p.listen(in, "keydown", func(ev Event) {
			if ev.Key() == "Enter" {
				ev.PreventDefault()
				p.Do(func() { q.answer(true) })
			}
		})
	}
	q.restore()
	if q.kind == block.QuizOpen {
		p.listen(q.text, "input", func(Event) {
			p.Do(func() { q.check.SetDisabled(strings.TrimSpace(q.text.Value()) == "") })
		})
		q.check.SetDisabled(strings.TrimSpace(q.text.Value()) == "")
		return
	}
	q.check.SetDisabled(false)
}

// restore puts a saved answer back, with its feedback.
func (q *quiz) restore() {
	r := q.p.keep.get(kindQuiz, q.id)
	if r.Updated == 0 || r.Answer == "" {
		return
	}
	switch q.kind {
	case block.QuizChoice:
		if in := withAttr(q.radios, "value", r.Answer); in != nil {
			in.SetChecked(true)
		}
	case block.QuizNumeric:
		v, _ := jsontext.Decode([]byte(r.Answer))
		typed, _ := v.([]any)
		for i, in := range q.inputs {
			if i < len(typed) {
				if s, ok := typed[i].(string); ok {
					in.SetValue(s)
				}
			}
		}
	case block.QuizOpen:
		q.text.SetValue(r.Answer)
	}
	q.answer(false)
}

// answer checks the learner's answer and shows feedback; if save is set
// (the learner checked it, not the page putting a saved answer back), it
// counts a wrong one and keeps the answer.
func (q *quiz) answer(save bool) {
	given, right, ok := q.judge()
	if !ok {
		return
	}
	if !right && save {
		q.wrong++
	}
	hint, worked := block.Reveal(q.wrong, right)
	if h := q.el.Query(block.Of(block.ClassQuizHint)); h != nil && hint {
		h.RemoveAttr("hidden")
	}
	if ex := q.el.Query(block.Of(block.ClassExplain)); ex != nil && worked && q.kind != block.QuizOpen {
		ex.RemoveAttr("hidden")
	}
	q.p.openFold(q.id) // what a prediction folds opens once it is made
	if save {
		q.p.put(progress.Record{Kind: kindQuiz, Lesson: q.p.keep.lesson, ID: q.id, Answer: given, Passed: right})
	}
}

// words is the learner's answer as it stands, in words, for a notebook:
// the choice's text, each number typed (with its label where there are
// several), the open answer; "" where there is none.
func (q *quiz) words() string {
	switch q.kind {
	case block.QuizChoice:
		for _, r := range q.radios {
			if r.Checked() {
				return strings.TrimSpace(r.Parent().Text()) // the choice's label
			}
		}
	case block.QuizNumeric:
		var typed []string
		for i, in := range q.inputs {
			v := strings.TrimSpace(in.Value())
			switch {
			case v == "":
			case len(q.inputs) == 1 || q.numeric == nil:
				typed = append(typed, v)
			default:
				typed = append(typed, q.label(i)+": "+v)
			}
		}
		return strings.Join(typed, "; ")
	case block.QuizOpen:
		return q.text.Value()
	}
	return ""
}

// label names a numeric quiz's answer i (from 0) as its feedback does.
func (q *quiz) label(i int) string {
	if i < len(q.numeric.Labels) && q.numeric.Labels[i] != "" {
		return q.numeric.Labels[i]
	}
	return fmt.Sprintf("answer %d", i+1)
}

// judge reads and judges the answer, showing what the quiz says to it;
// ok is false when there is no answer to judge.
func (q *quiz) judge() (given string, right, ok bool) {
	if q.bad != nil {
		q.feedback.SetText("This question cannot be checked: " + q.bad.Error())
		return "", false, false
	}
	switch q.kind {
	case block.QuizChoice:
		for _, r := range q.radios {
			if r.Checked() {
				given = r.Value()
			}
		}
		right, fb, ok := q.choices.Judge(given)
		if !ok {
			q.feedback.SetText("Choose an answer first.")
			return "", false, false
		}
		q.feedback.SetHTML(fb) // the build's markup: the choice's feedback, escaped
		q.el.SetAttr(block.AttrState, rightOrWrong(right))
		return given, right, true
	case block.QuizNumeric:
		typed := make([]string, len(q.inputs))
		var missing []string
		for i, in := range q.inputs {
			typed[i] = in.Value()
			if _, ok := block.ParseNumber(typed[i]); !ok {
				missing = append(missing, block.TypeANumber(q.label(i)))
			}
		}
		if len(missing) > 0 {
			// Not an answer yet, as no choice is none: it counts as no
			// wrong answer, is not kept, and opens no prediction.
			q.feedback.SetText(strings.Join(missing, " "))
			return "", false, false
		}
		right, text := q.numeric.Feedback(typed)
		q.feedback.SetHTML(text) // escaped by Feedback
		q.el.SetAttr(block.AttrState, rightOrWrong(right))
		return string(jsontext.Encode(typed)), right, true
	case block.QuizOpen:
		q.el.Query(block.Of(block.ClassModel)).RemoveAttr("hidden")
		q.feedback.SetText("Compare your answer with the model answer below.")
		q.el.SetAttr(block.AttrState, stateAnswered)
		given = q.text.Value()
		return given, strings.TrimSpace(given) != "", given != ""
	}
	return "", false, false
}
