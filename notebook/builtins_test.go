package notebook

import (
	"strings"
	"testing"

	"gradbook/engine"
	"gradbook/notebook/draw"
)

// Each built-in, as a learner would call it: the cell's output must
// contain every line of want (or its error must contain err).
func TestBuiltins(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
		err       string
	}{
		{"numbers on either side", `x = Value(3.0, "x")
y = 2 * x + 1 - x / 3 + (1 - x) * 0.5
print(y.value)`, []string{"5.0"}, ""},
		{"unary minus and data alias", `x = Value(2.0)
y = -x
print(y.data, y.value)`, []string{"-2.0 -2.0"}, ""},
		{"methods", `x = Value(0.5, "x")
for name, v in [("relu", x.relu()), ("tanh", x.tanh()), ("exp", x.exp()), ("log", x.log()), ("sigmoid", x.sigmoid()), ("pow", x.pow(3))]:
    print(name, round(v.value, 6))`, []string{"relu 0.5", "tanh 0.462117", "exp 1.648721", "log -0.693147", "sigmoid 0.622459", "pow 0.125"}, ""},
		{"relu at exactly 0 has derivative 0", `x = Value(0.0)
y = x.relu()
y.backward()
print(x.grad)`, []string{"0.0"}, ""},
		{"backward clears, so twice is the same", `x = Value(3.0)
y = x * x
y.backward()
y.backward()
print(x.grad)`, []string{"6.0"}, ""},
		{"the overwrite bug on request", `x = Value(3.0)
y = x * x
y.backward(overwrite=True)
print(x.grad)`, []string{"3.0"}, ""},
		{"detach", `w = Value(1.0)
p = w * 2
y = p + detach(p)
y.backward()
print(w.grad, p.grad)`, []string{"2.0 1.0"}, ""},
		{"graphs as tuples", `g = (("p", "mul", ("a", "b")),)
v = evaluate(g, {"a": 2, "b": 5})
print(v["p"], backward(g, v, "p")["a"])`, []string{"10.0 5.0"}, ""},
		{"engine errors read as in JavaScript", `evaluate([["p", "mull", ["a", "b"]]], {"a": 1, "b": 2})`, nil, `node "p": unknown op "mull"`},
		{"division by zero", `x = Value(1.0)
y = x / (x - 1)`, nil, "division by zero"},
		{"log of a non-positive number", `Value(-1.0).log()`, nil, "log of a non-positive number"},
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
		{"Value wants a number", `Value("3")`, nil, "Value: want a number, got string"},
		{"a graph too big to draw says so", `x = Value(0.5)
y = x
for i in range(200):
    y = y.tanh()
y.backward()`, []string{"(The graph has 201 values, too many to draw: drawings show up to 150.)"}, ""},
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

// The lesson's two-path network: 12 and 4 arrive at p and make 16; the
// paths from w add up to 32; the overwrite bug loses one of them.
func TestDrawingTwoPath(t *testing.T) {
	r := runOne(t, `x, w, b, v = Value(2.0, "x"), Value(1.0, "w"), Value(-1.0, "b"), Value(3.0, "v")
p = w * x
h = (p + b).relu()
y = v * h + p
e = y - 1
loss = 0.5 * e * e
loss.backward()`)
	if r.Err != nil || len(r.Drawings) != 1 {
		t.Fatalf("%v %d", r.Err, len(r.Drawings))
	}
	d := r.Drawings[0]
	p := -1
	for s, n := range d.Nodes {
		if n.Label == "p" {
			p = s
		}
	}
	var into []float64
	for _, e := range d.Edges {
		if e.From == p {
			into = append(into, e.Contribution)
		}
	}
	if len(into) != 2 || into[0]+into[1] != 16 || !(into[0] == 12 || into[1] == 12) {
		t.Errorf("contributions reaching p: %v, want 12 and 4", into)
	}
	w := 0
	for s, n := range d.Nodes {
		if n.Label == "w" {
			w = s
		}
	}
	paths, total := d.PathsTo(w)
	sum := 0.0
	for _, pa := range paths {
		sum += pa.Product
	}
	// w reaches p, p reaches y two ways, and e is used twice in e·e.
	if total != 4 || len(paths) != 4 || sum != 32 {
		t.Errorf("paths from w: %d, sum %v; want 4 summing to 32", len(paths), sum)
	}
	if !strings.Contains(d.PathsHTML(w), "Sum of the paths: 32") {
		t.Errorf("paths text: %s", d.PathsHTML(w))
	}
	// Every node is visited once by the step-through, from loss back.
	nodes := 0
	for _, n := range d.Nodes {
		if n.Op != "" {
			nodes++
		}
	}
	if len(d.Steps) != nodes || d.Steps[0].Node != d.Out {
		t.Errorf("%d steps for %d nodes", len(d.Steps), len(d.Nodes))
	}
	if g := d.GradsAfter(len(d.Steps)); g[p] != 16 || g[w] != 32 {
		t.Errorf("after the whole pass: p %v w %v", g[p], g[w])
	}
	if !strings.Contains(d.StepText(1), "Step 1 of") {
		t.Errorf("step text: %s", d.StepText(1))
	}
	svg := d.SVG(draw.View{ID: "t", Bug: engine.OverwriteBug})
	if !strings.Contains(svg, `role="img"`) || !strings.Contains(svg, "<desc") || !strings.Contains(svg, "bug:") {
		t.Errorf("svg lacks its text alternative or the overwrite toggle")
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
