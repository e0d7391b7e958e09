package draw

import (
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"gradbook/engine"
	"gradbook/engine/enginetest"
)

var update = flag.Bool("update", false, "rewrite the golden SVG files in testdata")

// drawn compiles g, evaluates it at leaves and draws it with the
// gradients of out.
func drawn(t *testing.T, g engine.Graph, leaves map[string]float64, out string) (*Drawing, error) {
	t.Helper()
	tape, err := engine.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	vals, err := tape.Load(tape.Bind(sortedLeaves(leaves)), true)
	if err != nil {
		t.Fatal(err)
	}
	if err := tape.Forward(vals); err != nil {
		return nil, err
	}
	return Graph(tape, vals, out), nil
}

func sortedLeaves(m map[string]float64) (names []string, xs []float64) {
	for name := range m {
		names = append(names, name)
	}
	for i := range names { // insertion sort: a handful of names
		for j := i; j > 0 && names[j] < names[j-1]; j-- {
			names[j], names[j-1] = names[j-1], names[j]
		}
	}
	for _, name := range names {
		xs = append(xs, m[name])
	}
	return names, xs
}

// The layout is deterministic and no two nodes overlap.
func TestLayout(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 50; trial++ {
		g, leaves := enginetest.Random(r, 1+r.IntN(40))
		out := g[len(g)-1].Name
		da, err := drawn(t, g, leaves, out)
		if err != nil {
			continue // a random graph may divide by zero
		}
		db, _ := drawn(t, g, leaves, out)
		if da.SVG(View{ID: "x"}) != db.SVG(View{ID: "x"}) {
			t.Fatalf("trial %d: two layouts of one graph differ", trial)
		}
		problems, err := Overlaps(da.SVG(View{ID: "x"}))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range problems {
			t.Errorf("trial %d: %s", trial, p)
		}
	}
}

// TestGoldenSVG compares drawings of the lessons' graphs with the files
// in testdata; go test ./notebook/draw -update rewrites them after a
// change to the drawing that was meant.
func TestGoldenSVG(t *testing.T) {
	worked := engine.Graph{
		{Name: "p", Op: "mul", Inputs: []string{"a", "b"}},
		{Name: "u", Op: "add", Inputs: []string{"p", "c"}},
		{Name: "L", Op: "sq", Inputs: []string{"u"}},
	}
	twoPaths := engine.Graph{ // w reaches L twice: 12 and 4 make 16 at p
		{Name: "a", Op: "mul", Inputs: []string{"w", "x"}},
		{Name: "p", Op: "add", Inputs: []string{"a", "w"}},
		{Name: "L", Op: "sq", Inputs: []string{"p"}},
	}
	tests := []struct {
		name   string
		g      engine.Graph
		leaves map[string]float64
		out    string
		view   View
	}{
		{"worked", worked, map[string]float64{"a": 2, "b": 3, "c": 1}, "L", View{ID: "g"}},
		{"worked-step2", worked, map[string]float64{"a": 2, "b": 3, "c": 1}, "L", View{ID: "g", Step: 2}},
		{"two-paths-overwrite", twoPaths, map[string]float64{"w": 2, "x": 3}, "L", View{ID: "g", Bug: engine.OverwriteBug}},
		{"values-only", worked, map[string]float64{"a": 2, "b": 3, "c": 1}, "", View{ID: "g"}},
		{"worked-vertical", worked, map[string]float64{"a": 2, "b": 3, "c": 1}, "L", View{ID: "g", Vertical: true, Step: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := drawn(t, tc.g, tc.leaves, tc.out)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name, d.SVG(tc.view))
		})
	}
	// Drawings made from Values: constants as chips, a learner's wrong
	// gradients compared, and the MLP lesson's network folded, and with a
	// neuron open.
	x := engine.NewValue(3, "x")
	chips := Value(engine.NewValue(0.5, "").Mul(x.Mul(x).Sub(engine.NewValue(1, ""))), nil)
	// The learner's backward overwrote x's gradient.
	wrong := Compare(chips, map[string]float64{"mul#2": 1, "sub": 0.5, "mul": 0.5, "x": 1.5})
	for name, svg := range map[string]string{
		"chips":   chips.SVG(View{ID: "g"}),
		"compare": wrong.SVG(View{ID: "g"}),
		"folded":  mlp().SVG(View{ID: "g", Step: 3}),
		// One neuron open: the rest keeps the folded picture's layers
		// and order.
		"folded-open": mlp().SVG(View{ID: "g", Vertical: true, Expanded: []string{"L1 neuron 2"}}),
	} {
		t.Run(name, func(t *testing.T) { golden(t, name, svg) })
	}
}

// golden compares an SVG with testdata/name.svg, or with -update writes
// it.
func golden(t *testing.T, name, svg string) {
	t.Helper()
	if problems, err := Overlaps(svg); err != nil || len(problems) > 0 {
		t.Errorf("%s: %v %q", name, err, problems)
	}
	got := svg + "\n"
	file := filepath.Join("testdata", name+".svg")
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test ./notebook/draw -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("the drawing differs from %s; if the change is meant, run go test ./notebook/draw -update", file)
	}
}
