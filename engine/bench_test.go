package engine_test

import (
	"testing"

	"gradbook/engine"
	"gradbook/engine/enginetest"
)

// benchTape measures the compiled core: Forward and Reverse on flat
// slices, reported as nodes a second.
func benchTape(b *testing.B, g engine.Graph, leaves map[string]float64) {
	t, err := engine.Compile(g)
	if err != nil {
		b.Fatal(err)
	}
	vals := make([]float64, len(t.Names()))
	for s, name := range t.Names()[:t.NumLeaves()] {
		vals[s] = leaves[name]
	}
	grads := make([]float64, len(vals))
	out := len(vals) - 1
	b.ResetTimer()
	for b.Loop() {
		if err := t.Forward(vals); err != nil {
			b.Fatal(err)
		}
		t.Reverse(vals, grads, out, engine.Accumulate)
	}
	b.ReportMetric(float64(t.NumNodes())*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
}

// benchMaps measures the whole map API: compile, evaluate and backward.
func benchMaps(b *testing.B, g engine.Graph, leaves map[string]float64, out string) {
	for b.Loop() {
		vals, err := engine.Evaluate(g, leaves)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := engine.Backward(g, vals, out); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(g))*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
}

func BenchmarkTapeMLP(b *testing.B) {
	g, leaves := enginetest.MLP(100)
	benchTape(b, g, leaves)
}

func BenchmarkTapeTanhChain(b *testing.B) {
	g, leaves := enginetest.TanhChain(1_000_000)
	benchTape(b, g, leaves)
}

func BenchmarkMapsMLP(b *testing.B) {
	g, leaves := enginetest.MLP(100)
	benchMaps(b, g, leaves, "loss")
}

func BenchmarkMapsTanhChain(b *testing.B) {
	g, leaves := enginetest.TanhChain(1_000_000)
	benchMaps(b, g, leaves, "out")
}

func BenchmarkMapsLesson(b *testing.B) {
	g := engine.Graph{
		{Name: "p", Op: "mul", Inputs: []string{"a", "b"}},
		{Name: "u", Op: "add", Inputs: []string{"p", "c"}},
		{Name: "L", Op: "sq", Inputs: []string{"u"}},
	}
	benchMaps(b, g, map[string]float64{"a": 2, "b": 3, "c": 1}, "L")
}
