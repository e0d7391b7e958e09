package values_test

import (
	"errors"
	"strings"
	"testing"

	"gradbook/engine"
	"gradbook/notebook"
	"gradbook/notebook/draw"
	"gradbook/notebook/internal/celltest"
	"gradbook/notebook/kernel"
)

// A Value, as a learner would use one: the cell's output must contain
// every line of want (or its error must contain err).
func TestValues(t *testing.T) {
	celltest.Cases(t, []celltest.Case{
		{Name: "numbers on either side", Src: `x = Value(3.0, "x")
y = 2 * x + 1 - x / 3 + (1 - x) * 0.5
print(y.value)`, Want: []string{"5.0"}},
		{Name: "unary minus and data alias", Src: `x = Value(2.0)
y = -x
print(y.data, y.value)`, Want: []string{"-2.0 -2.0"}},
		{Name: "methods", Src: `x = Value(0.5, "x")
for name, v in [("relu", x.relu()), ("tanh", x.tanh()), ("exp", x.exp()), ("log", x.log()), ("sigmoid", x.sigmoid()), ("pow", x.pow(3))]:
    print(name, round(v.value, 6))`, Want: []string{"relu 0.5", "tanh 0.462117", "exp 1.648721", "log -0.693147", "sigmoid 0.622459", "pow 0.125"}},
		{Name: "relu at exactly 0 has derivative 0", Src: `x = Value(0.0)
y = x.relu()
y.backward()
print(x.grad)`, Want: []string{"0.0"}},
		{Name: "backward clears, so twice is the same", Src: `x = Value(3.0)
y = x * x
y.backward()
y.backward()
print(x.grad)`, Want: []string{"6.0"}},
		{Name: "the overwrite bug on request", Src: `x = Value(3.0)
y = x * x
y.backward(overwrite=True)
print(x.grad)`, Want: []string{"3.0"}},
		{Name: "detach", Src: `w = Value(1.0)
p = w * 2
y = p + detach(p)
y.backward()
print(w.grad, p.grad)`, Want: []string{"2.0 1.0"}},
		{Name: "division by zero", Src: `x = Value(1.0)
y = x / (x - 1)`, Err: "division by zero"},
		{Name: "log of a non-positive number", Src: `Value(-1.0).log()`, Err: "log of a non-positive number"},
		{Name: "Value wants a number", Src: `Value("3")`, Err: "Value: want a number, got string"},
		{Name: "a graph too big to draw says so", Src: `x = Value(0.5)
y = x
for i in range(200):
    y = y.tanh()
y.backward()`, Want: []string{"(The graph has 201 values, too many to draw: drawings show up to 150.)"}},
	})
}

func TestRunDrawsOnlyItsCell(t *testing.T) {
	cells := []string{"a = Value(2.0, \"a\")\nb = a * a", "c = b + 1\nprint(c.value)"}
	res := notebook.NewSession().Run(kernel.Request{Cells: cells}).Cells
	if r := res[1]; r.Output != "5.0\n" || len(r.Drawings) != 1 || r.Drawings[0].Nodes[r.Drawings[0].Out].Label != "c" {
		t.Errorf("the cell: %q, %d drawings", r.Output, len(r.Drawings))
	}
	if len(res[0].Drawings) != 0 {
		t.Errorf("the cell above drew %d graphs", len(res[0].Drawings))
	}
	if all := celltest.Run(cells...); len(all[0].Drawings) != 1 || len(all[1].Drawings) != 1 {
		t.Errorf("Run draws every cell: %d and %d drawings", len(all[0].Drawings), len(all[1].Drawings))
	}
}

// Run all after single runs still draws every cell: a cell whose kept
// result has no drawings (it ran above another) runs again.
func TestRunAllAfterSingleRunsDrawsEveryCell(t *testing.T) {
	s := notebook.NewSession()
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
	r := celltest.One(t, `a = Value(2.0, "a")
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
	r = celltest.One(t, `a = Value(2.0, "a")
L = a * a
L.backward()
a.value += 0.1
after = a * 3`)
	if d := r.Drawings[0]; !strings.Contains(d.Title, "The graph behind after: gradients as after.backward() would give them") {
		t.Errorf("a graph never run backward from: %q", d.Title)
	}
	if r := celltest.One(t, "w = Value(0.0)"); len(r.Drawings) != 0 {
		t.Errorf("a single value is drawn: %+v", r.Drawings[0].Title)
	}
	if r := celltest.One(t, "w = Value(0.0, \"w\")\nshow(w)"); len(r.Drawings) != 1 {
		t.Error("a value shown is not drawn")
	}
}

// A cell under unchanged cells starts from their kept state: they do not
// run again, and nothing a later cell did leaks back.
func TestKeptStateIsInvisible(t *testing.T) {
	s := notebook.NewSession()
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

// backward(accumulate=True) adds onto the gradients already there, as
// PyTorch's does without zero_grad; recursive=True is the visiting-order
// bug: b = a + a; c = b + b gives a 8.
func TestBackwardBugs(t *testing.T) {
	r := celltest.One(t, `a = Value(3.0, "a")
y = a * a
y.backward()
first = a.grad
y.backward(accumulate=True)
print(first, a.grad)
b = a + a
c = b + b
c.backward(recursive=True)
print(a.grad)
c.backward()
print(a.grad)`)
	if r.Err != nil || r.Output != "6.0 12.0\n8.0\n4.0\n" {
		t.Errorf("output %q, error %v", r.Output, r.Err)
	}
}

// A recursive backward through a graph with too many paths stops with an
// error that says why, and leaves the gradients as they were, instead of
// handing back a pass cut short.
func TestRecursiveBackwardTooManyPaths(t *testing.T) {
	r := celltest.One(t, `a = Value(1.0, "a")
y = a * 2
y.backward()
print(a.grad)
for i in range(20):
    y = y + y
y.backward(recursive=True)`)
	if r.Err == nil || !strings.Contains(r.Err.Msg, "too many paths (over 200,000 visits)") {
		t.Fatalf("error %v, want one about the recursion's visits", r.Err)
	}
	if r.Output != "2.0\n" {
		t.Errorf("output %q", r.Output)
	}
}

// max over Values is on the graph: the gradient goes to the largest, and a
// traced softmax that subtracts detach(max(…)) replays with new numbers.
func TestMaxOfValues(t *testing.T) {
	r := celltest.One(t, `a, b = Value(1.0, "a"), Value(3.0, "b")
m = max([a, b, 2.0])
m.backward()
print(m.value, a.grad, b.grad, max(1, 5, 2), max([3, 4]))
def sm0(xs):
    top = detach(max(xs))
    exps = [(x - top).exp() for x in xs]
    return exps[0] / sum(exps)
t = trace(sm0, [Value(0.0), Value(0.0)])
print(t([0.0, 0.0]), round(t([1000.0, 1000.0 + math.log(3)]), 12))`)
	if r.Err != nil || r.Output != "3.0 0.0 1.0 5 4\n0.5 0.25\n" {
		t.Errorf("output %q, error %v", r.Output, r.Err)
	}
	r = celltest.One(t, `def sm0(xs):
    top = max([x.value for x in xs])
    return xs[0] - top
t = trace(sm0, [Value(0.0), Value(1.0)])`)
	if r.Err == nil || !strings.Contains(r.Err.Msg, "detach(max(xs)) rather than max of the .value of each") {
		t.Errorf("a max of .value under trace: %v", r.Err)
	}
}

// The lesson's two-path network: 12 and 4 arrive at p and make 16; the
// paths from w add up to 32; the overwrite bug loses one of them.
func TestDrawingTwoPath(t *testing.T) {
	r := celltest.One(t, `x, w, b, v = Value(2.0, "x"), Value(1.0, "w"), Value(-1.0, "b"), Value(3.0, "v")
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

// A cell that makes more Values than Limits.Values is stopped at the line
// that makes them, and the next run works.
func TestTooManyValues(t *testing.T) {
	s := notebook.NewSession()
	limits := kernel.Limits{Values: 10_000}
	r := s.Run(kernel.Request{Cells: []string{"xs = []\nwhile True:\n    xs.append(Value(1.0) * 2)"}, Limits: limits}).Last()
	if !errors.Is(r.Err, kernel.ErrTooManyValues) || r.Err.Line != 3 || !strings.Contains(r.Err.Msg, "more than 10,000 Values") {
		t.Errorf("error %+v", r.Err)
	}
	if r := s.Run(kernel.Request{Cells: []string{"print(Value(1.0) + 1)"}, Limits: limits}).Last(); r.Err != nil || r.Output != "Value(data=2, grad=0)\n" {
		t.Errorf("the next run: %q %v", r.Output, r.Err)
	}
}

// A Value's attributes come from one table: every name dir() lists can be
// read, and a field that cannot be set says which can.
func TestValueAttributes(t *testing.T) {
	r := celltest.One(t, `v = Value(0.5, "v")
print(dir(v))
print([n for n in dir(v) if type(getattr(v, n)) != "builtin_function_or_method"], v.op, v.label)
v.op = "add"`)
	want := `["backward", "data", "detach", "exp", "grad", "label", "log", "op", "pow", "relu", "sigmoid", "tanh", "value"]` + "\n" + `["data", "grad", "label", "op", "value"]  v` + "\n"
	if r.Output != want {
		t.Errorf("output %q, want %q", r.Output, want)
	}
	if r.Err == nil || r.Err.Msg != "Value has no settable field .op (.value, .data, .grad and .label can be set)" {
		t.Errorf("error %v", r.Err)
	}
}

// A misspelt field is answered with the nearest name.
func TestValueMisspeltField(t *testing.T) {
	r := celltest.One(t, "v = Value(1.0)\nv.valeu = 2")
	if r.Err == nil || !strings.Contains(r.Err.Msg, "Value has no settable field .valeu (.value, .data, .grad and .label can be set) (did you mean .value?)") {
		t.Errorf("error %v", r.Err)
	}
}
