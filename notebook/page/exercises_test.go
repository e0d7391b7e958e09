package page_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"gradbook/notebook/page"
	"gradbook/notebook/page/fakedom"
	"gradbook/notebook/progress"
)

// exercise returns the exercise with id.
func (b *bench) exercise(id string) page.Node {
	b.t.Helper()
	return b.find("#exercise-" + id)
}

// check presses an exercise's Check and returns its report once the
// check is done.
func (b *bench) check(x page.Node) string {
	b.t.Helper()
	b.clickIn(x, "button.check")
	return fakedom.VisibleText(b.within(x, ".report"))
}

// editorsAndTextBoxes runs f with code editors and with the text boxes a
// page keeps where they cannot load.
func editorsAndTextBoxes(t *testing.T, f func(t *testing.T, opts ...func(*bench))) {
	t.Run("text boxes", func(t *testing.T) { f(t) })
	t.Run("editors", func(t *testing.T) { f(t, withEditors) })
}

// Run runs the learner's code as a cell: what it prints shows as it
// prints, an error names its line, and a graph it builds is drawn.
func TestRunAnExercise(t *testing.T) {
	editorsAndTextBoxes(t, func(t *testing.T, opts ...func(*bench)) {
		b := open(t, blocks, opts...)
		x := b.exercise("ex")
		b.clickIn(x, "button.run")
		if got := out(t, x); got != "(ran; nothing printed)" {
			t.Errorf("the starter code shows %q", got)
		}
		b.typeCode(x, "def f():\n    return 1\nprint('f gives', f())\nprint('twice', 2 * f())")
		b.clickIn(x, "button.run")
		if got := out(t, x); got != "f gives 1\ntwice 2\n" {
			t.Errorf("the run shows %q", got)
		}
		b.typeCode(x, "def f():\n    return 1\nprint(f().nope)")
		b.clickIn(x, "button.run")
		o := b.within(x, "output.out")
		if got := out(t, x); !strings.Contains(got, "line 3") || !o.HasClass("error") {
			t.Errorf("an error shows %q, class %q", got, o.Attr("class"))
		}
		if b.editors != nil {
			if got := b.editors.in(x).mark; got != 3 {
				t.Errorf("line %d marked, want 3", got)
			}
		}
		b.typeCode(x, "w = Value(3.0, \"w\")\ny = w * w\ny.backward()")
		b.clickIn(x, "button.run")
		if o.HasClass("error") || b.editors != nil && b.editors.in(x).mark != 0 {
			t.Error("the error is still marked after a clean run")
		}
		if got := b.text("#exercise-ex .drawings figcaption"); got != "The graph behind y, with the gradients y.backward() set" {
			t.Errorf("the drawing is titled %q", got)
		}
	})
}

// While an exercise runs or is checked its buttons wait and it says so;
// Escape stops it, and a check that does not finish says why.
func TestAnExerciseThatDoesNotFinish(t *testing.T) {
	b := open(t, blocks)
	x := b.exercise("ex")
	run, check := b.within(x, "button.run"), b.within(x, "button.check")
	b.typeCode(x, "hold()")
	fakedom.Click(run)
	waitFor(t, func() bool { return x.Attr("aria-busy") == "true" })
	if got := out(t, x); got != "Running…" || !run.HasAttr("disabled") || !check.HasAttr("disabled") {
		t.Errorf("while it runs the exercise shows %q, its buttons on", got)
	}
	b.escape(x)
	if got := out(t, x); !strings.Contains(got, "as you asked") || run.HasAttr("disabled") || x.HasAttr("aria-busy") {
		t.Errorf("after Escape the exercise shows %q, busy %q", got, x.Attr("aria-busy"))
	}
	fakedom.Click(check)
	waitFor(t, func() bool { return x.Attr("aria-busy") == "true" })
	if got := b.text("#exercise-ex .report"); got != "Checking…" || !run.HasAttr("disabled") || !check.HasAttr("disabled") {
		t.Errorf("while it is checked the exercise says %q, its buttons on", got)
	}
	b.clock.Advance(500 * time.Millisecond)
	b.escape(x)
	if got := b.text("#exercise-ex .report"); got != "The check did not finish: stopped after 500 ms, as you asked." || check.HasAttr("disabled") {
		t.Errorf("after Escape the report says %q", got)
	}
	if x.HasAttr("data-state") {
		t.Errorf("a check that did not finish left the state %q", x.Attr("data-state"))
	}
	b.typeCode(x, "die()")
	if got := b.check(x); !strings.HasPrefix(got, "The check did not finish: the runner stopped (fatal error: out of memory) and was started again.") {
		t.Errorf("after the runner died the report says %q", got)
	}
	b.typeCode(x, "def f():\n    return 1")
	if got := b.check(x); !strings.HasPrefix(got, "All tests pass.") {
		t.Errorf("the next check says %q", got)
	}
}

// Check runs the hidden tests: a failure is told by its most specific
// message, a pass says well done, and a pass stays passed, after a later
// failure and after a reload.
func TestCheckAnExercise(t *testing.T) {
	editorsAndTextBoxes(t, func(t *testing.T, opts ...func(*bench)) {
		b := open(t, blocks, opts...)
		x := b.exercise("ex")
		if got := b.check(x); got != "✗ f gives one\nOn f gives one: f(): got 0, expected 1" || x.Attr("data-state") != "failed" {
			t.Errorf("the starter code: %q, state %q", got, x.Attr("data-state"))
		}
		b.typeCode(x, "def f():\n    return 2")
		if got := b.check(x); got != "✗ f gives one\nThat is twice the answer." {
			t.Errorf("twice the answer: %q", got)
		}
		b.typeCode(x, "def f():\n    return 1")
		if got := b.check(x); got != "All tests pass. Well done!\n✓ f gives one" || x.Attr("data-state") != "passed" {
			t.Errorf("the right code: %q, state %q", got, x.Attr("data-state"))
		}
		b.typeCode(x, "def f():\n    return 0")
		if got := b.check(x); !strings.HasPrefix(got, "✗ f gives one") || x.Attr("data-state") != "failed" {
			t.Errorf("a failure after the pass: %q, state %q", got, x.Attr("data-state"))
		}
		if r := b.record(progress.KindExercise, "test-blocks", "ex"); r == nil || !r.Passed || r.Source != "def f():\n    return 0" {
			t.Errorf("after a pass and a failure the exercise is kept as %+v", r)
		}
		b.reload()
		x = b.exercise("ex")
		if got := b.code(x); got != "def f():\n    return 0" {
			t.Errorf("after a reload the exercise holds %q", got)
		}
		if got := b.text("#exercise-ex .report"); got != "You passed this exercise before. Press Check to run the tests again." || x.Attr("data-state") != "passed" {
			t.Errorf("after a reload the exercise says %q, state %q", got, x.Attr("data-state"))
		}
	})
}

// Code typed into an exercise is kept once the typing pauses, and is
// there after a reload though never checked.
func TestExerciseCodeIsKept(t *testing.T) {
	b := open(t, blocks, withEditors)
	x := b.exercise("ex")
	x = b.typedAndReloaded(x, "def f():\n    return 5")
	if x.HasAttr("data-state") || b.text("#exercise-ex .report") != "" {
		t.Error("code kept but never checked shows as checked")
	}
}

// An exercise whose code the learner deleted whole starts from its
// starter code again after a reload.
func TestExerciseCodeDeletedWhole(t *testing.T) {
	b := open(t, blocks)
	x := b.exercise("ex")
	starter := b.typedOver(x, "")
	b.reload()
	if got := b.code(b.exercise("ex")); got != starter {
		t.Errorf("after a reload the exercise holds %q", got)
	}
}

// Reset asks before it puts the starter code back, and only when there
// is code of the learner's to lose; once reset, nothing of it is kept.
func TestResetAnExercise(t *testing.T) {
	editorsAndTextBoxes(t, func(t *testing.T, opts ...func(*bench)) {
		b := open(t, blocks, opts...)
		x := b.exercise("ex")
		starter := b.code(x)
		b.clickIn(x, "button.reset")
		if x.Query(".confirm") != nil {
			t.Error("Reset asks about the starter code itself")
		}
		b.typeCode(x, "def f():\n    return 1")
		b.check(x)
		b.clickIn(x, "button.run")
		b.clickIn(x, "button.reset")
		box := b.within(x, ".confirm")
		if got := fakedom.VisibleText(box); got != "Replace your code with the starter code?Reset the exercise Keep my code" {
			t.Errorf("the question is %q", got)
		}
		if a := b.doc.Active(); a == nil || a.Text() != "Keep my code" {
			t.Errorf("the focus is on %v, not the safe answer", a)
		}
		b.clickIn(box, ".confirm-no")
		if got := b.code(x); got != "def f():\n    return 1" || x.Query(".confirm") != nil || x.Attr("data-state") != "passed" {
			t.Errorf("after Keep my code: %q, state %q", got, x.Attr("data-state"))
		}
		b.clickIn(x, "button.reset")
		b.clickIn(x, "button.reset") // asked again: one question
		if n := len(x.QueryAll(".confirm")); n != 1 {
			t.Errorf("Reset pressed twice asks %d questions", n)
		}
		b.armed()
		b.clickIn(x, ".confirm-yes")
		if got := b.code(x); got != starter {
			t.Errorf("after Reset the exercise holds %q", got)
		}
		if out(t, x) != "" || b.text("#exercise-ex .report") != "" || x.HasAttr("data-state") {
			t.Errorf("after Reset the exercise shows %q, %q, state %q", out(t, x), b.text("#exercise-ex .report"), x.Attr("data-state"))
		}
		if r := b.record(progress.KindExercise, "test-blocks", "ex"); r != nil {
			t.Errorf("after Reset the exercise is kept as %+v", r)
		}
		b.reload()
		x = b.exercise("ex")
		if got := b.code(x); got != starter || x.HasAttr("data-state") || b.text("#exercise-ex .report") != "" {
			t.Errorf("after a reload the reset exercise holds %q, state %q", got, x.Attr("data-state"))
		}
	})
}

// Hints come one at a time, until there are no more.
func TestExerciseHints(t *testing.T) {
	b := open(t, blocks)
	x := b.exercise("ex")
	hints := x.QueryAll(".hint-list li")
	button := b.within(x, "button.hint")
	if len(hints) != 2 || fakedom.VisibleText(hints[0]) != "" || button.HasAttr("disabled") {
		t.Fatalf("%d hints, the first shown %q, the button off %v", len(hints), fakedom.VisibleText(hints[0]), button.HasAttr("disabled"))
	}
	b.clickIn(x, "button.hint")
	if fakedom.VisibleText(hints[0]) != "The answer is a small number." || fakedom.VisibleText(hints[1]) != "" {
		t.Errorf("after one click the hints show %q and %q", fakedom.VisibleText(hints[0]), fakedom.VisibleText(hints[1]))
	}
	if button.Text() != "Show a hint" || button.HasAttr("disabled") {
		t.Errorf("with a hint left the button says %q, off %v", button.Text(), button.HasAttr("disabled"))
	}
	b.clickIn(x, "button.hint")
	if fakedom.VisibleText(hints[1]) != "Return 1." {
		t.Errorf("after two clicks the second hint shows %q", fakedom.VisibleText(hints[1]))
	}
	if button.Text() != "No more hints" || !button.HasAttr("disabled") {
		t.Errorf("with no hint left the button says %q, off %v", button.Text(), button.HasAttr("disabled"))
	}
}

// A failed backward check draws the hidden graph it failed on, the
// learner's gradients beside the engine's; a later check replaces it, a
// check that fails without gradients to compare takes it away, a run
// shows its own drawings instead, and a pass clears it.
func TestBackwardCheckDrawsTheHiddenGraph(t *testing.T) {
	b := open(t, exercises)
	x := b.exercise("back")
	if x.Query("button.hint") != nil {
		t.Error("an exercise without hints has a hint button")
	}
	figures := func() []string {
		var titles []string
		for _, f := range x.QueryAll(".drawings figure") {
			titles = append(titles, fakedom.VisibleText(fakedom.Find(t, f, "figcaption")))
		}
		return titles
	}
	hidden := "The hidden graph L, with your gradients beside the engine's"
	got := b.check(x)
	if !strings.HasPrefix(got, "✗ the worked example\nOn the worked example: your dict has no gradient for a.") || x.Attr("data-state") != "failed" {
		t.Errorf("the starter code: %q, state %q", got, x.Attr("data-state"))
	}
	if f := figures(); len(f) != 1 || f[0] != hidden {
		t.Fatalf("the drawings are %q", f)
	}
	if got := b.text("#exercise-back .step-text"); got != "The gradients part at the start: L is the output, so its gradient is 1, but you gave none." {
		t.Errorf("the drawing says %q", got)
	}
	if x.Query("input.practice") != nil {
		t.Error("the hidden graph offers to do its backward pass")
	}
	overwrite := "def backward(graph, values, out):\n    grads = {name: 0.0 for name in values}\n    grads[out] = 1.0\n" +
		"    for name, op, ins in reversed(graph):\n        local = {\"add\": [1.0, 1.0], \"mul\": [values[ins[-1]], values[ins[0]]], \"sq\": [2.0 * values[ins[0]]]}[op]\n" +
		"        for i, d in zip(ins, local):\n            grads[i] = grads[name] * d\n    return grads"
	b.typeCode(x, overwrite)
	got = b.check(x)
	if !strings.HasPrefix(got, "✓ the worked example\n✗ x + x, one value used twice by one op") {
		t.Errorf("the overwrite bug: %q", got)
	}
	if f := figures(); len(f) != 1 || f[0] != "The hidden graph y, with your gradients beside the engine's" {
		t.Errorf("after a second failure the drawings are %q", f)
	}
	b.typeCode(x, "def backward(graph, values, out)\n    return {}")
	if got := b.check(x); !strings.Contains(got, "Your code stops before it can be checked") {
		t.Errorf("code that does not parse: %q", got)
	}
	if f := figures(); len(f) != 0 {
		t.Errorf("a failure without gradients left the drawings %q", f)
	}
	b.typeCode(x, "def backward(graph, values, out):\n    return {}\nw = Value(3.0, \"w\")\ny = w * w\ny.backward()")
	b.check(x)
	b.clickIn(x, "button.run")
	if f := figures(); len(f) != 1 || f[0] != "The graph behind y, with the gradients y.backward() set" {
		t.Errorf("after a run the drawings are %q", f)
	}
	b.check(x)
	if f := figures(); len(f) != 1 || f[0] != hidden {
		t.Errorf("after a run and a failed check the drawings are %q", f)
	}
	solution := fakedom.Find(t, x, ".solution code").Text()
	b.typeCode(x, solution)
	if got := b.check(x); !regexp.MustCompile(`^All tests pass\. Well done!\n✓ the worked example\n(✓ .*\n)*✓ a random graph$`).MatchString(got) || x.Attr("data-state") != "passed" {
		t.Errorf("the solution: %q, state %q", got, x.Attr("data-state"))
	}
	if f := figures(); len(f) != 0 {
		t.Errorf("after a pass the drawings are %q", f)
	}
	b.clickIn(x, "button.run")
	b.check(x)
	if f := figures(); len(f) != 0 {
		t.Errorf("a pass after a run left %q", f)
	}
}

// An exercise whose starter code the lesson changed since the learner
// edited it keeps the learner's code and says so.
func TestExerciseOfAnEarlierVersion(t *testing.T) {
	b := open(t, blocks, keptBefore(progress.Record{Kind: progress.KindExercise, Lesson: "test-blocks", ID: "ex",
		Source: "def f():\n    return 9", Authored: progress.Hash("def f():\n    pass")}))
	x := b.exercise("ex")
	if got := b.code(x); got != "def f():\n    return 9" {
		t.Errorf("the exercise holds %q", got)
	}
	if got := b.text("#exercise-ex .changed p"); got != "The lesson's code for this cell has changed since you edited it. Your version is in the editor." {
		t.Errorf("the exercise says %q", got)
	}
	if x.HasAttr("data-state") || b.text("#exercise-ex .report") != "" {
		t.Error("an exercise never passed shows as passed")
	}
}

// A check that comes back without a report, as an exercise with no
// tests this build knows of would, says so rather than passing.
func TestACheckWithoutAReport(t *testing.T) {
	b := open(t, blocks, rewritten(`<template class="test" data-name="f gives one">`, `<template class="retired" data-name="f gives one">`))
	x := b.exercise("ex")
	if got := b.check(x); got != "The check did not finish: the run gave no result (please report it)." || x.HasAttr("data-state") {
		t.Errorf("the report says %q, state %q", got, x.Attr("data-state"))
	}
}
