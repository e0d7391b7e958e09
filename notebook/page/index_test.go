package page_test

import (
	"testing"
	"time"

	"gradbook/notebook/progress"
)

// entry returns the index's entry of a lesson.
func (b *bench) entry(lesson string) (li, completion string, complete bool) {
	b.t.Helper()
	for _, el := range b.doc.QueryAll("li[data-lesson]") {
		if el.Attr("data-lesson") == lesson {
			c := el.Query(".completion")
			return el.Text(), c.Text(), el.HasClass("complete")
		}
	}
	b.t.Fatalf("the index lists no lesson %s", lesson)
	return "", "", false
}

// done is a record of a lesson's item done.
func done(kind, id string) progress.Record {
	return progress.Record{Kind: kind, Lesson: "test-blocks", ID: id, Passed: true}
}

// The index says how much of each lesson is done, and marks a lesson
// whose every quiz, task and exercise is done as complete; a lesson with
// none of them is never marked.
func TestIndexCompletion(t *testing.T) {
	b := open(t, indexPage, keptBefore(done(progress.KindQuiz, "choice"), done(progress.KindExercise, "ex"), progress.Record{Kind: progress.KindQuiz, Lesson: "test-blocks", ID: "numeric", Answer: "6"}))
	if _, got, complete := b.entry("test-blocks"); got != "2 of 6 done" || complete {
		t.Errorf("the lesson begun says %q, complete %v", got, complete)
	}
	if _, got, complete := b.entry("fan-out"); got != "0 of 3 done" || complete {
		t.Errorf("a lesson not begun says %q, complete %v", got, complete)
	}
	if _, got, complete := b.entry("b-only-code"); got != "0 of 0 done" || complete {
		t.Errorf("a lesson of code alone says %q, complete %v", got, complete)
	}
	b = open(t, indexPage, keptBefore(done(progress.KindQuiz, "choice"), done(progress.KindQuiz, "numeric"), done(progress.KindQuiz, "open"),
		done(progress.KindQuiz, "guess"), done(progress.KindTask, "linear:big"), done(progress.KindExercise, "ex")))
	if _, got, complete := b.entry("test-blocks"); got != "6 of 6 done" || !complete {
		t.Errorf("the lesson done says %q, complete %v", got, complete)
	}
}

// The index links to where the learner left off: the last lesson they
// visited, at the cell they last ran there.
func TestContinueWhereYouLeftOff(t *testing.T) {
	b := open(t, indexPage)
	if !b.find("#continue").HasAttr("hidden") || b.text("#continue") != "" {
		t.Errorf("before any visit the index says %q", b.text("#continue"))
	}
	lesson := open(t, blocks, besides(b))
	b = open(t, indexPage, besides(lesson))
	if got := b.text("#continue"); got != "Continue where you left off: Every block, for the page's tests" {
		t.Errorf("after a visit the index says %q", got)
	}
	if got := b.find("#continue a").Attr("href"); got != "lessons/test-blocks.html" {
		t.Errorf("it links to %q", got)
	}
	lesson.clock.Advance(time.Second)
	lesson.run("double")
	b = open(t, indexPage, besides(lesson))
	if got := b.find("#continue a").Attr("href"); got != "lessons/test-blocks.html#cell-double" {
		t.Errorf("after a run it links to %q", got)
	}
	lesson.clock.Advance(time.Second)
	open(t, "lessons/fan-out.html", besides(lesson))
	b = open(t, indexPage, besides(lesson))
	if got := b.find("#continue a").Attr("href"); got != "lessons/fan-out.html" {
		t.Errorf("after another lesson's visit it links to %q", got)
	}
}

// The index links to the last visit of a lesson it lists: a later visit
// of a page it does not list (a lesson since taken off the site, a course
// page's cells) leaves it where it was, and with no other it links
// nowhere.
func TestContinueToALessonNotListed(t *testing.T) {
	removed := progress.Record{Kind: progress.KindVisit, Lesson: "a-lesson-since-removed", ID: "last", Anchor: "cell-x"}
	b := open(t, indexPage, keptBefore(removed))
	if !b.find("#continue").HasAttr("hidden") || b.doc.Query("#continue a") != nil {
		t.Errorf("the index says %q", b.find("#continue").Text())
	}
	lesson := open(t, blocks)
	lesson.clock.Advance(time.Second)
	b = open(t, indexPage, besides(lesson), keptBefore(removed))
	if got := b.find("#continue a").Attr("href"); got != "lessons/test-blocks.html" {
		t.Errorf("the index links to %q", got)
	}
}
