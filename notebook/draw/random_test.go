package draw

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"gradbook/engine"
	"gradbook/engine/enginetest"
)

// randomDrawing is a drawing made for the layout tests, with a name that
// says how it was made.
type randomDrawing struct {
	name string
	d    *Drawing
}

// randomDrawings makes seeded drawings of the shapes that strain a layout:
// random graphs, one value fanned out to many, deep chains, wide sums,
// values tiny and huge, expressions with constants (chips), networks large
// enough to fold, and groups given by the caller, nested.
func randomDrawings(t *testing.T, seed uint64) []randomDrawing {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	var out []randomDrawing
	add := func(name string, d *Drawing) { out = append(out, randomDrawing{name, d}) }
	graph := func(g engine.Graph, leaves map[string]float64) *Drawing {
		d, err := drawn(t, g, leaves, g[len(g)-1].Name)
		if err != nil {
			return nil // a value that is not finite
		}
		return d
	}
	for i := 0; i < 6; i++ {
		g, leaves := enginetest.Random(r, 1+r.IntN(40))
		if d := graph(g, leaves); d != nil {
			add(fmt.Sprintf("random %d (%d nodes)", i, len(g)), d)
		}
	}
	// Fan-out: one leaf used by k nodes, summed.
	k := 3 + r.IntN(10)
	var g engine.Graph
	prev := ""
	for i := range k {
		op := []string{"mul", "tanh", "sq", "exp", "add"}[i%5]
		in := []string{"x"}
		if op == "mul" || op == "add" {
			in = []string{"x", "y"}
		}
		name := "u" + strconv.Itoa(i)
		g = append(g, engine.Node{Name: name, Op: op, Inputs: in})
		if prev != "" {
			s := "s" + strconv.Itoa(i)
			g = append(g, engine.Node{Name: s, Op: "add", Inputs: []string{prev, name}})
			name = s
		}
		prev = name
	}
	add(fmt.Sprintf("fan-out of %d", k), graph(g, map[string]float64{"x": 0.3 + r.Float64(), "y": r.Float64()*4 - 2}))
	// A deep chain.
	chain, leaves := enginetest.TanhChain(20 + r.IntN(40))
	add(fmt.Sprintf("chain of %d", len(chain)), graph(chain, leaves))
	// A wide sum of products.
	n := 8 + r.IntN(30)
	g, leaves = nil, map[string]float64{}
	prev = ""
	for i := range n {
		w, x := "w"+strconv.Itoa(i), "x"+strconv.Itoa(i)
		leaves[w], leaves[x] = r.Float64()*2-1, r.Float64()*2-1
		m := "m" + strconv.Itoa(i)
		g = append(g, engine.Node{Name: m, Op: "mul", Inputs: []string{w, x}})
		if prev != "" {
			s := "sum" + strconv.Itoa(i)
			g = append(g, engine.Node{Name: s, Op: "add", Inputs: []string{prev, m}})
			m = s
		}
		prev = m
	}
	g = append(g, engine.Node{Name: "L", Op: "sq", Inputs: []string{prev}})
	add(fmt.Sprintf("sum of %d products", n), graph(g, leaves))
	// Tiny and huge numbers.
	for _, scale := range []float64{1e-7, 1e7, 1e-300} {
		g, leaves := enginetest.Random(r, 5+r.IntN(15))
		names, _ := sortedLeaves(leaves)
		for _, name := range names {
			leaves[name] *= scale * (1 + r.Float64())
		}
		if d := graph(g, leaves); d != nil {
			add(fmt.Sprintf("random at scale %g", scale), d)
		}
	}
	// Values with constants, and a network to fold.
	add("expression with constants", valueExpr(r))
	add("network", network(r, []int{3, 4, 4, 1}, nil))
	add("wide network", network(r, []int{2, 6, 1}, nil))
	add("network with given groups", network(r, []int{2, 3, 3, 1}, func(layer, neuron int) []string {
		return []string{"layer " + strconv.Itoa(layer), "neuron " + strconv.Itoa(neuron)}
	}))
	// Long labels from the learner.
	long := engine.NewValue(r.Float64(), "a rather long name for a value <b>")
	add("long label", Value(long.Mul(engine.NewValue(3, "b")).Tanh(), nil))
	return out
}

// valueExpr builds micrograd's README expression with random leaves.
func valueExpr(r *rand.Rand) *Drawing {
	num := func(x float64) *engine.Value { return engine.NewValue(x, "") }
	a, b := engine.NewValue(r.Float64()*8-4, "a"), engine.NewValue(r.Float64()*4, "b")
	c := a.Add(b)
	d := a.Mul(b).Add(b.Pow(3))
	c = c.Add(c.Add(num(1)))
	c = c.Add(num(1).Add(c).Add(a.Neg()))
	d = d.Add(d.Mul(num(2)).Add(b.Add(a).Relu()))
	d = d.Add(num(3).Mul(d).Add(b.Sub(a).Relu()))
	e := c.Sub(d)
	f := e.Pow(2)
	g := f.Div(num(2)).Add(num(10).Div(f))
	return Value(g, map[*engine.Value]string{c: "c", d: "d", e: "e", f: "f"})
}

// network builds an MLP of tanh neurons on sizes[0] constant inputs, with
// unnamed weights; group, if not nil, names each neuron's group.
func network(r *rand.Rand, sizes []int, group func(layer, neuron int) []string) *Drawing {
	groups := map[*engine.Value][]string{}
	var x []*engine.Value
	for range sizes[0] {
		x = append(x, engine.NewValue(math.Round(r.Float64()*40-20)/10, ""))
	}
	for l := 1; l < len(sizes); l++ {
		var next []*engine.Value
		for j := range sizes[l] {
			var made []*engine.Value
			s := engine.NewValue(r.Float64()*2-1, "")
			made = append(made, s)
			for _, xi := range x {
				w := engine.NewValue(r.Float64()*2-1, "")
				m := w.Mul(xi)
				s = s.Add(m)
				made = append(made, w, m, s)
			}
			o := s.Tanh()
			made = append(made, o)
			if group != nil {
				for _, v := range made {
					groups[v] = group(l, j)
				}
			}
			next = append(next, o)
		}
		x = next
	}
	var opts []Option
	if group != nil {
		opts = append(opts, WithGroups(func(v *engine.Value) []string { return groups[v] }))
	}
	return Value(x[0], nil, opts...)
}

// allViews are the views the layout tests check: both ways, the finished
// pass, the start of "you do the backward pass", each classic bug, a few
// steps, and groups open and folded.
func allViews(d *Drawing) []View {
	var vs []View
	for _, vertical := range []bool{false, true} {
		vs = append(vs, View{ID: "x", Vertical: vertical}, View{ID: "x", Vertical: vertical, Bug: engine.OverwriteBug, Step: 1},
			View{ID: "x", Vertical: vertical, Bug: engine.TwiceBug}, View{ID: "x", Vertical: vertical, Bug: engine.RecursiveBug, Step: 1},
			View{ID: "x", Vertical: vertical, Practice: true})
		for _, k := range []int{2, len(d.Steps) / 2, len(d.Steps)} {
			if k > 0 {
				vs = append(vs, View{ID: "x", Vertical: vertical, Step: k})
			}
		}
		if d.Folds() {
			vs = append(vs, View{ID: "x", Vertical: vertical, Expanded: d.Groups()})
			for _, g := range d.Groups() {
				vs = append(vs, View{ID: "x", Vertical: vertical, Expanded: []string{g}, Step: 1})
			}
		}
	}
	return vs
}

// TestRandomLayouts lays out seeded random drawings of every shape in
// every view and fails on any overlap or clipping; the layout is
// deterministic.
func TestRandomLayouts(t *testing.T) {
	seeds := uint64(4)
	if testing.Short() {
		seeds = 1
	}
	for seed := uint64(1); seed <= seeds; seed++ {
		again := randomDrawings(t, seed)
		for i, rd := range randomDrawings(t, seed) {
			if rd.d.SVG(View{}) != again[i].d.SVG(View{}) {
				t.Fatalf("seed %d, %s: two layouts of one graph differ", seed, rd.name)
			}
			for _, v := range allViews(rd.d) {
				svg := rd.d.SVG(v)
				problems, err := Overlaps(svg)
				if err != nil {
					t.Fatalf("seed %d, %s: %v", seed, rd.name, err)
				}
				for _, p := range problems {
					t.Errorf("seed %d, %s (step %d, vertical %v, %d groups open): %s", seed, rd.name, v.Step, v.Vertical, len(v.Expanded), p)
				}
			}
		}
	}
}

// The checker finds what it is for, and nothing in a clean picture.
func TestOverlaps(t *testing.T) {
	node := func(name string, x, y, w float64, text string) string {
		return fmt.Sprintf(`<g class="node" data-name="%s" transform="translate(%g,%g)"><rect width="%g" height="30"/><text class="val" x="8" y="15">%s</text></g>`, name, x, y, w, text)
	}
	label := func(from, to string, x, y float64, text string) string {
		return fmt.Sprintf(`<g class="edge" data-from="%s" data-to="%s"><path d="M0,0"/><rect class="contrib-bg" x="%g" y="%g" width="30" height="16"/><text class="contrib" x="%g" y="%g" text-anchor="middle">%s</text></g>`, from, to, x, y, x+15, y+11, text)
	}
	svg := func(parts ...string) string {
		s := `<svg viewBox="0 0 300 100"><defs><marker><path d="M0,0"/></marker></defs>`
		for _, p := range parts {
			s += p
		}
		return s + `</svg>`
	}
	tests := []struct {
		name string
		svg  string
		want []string // a part of each problem, in order
	}{
		{"clean", svg(node("a", 10, 10, 80, "value 1"), node("b", 200, 10, 80, "value 2"), label("a", "b", 120, 20, "1")), nil},
		{"two nodes", svg(node("a", 10, 10, 80, "value 1"), node("b", 60, 20, 80, "value 2")), []string{"box of node b", "overlaps"}},
		{"label under a node", svg(node("a", 10, 10, 80, "value 1"), label("a", "b", 70, 20, "1")), []string{"overlaps"}},
		{"text out of its box", svg(node("a", 10, 10, 40, "value 0.0001815")), []string{"runs out of box of node a"}},
		{"clipped", svg(node("a", 250, 10, 80, "value 1")), []string{"clipped by the viewBox"}},
		{"two labels", svg(label("a", "b", 100, 20, "1"), label("c", "d", 110, 25, "2")), []string{"overlaps"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Overlaps(tc.svg)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == nil && len(got) > 0 {
				t.Fatalf("problems in a clean picture: %q", got)
			}
			if tc.want != nil && len(got) == 0 {
				t.Fatalf("no problem found, want %q", tc.want)
			}
			for _, w := range tc.want {
				found := false
				for _, g := range got {
					found = found || strings.Contains(g, w)
				}
				if !found {
					t.Errorf("no problem says %q: %q", w, got)
				}
			}
		})
	}
}

// BenchmarkLayout lays out a network of about the MLP lesson's size, all
// groups open (126 values), as the page does when a learner opens them.
func BenchmarkLayout(b *testing.B) {
	d := network(rand.New(rand.NewPCG(1, 2)), []int{3, 4, 4, 1}, nil)
	for b.Loop() {
		d.layout(false, d.Groups(), engine.Accumulate)
	}
}
