package notebook

import (
	"testing"

	"gradbook/notebook/kernel"
)

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
