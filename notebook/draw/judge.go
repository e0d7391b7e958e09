package draw

// This file holds "you do the backward pass": at each step the learner
// types the contributions the step sends back, and the gradients they add
// up to, and each number is judged, with the usual slips named.

import (
	"fmt"
	"math"

	"gradbook/internal/words"
)

// Verdict is the judgement of a number the learner typed.
type Verdict struct {
	Right bool
	// Why says what the number is, if right, or which slip it looks
	// like, in the learner's terms, without giving the answer away.
	Why string
}

// typedTolerance is how far, relatively, a typed number may be from the
// engine's: four significant digits are enough.
const typedTolerance = 5e-4

// typedClose reports whether a typed number stands for want.
func typedClose(typed, want float64) bool {
	return math.Abs(typed-want) <= typedTolerance*math.Abs(want)+1e-9
}

// Blanks returns the edges whose contributions the learner types at step k
// (from 1) of the reverse pass: the step's edges, but those from
// constants, whose gradients nobody needs.
func (d *Drawing) Blanks(k int) []int {
	if k < 1 || k > len(d.Steps) {
		return nil
	}
	var es []int
	for _, e := range d.Steps[k-1].Edges {
		if !d.Nodes[d.Edges[e].From].Const {
			es = append(es, e)
		}
	}
	return es
}

// Judge judges the contribution typed for edge at step k: the gradient
// that has reached the step's node times the edge's local derivative. A
// wrong number is matched against the usual slips: the local derivative
// alone (the upstream gradient forgotten), the other input's local
// derivative (for a product, this input's own value instead of the other
// one's), an upstream gradient that kept only the last contribution to
// the node instead of their sum (the overwrite bug), and the right number
// with the wrong sign.
func (d *Drawing) Judge(k, edge int, typed float64) Verdict {
	if k < 1 || k > len(d.Steps) || edge < 0 || edge >= len(d.Edges) || d.Edges[edge].To != d.Steps[k-1].Node {
		return Verdict{Why: fmt.Sprintf("That edge is not one that step %d sends a contribution along.", k)}
	}
	e := d.Edges[edge]
	to, from := d.Nodes[e.To], d.Nodes[e.From]
	up := d.GradsAfter(k - 1)[e.To]
	want := up * e.Local
	local := fmt.Sprintf("∂%s/∂%s", to.Label, from.Label)
	if typedClose(typed, want) {
		return Verdict{true, fmt.Sprintf("Right: the gradient at %s, %s, times the local derivative %s = %s, is %s.", to.Label, words.Rounded(up), local, words.Rounded(e.Local), words.Rounded(want))}
	}
	if up != 1 && typedClose(typed, e.Local) {
		return Verdict{Why: fmt.Sprintf("That is the local derivative %s alone. The contribution is the gradient that has reached %s, %s, times it: the chain rule multiplies what comes from above by what %s does locally.", local, to.Label, words.Rounded(up), to.Label)}
	}
	if other, ok := d.otherInput(edge); ok && !typedClose(other.Local, e.Local) {
		o := d.Nodes[other.From]
		for _, slip := range []float64{up * other.Local, other.Local} {
			if !typedClose(typed, slip) {
				continue
			}
			why := fmt.Sprintf("That uses the local derivative for %s's other input, %s.", to.Label, o.Label)
			if to.Op == "mul" {
				why = fmt.Sprintf("That multiplies by %s itself. For a product, the local derivative with respect to one factor is the other factor: %s = %s, the value of %s.", from.Label, local, o.Label, o.Label)
			}
			if slip == other.Local && up != 1 {
				why += fmt.Sprintf(" Then multiply by the gradient that has reached %s, %s.", to.Label, words.Rounded(up))
			}
			return Verdict{Why: why}
		}
	}
	if last, n := d.lastContribution(e.To); n > 1 && !typedClose(last, up) && typedClose(typed, last*e.Local) {
		return Verdict{Why: fmt.Sprintf("That takes the gradient of %s to be just the last contribution it received, %s. %s is used %s, and its gradient is the sum of all their contributions: add each one (+=), do not replace (=).", to.Label, words.Rounded(last), to.Label, timesUsed(n))}
	}
	if bug := d.Overwrite; bug != nil && !typedClose(bug[e.To], up) && typedClose(typed, bug[e.To]*e.Local) {
		return Verdict{Why: fmt.Sprintf("That uses the gradient the overwrite bug gives %s, %s: a value on the way from the output to %s is used more than once and kept only its last contribution. Gradients add (+=), they are not replaced (=).", to.Label, words.Rounded(bug[e.To]), to.Label)}
	}
	if want != 0 && typedClose(typed, -want) {
		return Verdict{Why: fmt.Sprintf("The size is right, the sign is not: check the sign of the gradient at %s (%s) and of %s.", to.Label, words.Rounded(up), local)}
	}
	return Verdict{Why: fmt.Sprintf("Not yet: the contribution is the gradient that has reached %s (%s) times the local derivative %s.", to.Label, words.Rounded(up), local)}
}

// JudgeGrad judges the gradient typed for node after step k: the sum of
// every contribution it has received so far (1 for the output). A wrong
// number is matched against the overwrite bug (the last contribution
// alone, or what the bug's pass gives) and a sign slip.
func (d *Drawing) JudgeGrad(k, node int, typed float64) Verdict {
	if d.Out < 0 || node < 0 || node >= len(d.Nodes) {
		return Verdict{Why: "This drawing has no gradients to type."}
	}
	k = max(0, min(k, len(d.Steps)))
	n := d.Nodes[node]
	want := d.GradsAfter(k)[node]
	var got []float64
	for _, st := range d.Steps[:k] {
		for _, e := range st.Edges {
			if d.Edges[e].From == node {
				got = append(got, d.Edges[e].Contribution)
			}
		}
	}
	if typedClose(typed, want) {
		switch {
		case node == d.Out:
			return Verdict{true, fmt.Sprintf("Right: %s is the output, and d%s/d%s = 1.", n.Label, n.Label, n.Label)}
		case len(got) == 0:
			return Verdict{true, fmt.Sprintf("Right: nothing has reached %s yet, so its gradient is still 0.", n.Label)}
		case len(got) == 1:
			return Verdict{true, fmt.Sprintf("Right: %s has received one contribution, %s.", n.Label, words.Rounded(want))}
		}
		return Verdict{true, fmt.Sprintf("Right: the %d contributions %s has received add up to %s.", len(got), n.Label, words.Rounded(want))}
	}
	if len(got) > 1 && typedClose(typed, got[len(got)-1]) && !typedClose(want, got[len(got)-1]) ||
		k == len(d.Steps) && d.Overwrite != nil && typedClose(typed, d.Overwrite[node]) && !typedClose(want, d.Overwrite[node]) {
		return Verdict{Why: fmt.Sprintf("That is only the last contribution to %s. %s has received %d so far, one from each use, and its gradient is their sum: add each one (+=), do not replace the gradient with it (=).", n.Label, n.Label, len(got))}
	}
	if want != 0 && typedClose(typed, -want) {
		return Verdict{Why: fmt.Sprintf("The size is right, the sign is not: check the sign of each contribution to %s.", n.Label)}
	}
	if len(got) == 0 && node != d.Out {
		return Verdict{Why: fmt.Sprintf("Nothing has reached %s yet: its gradient is still what it started at.", n.Label)}
	}
	return Verdict{Why: fmt.Sprintf("Not yet: add up every contribution that has reached %s so far.", n.Label)}
}

// otherInput returns the edge into the same node from its other input,
// for a node with two.
func (d *Drawing) otherInput(edge int) (Edge, bool) {
	e := d.Edges[edge]
	for i, o := range d.Edges {
		if i != edge && o.To == e.To && o.Port != e.Port {
			return o, true
		}
	}
	return Edge{}, false
}

// lastContribution returns the last contribution the reverse pass adds to
// node s's gradient, and how many uses of s send one.
func (d *Drawing) lastContribution(s int) (last float64, n int) {
	for _, st := range d.Steps {
		for _, e := range st.Edges {
			if d.Edges[e].From == s {
				last = d.Edges[e].Contribution
				n++
			}
		}
	}
	return last, n
}

// timesUsed says how many times a value is used: "twice", "3 times".
func timesUsed(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}
