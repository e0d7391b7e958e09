package draw

import (
	"fmt"
	"math"
	"slices"

	"gradbook/internal/words"
)

// agrees reports whether a learner's gradient matches the engine's, to
// the tolerance the exercises' checkers use.
func agrees(theirs, want float64) bool {
	return math.Abs(theirs-want) <= 1e-6*math.Max(1, math.Abs(want))
}

// Compare returns a copy of d that shows theirs, a learner's gradients by
// node name (the result of a backward they wrote), beside the engine's at
// every node, and marks the first node, in the order of the reverse pass,
// where the two part: the output, then each node as the pass reaches it,
// then the leaves. A name theirs lacks counts as wrong. Constants are not
// compared.
func Compare(d *Drawing, theirs map[string]float64) *Drawing {
	d.ready()
	c := *d
	c.Nodes = slices.Clone(d.Nodes)
	c.Theirs = make([]float64, len(d.Nodes))
	for s, n := range d.Nodes {
		g, ok := theirs[n.Name]
		if !ok {
			g = math.NaN()
		}
		c.Theirs[s] = g
	}
	c.FirstWrong = -1
	for _, s := range d.reverseOrder() {
		if !d.Nodes[s].Const && !agrees(c.Theirs[s], d.Nodes[s].Grad) {
			c.FirstWrong = s
			break
		}
	}
	c.pending = &pictures{}
	c.placeDefault()
	return &c
}

// reverseOrder lists the nodes in the order the reverse pass settles their
// gradients: the output, each node the pass visits, then the rest from
// the last slot back.
func (d *Drawing) reverseOrder() []int {
	var order []int
	seen := make([]bool, len(d.Nodes))
	if d.Out >= 0 {
		order, seen[d.Out] = append(order, d.Out), true
	}
	for _, st := range d.Steps {
		if !seen[st.Node] {
			order, seen[st.Node] = append(order, st.Node), true
		}
	}
	for s := len(d.Nodes) - 1; s >= 0; s-- {
		if !seen[s] {
			order = append(order, s)
		}
	}
	return order
}

// CompareText says, for a drawing Compare made, where the learner's
// gradients part from the engine's.
func (d *Drawing) CompareText() string {
	if d.Theirs == nil {
		return ""
	}
	if d.FirstWrong < 0 {
		return "Your gradients match the engine's at every value."
	}
	n := d.Nodes[d.FirstWrong]
	yours := "you gave none"
	if !math.IsNaN(d.Theirs[d.FirstWrong]) {
		yours = "yours is " + words.Rounded(d.Theirs[d.FirstWrong])
	}
	if d.FirstWrong == d.Out {
		return fmt.Sprintf("The gradients part at the start: %s is the output, so its gradient is 1, but %s.", n.Label, yours)
	}
	return fmt.Sprintf("Following the reverse pass from %s, your gradients match the engine's until %s: its gradient is %s, but %s. Every value before it in the pass is right, so look at how %s gets its gradient from the values that use it.",
		d.Nodes[d.Out].Label, n.Label, words.Rounded(n.Grad), yours, n.Label)
}
