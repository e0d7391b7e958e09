package notebook

import (
	"testing"

	"gradbook/notebook/kernel"
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
