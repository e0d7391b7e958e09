package engine

import (
	"fmt"
	"math"
	"testing"
)

// twoPath is the lessons' two-path network: p=w·x, z=p+b, h=relu(z),
// q=v·h, y=q+p, e=y−target, loss=½e². With detach, the direct path uses a
// stop-gradient copy of p; without direct, y=q.
func twoPath(detach, direct bool) Graph {
	g := Graph{
		{Name: "p", Op: "mul", Inputs: []string{"w", "x"}},
		{Name: "z", Op: "add", Inputs: []string{"p", "b"}},
		{Name: "h", Op: "relu", Inputs: []string{"z"}},
		{Name: "q", Op: "mul", Inputs: []string{"v", "h"}},
	}
	switch {
	case !direct:
		g = append(g, Node{Name: "y", Op: "add", Inputs: []string{"q", "zero"}})
	case detach:
		g = append(g, Node{Name: "skip", Op: "detach", Inputs: []string{"p"}},
			Node{Name: "y", Op: "add", Inputs: []string{"q", "skip"}})
	default:
		g = append(g, Node{Name: "y", Op: "add", Inputs: []string{"q", "p"}})
	}
	return append(g,
		Node{Name: "e", Op: "sub", Inputs: []string{"y", "target"}},
		Node{Name: "e2", Op: "sq", Inputs: []string{"e"}},
		Node{Name: "loss", Op: "mul", Inputs: []string{"half", "e2"}},
	)
}

func twoPathLeaves(w, b, v float64) map[string]float64 {
	return map[string]float64{"x": 2, "target": 1, "w": w, "b": b, "v": v, "half": 0.5, "zero": 0}
}

func mustRun(t *testing.T, g Graph, leaves map[string]float64, out string) (vals, grads map[string]float64) {
	t.Helper()
	vals, err := Evaluate(g, leaves)
	if err != nil {
		t.Fatal(err)
	}
	grads, err = Backward(g, vals, out)
	if err != nil {
		t.Fatal(err)
	}
	return vals, grads
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func expect(t *testing.T, what string, got map[string]float64, want map[string]float64) {
	t.Helper()
	for k, w := range want {
		g, ok := got[k]
		if !ok || !near(g, w, 1e-9) {
			t.Errorf("%s of %s = %v (present %v), want %v", what, k, g, ok, w)
		}
	}
}

func TestLessonNumbers(t *testing.T) {
	tests := []struct {
		name        string
		g           Graph
		leaves      map[string]float64
		out         string
		vals, grads map[string]float64
	}{
		{
			name:   "worked example p=a*b u=p+c L=u²",
			g:      Graph{{"p", "mul", []string{"a", "b"}, 0}, {"u", "add", []string{"p", "c"}, 0}, {"L", "sq", []string{"u"}, 0}},
			leaves: map[string]float64{"a": 2, "b": 3, "c": 1, "unused": 5},
			out:    "L",
			vals:   map[string]float64{"u": 7, "L": 49},
			grads:  map[string]float64{"a": 42, "b": 28, "c": 14, "u": 14, "L": 1, "unused": 0},
		},
		{
			name:   "x*x at 3",
			g:      Graph{{"y", "mul", []string{"x", "x"}, 0}},
			leaves: map[string]float64{"x": 3},
			out:    "y",
			grads:  map[string]float64{"x": 6},
		},
		{
			name:   "x+x",
			g:      Graph{{"y", "add", []string{"x", "x"}, 0}},
			leaves: map[string]float64{"x": 3},
			out:    "y",
			grads:  map[string]float64{"x": 2},
		},
		{
			name:   "x*x+x is 2x+1",
			g:      Graph{{"s", "mul", []string{"x", "x"}, 0}, {"y", "add", []string{"s", "x"}, 0}},
			leaves: map[string]float64{"x": 4},
			out:    "y",
			grads:  map[string]float64{"x": 9},
		},
		{
			name:   "a=w·x, L=a·a+a",
			g:      Graph{{"a", "mul", []string{"w", "x"}, 0}, {"aa", "mul", []string{"a", "a"}, 0}, {"L", "add", []string{"aa", "a"}, 0}},
			leaves: map[string]float64{"w": 2, "x": 3},
			out:    "L",
			vals:   map[string]float64{"a": 6, "L": 42},
			grads:  map[string]float64{"a": 13, "w": 39},
		},
		{
			name: "L=(w·x+b−y)²",
			g: Graph{{"wx", "mul", []string{"w", "x"}, 0}, {"s", "add", []string{"wx", "b"}, 0},
				{"r", "sub", []string{"s", "y"}, 0}, {"L", "sq", []string{"r"}, 0}},
			leaves: map[string]float64{"w": 2, "x": 3, "b": 1, "y": 5},
			out:    "L",
			vals:   map[string]float64{"L": 4},
			grads:  map[string]float64{"w": 12, "x": 8, "b": 4, "y": -4},
		},
		{
			name:   "L=(a·b+a)²",
			g:      Graph{{"ab", "mul", []string{"a", "b"}, 0}, {"s", "add", []string{"ab", "a"}, 0}, {"L", "sq", []string{"s"}, 0}},
			leaves: map[string]float64{"a": 2, "b": 3},
			out:    "L",
			vals:   map[string]float64{"L": 64},
			grads:  map[string]float64{"a": 64, "b": 32},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkNumbers(t, tc.g, tc.leaves, tc.out, tc.vals, tc.grads)
		})
	}
}

// halfSquaredError is the lessons' single neuron's loss: p=w·x+b,
// L=½(p−y)².
var halfSquaredError = Graph{{"wx", "mul", []string{"w", "x"}, 0}, {"p", "add", []string{"wx", "b"}, 0},
	{"r", "sub", []string{"p", "y"}, 0}, {"L", "pow", []string{"r"}, 2}, {"loss", "mul", []string{"half", "L"}, 0}}

// The lessons' single neuron, at w=1 b=0, on each of their examples
// (x, y): its loss and the gradients of w and b.
func TestSingleNeuronNumbers(t *testing.T) {
	for _, tc := range []struct{ x, y, loss, dw, db float64 }{
		{2, 5, 4.5, -6, -3},
		{3, 4, 0.5, -3, -1},
	} {
		t.Run(fmt.Sprintf("p=w·x+b, L=½(p−y)² at x=%v y=%v", tc.x, tc.y), func(t *testing.T) {
			leaves := map[string]float64{"x": tc.x, "y": tc.y, "w": 1, "b": 0, "half": 0.5}
			checkNumbers(t, halfSquaredError, leaves, "loss", map[string]float64{"loss": tc.loss}, map[string]float64{"w": tc.dw, "b": tc.db})
		})
	}
}

// The lessons' two-path network, by whether the direct path is detached
// or there at all, and by the weights w, b, v.
func TestTwoPathNumbers(t *testing.T) {
	for _, tc := range []struct {
		name           string
		detach, direct bool
		w, b, v        float64
		vals, grads    map[string]float64
	}{
		{"two-path network", false, true, 1, -1, 3,
			map[string]float64{"p": 2, "z": 1, "h": 1, "q": 3, "y": 5, "e": 4, "loss": 8},
			map[string]float64{"p": 16, "w": 32, "b": 12, "v": 4, "x": 16, "h": 12, "q": 4, "y": 4}},
		{"direct path detached", true, true, 1, -1, 3, map[string]float64{"loss": 8}, map[string]float64{"w": 24, "skip": 4, "p": 12}},
		{"without the direct path", false, false, 1, -1, 3, map[string]float64{"loss": 2}, map[string]float64{"w": 12, "b": 6, "v": 2}},
		{"direct path with v=0", false, true, 1, -1, 0, map[string]float64{"loss": 0.5}, map[string]float64{"w": 2, "b": 0, "v": 1}},
		{"kink at b=-2", false, true, 1, -2, 3, map[string]float64{"z": 0}, map[string]float64{"w": 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkNumbers(t, twoPath(tc.detach, tc.direct), twoPathLeaves(tc.w, tc.b, tc.v), "loss", tc.vals, tc.grads)
		})
	}
}

// checkNumbers runs g at leaves, backward from out: the values and
// gradients named in vals and grads must be the lesson's, there must be
// a gradient for each value, and a second Backward must give the same.
func checkNumbers(t *testing.T, g Graph, leaves map[string]float64, out string, wantVals, wantGrads map[string]float64) {
	t.Helper()
	vals, grads := mustRun(t, g, leaves, out)
	expect(t, "value", vals, wantVals)
	expect(t, "gradient", grads, wantGrads)
	if len(grads) != len(vals) {
		t.Errorf("backward returned %d names, want one per value (%d)", len(grads), len(vals))
	}
	again, err := Backward(g, vals, out)
	if err != nil {
		t.Fatal(err)
	}
	expect(t, "second backward", again, grads)
}

func TestOverwriteBug(t *testing.T) {
	x := NewValue(3, "x")
	y := x.Mul(x)
	y.BackwardMode(OverwriteBug)
	if x.Grad != 3 {
		t.Errorf("overwrite mode: x*x at 3 gives %v, want the wrong 3", x.Grad)
	}
	y.Backward()
	if x.Grad != 6 {
		t.Errorf("after overwrite, Backward gives %v, want 6", x.Grad)
	}
	if g := tapeGrad(t, "add", OverwriteBug); g != 1 {
		t.Errorf("overwrite mode: x+x gives %v, want the wrong 1", g)
	}
}

// tapeGrad is x's gradient, at x=3, of y = x op x compiled to a tape and
// run backward in mode.
func tapeGrad(t *testing.T, op string, mode Mode) float64 {
	t.Helper()
	tp, _ := Compile(Graph{{"y", op, []string{"x", "x"}, 0}})
	vals := []float64{3, 0}
	if err := tp.Forward(vals); err != nil {
		t.Fatal(err)
	}
	grads := make([]float64, 2)
	tp.Reverse(vals, grads, 1, mode)
	return grads[0]
}

// The twice bug, on Values and on a tape: the lesson's x*x at 3 gives 12,
// twice the 6 of one call.
func TestTwiceBug(t *testing.T) {
	x := NewValue(3, "x")
	y := x.Mul(x)
	y.BackwardMode(TwiceBug)
	if x.Grad != 12 || y.Grad != 2 {
		t.Errorf("twice mode: x*x at 3 gives x %v, y %v; want 12 and 2", x.Grad, y.Grad)
	}
	if g := tapeGrad(t, "mul", TwiceBug); g != 12 {
		t.Errorf("twice mode: the tape's x*x at 3 gives %v, want 12", g)
	}
}

func TestValueAPI(t *testing.T) {
	a, b, c := NewValue(2, "a"), NewValue(3, "b"), NewValue(1, "c")
	L := a.Mul(b).Add(c).Sq()
	L.Backward()
	L.Backward()
	if L.Data != 49 || a.Grad != 42 || b.Grad != 28 || c.Grad != 14 {
		t.Errorf("L=%v grads a=%v b=%v c=%v, want 49 42 28 14", L.Data, a.Grad, b.Grad, c.Grad)
	}

	r := NewValue(3, "r")
	r.Mul(r).Backward()
	if r.Grad != 6 {
		t.Errorf("r*r at 3: grad %v, want 6", r.Grad)
	}

	// The two-path network with a detached skip, as Values.
	for _, detach := range []bool{false, true} {
		x, w, b, v := NewValue(2, "x"), NewValue(1, "w"), NewValue(-1, "b"), NewValue(3, "v")
		p := w.Mul(x)
		h := p.Add(b).Relu()
		skip := p
		if detach {
			skip = p.Detach()
		}
		e := v.Mul(h).Add(skip).Sub(NewValue(1, "target"))
		loss := NewValue(0.5, "").Mul(e).Mul(e)
		loss.Backward()
		want := 32.0
		if detach {
			want = 24
		}
		if loss.Data != 8 || w.Grad != want {
			t.Errorf("detach=%v: loss %v dw %v, want 8 and %v", detach, loss.Data, w.Grad, want)
		}
	}
}

func TestGradCheck(t *testing.T) {
	g := twoPath(false, true)
	checks, err := GradCheck(g, twoPathLeaves(1, -1, 3), "loss", []string{"w"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := checks[0]
	if c.Analytic != 32 || c.Kink {
		t.Errorf("smooth point: analytic %v kink %v", c.Analytic, c.Kink)
	}
	for _, r := range c.Rows {
		if !near(r.Central, 32, 1e-6) {
			t.Errorf("central difference at step %v = %v, want 32 within 1e-6", r.Step, r.Central)
		}
	}

	checks, err = GradCheck(g, twoPathLeaves(1, -2, 3), "loss", []string{"w"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c = checks[0]
	last := c.Rows[len(c.Rows)-1]
	if c.Analytic != 2 || !c.Kink || !near(last.Left, 2, 1e-4) || !near(last.Right, 8, 1e-4) || !near(last.Central, 5, 1e-4) {
		t.Errorf("kink: analytic %v kink %v left %v right %v central %v, want 2 true 2 8 5",
			c.Analytic, c.Kink, last.Left, last.Right, last.Central)
	}
}
