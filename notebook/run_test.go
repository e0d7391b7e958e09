package notebook

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// The two examples every cell must run as typed.
const valueExample = `a = Value(2.0, "a"); b = Value(3.0, "b"); c = Value(1.0, "c")
u = a*b + c
L = u*u
L.backward()
print(a.grad, b.grad, c.grad)`

const listExample = `g = [["p", "mul", ["a", "b"]], ["u", "add", ["p", "c"]], ["L", "sq", ["u"]]]
vals = evaluate(g, {"a": 2.0, "b": 3.0, "c": 1.0})
print(backward(g, vals, "L"))`

// runAll runs cells in a session of their own, drawing every cell, as
// Run all does.
func runAll(cells ...string) []CellResult {
	return NewSession().Run(Request{Cells: cells, All: true}).Cells
}

func runOne(t *testing.T, src string) CellResult {
	t.Helper()
	return runAll(src)[0]
}

func TestExamples(t *testing.T) {
	r := runOne(t, valueExample)
	if r.Err != nil || r.Output != "42.0 28.0 14.0\n" {
		t.Errorf("Value example: output %q, error %v", r.Output, r.Err)
	}
	if len(r.Drawings) != 1 || r.Drawings[0].Nodes[r.Drawings[0].Out].Label != "L" {
		t.Errorf("Value example: drawings %+v", r.Drawings)
	}
	r = runOne(t, listExample)
	want := `{"a": 42.0, "b": 28.0, "c": 14.0, "p": 14.0, "u": 14.0, "L": 1.0}` + "\n"
	if r.Err != nil || r.Output != want {
		t.Errorf("list example: output %q, error %v", r.Output, r.Err)
	}
}

func TestCellsSeeCellsAbove(t *testing.T) {
	cells := []string{"w = 1.0\nprint('one')", "w = w - 0.5\nprint(w)", "print(w * 2)"}
	res := runAll(cells...)
	if res[0].Output != "one\n" || res[1].Output != "0.5\n" || res[2].Output != "1.0\n" {
		t.Errorf("outputs %q %q %q", res[0].Output, res[1].Output, res[2].Output)
	}
	// An error above stops the cells below.
	res = runAll("x = 1", "y = nope", "print(x)")
	if res[1].Err == nil || res[2].Err == nil || !res[2].Err.Above || res[2].Ran {
		t.Fatalf("errors %v / %v", res[1].Err, res[2].Err)
	}
	if got := res[1].Err.Error(); !strings.Contains(got, "cell 2, line 1") || !strings.Contains(got, "y = nope") || !strings.Contains(got, "undefined: nope") {
		t.Errorf("error reads %q", got)
	}
}

func TestRunawayLoop(t *testing.T) {
	r := NewSession().Run(Request{Cells: []string{"x = 0\nwhile True:\n    x += 1\n"}, Limits: Limits{Time: 200 * time.Millisecond}}).Cells[0]
	if !errors.Is(r.Err, ErrTooLong) {
		t.Errorf("runaway loop: %v does not say it ran too long", r.Err)
	}
	// The line is one of the loop's.
	if r.Err == nil || (r.Err.Line != 2 && r.Err.Line != 3) || !strings.Contains(r.Err.Error(), "cell 1, line") || !strings.Contains(r.Err.Error(), "stopped after 0.2 s: the cell ran too long") {
		t.Errorf("runaway loop: %v", r.Err)
	}
}

func TestPythonHabits(t *testing.T) {
	for src, want := range map[string]string{
		"x = 2 ** 3":                "no ** operator",
		"x = 2\nprint(f\"{x}\")":    "no f-strings",
		"class A:\n    pass":        "no classes",
		"import math":               "no import",
		"assert 1 == 1":             "use check(actual, expected)",
		"print(\"%.2f\" % 3.14159)": "round(x, 2)",
	} {
		r := runOne(t, src)
		if r.Err == nil || !strings.Contains(r.Err.Hint, want) {
			t.Errorf("%q: error %v, want a hint with %q", src, r.Err, want)
		}
	}
}

func TestRunDrawsOnlyItsCell(t *testing.T) {
	cells := []string{"a = Value(2.0, \"a\")\nb = a * a", "c = b + 1\nprint(c.value)"}
	res := NewSession().Run(Request{Cells: cells}).Cells
	if r := res[1]; r.Output != "5.0\n" || len(r.Drawings) != 1 || r.Drawings[0].Nodes[r.Drawings[0].Out].Label != "c" {
		t.Errorf("the cell: %q, %d drawings", r.Output, len(r.Drawings))
	}
	if len(res[0].Drawings) != 0 {
		t.Errorf("the cell above drew %d graphs", len(res[0].Drawings))
	}
	if all := runAll(cells...); len(all[0].Drawings) != 1 || len(all[1].Drawings) != 1 {
		t.Errorf("Run draws every cell: %d and %d drawings", len(all[0].Drawings), len(all[1].Drawings))
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
	res := NewSession().Run(Request{Cells: []string{"print(1)", "for i in range(2):\n    print('step', i)"}, All: true, Print: func(cell int, text string) { got = append(got, line{cell, text}) }}).Cells
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

// Run all after single runs still draws every cell: a cell whose kept
// result has no drawings (it ran above another) runs again.
func TestRunAllAfterSingleRunsDrawsEveryCell(t *testing.T) {
	s := NewSession()
	cells := []string{"a = Value(2.0, \"a\")\nb = a * a", "c = b + 1"}
	s.Run(Request{Cells: cells})
	res := s.Run(Request{Cells: cells, All: true}).Cells
	if len(res[0].Drawings) != 1 || len(res[1].Drawings) != 1 {
		t.Errorf("Run all drew %d and %d graphs, want 1 and 1", len(res[0].Drawings), len(res[1].Drawings))
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

// A drawing never contradicts the program: after backward it shows the
// gradients backward set, even once the code changed a value; a Value
// never run backward from says its gradients are what backward would
// give; a single value is not drawn unless asked for.
func TestDrawingsShowTheProgramsState(t *testing.T) {
	r := runOne(t, `a = Value(2.0, "a")
L = a * a
L.backward()
a.value += 0.1
print(a.grad)`)
	d := r.Drawings[0]
	var ga float64
	for _, n := range d.Nodes {
		if n.Label == "a" {
			ga = n.Grad
		}
	}
	if r.Output != "4.0\n" || ga != 4 || !strings.Contains(d.Title, "with the gradients L.backward() set") {
		t.Errorf("after backward and a change: a.grad %q, drawn %v, %q", r.Output, ga, d.Title)
	}
	r = runOne(t, `a = Value(2.0, "a")
L = a * a
L.backward()
a.value += 0.1
after = a * 3`)
	if d := r.Drawings[0]; !strings.Contains(d.Title, "The graph behind after: gradients as after.backward() would give them") {
		t.Errorf("a graph never run backward from: %q", d.Title)
	}
	if r := runOne(t, "w = Value(0.0)"); len(r.Drawings) != 0 {
		t.Errorf("a single value is drawn: %+v", r.Drawings[0].Title)
	}
	if r := runOne(t, "w = Value(0.0, \"w\")\nshow(w)"); len(r.Drawings) != 1 {
		t.Error("a value shown is not drawn")
	}
}
