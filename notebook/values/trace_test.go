package values_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"gradbook/notebook"
	"gradbook/notebook/internal/celltest"
	"gradbook/notebook/kernel"
)

// A traced function called with inputs of a new shape records a tape for
// it and keeps it; numbers and nested lists are inputs too.
func TestTraceRetracesForANewShape(t *testing.T) {
	r := celltest.One(t, `w = Value(2.0, "w")
def f(w, xs):
    return sum([w * x for x in xs])
t = trace(f, w, [1.0, 2.0])
print(t(w, [1.0, 2.0]), w.grad, t.tapes)
print(t(w, [1.0, 2.0, 3.0]), w.grad, t.tapes, t.sizes)
print(t(w, [4.0, 5.0]), w.grad, t.tapes, t.nodes)
g = trace(lambda rows: rows[0][0] * rows[1][1], [[1.0, 2.0], [3.0, 4.0]])
print(g([[2.0, 0.0], [0.0, 5.0]]), g.tapes)`)
	want := "6.0 3.0 1\n12.0 6.0 2 [8, 11]\n18.0 9.0 2 8\n10.0 1\n"
	if r.Err != nil || r.Output != want {
		t.Errorf("output %q, want %q; error %v", r.Output, want, r.Err)
	}
	r = celltest.One(t, `t = trace(lambda xs: xs[0] * 2, [Value(1.0)])
print(t(["a"]))`)
	if r.Err == nil || !strings.Contains(r.Err.Msg, "want a Value, a number or a list of them, got a string") && !strings.Contains(r.Err.Msg, "got string") {
		t.Errorf("a string input: %v", r.Err)
	}
}

// A traced function may return a list: its replay computes the list
// forward, as an optimizer's update of every parameter at once. .grads
// gives the gradients with respect to plain numbers too.
func TestTraceListsAndGrads(t *testing.T) {
	r := celltest.One(t, `def update(theta, g, h):
    lr = h[0]
    return [t - lr * gi for t, gi in zip(theta, g)] + [lr * 2]
upd = trace(update, [1.0, 2.0], [0.5, -0.5], [0.1])
print(upd([1.0, 2.0], [0.5, -0.5], [0.1]), upd([0.0, 0.0], [1.0, 1.0], [1.0]))
f = trace(lambda th: th[0] * th[0] + 3 * th[1], [1.0, 1.0])
print(f([2.0, 5.0]), f.grads)
print(trace(lambda x: Value(7.0), Value(1.0))(Value(2.0)))`)
	want := "[0.95, 2.05, 0.2] [-1.0, -1.0, 2.0]\n19.0 [[4.0, 3.0]]\n7.0\n"
	if r.Err != nil || r.Output != want {
		t.Errorf("output %q, want %q; error %v", r.Output, want, r.Err)
	}
	r = celltest.One(t, "u = trace(lambda xs: [xs[0] * 2], [1.0])\nu([2.0])\nprint(u.grads)")
	if r.Err == nil || !strings.Contains(r.Err.Msg, "a function that returns a list has none") {
		t.Errorf(".grads after a list: %v", r.Err)
	}
}

// A traced function that builds its graph from globals, called with
// numbers for a shape it has not seen, is refused: its new tape would hold
// those globals as constants.
func TestTraceRefusesGlobalsForANewShape(t *testing.T) {
	r := celltest.One(t, `ws = [Value(1.0), Value(2.0)]
def f(params, xs):
    return sum([w * x for w, x in zip(ws, xs)])
t = trace(f, ws, [1.0, 1.0])
print(t([3.0, 4.0], [1.0, 1.0]))
print(t([3.0, 4.0], [1.0, 1.0, 1.0]))`)
	if r.Err == nil || !strings.Contains(r.Err.Msg, "f does not use its input 1, which it was called with as numbers: a traced function must build its graph from its inputs") {
		t.Errorf("output %q, error %v", r.Output, r.Err)
	}
}

// The traced loop gives the plain loop's numbers, step for step, on
// micrograd's moons network.
func TestTraceMatchesPlainLoop(t *testing.T) {
	model := celltest.Program(t, "moons")
	steps := 100
	if testing.Short() {
		steps = 5
	}
	loop := func(traced bool) []float64 {
		step := "loss_of(params)\n    L.backward()\n    L = L.value"
		pre := ""
		if traced {
			step = "step(params)"
			pre = "step = trace(loss_of, params)\n"
		}
		src := model + pre + `
for k in range(` + strconv.Itoa(steps) + `):
    L = ` + step + `
    print(repr(L), repr(params[0].grad), repr(params[-1].grad))
    for p in params:
        p.value -= rate(k) * p.grad
`
		r := notebook.NewSession().Run(kernel.Request{Cells: []string{src}, Limits: celltest.Long}).Cells[0]
		if r.Err != nil {
			t.Fatalf("traced %v: %v", traced, r.Err)
		}
		var out []float64
		for _, line := range strings.Fields(strings.Split(r.Output, "(The graph")[0]) {
			f, err := strconv.ParseFloat(line, 64)
			if err != nil {
				t.Fatalf("output %q", line)
			}
			out = append(out, f)
		}
		return out
	}
	plain, traced := loop(false), loop(true)
	if len(plain) != 3*steps || len(traced) != len(plain) {
		t.Fatalf("%d and %d numbers, want %d", len(plain), len(traced), 3*steps)
	}
	for i := range plain {
		if math.Abs(plain[i]-traced[i]) > 1e-12 {
			t.Errorf("step %d, number %d: plain %v, traced %v", i/3, i%3, plain[i], traced[i])
		}
	}
	t.Logf("loss %v after the first step, %v after the last", plain[0], plain[len(plain)-3])
}

func TestTraceRefusesAGraphThatDependsOnTheNumbers(t *testing.T) {
	r := celltest.One(t, `w = Value(1.0)
def f(ps):
    v = ps[0] * 2
    if v.value > 0:
        return v
    return -v
step = trace(f, [w])`)
	if r.Err == nil || !strings.Contains(r.Err.Msg, "f reads the number of a Value while it builds its graph (.value, in cell 1: if v.value > 0:)") {
		t.Fatalf("error %v", r.Err)
	}
	// relu is on the tape: fine.
	r = celltest.One(t, `w = Value(-1.0)
step = trace(lambda ps: (ps[0] * 2).relu(), [w])
print(step([w]), w.grad)
w.value = 3
print(step([w]), w.grad)
print(step([0.5]))`)
	if r.Err != nil || r.Output != "0.0 0.0\n6.0 2.0\n1.0\n" {
		t.Errorf("output %q, error %v", r.Output, r.Err)
	}
}

// A traced function that reads a Value it was not given (a global
// weight) takes it as an input of every call: the replay uses its
// number now and sets its gradient, as the untraced function does
// (issue 34, finding 8); a Value made from such Values (h) is replayed
// from their numbers now. Reading its number while recording is refused,
// with the line: the number read then would stay on the tape.
func TestTraceTakesTheValuesItReadsAsInputs(t *testing.T) {
	r := celltest.One(t, `w = Value(3.0)
b = Value(1.0)
h = b * 2
step = trace(lambda x: x * w + h, Value(2.0))
w.value = 10.0
b.value = 5.0
x = Value(2.0)
print(step(x), w.grad, b.grad, x.grad)
y = x * w + b * 2
y.backward()
print(y.value, w.grad, b.grad, x.grad)
print(step.tapes, step(Value(1.0)), w.grad)`)
	if r.Err != nil || r.Output != "30.0 2.0 2.0 10.0\n30.0 2.0 2.0 10.0\n1 20.0 1.0\n" {
		t.Errorf("output %q, error %v", r.Output, r.Err)
	}
	r = celltest.One(t, `w = Value(3.0)
step = trace(lambda x: x * w.value, Value(2.0))`)
	if r.Err == nil || !strings.Contains(r.Err.Msg, "reads the number of a Value while it builds its graph (.value, in cell 1: step = trace(lambda x: x * w.value, Value(2.0)))") || r.Err.Line != 2 {
		t.Errorf("error %v", r.Err)
	}
}
