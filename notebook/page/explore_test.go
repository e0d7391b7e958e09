package page_test

import (
	"strings"
	"testing"

	"gradbook/notebook/page"
	"gradbook/notebook/page/fakedom"
	"gradbook/notebook/progress"
)

// explored is what an explore block's table says of name: its value and
// its gradient.
func (b *bench) explored(el page.Node, name string) string {
	b.t.Helper()
	for _, tr := range el.QueryAll(".explore-state tr") {
		if tr.Attr("data-name") == name {
			return fakedom.VisibleText(fakedom.Find(b.t, tr, "td.value")) + " " + fakedom.VisibleText(fakedom.Find(b.t, tr, "td.grad"))
		}
	}
	b.t.Fatalf("the explore block shows no %s: %s", name, fakedom.VisibleText(el))
	return ""
}

// task is what a learner reads of an explore block's task.
func (b *bench) task(el page.Node, id string) string {
	b.t.Helper()
	for _, li := range el.QueryAll("li.task") {
		if li.Attr("data-task") == id {
			return strings.TrimSpace(fakedom.VisibleText(li))
		}
	}
	b.t.Fatalf("no task %s", id)
	return ""
}

// leaf returns the slider and the number box of an explore block's
// input name.
func (b *bench) leaf(el page.Node, name string) (slider, number page.Node) {
	b.t.Helper()
	for _, l := range el.QueryAll(".leaf") {
		if l.Attr("data-leaf") == name {
			return b.within(l, `input[type="range"]`), b.within(l, `input[type="number"]`)
		}
	}
	b.t.Fatalf("no input %s", name)
	return nil, nil
}

// slide and enter move an explore block's input as a learner does, with
// its slider or its number box.
func (b *bench) slide(el page.Node, name, value string) {
	b.t.Helper()
	r, _ := b.leaf(el, name)
	fakedom.Type(r, value)
	b.p.Settle()
}

func (b *bench) enter(el page.Node, name, value string) {
	b.t.Helper()
	_, n := b.leaf(el, name)
	fakedom.Type(n, value)
	b.p.Settle()
}

// An explore block's sliders and number boxes move its inputs together:
// each shows the other's number, the values, the gradients and the
// drawing follow, and what is not a number is not taken.
func TestExploreSlidersAndNumbers(t *testing.T) {
	b := open(t, blocks)
	e := b.find("#explore-linear")
	for name, want := range map[string]string{"w": "2 3", "x": "3 2", "L": "6 1"} {
		if got := b.explored(e, name); got != want {
			t.Errorf("at the start %s shows %q, want %q", name, got, want)
		}
	}
	b.slide(e, "w", "-1.5")
	if _, n := b.leaf(e, "w"); n.Value() != "-1.5" {
		t.Errorf("after the slider the number box holds %q", n.Value())
	}
	if got := b.explored(e, "L"); got != "-4.5 1" {
		t.Errorf("L shows %q", got)
	}
	if got := b.explored(e, "x"); got != "3 -1.5" {
		t.Errorf("x shows %q", got)
	}
	b.enter(e, "x", "−0,25")
	if r, _ := b.leaf(e, "x"); r.Value() != "-0.25" {
		t.Errorf("after the number box the slider holds %q", r.Value())
	}
	if got := b.explored(e, "L"); got != "0.375 1" {
		t.Errorf("L shows %q", got)
	}
	for _, bad := range []string{"", "-", "1e", "two"} {
		b.enter(e, "x", bad)
		if r, _ := b.leaf(e, "x"); r.Value() != "-0.25" || b.explored(e, "L") != "0.375 1" {
			t.Errorf("%q was taken: the slider holds %q, L shows %q", bad, r.Value(), b.explored(e, "L"))
		}
	}
	if e.HasAttr("data-state") {
		t.Errorf("the block is %q", e.Attr("data-state"))
	}
	if got := b.text("#linear-d .svg-box"); !strings.Contains(got, "value 0.375") {
		t.Errorf("the drawing shows %q", got)
	}
}

// A task met ticks itself, says so once, and is kept: after a reload it
// is ticked again, without a word.
func TestExploreTask(t *testing.T) {
	b := open(t, blocks)
	e := b.find("#explore-linear")
	if got := b.task(e, "big"); got != "○ Make L larger than 10. (not yet)" {
		t.Errorf("the task says %q", got)
	}
	b.slide(e, "w", "4")
	if got := b.task(e, "big"); got != "✓ Make L larger than 10. (done)" {
		t.Errorf("once met the task says %q", got)
	}
	if got := b.status(); got != "Task done: Make L larger than 10." {
		t.Errorf("the status says %q", got)
	}
	if r := b.record(progress.KindTask, "test-blocks", "linear:big"); r == nil || !r.Passed {
		t.Errorf("the task is kept as %+v", r)
	}
	b.run("worked")
	b.slide(e, "w", "1")
	b.slide(e, "w", "5")
	if got := b.status(); strings.HasPrefix(got, "Task done") {
		t.Errorf("a task met again is said again: %q", got)
	}
	b.reload()
	e = b.find("#explore-linear")
	if got := b.task(e, "big"); got != "✓ Make L larger than 10. (done)" {
		t.Errorf("after a reload the task says %q", got)
	}
	if got := b.status(); got != "Ready: Run a cell, or Run all." {
		t.Errorf("after a reload the status says %q", got)
	}
	if got := b.explored(e, "L"); got != "6 1" {
		t.Errorf("after a reload L shows %q: the inputs start again", got)
	}
}

// Inputs the graph cannot take (a division by zero) say why in place of
// the values, and the block comes back once they are good again; tasks
// tick as they are met, each on its own.
func TestExploreThatBreaks(t *testing.T) {
	b := open(t, exercises)
	e := b.find("#explore-ratio")
	b.slide(e, "x", "0")
	if got := b.text("#explore-ratio .explore-state"); !strings.Contains(got, "q") || e.Attr("data-state") != "error" {
		t.Errorf("x = 0 shows %q, state %q", got, e.Attr("data-state"))
	}
	t.Logf("x = 0: %s", b.text("#explore-ratio .explore-state"))
	b.slide(e, "x", "0.5")
	if e.HasAttr("data-state") || b.explored(e, "q") != "4 1" {
		t.Errorf("x = 0.5: state %q, q shows %q", e.Attr("data-state"), b.text("#explore-ratio .explore-state"))
	}
	if b.task(e, "steep") != "✓ Make q twice as sensitive to w as it starts. (done)" || b.task(e, "small") != "○ Make q smaller than 1. (not yet)" {
		t.Errorf("the tasks say %q and %q", b.task(e, "steep"), b.task(e, "small"))
	}
	b.slide(e, "w", "-1")
	if got := b.task(e, "small"); got != "✓ Make q smaller than 1. (done)" || b.status() != "Task done: Make q smaller than 1." {
		t.Errorf("the second task says %q, the status %q", got, b.status())
	}
}

// A block whose graph this build cannot read says so, and has nothing
// to move; a task the block's data does not have is never ticked.
func TestExploreThatCannotBeExplored(t *testing.T) {
	b := open(t, blocks, rewritten(`"graph":[["L","mul",["w","x"]]]`, `"graph":"L = w·x"`))
	got := b.text("#explore-linear .explore-state")
	if !strings.HasPrefix(got, "This graph cannot be explored: ") || b.doc.Query("#explore-linear figure") != nil {
		t.Errorf("the block says %q", got)
	}
	t.Log(got)
	b = open(t, blocks, rewritten(`<span class="task-state">(not yet)</span></li></ul>`,
		`<span class="task-state">(not yet)</span></li><li class="task" data-task="gone"><span class="tick" aria-hidden="true">○</span> Gone. <span class="task-state">(not yet)</span></li></ul>`),
		keptBefore(progress.Record{Kind: progress.KindTask, Lesson: "test-blocks", ID: "linear:gone", Passed: true}))
	e := b.find("#explore-linear")
	if got := b.task(e, "gone"); strings.Contains(got, "✓") {
		t.Errorf("a task the data does not have says %q", got)
	}
	b.slide(e, "w", "4")
	if got := b.task(e, "gone"); strings.Contains(got, "✓") {
		t.Errorf("a task the data does not have says %q", got)
	}
	if got := b.task(e, "big"); got != "✓ Make L larger than 10. (done)" || len(b.notices()) > 0 {
		t.Errorf("the task the data has says %q; notices %q", got, b.notices())
	}
}

// A drawing of an explore block keeps its step and its chosen path as
// the inputs move, with the new numbers.
func TestExploreDrawingKeepsItsView(t *testing.T) {
	b := open(t, blocks)
	e := b.find("#explore-linear")
	fig := b.find("#linear-d")
	b.clickIn(fig, "button.step")
	fakedom.Choose(b.within(fig, "select.paths-from"), "0")
	b.p.Settle()
	b.slide(e, "x", "5")
	if got := fig.Attr("data-step"); got != "1" {
		t.Errorf("after the slider the drawing is at step %q", got)
	}
	if got := b.text("#linear-d .step-text"); got != "Step 1 of 1: at L (mul), gradient 1. w.grad += 1 × 5 = 5 → 5. x.grad += 1 × 2 = 2 → 2." {
		t.Errorf("the step says %q", got)
	}
	if got := b.text("#linear-d .paths"); !strings.Contains(got, "w → L: 5 = 5") {
		t.Errorf("the paths say %q", got)
	}
	fakedom.Choose(b.within(fig, "select.paths-from"), "")
	b.p.Settle()
	b.slide(e, "x", "4")
	if got := b.text("#linear-d .paths"); got != "" {
		t.Errorf("with no value chosen the paths say %q", got)
	}
}
