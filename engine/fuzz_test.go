package engine

import (
	"testing"
)

// FuzzGraph decodes, compiles, evaluates and differentiates arbitrary
// input: it may fail, but never panic. The seed corpus is in
// testdata/fuzz/FuzzGraph.
func FuzzGraph(f *testing.F) {
	f.Add([]byte(`[["p","mul",["a","b"]],["u","add",["p","c"]],["L","sq",["u"]]]`), []byte(`{"a":2,"b":3,"c":1}`), "L")
	f.Add([]byte(`[["y","pow",["x"],-1]]`), []byte(`{"x":0}`), "y")
	f.Fuzz(func(t *testing.T, graph, leaves []byte, out string) {
		g, err := ParseGraph(graph)
		if err != nil {
			return
		}
		names, xs, err := ParseValues(leaves)
		if err != nil {
			return
		}
		m := map[string]float64{}
		for i, n := range names {
			m[n] = xs[i]
		}
		vals, err := Evaluate(g, m)
		if err != nil {
			return
		}
		grads, err := Backward(g, vals, out)
		if err != nil {
			return
		}
		if len(grads) != len(vals) {
			t.Errorf("%d gradients for %d values", len(grads), len(vals))
		}
	})
}
