package engine

import "errors"

// This file holds forward mode, which pushes a direction through the
// graph with the same local derivatives the reverse pass pulls gradients
// back with, and the second classic bug of a hand-written backward pass:
// recursing into each input as soon as a node has passed its gradient on,
// instead of in reverse topological order.

// Tangents is forward mode on the tape (a Jacobian-vector product): with
// tangents[s] set for every leaf s (the direction), it sets every node's
// tangent to its derivative along that direction: its local derivatives
// times its inputs' tangents, added, node by node in the tape's order. So
// one pass gives the derivative of every node with respect to one
// direction, where one reverse pass gives the derivative of one node with
// respect to every leaf.
func (t *Tape) Tangents(vals, tangents []float64) {
	n := t.leaves + len(t.code)
	v, d := vals[:n], tangents[:n]
	for i := range t.code {
		c := &t.code[i]
		da, db := local(c.op, v[c.a], v[c.b], c.k, v[t.leaves+i])
		dt := da * d[c.a]
		if ops[c.op].arity == 2 {
			dt += db * d[c.b]
		}
		d[t.leaves+i] = dt
	}
}

// TangentsOf is Tangents on Values: seed gives each leaf's tangent, and it
// returns the tangent of each of outs. Nothing is changed.
func TangentsOf(outs []*Value, seed func(*Value) float64) []float64 {
	d, _ := FiniteTangentsOf(outs, seed)
	return d
}

// FiniteTangentsOf is TangentsOf that also returns the first node, in the
// order they are computed, whose tangent is not a finite number (the
// derivative of pow(x, 0.5) at 0 is infinite), or nil if every one is.
func FiniteTangentsOf(outs []*Value, seed func(*Value) float64) (tangents []float64, bad *Value) {
	d := map[*Value]float64{}
	for _, root := range outs {
		for _, u := range Topo(root) {
			if _, done := d[u]; done {
				continue
			}
			if !u.node {
				d[u] = seed(u)
				continue
			}
			a, b := u.in[0], u.in[1]
			y := a
			if b != nil {
				y = b
			}
			da, db := local(u.op, a.Data, y.Data, u.k, u.Data)
			dt := da * d[a]
			if b != nil {
				dt += db * d[b]
			}
			d[u] = dt
			if bad == nil && (dt != dt || dt-dt != 0) { // NaN or ±Inf
				bad = u
			}
		}
	}
	out := make([]float64, len(outs))
	for i, r := range outs {
		out[i] = d[r]
	}
	return out, bad
}

// MaxRecursiveVisits bounds ReverseRecursive: a recursive backward visits
// a node once per path to it, which grows exponentially with a graph's
// depth.
const MaxRecursiveVisits = 200_000

// ErrTooManyVisits is what a recursive backward (RecursiveBug) returns
// when it would visit more than MaxRecursiveVisits nodes.
var ErrTooManyVisits = errors.New("it visits a node once per path to it, and this graph has too many paths (over 200,000 visits)")

// ReverseRecursive is the reverse pass as a first hand-written backward
// does it, micrograd's before it sorted its graph: a node passes its
// gradient, as it is at that moment, to its inputs, then runs the same on
// each input in turn, at once, once per use. A node reached by two paths
// passes its gradient on the first time before the second share has
// arrived, and again the second time: the values it feeds get too much.
// (b = a + a; c = b + b gives a 8 where the chain rule gives 4.) sends[s]
// is how many times node s passed its gradient on, and early[s] whether it
// did so once before all of its gradient had arrived. ok is false, and
// grads incomplete, when the pass would visit more than
// MaxRecursiveVisits nodes.
func (t *Tape) ReverseRecursive(vals, grads []float64, out int) (sends []int, early []bool, ok bool) {
	n := t.leaves + len(t.code)
	v, g := vals[:n], grads[:n]
	clear(g)
	g[out] = 1
	sends, early = make([]int, n), make([]bool, n)
	// The right gradients, to know when a node passed on too little.
	right := make([]float64, n)
	t.Reverse(vals, right, out, Accumulate)
	visits := 0
	stack := []int{out}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if visits++; visits > MaxRecursiveVisits {
			return sends, early, false
		}
		if s < t.leaves {
			continue
		}
		c := &t.code[s-t.leaves]
		if !agree(g[s], right[s]) {
			early[s] = true
		}
		sends[s]++
		up := g[s]
		da, db := local(c.op, v[c.a], v[c.b], c.k, v[s])
		g[c.a] += up * da
		if ops[c.op].arity == 2 {
			g[c.b] += up * db
			stack = append(stack, int(c.b)) // visited after a's whole subgraph
		}
		stack = append(stack, int(c.a))
	}
	return sends, early, true
}

// agree reports whether a and b agree to 1e-12 of their size.
func agree(a, b float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	m := b
	if m < 0 {
		m = -m
	}
	return d <= 1e-12*max(m, 1)
}
