package notebook

import (
	"os"
	"strings"
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
		r := s.Run(Request{Cells: cells, Print: count})
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
	r := s.Run(Request{Cells: []string{a, "print(w.value, w.grad)"}, Fresh: true}).Cells
	if r[1].Output != "1.0 0.0\n" {
		t.Errorf("without the cache: %q", r[1].Output)
	}
	// Changing cell 1 runs it again.
	if got := out(a+"\n", "print(w.value)"); got != "1.0\n" || runs != 2 {
		t.Errorf("a changed cell 1: %q, ran %d times", got, runs)
	}
}

func TestCellsShareOneEnvironment(t *testing.T) {
	for _, tc := range []struct {
		cells []string
		want  string
	}{
		// A function reads a global's latest value, as in Python.
		{[]string{"def f():\n    return k * 2", "k = 3\nprint(f())", "k = 5\nprint(f())"}, "10\n"},
		// Even one a later cell assigns first.
		{[]string{"def g():\n    return later + 1", "later = 1\nprint(g())"}, "2\n"},
		{[]string{"a, (b, c) = 1, (2, 3)\nfor i, j in [(4, 5)]:\n    pass\nx = 1\nx += 1", "print(a, b, c, i, j, x)"}, "1 2 3 4 5 2\n"},
		{[]string{"print(z)", "z = 1"}, "z is not defined yet: cell 2, below this one, assigns it"},
		{[]string{"y = y + 1"}, "y is used before this cell assigns it"},
		{[]string{"xs = [1]", "xs.append(2)"}, "a cell cannot change a list or dict that a cell above made"},
		{[]string{"xs = [1]", "xs = list(xs)\nxs.append(2)\nprint(xs)"}, "[1, 2]\n"},
	} {
		r := runAll(tc.cells...)
		got := r[len(r)-1].Output
		for _, c := range r {
			if c.Err != nil {
				got = c.Err.Error()
				break
			}
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("%q: got %q, want %q", tc.cells, got, tc.want)
		}
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
	want := s.Run(Request{Cells: model, All: true, Fresh: true}).Cells
	for i := range model {
		got := s.Run(Request{Cells: model[:i+1]}).Last()
		if got.Output != want[i].Output || len(got.Plots) != len(want[i].Plots) {
			t.Errorf("cell %d: %q, want %q", i+1, got.Output, want[i].Output)
		}
	}
	// And again, all from kept state.
	for i := range model {
		if got := s.Run(Request{Cells: model[:i+1]}).Last(); got.Output != want[i].Output {
			t.Errorf("cell %d again: %q, want %q", i+1, got.Output, want[i].Output)
		}
	}
}

// Keeping the state after a cell that holds the moons network's loss.
func BenchmarkTake(b *testing.B) {
	model, err := os.ReadFile("testdata/moons.star")
	if err != nil {
		b.Fatal(err)
	}
	ss := NewSession()
	ss.Run(Request{Cells: []string{string(model) + "\nL = loss_of(params)\nL.backward()"}})
	s := ss.kept.list[len(ss.kept.list)-1]
	b.ReportMetric(float64(len(s.values)), "values")
	for b.Loop() {
		take(s.lin, s.srcs, s.res, nil)
	}
}
