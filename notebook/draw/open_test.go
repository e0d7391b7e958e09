package draw_test

import (
	"math"
	"slices"
	"testing"

	"gradbook/notebook/draw"
)

// Opening one neuron of the MLP lesson's folded network keeps the picture
// around it: every other box keeps its layer and its order across, and
// about its place; the picture grows by no more than the neuron's own
// values take; and no more edges cross than the ones the neuron brings.
func TestOpenNeuronKeepsLayout(t *testing.T) {
	d := mlpPass(t)
	if !d.Folds() {
		t.Fatal("the MLP's pass does not fold")
	}
	for _, vertical := range []bool{false, true} {
		folded := draw.View{ID: "g", Vertical: vertical}
		before := d.BoxesIn(folded)
		fw, fh := d.Size(folded)
		for _, g := range d.Groups() {
			open := draw.View{ID: "g", Vertical: vertical, Expanded: []string{g}}
			after := d.BoxesIn(open)
			ow, oh := d.Size(open)
			// The boxes that stay folded (one node for each) and the
			// opened neuron's values.
			var others []int
			seen := map[[4]float64]bool{}
			inside := draw.Box{X0: math.Inf(1), Y0: math.Inf(1), X1: math.Inf(-1), Y1: math.Inf(-1)}
			boundary := 0
			for s, n := range d.Nodes {
				if n.Const {
					continue
				}
				if len(n.Group) > 0 && n.Group[0] == g {
					b := after[s]
					inside.X0, inside.Y0 = min(inside.X0, b.X0), min(inside.Y0, b.Y0)
					inside.X1, inside.Y1 = max(inside.X1, b.X1), max(inside.Y1, b.Y1)
					continue
				}
				if b := before[s]; !seen[[4]float64{b.X0, b.Y0, b.X1, b.Y1}] {
					seen[[4]float64{b.X0, b.Y0, b.X1, b.Y1}] = true
					others = append(others, s)
				}
			}
			for _, e := range d.Edges {
				in := func(s int) bool { return len(d.Nodes[s].Group) > 0 && d.Nodes[s].Group[0] == g }
				if in(e.From) != in(e.To) && !d.Nodes[e.From].Const {
					boundary++
				}
			}
			where := func(b draw.Box) (main, cross float64) {
				if vertical {
					return (b.Y0 + b.Y1) / 2, (b.X0 + b.X1) / 2
				}
				return (b.X0 + b.X1) / 2, (b.Y0 + b.Y1) / 2
			}
			sign := func(x float64) int {
				switch {
				case x > 0.5:
					return 1
				case x < -0.5:
					return -1
				}
				return 0
			}
			var shifts []float64
			for i, a := range others {
				am0, ac0 := where(before[a])
				am1, ac1 := where(after[a])
				shifts = append(shifts, ac1-ac0)
				for _, b := range others[i+1:] {
					bm0, bc0 := where(before[b])
					bm1, bc1 := where(after[b])
					if sign(bm0-am0) != sign(bm1-am1) {
						t.Errorf("vertical %v, %s open: %s and %s change their order along the layers", vertical, g, d.Nodes[a].Name, d.Nodes[b].Name)
					}
					if sign(bm0-am0) == 0 && sign(bc0-ac0) != sign(bc1-ac1) {
						t.Errorf("vertical %v, %s open: %s and %s change their order across", vertical, g, d.Nodes[a].Name, d.Nodes[b].Name)
					}
				}
			}
			// Across, each box moves with the others, give or take the
			// room the neuron's values take across.
			gw, gh := inside.X1-inside.X0, inside.Y1-inside.Y0
			room := gh
			if vertical {
				room = gw
			}
			slices.Sort(shifts)
			median := shifts[len(shifts)/2]
			for _, a := range others {
				_, c0 := where(before[a])
				_, c1 := where(after[a])
				if moved := math.Abs(c1 - c0 - median); moved > room {
					t.Errorf("vertical %v, %s open: %s moves %.0f across, from %.0f to %.0f, more than the neuron's %.0f", vertical, g, d.Nodes[a].Name, moved, c0, c1, room)
				}
			}
			if ow > fw+gw || oh > fh+gh {
				t.Errorf("vertical %v, %s open: %gx%g, folded %gx%g, the neuron's values %gx%g", vertical, g, ow, oh, fw, fh, gw, gh)
			}
			if c, f := d.CrossingsIn(open), d.CrossingsIn(folded); c > f+boundary {
				t.Errorf("vertical %v, %s open: %d crossings, folded %d, and %d edges in and out of the neuron", vertical, g, c, f, boundary)
			}
			t.Logf("vertical %v, %s open: %gx%g, folded %gx%g, the neuron's values %gx%g; crossings %d, folded %d", vertical, g, ow, oh, fw, fh, gw, gh, d.CrossingsIn(open), d.CrossingsIn(folded))
		}
	}
}
