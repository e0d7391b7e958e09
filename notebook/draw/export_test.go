package draw

// BoxesIn returns, for the tests outside the package, the box every node
// is drawn in, in view v (its own, its folded group's or its chip's), by
// node.
func (d *Drawing) BoxesIn(v View) map[int]Box {
	p := d.picture(v.Vertical, v.Expanded, v.Bug)
	boxes := map[int]Box{}
	for s := range d.Nodes {
		if b, ok := p.boxOf(s); ok {
			boxes[s] = Box{What: d.Nodes[s].Name, X0: b.x, Y0: b.y, X1: b.x + b.w, Y1: b.y + b.h}
		}
	}
	return boxes
}

// CrossingsIn returns how many pairs of edges cross in view v, counted
// between neighbouring layers.
func (d *Drawing) CrossingsIn(v View) int {
	return d.picture(v.Vertical, v.Expanded, v.Bug).crossed
}
