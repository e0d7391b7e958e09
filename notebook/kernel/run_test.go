package kernel

import (
	"errors"
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"
)

// The kernel's own tests run plain Starlark (and, in parts_test.go, a
// part of their own): no Values, no tensors, no library.

// runAll runs cells in a session of their own, drawing every cell, as
// Run all does.
func runAll(cells ...string) []CellResult {
	return NewSession(nil, nil).Run(Request{Cells: cells, All: true}).Cells
}

func runOne(t *testing.T, src string) CellResult {
	t.Helper()
	return runAll(src)[0]
}

func TestCellsSeeCellsAbove(t *testing.T) {
	cells := []string{"w = 1.0\nprint('one')", "w = w - 0.5\nprint(w)", "print(w * 2)"}
	res := runAll(cells...)
	if res[0].Output != "one\n" || res[1].Output != "0.5\n" || res[2].Output != "1.0\n" {
		t.Errorf("outputs %q %q %q", res[0].Output, res[1].Output, res[2].Output)
	}
	// An error above stops the cells below.
	res = runAll("x = 1", "y = nope", "print(x)", "print(x + 1)")
	if res[1].Err == nil || res[2].Err == nil || !res[2].Err.Above || res[2].Ran {
		t.Fatalf("errors %v / %v", res[1].Err, res[2].Err)
	}
	// Every cell below names the one that stopped them, not its neighbour.
	for _, i := range []int{2, 3} {
		if e := res[i].Err; e == nil || e.Cell != 1 {
			t.Errorf("cell %d is said to be stopped by %v, want cell 2's error", i+1, e)
		}
	}
	if got := res[1].Err.Error(); !strings.Contains(got, "cell 2, line 1") || !strings.Contains(got, "y = nope") || !strings.Contains(got, "undefined: nope") {
		t.Errorf("error reads %q", got)
	}
}

func TestRunawayLoop(t *testing.T) {
	r := NewSession(nil, nil).Run(Request{Cells: []string{"x = 0\nwhile True:\n    x += 1\n"}, Limits: Limits{Time: 200 * time.Millisecond}}).Cells[0]
	if !errors.Is(r.Err, ErrTooLong) {
		t.Errorf("runaway loop: %v does not say it ran too long", r.Err)
	}
	// The line is one of the loop's.
	if r.Err == nil || (r.Err.Line != 2 && r.Err.Line != 3) || !strings.Contains(r.Err.Error(), "cell 1, line") || !strings.Contains(r.Err.Error(), "stopped after 0.2 s: the cell ran too long") {
		t.Errorf("runaway loop: %v", r.Err)
	}
}

// Each cell of a run has the whole budget: Run all of a lesson whose
// cells take most of a minute each must not stop in its third cell, and
// a runaway loop in any cell is still stopped after the budget. The
// cells' time here is a sleep in the Flush hook (called every 1,000
// steps), so that it counts the same on any machine.
func TestEachCellHasTheBudget(t *testing.T) {
	const nap, budget = 40 * time.Millisecond, 600 * time.Millisecond
	flushes := 0
	long := "n = 0\nfor i in range(400):\n    n += 1\n"
	req := Request{
		Cells:  []string{long, long, long, long, long, "x = 0\nwhile True:\n    x += 1\n"},
		All:    true,
		Limits: Limits{Time: budget},
		Hooks:  Hooks{Flush: func() { flushes++; time.Sleep(nap) }},
	}
	res := NewSession(nil, nil).Run(req).Cells
	for i, r := range res[:5] {
		if r.Err != nil {
			t.Errorf("cell %d: %v, want it to run in its own %s", i+1, r.Err, budget)
		}
	}
	if e := res[5].Err; !errors.Is(e, ErrTooLong) || !strings.Contains(e.Error(), "cell 6, line") {
		t.Errorf("the runaway loop in cell 6: %v, want it stopped for running too long", e)
	}
	// The test means something only if the long cells together took
	// longer than one budget.
	if took := time.Duration(flushes) * nap; took < 2*budget {
		t.Errorf("the cells slept %s in all, want more than %s for the test to tell", took, 2*budget)
	}
}

func TestPythonHabits(t *testing.T) {
	for src, want := range map[string]string{
		"x = 2 ** 3":                       "no ** operator",
		"x = 2\nprint(f\"{x}\")":           "no f-strings",
		"class A:\n    pass":               "no classes",
		"import math":                      "no import",
		"assert 1 == 1":                    "use check(actual, expected)",
		"print(\"%.2f\" % 3.14159)":        "round(x, 2)",
		"with torch.no_grad():\n    W = W": "W.data -= lr * W.grad",
	} {
		r := runOne(t, src)
		if r.Err == nil || !strings.Contains(r.Err.Hint, want) {
			t.Errorf("%q: error %v, want a hint with %q", src, r.Err, want)
		}
	}
}

// Print hands over each line as it is printed, with the cell it is in,
// and the results hold the same lines.
func TestPrintStreams(t *testing.T) {
	type line struct {
		cell int
		text string
	}
	var got []line
	res := NewSession(nil, nil).Run(Request{Cells: []string{"print(1)", "for i in range(2):\n    print('step', i)"}, All: true, Hooks: Hooks{Line: func(cell int, text string) { got = append(got, line{cell, text}) }}}).Cells
	want := []line{{0, "1"}, {1, "step 0"}, {1, "step 1"}}
	if len(got) != len(want) {
		t.Fatalf("streamed %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: %v, want %v", i, got[i], want[i])
		}
	}
	if res[1].Output != "step 0\nstep 1\n" {
		t.Errorf("result output %q", res[1].Output)
	}
}

// An error inside a top-level if without else is reported at its line, not
// as an internal error (the rewrite of bindings once gave the if an empty
// else, whose position Starlark cannot take).
func TestErrorInIfWithoutElse(t *testing.T) {
	r := runAll("x = 1", "if x != 0:\n    fail('boom')")
	if e := r[1].Err; e == nil || e.Line != 2 || e.Msg != "fail: boom" {
		t.Fatalf("got %+v", e)
	}
}

// Hints answer the token the parser stopped at, not text elsewhere on the
// line: a ** in a def's parameters or a string after a variable named f
// is no Python habit.
func TestHintsMatchTokens(t *testing.T) {
	for src, bad := range map[string]string{
		"def check(*a, **k):\n    return True\ncheck(1 2)": "no ** operator",
		`a, f = Value(2.0 "a"), Value(1.0, "f")`:           "no f-strings",
		"this_is = 1\nthis_is 2":                           "no is operator",
		"def f(**kw):\n    x = (1\n":                       "no ** operator",
	} {
		r := runOne(t, src)
		if r.Err == nil || strings.Contains(r.Err.Hint, bad) {
			t.Errorf("%q: error %v: the hint %q is wrong here", src, r.Err, r.Err.Hint)
		}
	}
	if r := runOne(t, "x = None\nif x is None:\n    pass"); r.Err == nil || !strings.Contains(r.Err.Hint, "no is operator") {
		t.Errorf("x is None: %v", r.Err)
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

// A bug in a built-in (a panic) is the error of the cell that called it,
// and the cells below it do not run; the next run works.
func TestPanicIsTheRunningCellsError(t *testing.T) {
	s := NewSession(starlark.StringDict{"boom": starlark.NewBuiltin("boom", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
		panic("a bug")
	})}, nil)
	res := s.Run(Request{Cells: []string{"x = 1", "boom()", "print(x)"}, All: true}).Cells
	if e := res[1].Err; e == nil || e.Cell != 1 || !strings.HasPrefix(e.Msg, "internal error in Gradbook: a bug") {
		t.Errorf("cell 2's error: %+v", e)
	}
	if res[0].Err != nil || res[2].Err == nil || !res[2].Err.Above || res[2].Ran {
		t.Errorf("cells 1 and 3: %+v, %+v", res[0].Err, res[2])
	}
	if r := s.Run(Request{Cells: []string{"print(2)"}}).Last(); r.Err != nil || r.Output != "2\n" {
		t.Errorf("the next run: %q %v", r.Output, r.Err)
	}
}
