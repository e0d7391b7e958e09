package engine_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gradbook/engine"
	"gradbook/engine/enginetest"
)

// TestBackwardMatchesFiniteDifferences checks Backward on random graphs
// against central differences, at points where every value is smooth.
func TestBackwardMatchesFiniteDifferences(t *testing.T) {
	smoothGraphs(t, rand.New(rand.NewPCG(7, 11)), func(trial int, g engine.Graph, leaves map[string]float64) bool {
		out := g[len(g)-1].Name
		var names []string
		for k := range leaves {
			names = append(names, k)
		}
		checks, err := engine.GradCheck(g, leaves, out, names, []float64{1e-5})
		if err != nil {
			return false // a perturbation crossed into a bad region
		}
		for _, c := range checks {
			d := c.Rows[0]
			if d.AbsErr > 1e-4*math.Max(1, math.Abs(c.Analytic)) {
				t.Errorf("trial %d: d%s/d%s: backward %v, central %v\ngraph %v\nleaves %v", trial, out, c.Name, c.Analytic, d.Central, g, leaves)
			}
		}
		return true
	})
}

// smoothGraphs calls check with 400 random graphs of r whose values at
// their leaves are smooth (a log or div of a bad value, or a kink, makes
// it try another), and fails if it checked fewer than 100: check says
// whether it could.
func smoothGraphs(t *testing.T, r *rand.Rand, check func(trial int, g engine.Graph, leaves map[string]float64) bool) {
	t.Helper()
	checked := 0
	for trial := 0; trial < 400; trial++ {
		g, leaves := enginetest.Random(r, 1+r.IntN(12))
		vals, err := engine.Evaluate(g, leaves)
		if err != nil || !smooth(g, vals) {
			continue
		}
		if check(trial, g, leaves) {
			checked++
		}
	}
	if checked < 100 {
		t.Errorf("only %d random graphs were smooth enough to check", checked)
	}
}

// smooth reports whether every value is small enough and every relu input
// far enough from its kink for a finite difference to be exact.
func smooth(g engine.Graph, vals map[string]float64) bool {
	for _, n := range g {
		v := vals[n.Name]
		if math.Abs(v) > 1e3 {
			return false
		}
		if n.Op == "relu" || n.Op == "div" || n.Op == "log" || n.Op == "pow" {
			for _, in := range n.Inputs {
				if math.Abs(vals[in]) < 1e-2 {
					return false
				}
			}
		}
	}
	return true
}

func TestMillionTanhChain(t *testing.T) {
	g, leaves := enginetest.TanhChain(1_000_000)
	vals, err := engine.Evaluate(g, leaves)
	if err != nil {
		t.Fatal(err)
	}
	grads, err := engine.Backward(g, vals, "out")
	if err != nil {
		t.Fatal(err)
	}
	// d out/dx is the product of 1−tanh² along the chain.
	want := 1.0
	x := 0.5
	for range g {
		y := math.Tanh(x)
		want *= 1 - y*y
		x = y
	}
	if got := grads["x"]; math.Abs(got-want) > 1e-12*math.Abs(want) || len(grads) != 1_000_001 {
		t.Errorf("d out/dx = %v, want %v (%d gradients)", got, want, len(grads))
	}

	// The Value API has no recursion either.
	v := engine.NewValue(0.5, "x")
	root := v
	for range 1_000_000 {
		root = root.Tanh()
	}
	root.Backward()
	if math.Abs(v.Grad-want) > 1e-12*math.Abs(want) {
		t.Errorf("Value chain: d out/dx = %v, want %v", v.Grad, want)
	}
}

func ExampleBackward() {
	g := engine.Graph{
		{Name: "p", Op: "mul", Inputs: []string{"a", "b"}},
		{Name: "u", Op: "add", Inputs: []string{"p", "c"}},
		{Name: "L", Op: "sq", Inputs: []string{"u"}},
	}
	vals, _ := engine.Evaluate(g, map[string]float64{"a": 2, "b": 3, "c": 1})
	grads, _ := engine.Backward(g, vals, "L")
	fmt.Println(vals["L"], grads["a"], grads["b"], grads["c"])
	// Output: 49 42 28 14
}

func ExampleValue() {
	x := engine.NewValue(3, "x")
	y := x.Mul(x)
	y.Backward()
	fmt.Println("accumulate:", x.Grad)
	y.BackwardMode(engine.OverwriteBug)
	fmt.Println("overwrite bug:", x.Grad)
	// Output:
	// accumulate: 6
	// overwrite bug: 3
}

func ExampleParseGraph() {
	g, _ := engine.ParseGraph([]byte(`[["y", "pow", ["x"], 3]]`))
	vals, _ := engine.Evaluate(g, map[string]float64{"x": 2})
	grads, _ := engine.Backward(g, vals, "y")
	fmt.Println(vals["y"], grads["x"])
	// Output: 8 12
}
