package page_test

import (
	"regexp"
	"testing"

	"gradbook/notebook/page"
	"gradbook/notebook/page/fakedom"
	"gradbook/notebook/progress"
)

// guessFold is what the prediction guess folds on the test page.
func (b *bench) guessFold() page.Node {
	b.t.Helper()
	return b.find(`.after-prediction[data-prediction="guess"]`)
}

// Skip opens what a prediction folds without making it; it stays open
// after a reload, the prediction still unanswered, and Run all runs the
// cells after it.
func TestSkipAPrediction(t *testing.T) {
	b := open(t, blocks)
	skip := b.within(b.guessFold(), "button.skip-prediction")
	if skip.HasAttr("disabled") {
		t.Fatal("Skip does not work")
	}
	b.clickIn(b.guessFold(), "button.skip-prediction")
	if !b.guessFold().HasClass("open") {
		t.Fatal("Skip did not open the fold")
	}
	if r := b.record(progress.KindQuiz, "test-blocks", "guess"); r == nil || !r.Skipped || r.Answer != "" || r.Passed {
		t.Errorf("the skip was kept as %+v", r)
	}
	b.click("#run-all")
	if got := b.status(); !regexp.MustCompile(`^Ran all 3 cells in \d+ ms: 3 ran clean\.$`).MatchString(got) {
		t.Errorf("Run all after a skip: %q", got)
	}
	b.reload()
	if !b.guessFold().HasClass("open") {
		t.Error("after a reload the skipped prediction's fold is closed")
	}
	q := b.find("#quiz-guess")
	if q.HasAttr("data-state") || b.feedback("guess") != "" {
		t.Errorf("after a reload the skipped prediction shows an answer: %q", b.feedback("guess"))
	}
	b.click("#run-all")
	if got := b.status(); !regexp.MustCompile(`^Ran all 3 cells in`).MatchString(got) {
		t.Errorf("Run all after a reload: %q", got)
	}
	b.clickIn(q, `input[value="0"]`)
	b.clickIn(q, "button.answer")
	if r := b.record(progress.KindQuiz, "test-blocks", "guess"); r == nil || r.Answer != "0" || !r.Passed {
		t.Errorf("a prediction made after a skip was kept as %+v", r)
	}
}

// A prediction made, even wrong, opens its fold for good: answering
// again leaves it open, and so does a reload.
func TestPredictionMadeStaysOpen(t *testing.T) {
	b, q := openQuiz(t, blocks, "guess")
	b.clickIn(q, `input[value="1"]`)
	b.clickIn(q, "button.answer")
	if !b.guessFold().HasClass("open") {
		t.Fatal("a wrong prediction did not open the fold")
	}
	b.clickIn(q, `input[value="0"]`)
	b.clickIn(q, "button.answer")
	if !b.guessFold().HasClass("open") || b.feedback("guess") != "Right. Each use sends back 1." {
		t.Errorf("after a second answer: open %v, feedback %q", b.guessFold().HasClass("open"), b.feedback("guess"))
	}
	b.reload()
	if !b.guessFold().HasClass("open") {
		t.Error("after a reload the fold of a prediction made is closed")
	}
}

// A drawing drawn while its fold was closed is fitted to its column once
// the fold opens: it had no width to fit while hidden.
func TestAFoldOpenedFitsItsDrawings(t *testing.T) {
	b, c := openRan(t, blocks, "after") // a cell in the fold runs on its own
	svg := func() page.Node { return b.within(c, "svg.graph") }
	if got := svg().Attr("data-layout"); got != "horizontal" {
		t.Fatalf("the drawing is %s", got)
	}
	// Hidden, the drawing has no width: a resize meanwhile leaves it be.
	box := b.within(c, ".svg-box")
	fakedom.SetClientWidth(box, 0)
	b.resize(150)
	if got := svg().Attr("data-layout"); got != "horizontal" {
		t.Errorf("hidden, the drawing was laid out %s", got)
	}
	fakedom.SetClientWidth(box, 150) // its column, once shown
	b.clickIn(b.find("#quiz-guess"), `input[value="0"]`)
	b.clickIn(b.find("#quiz-guess"), "button.answer")
	if got := svg().Attr("data-layout"); got != "vertical" {
		t.Errorf("once the fold opened, the drawing is %s in a 150 px column", got)
	}
}
