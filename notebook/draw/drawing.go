package draw

import (
	"fmt"
	"math"
	"sort"

	"gradbook/engine"
	"gradbook/internal/words"
)

// MaxDrawnNodes is the largest graph drawn; a larger one is summarised.
const MaxDrawnNodes = 150

// MaxPaths is how many paths Paths lists before it stops counting them one
// by one.
const MaxPaths = 64

// Drawing is a computation graph ready to draw: one node per value, one
// edge per use of a value, with values, gradients and the contribution
// each edge carries on the reverse pass.
type Drawing struct {
	Title string
	Nodes []DrawNode // leaves first, then nodes in forward order
	Edges []Edge
	// Out is the node the gradients are of, or -1 when there are none.
	Out int
	// Overwrite holds each node's gradient under the classic bug
	// (engine.OverwriteBug), to show beside the right one.
	Overwrite []float64
	// Steps is the reverse pass, one node at a time from Out back.
	Steps []Step
	// Width and Height are the size of the laid-out picture.
	Width, Height float64
}

// DrawNode is one value in a Drawing.
type DrawNode struct {
	Name  string // unique within the drawing
	Label string // what to show: a name, or the op
	Op    string // "" for a leaf
	Value float64
	Grad  float64
	Layer int
	X, Y  float64 // top-left corner
}

// Edge is one use of node From as input Port of node To. On the reverse
// pass it carries Contribution = grad(To) × Local.
type Edge struct {
	From, To, Port int
	Local          float64
	Contribution   float64
}

// Step is the reverse pass at one node: it adds each of its edges'
// contributions to the gradient of the edge's input.
type Step struct {
	Node  int
	Edges []int
}

// Sizes of the picture, in SVG units.
const (
	nodeW   = 124.0
	nodeH   = 64.0
	gapX    = 48.0
	gapY    = 26.0
	margin  = 12.0
	portGap = 24.0
)

// Value draws the expression behind root, with the gradients of root.
func Value(root *engine.Value, names map[*engine.Value]string) *Drawing {
	t, vals, bySlot := engine.TapeOf(root)
	labels := make([]string, len(bySlot))
	for s, v := range bySlot {
		switch {
		case v.Label != "":
			labels[s] = v.Label
		case names[v] != "":
			labels[s] = names[v]
		case v.Op() == "":
			labels[s] = words.Number(v.Data) // a constant
		default:
			labels[s] = v.Op()
		}
	}
	return draw(t, vals, labels, len(bySlot)-1) // the root is the last slot
}

// Graph draws a compiled graph with the given values (as
// evaluate returns them) and the gradients of out; out "" draws values only.
func Graph(t *engine.Tape, vals []float64, out string) *Drawing {
	names := t.Names()
	o := -1
	if s, ok := t.Slot(out); ok {
		o = s
	}
	return draw(t, vals, names, o)
}

func draw(t *engine.Tape, vals []float64, labels []string, out int) *Drawing {
	n := len(vals)
	d := &Drawing{Nodes: make([]DrawNode, n), Out: out}
	seen := map[string]int{}
	for s := range d.Nodes {
		name := labels[s]
		if seen[name]++; seen[name] > 1 {
			name = fmt.Sprintf("%s#%d", name, seen[name])
		}
		d.Nodes[s] = DrawNode{Name: name, Label: labels[s], Op: t.Op(s), Value: vals[s]}
	}
	grads := make([]float64, n)
	if out >= 0 {
		t.Reverse(vals, grads, out, engine.Accumulate)
		d.Overwrite = make([]float64, n)
		t.Reverse(vals, d.Overwrite, out, engine.OverwriteBug)
	}
	for s := range d.Nodes {
		d.Nodes[s].Grad = grads[s]
	}
	for s := t.NumLeaves(); s < n; s++ {
		var step Step
		step.Node = s
		for p, in := range t.Inputs(s) {
			local := t.LocalGrad(vals, s, p)
			step.Edges = append(step.Edges, len(d.Edges))
			d.Edges = append(d.Edges, Edge{From: in, To: s, Port: p, Local: local, Contribution: grads[s] * local})
		}
		if out >= 0 && s <= out {
			d.Steps = append(d.Steps, step)
		}
	}
	// The reverse pass runs from out back to the first node.
	for i, j := 0, len(d.Steps)-1; i < j; i, j = i+1, j-1 {
		d.Steps[i], d.Steps[j] = d.Steps[j], d.Steps[i]
	}
	d.layout(t)
	return d
}

// GradsAfter returns every node's gradient after the first k steps of the
// reverse pass: out starts at 1, everything else at 0.
func (d *Drawing) GradsAfter(k int) []float64 {
	g := make([]float64, len(d.Nodes))
	if d.Out < 0 {
		return g
	}
	g[d.Out] = 1
	for _, st := range d.Steps[:min(k, len(d.Steps))] {
		for _, e := range st.Edges {
			g[d.Edges[e].From] += d.Edges[e].Contribution
		}
	}
	return g
}

// layout places nodes left to right by depth: a node one layer right of
// its deepest input, a leaf just left of its first use. Within a layer,
// nodes are ordered by the mean position of their neighbours, a few sweeps
// each way, to reduce crossings. It is deterministic.
func (d *Drawing) layout(t *engine.Tape) {
	n := len(d.Nodes)
	L := t.NumLeaves()
	layer := make([]int, n)
	for s := L; s < n; s++ {
		for _, in := range t.Inputs(s) {
			if in >= L {
				layer[s] = max(layer[s], layer[in]+1)
			}
		}
	}
	// Leaves sit one layer left of their first consumer; nodes shift right
	// by one to make room.
	for s := L; s < n; s++ {
		layer[s]++
	}
	firstUse := make([]int, n)
	for s := range firstUse {
		firstUse[s] = math.MaxInt
	}
	for s := L; s < n; s++ {
		for _, in := range t.Inputs(s) {
			if in < L {
				firstUse[in] = min(firstUse[in], layer[s]-1)
			}
		}
	}
	for s := 0; s < L; s++ {
		if firstUse[s] != math.MaxInt {
			layer[s] = firstUse[s]
		}
	}
	maxLayer := 0
	for _, l := range layer {
		maxLayer = max(maxLayer, l)
	}
	layers := make([][]int, maxLayer+1)
	for s := 0; s < n; s++ {
		layers[layer[s]] = append(layers[layer[s]], s)
	}
	neighbours := make([][]int, n)
	for _, e := range d.Edges {
		neighbours[e.From] = append(neighbours[e.From], e.To)
		neighbours[e.To] = append(neighbours[e.To], e.From)
	}
	pos := make([]float64, n)
	place := func() {
		for _, ls := range layers {
			for i, s := range ls {
				pos[s] = float64(i) - float64(len(ls)-1)/2
			}
		}
	}
	place()
	for sweep := 0; sweep < 6; sweep++ {
		for li := range layers {
			if sweep%2 == 1 {
				li = len(layers) - 1 - li
			}
			ls := layers[li]
			bary := make(map[int]float64, len(ls))
			for _, s := range ls {
				if len(neighbours[s]) == 0 {
					bary[s] = pos[s]
					continue
				}
				sum := 0.0
				for _, m := range neighbours[s] {
					sum += pos[m]
				}
				bary[s] = sum / float64(len(neighbours[s]))
			}
			sort.SliceStable(ls, func(i, j int) bool { return bary[ls[i]] < bary[ls[j]] })
			for i, s := range ls {
				pos[s] = float64(i) - float64(len(ls)-1)/2
			}
		}
	}
	tallest := 0
	for _, ls := range layers {
		tallest = max(tallest, len(ls))
	}
	d.Height = 2*margin + float64(tallest)*nodeH + float64(max(tallest-1, 0))*gapY
	d.Width = 2*margin + float64(len(layers))*nodeW + float64(max(len(layers)-1, 0))*gapX
	for s := range d.Nodes {
		d.Nodes[s].Layer = layer[s]
		d.Nodes[s].X = margin + float64(layer[s])*(nodeW+gapX)
		d.Nodes[s].Y = d.Height/2 - nodeH/2 + pos[s]*(nodeH+gapY)
	}
}

// PathsTo lists every path from node from to Out, each with the product
// of the local derivatives along it; their sum is the gradient of from.
// It stops after MaxPaths paths and reports how many there are in all.
func (d *Drawing) PathsTo(from int) (paths []Path, total float64) {
	if d.Out < 0 {
		return nil, 0
	}
	// uses[s] lists the edges leaving s.
	uses := make([][]int, len(d.Nodes))
	for i, e := range d.Edges {
		uses[e.From] = append(uses[e.From], i)
	}
	// count[s] is the number of paths from s to Out.
	count := make([]float64, len(d.Nodes))
	count[d.Out] = 1
	for s := len(d.Nodes) - 1; s >= 0; s-- {
		if s == d.Out {
			continue
		}
		for _, e := range uses[s] {
			if d.Edges[e].To <= d.Out {
				count[s] += count[d.Edges[e].To]
			}
		}
	}
	// An explicit stack of edge choices: no recursion on deep graphs.
	type frame struct {
		node, next int
	}
	var stack []frame
	var edges []int
	stack = append(stack, frame{from, 0})
	for len(stack) > 0 && len(paths) < MaxPaths {
		f := &stack[len(stack)-1]
		if f.node == d.Out {
			p := Path{Edges: append([]int(nil), edges...), Product: 1}
			for _, e := range edges {
				p.Product *= d.Edges[e].Local
			}
			paths = append(paths, p)
			stack = stack[:len(stack)-1]
			if len(edges) > 0 {
				edges = edges[:len(edges)-1]
			}
			continue
		}
		if f.next >= len(uses[f.node]) {
			stack = stack[:len(stack)-1]
			if len(edges) > 0 {
				edges = edges[:len(edges)-1]
			}
			continue
		}
		e := uses[f.node][f.next]
		f.next++
		if count[d.Edges[e].To] == 0 {
			continue
		}
		edges = append(edges, e)
		stack = append(stack, frame{d.Edges[e].To, 0})
	}
	return paths, count[from]
}

// Path is a chain of edges from a value to the output.
type Path struct {
	Edges   []int
	Product float64 // the product of the local derivatives along it
}
