package engine_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gradbook/engine"
)

// Forward mode on random graphs: the tangent along a random direction is
// the reverse gradient's dot product with it, and central differences'.
func TestTangentsMatchReverseAndDifferences(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	smoothGraphs(t, r, func(trial int, g engine.Graph, leaves map[string]float64) bool {
		tape, err := engine.Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		names := tape.Names()
		keys := mapKeys(leaves)
		xs, err := tape.Load(tape.Bind(keys, valuesOf(leaves, keys)), true)
		if err != nil {
			t.Fatal(err)
		}
		if err := tape.Forward(xs); err != nil {
			return false
		}
		dir := make([]float64, len(xs))
		for s := range tape.NumLeaves() {
			dir[s] = r.NormFloat64()
		}
		tangents := append([]float64(nil), dir...)
		tape.Tangents(xs, tangents)
		out := len(xs) - 1
		grads := make([]float64, len(xs))
		tape.Reverse(xs, grads, out, engine.Accumulate)
		dot := 0.0
		for s := range tape.NumLeaves() {
			dot += grads[s] * dir[s]
		}
		if d := math.Abs(tangents[out] - dot); d > 1e-9*math.Max(1, math.Abs(dot)) {
			t.Errorf("trial %d: tangent %v, reverse gradient · direction %v", trial, tangents[out], dot)
		}
		// Central differences along the direction.
		at := func(h float64) (float64, bool) {
			ys := append([]float64(nil), xs...)
			for s := range tape.NumLeaves() {
				ys[s] += h * dir[s]
			}
			if tape.Forward(ys) != nil {
				return 0, false
			}
			return ys[out], true
		}
		hi, ok1 := at(1e-6)
		lo, ok2 := at(-1e-6)
		if !ok1 || !ok2 {
			return false
		}
		if c := (hi - lo) / 2e-6; math.Abs(c-tangents[out]) > 1e-4*math.Max(1, math.Abs(c)) {
			t.Errorf("trial %d: tangent %v, central difference %v (%v)", trial, tangents[out], c, names)
		}
		return true
	})
}

func mapKeys(m map[string]float64) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

func valuesOf(m map[string]float64, keys []string) []float64 {
	var vs []float64
	for _, k := range keys {
		vs = append(vs, m[k])
	}
	return vs
}

// The recursive backward of a first attempt: b = a + a; c = b + b gives
// a the gradient 8 (b passes its 2 on once per use), the chain rule 4; on
// a graph used once everywhere it is right.
func TestRecursiveBug(t *testing.T) {
	a := engine.NewValue(3, "a")
	b := a.Add(a)
	c := b.Add(b)
	c.BackwardMode(engine.RecursiveBug)
	if a.Grad != 8 || b.Grad != 2 {
		t.Errorf("recursive: a.grad %v, b.grad %v; want 8 and 2", a.Grad, b.Grad)
	}
	c.Backward()
	if a.Grad != 4 {
		t.Errorf("a.grad %v, want 4", a.Grad)
	}
	tape, vals, _ := engine.TapeOf(c)
	grads := make([]float64, len(vals))
	sends, _, ok := tape.ReverseRecursive(vals, grads, len(vals)-1)
	if !ok || sends[len(vals)-2] != 2 {
		t.Errorf("b sent its gradient on %v times (ok %v), want 2", sends, ok)
	}
	// A chain: every value used once, so visiting order is a topological one.
	x := engine.NewValue(0.5, "x")
	y := x.Mul(engine.NewValue(2, "w")).Tanh().Exp()
	y.BackwardMode(engine.RecursiveBug)
	got := x.Grad
	y.Backward()
	if got != x.Grad {
		t.Errorf("a chain: recursive %v, right %v", got, x.Grad)
	}
	// Depth doubles the paths: the pass stops at its bound.
	v := engine.NewValue(1, "v")
	for range 30 {
		v = v.Add(v)
	}
	tape, vals, _ = engine.TapeOf(v)
	if _, _, ok := tape.ReverseRecursive(vals, make([]float64, len(vals)), len(vals)-1); ok {
		t.Error("2^30 paths: the recursive pass did not stop at its bound")
	}
}

// TangentsOf on Values: d(x·x + x)/dx at 3 is 7, with several outputs.
func TestTangentsOf(t *testing.T) {
	x := engine.NewValue(3, "x")
	f := x.Mul(x).Add(x)
	g := x.Tanh()
	d := engine.TangentsOf([]*engine.Value{f, g}, func(v *engine.Value) float64 {
		if v == x {
			return 1
		}
		return 0
	})
	if d[0] != 7 || math.Abs(d[1]-(1-math.Tanh(3)*math.Tanh(3))) > 1e-15 {
		t.Errorf("tangents %v", d)
	}
}
