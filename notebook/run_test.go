package notebook

import (
	"gradbook/notebook/kernel"
	"strings"
	"testing"
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
func runAll(cells ...string) []kernel.CellResult {
	return NewSession().Run(kernel.Request{Cells: cells, All: true}).Cells
}

func runOne(t *testing.T, src string) kernel.CellResult {
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

func TestRunDrawsOnlyItsCell(t *testing.T) {
	cells := []string{"a = Value(2.0, \"a\")\nb = a * a", "c = b + 1\nprint(c.value)"}
	res := NewSession().Run(kernel.Request{Cells: cells}).Cells
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

// Run all after single runs still draws every cell: a cell whose kept
// result has no drawings (it ran above another) runs again.
func TestRunAllAfterSingleRunsDrawsEveryCell(t *testing.T) {
	s := NewSession()
	cells := []string{"a = Value(2.0, \"a\")\nb = a * a", "c = b + 1"}
	s.Run(kernel.Request{Cells: cells})
	res := s.Run(kernel.Request{Cells: cells, All: true}).Cells
	if len(res[0].Drawings) != 1 || len(res[1].Drawings) != 1 {
		t.Errorf("Run all drew %d and %d graphs, want 1 and 1", len(res[0].Drawings), len(res[1].Drawings))
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
