package library_test

import (
	"strings"
	"testing"

	"gradbook/notebook/internal/celltest"
)

// Each built-in, as a learner would call it: the cell's output must
// contain every line of want (or its error must contain err).
func TestBuiltins(t *testing.T) {
	celltest.Cases(t, []celltest.Case{
		{Name: "graphs as tuples", Src: `g = (("p", "mul", ("a", "b")),)
v = evaluate(g, {"a": 2, "b": 5})
print(v["p"], backward(g, v, "p")["a"])`, Want: []string{"10.0 5.0"}},
		{Name: "engine errors read as in JavaScript", Src: `evaluate([["p", "mull", ["a", "b"]]], {"a": 1, "b": 2})`, Err: `node "p": unknown op "mull"`},
		{Name: "math", Src: `print(math.sqrt(16), round(math.pi, 3))`, Want: []string{"4.0 3.142"}},
		{Name: "round", Src: `print(round(2.5), round(3.5), round(2.675, 2), round(-0.5))`, Want: []string{"2 4 2.67 0"}},
		{Name: "check passes and fails", Src: `check(0.1 + 0.2, 0.3)
check(41, 42)
check({"a": 42.0, "b": 1}, {"a": 42})
check([1, 2], [1, 3])`, Want: []string{"✓ 0.1 + 0.2 = 0.3", "✗ 41: got 41, expected 42", `✓ {"a": 42.0, "b": 1}`, "✗ [1, 2]: at [1]: got 2, expected 3"}},
		{Name: "check with a label and tolerance", Src: `check(3.14, 3.1416, tol=1e-3, label="pi")`, Want: []string{"✓ pi = 3.14"}},
		{Name: "grad_check of a function at a kink", Src: `def f(w):
    return Value(w).relu() * 6 + w * 2
r = grad_check(f, 0.0, analytic=2)
print(r["kink"], round(r["left"], 6), round(r["right"], 6), round(r["central"], 6))`, Want: []string{"kink: the left and right differences", "True 2.0 8.0 5.0"}},
		{Name: "grad_check of a graph", Src: `g = [["p", "mul", ["w", "w"]]]
r = grad_check(g, {"w": 3.0}, "p", ["w"])
print(r["w"]["analytic"], r["w"]["kink"])`, Want: []string{"dp/dw:", "6.0 False"}},
		{Name: "show", Src: `a = Value(1.0, "a")
show(a * 2)
show([["q", "add", ["a", "a"]]], {"a": 1.0}, "q")`},
		{Name: "no loading modules", Src: `load("x.star", "y")`, Err: "cannot load modules"},
	})
}

func TestCheckWithNaN(t *testing.T) {
	r := celltest.One(t, `check(1, 1, tol=float("nan"))`+"\n"+`check(float("nan"), float("nan"))`+"\n"+`check(1, 2, tol=float("nan"))`)
	if len(r.Checks) != 3 || !r.Checks[0].Passed || !r.Checks[1].Passed || r.Checks[2].Passed {
		t.Errorf("checks %+v", r.Checks)
	}
}

// check compares strings as strings, and lists and dicts of them; a list
// that holds itself is an error, not an endless comparison.
func TestCheckStrings(t *testing.T) {
	r := celltest.One(t, `check("a", "a")
check(["x"], ["x"])
check({"k": "v"}, {"k": "v"})
check("a", "b")`)
	if r.Err != nil || len(r.Checks) != 4 || !r.Checks[0].Passed || !r.Checks[1].Passed || !r.Checks[2].Passed || r.Checks[3].Passed {
		t.Fatalf("checks %+v, error %v", r.Checks, r.Err)
	}
	if got := r.Checks[3].Text; got != `✗ "a": got "a", expected "b"` {
		t.Errorf("the failed check reads %q", got)
	}
	r = celltest.One(t, "xs = [1]\nxs.append(xs)\ncheck(xs, xs)")
	if r.Err == nil || !strings.Contains(r.Err.Msg, "nested more than 64 deep") {
		t.Errorf("a list that holds itself: %v", r.Err)
	}
}

// check quotes a value nested deeper than a browser's stack would write
// recursively, clipped, without writing it whole (issue 34, finding 1).
func TestCheckQuotesDeepValuesClipped(t *testing.T) {
	r := celltest.One(t, `def deep():
    x = []
    for i in range(50000):
        x = [x]
    return x
check(deep(), 1, label="deep")
check(deep(), [1], label="deeper")`)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if len(r.Output) > 1000 || !strings.Contains(r.Output, "✗ deep: got [[[[") || !strings.Contains(r.Output, "…") {
		t.Errorf("output %.300q… (%d bytes)", r.Output, len(r.Output))
	}
}
