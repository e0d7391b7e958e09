package notebook

import (
	"strings"
	"testing"
)

// Each built-in, as a learner would call it: the cell's output must
// contain every line of want (or its error must contain err).
func TestBuiltins(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
		err       string
	}{
		{"graphs as tuples", `g = (("p", "mul", ("a", "b")),)
v = evaluate(g, {"a": 2, "b": 5})
print(v["p"], backward(g, v, "p")["a"])`, []string{"10.0 5.0"}, ""},
		{"engine errors read as in JavaScript", `evaluate([["p", "mull", ["a", "b"]]], {"a": 1, "b": 2})`, nil, `node "p": unknown op "mull"`},
		{"math", `print(math.sqrt(16), round(math.pi, 3))`, []string{"4.0 3.142"}, ""},
		{"round", `print(round(2.5), round(3.5), round(2.675, 2), round(-0.5))`, []string{"2 4 2.67 0"}, ""},
		{"check passes and fails", `check(0.1 + 0.2, 0.3)
check(41, 42)
check({"a": 42.0, "b": 1}, {"a": 42})
check([1, 2], [1, 3])`, []string{"✓ 0.1 + 0.2 = 0.3", "✗ 41: got 41, expected 42", `✓ {"a": 42.0, "b": 1}`, "✗ [1, 2]: at [1]: got 2, expected 3"}, ""},
		{"check with a label and tolerance", `check(3.14, 3.1416, tol=1e-3, label="pi")`, []string{"✓ pi = 3.14"}, ""},
		{"grad_check of a function at a kink", `def f(w):
    return Value(w).relu() * 6 + w * 2
r = grad_check(f, 0.0, analytic=2)
print(r["kink"], round(r["left"], 6), round(r["right"], 6), round(r["central"], 6))`, []string{"kink: the left and right differences", "True 2.0 8.0 5.0"}, ""},
		{"grad_check of a graph", `g = [["p", "mul", ["w", "w"]]]
r = grad_check(g, {"w": 3.0}, "p", ["w"])
print(r["w"]["analytic"], r["w"]["kink"])`, []string{"dp/dw:", "6.0 False"}, ""},
		{"show", `a = Value(1.0, "a")
show(a * 2)
show([["q", "add", ["a", "a"]]], {"a": 1.0}, "q")`, nil, ""},
		{"no loading modules", `load("x.star", "y")`, nil, "cannot load modules"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runOne(t, tc.src)
			if tc.err != "" {
				if r.Err == nil || !strings.Contains(r.Err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q (output %q)", r.Err, tc.err, r.Output)
				}
				return
			}
			if r.Err != nil {
				t.Fatalf("error: %v", r.Err)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.Output, w) {
					t.Errorf("output %q lacks %q", r.Output, w)
				}
			}
		})
	}
}

func TestShowDraws(t *testing.T) {
	r := runOne(t, `a = Value(1.0, "a")
show(a * 2)
show([["q", "add", ["a", "a"]]], {"a": 1.0}, "q")`)
	if len(r.Drawings) != 2 {
		t.Fatalf("%d drawings, want 2", len(r.Drawings))
	}
	d := r.Drawings[1]
	if len(d.Edges) != 2 || d.Nodes[d.Out].Label != "q" || d.Nodes[0].Grad != 2 {
		t.Errorf("x+x drawing: %+v", d)
	}
}

// sum adds as Python's sum does, on its fast path (one list) and its
// general one alike.
func TestSum(t *testing.T) {
	for _, c := range []struct{ name, src, out, err string }{
		{"empty list", "print(sum([]))", "0\n", ""},
		{"numbers", "print(sum([1, 2.5]), sum((1, 2)), sum([1, 2], 10), sum([1], start=0.5))", "3.5 3 13 1.5\n", ""},
		{"Values", "a, b = Value(2.0), Value(3.0)\ns = sum([a, b, 1])\ns.backward()\nprint(s.value, a.grad, s.op)", "6.0 1.0 add\n", ""},
		{"generator-free iterable", "print(sum(range(4)))", "6\n", ""},
		{"a string in the list", "sum([Value(1.0), \"x\"])", "", "sum: unknown binary op: Value + string"},
		{"no argument", "sum()", "", "sum: missing argument for xs"},
	} {
		r := runOne(t, c.src)
		switch {
		case c.err == "" && (r.Err != nil || r.Output != c.out):
			t.Errorf("%s: output %q, error %v; want %q", c.name, r.Output, r.Err, c.out)
		case c.err != "" && (r.Err == nil || r.Err.Msg != c.err):
			t.Errorf("%s: error %v; want %q", c.name, r.Err, c.err)
		}
	}
}
