package notebook

import (
	"gradbook/notebook/kernel"
	"testing"
)

// A cell under unchanged cells starts from their kept state: they do not
// run again, and nothing a later cell did leaks back.
func TestKeptStateIsInvisible(t *testing.T) {
	s := NewSession()
	runs := 0
	count := func(cell int, _ string) {
		if cell == 0 {
			runs++
		}
	}
	a := "w = Value(1.0, \"w\")\nb = w * w\nprint('cell 1 ran')"
	out := func(cells ...string) string {
		t.Helper()
		r := s.Run(kernel.Request{Cells: cells, Hooks: kernel.Hooks{Line: count}})
		last := r.Last()
		if last.Err != nil {
			return last.Err.Error()
		}
		return last.Output
	}
	if got := out(a, "w.value = 5\nb.backward()\nprint(w.value, w.grad)"); got != "5.0 10.0\n" {
		t.Errorf("first run: %q", got)
	}
	// Cell 1 is kept: it does not run again, and w is as cell 1 left it.
	if got := out(a, "print(w.value, w.grad)"); got != "1.0 0.0\n" {
		t.Errorf("after a cell that changed w: %q", got)
	}
	if runs != 1 {
		t.Errorf("cell 1 ran %d times, want once", runs)
	}
	// The same with no kept state at all.
	r := s.Run(kernel.Request{Cells: []string{a, "print(w.value, w.grad)"}, Fresh: true}).Cells
	if r[1].Output != "1.0 0.0\n" {
		t.Errorf("without the cache: %q", r[1].Output)
	}
	// Changing cell 1 runs it again.
	if got := out(a+"\n", "print(w.value)"); got != "1.0\n" || runs != 2 {
		t.Errorf("a changed cell 1: %q, ran %d times", got, runs)
	}
}

// Every lesson gives the same results from kept state as from scratch:
// run each lesson's cells one by one, as a learner going down the page
// does (each run starting from the kept state of the cells above), and
// compare with one run of them all without the cache.
func TestLessonCellsOneByOne(t *testing.T) {
	model := []string{"X, y = moons(20, seed=3)\nw = Value(0.5, \"w\")",
		"def loss_of(ps):\n    return sum([((ps[0] * x[0] - yi) * (ps[0] * x[0] - yi)) for x, yi in zip(X, y)])",
		"step = trace(loss_of, [w])\nlosses = []\nfor k in range(5):\n    losses.append(step([w]))\n    w.value -= 0.01 * w.grad\nprint(losses)",
		"print(w.value, w.grad)\nplot(losses)",
	}
	s := NewSession()
	want := s.Run(kernel.Request{Cells: model, All: true, Fresh: true}).Cells
	for i := range model {
		got := s.Run(kernel.Request{Cells: model[:i+1]}).Last()
		if got.Output != want[i].Output || len(got.Plots) != len(want[i].Plots) {
			t.Errorf("cell %d: %q, want %q", i+1, got.Output, want[i].Output)
		}
	}
	// And again, all from kept state.
	for i := range model {
		if got := s.Run(kernel.Request{Cells: model[:i+1]}).Last(); got.Output != want[i].Output {
			t.Errorf("cell %d again: %q, want %q", i+1, got.Output, want[i].Output)
		}
	}
}
