package page_test

import (
	"fmt"
	"strings"
	"testing"

	"gradbook/notebook/page"
	"gradbook/notebook/page/fakedom"
	"gradbook/notebook/progress"
)

// feedback is what a quiz says to the last answer checked.
func (b *bench) feedback(quiz string) string {
	b.t.Helper()
	return b.text("#quiz-" + quiz + " .feedback")
}

// openQuiz opens the page file and returns its quiz with id.
func openQuiz(t testing.TB, file, id string, opts ...func(*bench)) (*bench, page.Node) {
	t.Helper()
	b := open(t, file, opts...)
	return b, b.find("#quiz-" + id)
}

// quizSays checks what the quiz with id says to the last answer checked,
// and its state; when names the moment in a failure.
func (b *bench) quizSays(id, says, state, when string) {
	b.t.Helper()
	if got, st := b.feedback(id), b.find("#quiz-"+id).Attr("data-state"); got != says || st != state {
		b.t.Errorf("%s: the quiz says %q, state %q; want %q, %q", when, got, st, says, state)
	}
}

// A wrong choice says why it is wrong; after two wrong answers the hint
// shows, after three the answer; the right one says so, and it is what
// the page shows again after a reload.
func TestChoiceQuiz(t *testing.T) {
	b, q := openQuiz(t, blocks, "choice")
	b.clickIn(q, "button.answer")
	if got := b.feedback("choice"); got != "Choose an answer first." {
		t.Errorf("with no choice the quiz says %q", got)
	}
	if q.HasAttr("data-state") {
		t.Errorf("a quiz not answered is %q", q.Attr("data-state"))
	}
	for i, want := range []struct{ hint, answer bool }{{false, false}, {true, false}, {true, true}} {
		b.clickIn(q, `input[value="0"]`)
		b.clickIn(q, "button.answer")
		if got := b.feedback("choice"); got != "Not quite. No: there are two edges." {
			t.Errorf("wrong answer %d: the quiz says %q", i+1, got)
		}
		if got := q.Attr("data-state"); got != "wrong" {
			t.Errorf("wrong answer %d: state %q", i+1, got)
		}
		if got := b.shown(q, ".quiz-hint"); got != want.hint {
			t.Errorf("after %d wrong answers the hint shows: %v", i+1, got)
		}
		if got := b.shown(q, ".explain"); got != want.answer {
			t.Errorf("after %d wrong answers the answer shows: %v", i+1, got)
		}
	}
	if got := b.text("#quiz-choice .quiz-hint"); got != "A hintCount the edges." {
		t.Errorf("the hint says %q", got)
	}
	b.clickIn(q, `input[value="1"]`)
	b.clickIn(q, "button.answer")
	b.quizSays("choice", "Right. Yes: one for each use.", "right", "the right answer")
	if r := b.record(progress.KindQuiz, "test-blocks", "choice"); r == nil || r.Answer != "1" || !r.Passed {
		t.Errorf("the right answer was saved as %+v", r)
	}

	b.reload()
	q = b.find("#quiz-choice")
	if !b.within(q, `input[value="1"]`).Checked() || b.within(q, `input[value="0"]`).Checked() {
		t.Error("after a reload the right choice is not the one checked")
	}
	b.quizSays("choice", "Right. Yes: one for each use.", "right", "after a reload")
	if b.shown(q, ".quiz-hint") || !b.shown(q, ".explain") {
		t.Error("after a reload of the right answer the hint shows, or the answer does not")
	}
}

// A wrong answer saved is put back as wrong, with its feedback, and no
// hint: the wrong answers counted are this visit's.
func TestChoiceQuizWrongAfterReload(t *testing.T) {
	b, q := openQuiz(t, blocks, "choice")
	b.clickIn(q, `input[value="0"]`)
	b.clickIn(q, "button.answer")
	b.clickIn(q, "button.answer")
	b.reload()
	q = b.find("#quiz-choice")
	b.quizSays("choice", "Not quite. No: there are two edges.", "wrong", "after a reload")
	if b.shown(q, ".quiz-hint") || b.shown(q, ".explain") {
		t.Error("after a reload a wrong answer shows the hint or the answer")
	}
	b.clickIn(q, "button.answer")
	if b.shown(q, ".quiz-hint") {
		t.Error("one wrong answer in this visit shows the hint")
	}
}

// Enter on a choice or in a number's field checks the answer; other keys
// are the field's own.
func TestEnterChecksAnAnswer(t *testing.T) {
	b, q := openQuiz(t, blocks, "choice")
	b.clickIn(q, `input[value="1"]`)
	if b.press(q, `input[value="1"]`, "ArrowDown") || q.HasAttr("data-state") {
		t.Error("ArrowDown on a choice checked it")
	}
	if !b.press(q, `input[value="1"]`, "Enter") {
		t.Error("Enter on a choice was not taken")
	}
	if got := b.feedback("choice"); got != "Right. Yes: one for each use." {
		t.Errorf("after Enter the quiz says %q", got)
	}
	n := b.find("#quiz-numeric")
	b.typeInto(n, "input.answer-input", "3")
	if b.press(n, "input.answer-input", "a") || n.HasAttr("data-state") {
		t.Error("a letter typed in the field checked the answer")
	}
	if !b.press(n, "input.answer-input", "Enter") {
		t.Error("Enter in the field was not taken")
	}
	if got := b.feedback("numeric"); got != "All right." {
		t.Errorf("after Enter the quiz says %q", got)
	}
}

// A numeric quiz names a typical wrong number's mistake, says when a
// number is simply not right, shows the hint after two wrong numbers and
// the worked solution after three, and puts the right number back after
// a reload.
func TestNumericQuiz(t *testing.T) {
	b, q := openQuiz(t, blocks, "numeric")
	for i, c := range []struct {
		typed, says  string
		hint, worked bool
	}{
		{"6", "Not quite. That is L.", false, false},
		{"5", "Not quite.", true, false},
		{"−6", "Not quite.", true, true},
	} {
		b.typeInto(q, "input.answer-input", c.typed)
		b.clickIn(q, "button.answer")
		b.quizSays("numeric", c.says, "wrong", fmt.Sprintf("answer %d, %s", i+1, c.typed))
		if b.shown(q, ".quiz-hint") != c.hint || b.shown(q, ".explain") != c.worked {
			t.Errorf("after %d wrong numbers: hint %v, worked solution %v", i+1, b.shown(q, ".quiz-hint"), b.shown(q, ".explain"))
		}
	}
	if got := b.text("#quiz-numeric .explain"); got != "Worked solutionIt is 3." {
		t.Errorf("the worked solution says %q", got)
	}
	b.typeInto(q, "input.answer-input", " 3 ")
	b.clickIn(q, "button.answer")
	b.quizSays("numeric", "All right.", "right", "the right number")
	b.reload()
	q = b.find("#quiz-numeric")
	if got := b.within(q, "input.answer-input").Value(); got != " 3 " {
		t.Errorf("after a reload the field holds %q", got)
	}
	b.quizSays("numeric", "All right.", "right", "after a reload")
}

// Checking a numeric quiz without a number in its field asks for one, as
// a choice quiz asks for a choice: it is no wrong answer (three of them
// would show the worked solution), it is not kept, and it opens no
// prediction's fold.
func TestNumericQuizWithoutANumber(t *testing.T) {
	b, q := openQuiz(t, blocks, "numeric")
	for _, typed := range []string{"", "three", "", "1/0"} {
		b.typeInto(q, "input.answer-input", typed)
		b.clickIn(q, "button.answer")
		if got := b.feedback("numeric"); got != "Type a number for dL/dw." {
			t.Errorf("with %q the quiz says %q", typed, got)
		}
	}
	if q.HasAttr("data-state") || b.shown(q, ".quiz-hint") || b.shown(q, ".explain") {
		t.Errorf("fields without a number count as wrong answers: state %q, hint %v, worked solution %v",
			q.Attr("data-state"), b.shown(q, ".quiz-hint"), b.shown(q, ".explain"))
	}
	if r := b.record(progress.KindQuiz, "test-blocks", "numeric"); r != nil {
		t.Errorf("a check without a number was kept: %+v", r)
	}
	b.typeInto(q, "input.answer-input", "6")
	b.clickIn(q, "button.answer")
	if b.shown(q, ".quiz-hint") {
		t.Error("the first wrong number shows the hint")
	}
}

// A right answer is right however many of its digits the learner types,
// within the tolerance the quiz states, even where a typical wrong number
// lies near it: the first loss of A GPT from Values is ln 27 = 3.2958…,
// which the lesson prints as 3.2958.
func TestNumericQuizRightToAnyDigits(t *testing.T) {
	b, q := openQuiz(t, "lessons/gpt-from-values.html", "first-loss")
	answer := func(typed string) {
		b.typeInto(q, "input.answer-input", typed)
		b.clickIn(q, "button.answer")
	}
	for _, typed := range []string{"3.2958", "3.29584", "3.3", "3,30"} {
		answer(typed)
		b.quizSays("first-loss", "All right.", "right", typed)
	}
	for _, c := range []struct{ typed, says string }{
		{"27", "Not quite. 27 is the number of tokens. The loss is −ln of a probability: for 27 equally likely tokens, −ln(1/27)."},
		{"2.45", "Not quite. That is the bigram model's loss, after counting every pair of letters. The untrained GPT has learnt nothing yet."},
		{"3.4", "Not quite."},
	} {
		answer(c.typed)
		b.quizSays("first-loss", c.says, "wrong", c.typed)
	}
}

// A numeric prediction checked without a number stays folded, and Run
// all still stops above it.
func TestNumericPredictionWithoutANumber(t *testing.T) {
	b, q := openQuiz(t, "lessons/chain-rule.html", "predict-two-branches")
	fold := b.find(`.after-prediction[data-prediction="predict-two-branches"]`)
	b.clickIn(q, "button.answer")
	if fold.HasClass("open") {
		t.Error("a prediction checked with nothing typed opened what it folds")
	}
	b.reload()
	if b.find(`.after-prediction[data-prediction="predict-two-branches"]`).HasClass("open") {
		t.Error("after a reload, a prediction checked with nothing typed is open")
	}
}

// An answer kept by an earlier version of a quiz is put back as far as
// it fits: a choice the quiz no longer has is none, a number missing is
// an empty field, and anything but text leaves its field empty.
func TestQuizAnswersOfAnEarlierVersion(t *testing.T) {
	for _, c := range []struct {
		name, quiz, answer string
		says               string
	}{
		{"a choice it no longer has", "choice", "7", "Choose an answer first."},
		{"fewer numbers", "numeric", `[]`, "Type a number for dL/dw."},
		{"a number stored as a number", "numeric", `[3]`, "Type a number for dL/dw."},
		{"more numbers", "numeric", `["3", "4"]`, "All right."},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := open(t, blocks, keptBefore(progress.Record{Kind: progress.KindQuiz, Lesson: "test-blocks", ID: c.quiz, Answer: c.answer}))
			if got := b.feedback(c.quiz); got != c.says {
				t.Errorf("the quiz says %q", got)
			}
			for _, r := range b.find("#quiz-" + c.quiz).QueryAll(`input[type="radio"]`) {
				if r.Checked() {
					t.Errorf("choice %s is checked", r.Attr("value"))
				}
			}
		})
	}
}

// An open question's button works only once something is written; it
// shows the model answer, and the written answer and the model answer
// are there again after a reload.
func TestOpenQuestion(t *testing.T) {
	b, q := openQuiz(t, blocks, "open")
	button := b.within(q, "button.answer")
	if !button.HasAttr("disabled") {
		t.Error("the button works before anything is written")
	}
	b.clickIn(q, "button.answer")
	if b.shown(q, ".model") || q.HasAttr("data-state") {
		t.Error("a click on the button with nothing written showed the model answer")
	}
	b.typeInto(q, "textarea.open-answer", "  \n ")
	if !button.HasAttr("disabled") {
		t.Error("the button works with only spaces written")
	}
	b.typeInto(q, "textarea.open-answer", "Each path brings its own share.")
	if button.HasAttr("disabled") {
		t.Fatal("the button does not work with an answer written")
	}
	if b.shown(q, ".model") {
		t.Error("the model answer shows before the learner asks")
	}
	b.clickIn(q, "button.answer")
	if got := b.text("#quiz-open .model"); got != "A model answerEach path adds its share." {
		t.Errorf("the model answer shows %q", got)
	}
	b.quizSays("open", "Compare your answer with the model answer below.", "answered", "the question")
	b.reload()
	q = b.find("#quiz-open")
	if got := b.within(q, "textarea.open-answer").Value(); got != "Each path brings its own share." {
		t.Errorf("after a reload the answer is %q", got)
	}
	if !b.shown(q, ".model") || q.Attr("data-state") != "answered" || b.within(q, "button.answer").HasAttr("disabled") {
		t.Error("after a reload the model answer is hidden, or the question unanswered, or its button off")
	}
	b.typeInto(q, "textarea.open-answer", "")
	if !b.within(q, "button.answer").HasAttr("disabled") {
		t.Error("the button works once the answer is deleted")
	}
}

// A quiz whose data this build cannot read says so when checked, rather
// than judging an answer.
func TestQuizThatCannotBeChecked(t *testing.T) {
	b := open(t, blocks, rewritten(
		`<script type="application/json" class="block-data">{"choices":[{"correct":false`, `<script type="application/json" class="other-data">{"choices":[{"correct":false`,
		`{"labels":["dL/dw"],"expected":[3]`, `{"labels":["dL/dw"],"expected":"three"`))
	for _, quiz := range []string{"choice", "numeric"} {
		q := b.find("#quiz-" + quiz)
		if in := q.Query(`input[type="radio"]`); in != nil {
			fakedom.Click(in)
		}
		b.clickIn(q, "button.answer")
		got := b.feedback(quiz)
		if !strings.HasPrefix(got, "This question cannot be checked: ") || q.HasAttr("data-state") {
			t.Errorf("%s: the quiz says %q, state %q", quiz, got, q.Attr("data-state"))
		}
		t.Logf("%s: %s", quiz, got)
	}
}

// A numeric quiz whose data names no answers asks for each by its place.
func TestNumericQuizWithoutLabels(t *testing.T) {
	b, q := openQuiz(t, blocks, "numeric", rewritten(`{"labels":["dL/dw"],"expected":[3]`, `{"expected":[3]`))
	b.clickIn(q, "button.answer")
	if got := b.feedback("numeric"); got != "Type a number for answer 1." {
		t.Errorf("the quiz says %q", got)
	}
	b.typeInto(q, "input.answer-input", "3")
	b.clickIn(q, "button.answer")
	if got := b.feedback("numeric"); got != "All right." {
		t.Errorf("the quiz says %q", got)
	}
}

// A quiz of a kind this build does not know is left alone: checking it
// judges nothing, saves nothing and breaks nothing.
func TestQuizOfAnUnknownKind(t *testing.T) {
	b, q := openQuiz(t, blocks, "open", rewritten(`data-quiz="open"`, `data-quiz="essay"`))
	b.clickIn(q, "button.answer")
	if q.HasAttr("data-state") || b.feedback("open") != "" || b.shown(q, ".model") {
		t.Errorf("the quiz was judged: state %q, feedback %q", q.Attr("data-state"), b.feedback("open"))
	}
	if r := b.record(progress.KindQuiz, "test-blocks", "open"); r != nil || len(b.notices()) > 0 {
		t.Errorf("kept %+v, notices %q", r, b.notices())
	}
}

// An open question's explanation stays hidden once it is answered: its
// model answer is what it shows.
func TestOpenQuestionKeepsItsExplanation(t *testing.T) {
	b, q := openQuiz(t, exercises, "why-add")
	b.typeInto(q, "textarea.open-answer", "The paths add.")
	b.clickIn(q, "button.answer")
	if !b.shown(q, ".model") || b.shown(q, ".explain") {
		t.Errorf("answered, the model answer shows %v, the explanation %v", b.shown(q, ".model"), b.shown(q, ".explain"))
	}
}
