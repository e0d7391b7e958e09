package draw

import (
	"fmt"
	"strings"
	"sync"

	"gradbook/engine"
	"gradbook/internal/words"
)

// MaxDrawnNodes is the largest graph drawn; a larger one is summarised.
const MaxDrawnNodes = 150

// FoldAbove is the number of values (constants aside) above which a
// drawing starts folded: each group is one box until it is expanded.
const FoldAbove = 40

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
	// (engine.OverwriteBug), to show beside the right one; Twice each
	// node's gradient after a second backward call that nobody zeroed the
	// gradients before (engine.TwiceBug); Recursive each node's gradient under a recursive
	// backward in visiting order (engine.RecursiveBug), nil when that pass
	// would be too long, and Sends how many times each node passed its
	// gradient on in it, and Early whether it did so once before all of
	// its gradient had arrived.
	Overwrite, Twice, Recursive []float64
	Sends                       []int
	Early                       []bool
	// Steps is the reverse pass, one node at a time from Out back.
	Steps []Step
	// Theirs, in a drawing that Compare made, holds the learner's
	// gradient of each node (NaN where they gave none); FirstWrong is the
	// first node, in the order of the reverse pass, whose gradient they
	// got wrong, or -1.
	Theirs     []float64
	FirstWrong int
	// Width and Height are the size of the picture View{} draws: left to
	// right, folded if the graph is large.
	Width, Height float64

	groups  []*group          // outermost first, then in order of first member
	byKey   map[string]*group // the groups by key
	folds   bool              // whether the drawing starts folded
	gradW   []float64         // the widest "grad …" line of each node during the pass
	pending *pictures         // the pictures laid out so far, by view
	unnamed []bool            // leaves the program did not name, while drawn (nil after)
}

// DrawNode is one value in a Drawing.
type DrawNode struct {
	Name  string // unique within the drawing
	Label string // what to show: a name, or the op
	Op    string // "" for a leaf
	Value float64
	Grad  float64
	// Group is the path of groups the node belongs to, outermost first
	// ("layer 1", "neuron 3"), or nil.
	Group []string
	// Const marks a constant: a leaf without a name whose gradient nobody
	// needs. It is drawn as a chip on each node that uses it.
	Const bool
	// Layer, X and Y place the node's box (its group's, if folded; its
	// chip's for a constant) in the picture View{} draws.
	Layer int
	X, Y  float64
}

// Called names node s in a sentence: its label, and where another value
// of the drawing has the same label (two products without names are both
// "mul"), which of them it is, in the order they are computed, and its
// value, as its box shows it: "mul (the second, value 20)".
func (d *Drawing) Called(s int) string {
	n := d.Nodes[s]
	if n.Const {
		return n.Label
	}
	nth, of := 0, 0
	for i, o := range d.Nodes {
		if o.Label == n.Label && !o.Const {
			of++
			if i <= s {
				nth++
			}
		}
	}
	if of < 2 {
		return n.Label
	}
	return fmt.Sprintf("%s (the %s, value %s)", n.Label, ordinal(nth), words.Rounded(n.Value))
}

// ordinal says n (from 1) as a position: "first", "second", … "10th".
func ordinal(n int) string {
	if n >= 1 && n <= 9 {
		return [...]string{"first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"}[n-1]
	}
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprintf("%d%s", n, suffix)
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

// An Option changes how Value draws a graph.
type Option func(*config)

type config struct {
	groupOf func(*engine.Value) []string
	constOf func(*engine.Value) bool
}

// WithGroups gives each Value of a drawing made by Value its group path,
// outermost first (nil for none): the function call, layer or neuron that
// made it. Without groups, a drawing groups each activation (tanh, relu,
// sigmoid), each value used more than once and the output with the values
// only it uses, such as a neuron's weighted sum.
func WithGroups(f func(v *engine.Value) []string) Option {
	return func(c *config) { c.groupOf = f }
}

// WithConstants says which leaves of a drawing made by Value are
// constants: numbers the cell wrote, such as the 2 in 2 * x, whose
// gradient nobody needs. Without it, a leaf with neither a label nor a
// name is a constant.
func WithConstants(f func(v *engine.Value) bool) Option {
	return func(c *config) { c.constOf = f }
}

// Value draws the expression behind root, with the gradients of root.
func Value(root *engine.Value, names map[*engine.Value]string, opts ...Option) *Drawing {
	var c config
	for _, o := range opts {
		o(&c)
	}
	t, vals, bySlot := engine.TapeOf(root)
	labels := make([]string, len(bySlot))
	consts := make([]bool, len(bySlot))
	groups := make([][]string, len(bySlot))
	for s, v := range bySlot {
		switch {
		case v.Label != "":
			labels[s] = v.Label
		case names[v] != "":
			labels[s] = names[v]
		case v.Op() == "":
			labels[s] = words.Rounded(v.Data) // a constant
		default:
			labels[s] = v.Op()
		}
		if v.Op() == "" && s != len(bySlot)-1 {
			if c.constOf != nil {
				consts[s] = c.constOf(v)
			} else {
				consts[s] = v.Label == "" && names[v] == ""
			}
		}
		if c.groupOf != nil {
			groups[s] = c.groupOf(v)
		}
	}
	return draw(t, vals, labels, consts, groups, len(bySlot)-1) // the root is the last slot
}

// Graph draws a compiled graph with the given values (as
// evaluate returns them) and the gradients of out; out "" draws values only.
func Graph(t *engine.Tape, vals []float64, out string) *Drawing {
	names := t.Names()
	o := -1
	if s, ok := t.Slot(out); ok {
		o = s
	}
	return draw(t, vals, names, make([]bool, len(names)), make([][]string, len(names)), o)
}

func draw(t *engine.Tape, vals []float64, labels []string, consts []bool, groups [][]string, out int) *Drawing {
	n := len(vals)
	d := &Drawing{Nodes: make([]DrawNode, n), Out: out, FirstWrong: -1, unnamed: make([]bool, n)}
	for s := range d.unnamed {
		// A leaf the program did not name is labelled by its number.
		d.unnamed[s] = t.Op(s) == "" && labels[s] == words.Rounded(vals[s])
	}
	seen := map[string]int{}
	for s := range d.Nodes {
		name := labels[s]
		if seen[name]++; seen[name] > 1 {
			name = fmt.Sprintf("%s#%d", name, seen[name])
		}
		d.Nodes[s] = DrawNode{Name: name, Label: labels[s], Op: t.Op(s), Value: vals[s], Const: consts[s] && s != out}
		if len(groups[s]) > 0 {
			d.Nodes[s].Group = append([]string(nil), groups[s]...)
		}
	}
	grads := make([]float64, n)
	if out >= 0 {
		t.Reverse(vals, grads, out, engine.Accumulate)
		d.Overwrite = make([]float64, n)
		t.Reverse(vals, d.Overwrite, out, engine.OverwriteBug)
		d.Twice = make([]float64, n)
		t.Reverse(vals, d.Twice, out, engine.TwiceBug)
		rec := make([]float64, n)
		if sends, early, ok := t.ReverseRecursive(vals, rec, out); ok {
			d.Recursive, d.Sends, d.Early = rec, sends, early
		}
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
	d.finish()
	d.unnamed = nil
	return d
}

// finish groups the nodes, if the caller gave no groups, derives what
// the layout needs and places the default picture.
func (d *Drawing) finish() {
	given := false
	for _, n := range d.Nodes {
		given = given || len(n.Group) > 0
	}
	if !given {
		d.fallbackGroups()
	}
	d.derive()
	d.placeDefault()
}

// derive computes, from the exported fields alone, what the layout needs:
// the groups, whether to fold, the widest gradient line of each node
// during the pass, and an empty store of pictures.
func (d *Drawing) derive() {
	d.collectGroups()
	drawn := 0
	for _, n := range d.Nodes {
		if !n.Const {
			drawn++
		}
	}
	d.folds = drawn > FoldAbove && len(d.groups) > 0
	d.gradW = make([]float64, len(d.Nodes))
	if d.Out >= 0 {
		g := d.GradsAfter(0)
		for s := range d.Nodes {
			d.gradW[s] = textWidth("grad "+words.Rounded(g[s]), fontSize, false)
		}
		for _, st := range d.Steps {
			for _, e := range st.Edges {
				f := d.Edges[e].From
				g[f] += d.Edges[e].Contribution
				d.gradW[f] = max(d.gradW[f], textWidth("grad "+words.Rounded(g[f]), fontSize, false))
			}
		}
	}
	d.pending = &pictures{}
}

// ready derives what the layout needs if it has not been: a Drawing that
// crossed from the runner to the page as a message (jsvalue) has only
// its exported fields. Until it has, such a Drawing must not be shared
// between goroutines.
func (d *Drawing) ready() {
	if d.pending == nil {
		d.derive()
	}
}

// placeDefault sets Width, Height and each node's place from the picture
// View{} draws.
func (d *Drawing) placeDefault() {
	p := d.picture(false, nil, engine.Accumulate)
	d.Width, d.Height = p.w, p.h
	for s := range d.Nodes {
		if b, ok := p.boxOf(s); ok {
			d.Nodes[s].X, d.Nodes[s].Y = b.x, b.y
			d.Nodes[s].Layer = p.layerOf(s)
		}
	}
}

// GradsAfter returns every node's gradient after the first k steps of the
// reverse pass: out starts at 1, everything else at 0.
func (d *Drawing) GradsAfter(k int) []float64 {
	g := make([]float64, len(d.Nodes))
	if d.Out < 0 {
		return g
	}
	g[d.Out] = 1
	for _, st := range d.Steps[:max(0, min(k, len(d.Steps)))] {
		for _, e := range st.Edges {
			g[d.Edges[e].From] += d.Edges[e].Contribution
		}
	}
	return g
}

// Trivial reports whether the drawing is a single value with nothing
// computed from anything: no edge to draw, no step to take. A caller may
// leave such a drawing out.
func (d *Drawing) Trivial() bool { return len(d.Edges) == 0 }

// PathsTo lists every path from node from to Out, each with the product
// of the local derivatives along it; their sum is the gradient of from.
// It stops after MaxPaths paths and reports how many there are in all.
func (d *Drawing) PathsTo(from int) (paths []Path, total float64) {
	if d.Out < 0 || from < 0 || from >= len(d.Nodes) {
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

// pictures holds the pictures of a drawing laid out so far, by
// orientation and expanded groups: the page redraws at every step.
type pictures struct {
	mu   sync.Mutex
	byID map[string]*picture
}

// picture returns the layout of d, left to right or top to bottom, with
// the groups in expanded open.
func (d *Drawing) picture(vertical bool, expanded []string, bug engine.Mode) *picture {
	d.ready()
	key := fmt.Sprint(vertical, layoutBug(bug), strings.Join(d.openGroups(expanded), "\x00"))
	d.pending.mu.Lock()
	defer d.pending.mu.Unlock()
	if p, ok := d.pending.byID[key]; ok {
		return p
	}
	p := d.layout(vertical, expanded, bug)
	if d.pending.byID == nil {
		d.pending.byID = map[string]*picture{}
	}
	if len(d.pending.byID) > 16 { // a page expands a few groups at most
		clear(d.pending.byID)
	}
	d.pending.byID[key] = p
	return p
}
