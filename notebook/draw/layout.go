package draw

// This file holds the layout: the boxes to draw (a node, a folded group)
// and their sizes, layers, the order within each layer, positions, the
// edges' routes through the gaps, the chips of constants and the place of
// every edge label. Everything is computed along two axes, the main axis
// of the layers (x left to right, or y top to bottom) and the cross axis
// within a layer, and turned into x and y at the end.

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strconv"

	"gradbook/engine"
	"gradbook/internal/words"
)

// Sizes of the picture, in SVG units.
const (
	margin     = 8.0  // around the picture
	labelH     = 16.0 // an edge label's box
	labelPad   = 4.0  // from a label's box to its text
	chipH      = 16.0 // a constant's chip
	chipGap    = 4.0  // from a chip to its node
	clearBox   = 3.0  // labels keep this clear of boxes and chips
	clearLabel = 2.0  // and of each other
	arrowRoom  = 11.0 // from an arrow's tip to a label on its edge
	headMax    = 24   // characters of a box's first line before it is cut
	minW       = 44.0 // the narrowest box
	minGap     = 36.0 // the narrowest gap between two layers
	growBy     = 12.0 // how much a gap grows when a label finds no room
	maxGrow    = 60   // rounds of growing before the layout gives up
)

// rect is a box: top-left corner and size.
type rect struct{ x, y, w, h float64 }

func (r rect) overlaps(o rect, clear float64) bool {
	return r.x < o.x+o.w+clear && o.x < r.x+r.w+clear && r.y < o.y+o.h+clear && o.y < r.y+r.h+clear
}

// line is one line of text in a box.
type line struct {
	class string
	text  string
	bold  bool
}

// picture is a drawing laid out one way: its boxes (units), the edges
// between them, the chips of constants, and its size.
type picture struct {
	vertical bool
	bug      engine.Mode // the bug whose lines its boxes make room for
	w, h     float64
	units    []unit
	edges    []uedge
	chips    []chip
	unitOf   []int // the unit of each node; -1 for a constant drawn as chips or not at all
	layers   int
	crossed  int // how many pairs of edges cross, counted between layers
}

// unit is one box: a node, or a folded group.
type unit struct {
	node  int    // the node; -1 for a folded group
	group *group // the folded group
	box   rect
	layer int
	ports int // how many inputs arrive: edges and chips
	// portGap is the distance between two of its ports along the cross axis
	portGap float64
	// main and cross size, before they are placed
	size [2]float64
}

// uedge is an edge between two units: one edge of the drawing, or every
// edge between a folded group and another unit.
type uedge struct {
	from, to int   // units
	edges    []int // the drawing's edges it stands for
	port     int   // where it arrives at to
	chain    []int // the items it passes: from's, the dummies', to's
	path     string
	label    rect
	labelled bool
	labelW   float64 // the label's width, for the widest text it shows
}

// chip is a constant drawn on the unit that uses it.
type chip struct {
	node, edge, unit, port int
	box                    rect
}

// item is a unit or a dummy (a point an edge passes through in a layer it
// crosses) during the layout.
type item struct {
	unit  int // -1 for a dummy
	edge  int // the uedge of a dummy
	layer int
	size  [2]float64 // main and cross size
	pos   float64    // cross position of the centre
	order int
	in    []link // from the layer before
	out   []link // to the layer after
}

// link joins two items of neighbouring layers; off is the cross offset of
// the port it arrives at, from the centre of the item it arrives at.
type link struct {
	item   int
	off    float64
	weight float64
	// frac places the port among the item's ports while the layers are
	// ordered, between -0.4 and 0.4; 0 where the ports are free.
	frac float64
}

// nodeLines returns the lines of node s's box: its header, value,
// gradient and, in a comparison, the learner's gradient.
func (d *Drawing) nodeLines(s int, header string, grads []float64) []line {
	n := d.Nodes[s]
	ls := []line{
		{"label", clip(header, headMax), true},
		{"val", "value " + words.Rounded(n.Value), false},
	}
	if d.Out < 0 {
		return ls
	}
	ls = append(ls, line{"grad", "grad " + words.Rounded(grads[s]), false})
	if d.Theirs != nil {
		l := line{"theirs", "yours " + words.Rounded(d.Theirs[s]), false}
		if math.IsNaN(d.Theirs[s]) {
			l.text = "yours: none"
		}
		if !agrees(d.Theirs[s], n.Grad) {
			l.class, l.bold = "theirs wrong", true
		}
		ls = append(ls, l)
	}
	return ls
}

// bugGrads returns each node's gradient under bug b, or nil (for
// engine.Accumulate, the chain rule).
func (d *Drawing) bugGrads(b engine.Mode) []float64 {
	switch b {
	case engine.OverwriteBug:
		return d.Overwrite
	case engine.TwiceBug:
		return d.Twice
	case engine.RecursiveBug:
		return d.Recursive
	}
	return nil
}

// bugText is the line that says node s's gradient under bug b, or "" if
// the bug gets it right.
func (d *Drawing) bugText(s int, b engine.Mode) string {
	g := d.bugGrads(b)
	if g == nil {
		return ""
	}
	if b == engine.RecursiveBug {
		// Where the recursion went wrong shows too: a node that passed
		// its gradient on more than once, or before all of it had come.
		t := "recursive: " + words.Rounded(g[s])
		switch {
		case d.Sends[s] > 1:
			return t + " (sent on " + strconv.Itoa(d.Sends[s]) + "×)"
		case d.Early[s]:
			return t + " (sent on early)"
		case g[s] == d.Nodes[s].Grad:
			return ""
		}
		return t
	}
	if g[s] == d.Nodes[s].Grad {
		return ""
	}
	if b == engine.TwiceBug {
		return "2nd call: " + words.Rounded(g[s])
	}
	return "bug: " + words.Rounded(g[s])
}

// differs reports whether bug b gets any gradient wrong.
func (d *Drawing) differs(b engine.Mode) bool {
	for s := range d.Nodes {
		if d.bugText(s, b) != "" {
			return true
		}
	}
	return false
}

// bugLine is the line, last in a box, that shows bug b's gradient of node
// s where it differs from the right one. With no bug shown, or the
// overwrite bug, the overwrite bug's line is kept blank where it differs,
// so that toggling it keeps every box's size; the other two bugs are
// laid out with their own lines (see layoutBug).
func (d *Drawing) bugLine(s int, b engine.Mode) []line {
	shown := layoutBug(b)
	t := d.bugText(s, shown)
	if t == "" {
		return nil
	}
	if b == engine.Accumulate {
		t = ""
	}
	return []line{{BugClasses[shown] + " wrong", t, true}}
}

// layoutBug is the bug whose lines a layout for bug b makes room for.
func layoutBug(b engine.Mode) engine.Mode {
	if b == engine.Accumulate {
		return engine.OverwriteBug
	}
	return b
}

// unitLines returns the lines of unit u's box, with bug b's gradients.
func (d *Drawing) unitLines(u *unit, grads []float64, b engine.Mode) []line {
	if u.group == nil {
		n := d.Nodes[u.node]
		head := n.Label
		if n.Op != "" && n.Op != n.Label {
			head += " = " + n.Op
		}
		return append(d.nodeLines(u.node, head, grads), d.bugLine(u.node, b)...)
	}
	g := u.group
	ls := append(d.nodeLines(g.out, g.name, grads), line{"size", countValues(len(g.members)), false})
	return append(ls, d.bugLine(g.out, b)...)
}

// countValues says how many values a folded group holds.
func countValues(n int) string {
	if n == 1 {
		return "1 value inside"
	}
	return words.Rounded(float64(n)) + " values inside"
}

// lineY is the baseline of line i of a box, from its top.
func lineY(i int) float64 { return 15 + lineGap*float64(i) }

// boxSize is the width and height of a box with these lines; gradW, if
// larger, is the width of its gradient line.
func boxSize(ls []line, gradW float64) (w, h float64) {
	for _, l := range ls {
		lw := textWidth(l.text, fontSize, l.bold)
		if l.class == "grad" {
			lw = max(lw, gradW)
		}
		w = max(w, lw)
	}
	return max(minW, math.Ceil(w+2*textInset)), lineGap*float64(len(ls)) + 6
}

// chipSize is the size of a constant's chip.
func chipSize(x float64) (w, h float64) {
	return math.Ceil(max(chipH, textWidth(words.Rounded(x), fontSize, false)+2*labelPad)), chipH
}

// labelWidth is the width of an edge label showing x.
func labelWidth(x float64) float64 {
	return math.Ceil(textWidth(words.Rounded(x), fontSize, false) + 2*labelPad)
}

// layout lays d out, left to right or top to bottom, with the groups in
// expanded open (every group, if d does not fold).
func (d *Drawing) layout(vertical bool, expanded []string, bug engine.Mode) *picture {
	open := map[string]bool{}
	for _, k := range d.openGroups(expanded) {
		open[k] = true
	}
	if p := d.layoutOpen(vertical, open, bug); p != nil {
		return p
	}
	// Folding made a cycle (groups given by the caller that interleave):
	// draw every group open.
	for _, k := range d.Groups() {
		open[k] = true
	}
	return d.layoutOpen(vertical, open, bug)
}

// rect and point turn main and cross coordinates into x and y.
func (p *picture) rect(main, cross, mainSize, crossSize float64) rect {
	if p.vertical {
		return rect{cross, main, crossSize, mainSize}
	}
	return rect{main, cross, mainSize, crossSize}
}

func (p *picture) point(main, cross float64) (x, y float64) {
	if p.vertical {
		return cross, main
	}
	return main, cross
}

func (d *Drawing) layoutOpen(vertical bool, open map[string]bool, bug engine.Mode) *picture {
	p := &picture{vertical: vertical, bug: layoutBug(bug), unitOf: make([]int, len(d.Nodes))}
	// The units: each node drawn as itself, each folded group once.
	byGroup := map[*group]int{}
	for s, n := range d.Nodes {
		p.unitOf[s] = -1
		g := d.foldedGroup(s, open)
		switch {
		case g != nil:
			u, ok := byGroup[g]
			if !ok {
				u = len(p.units)
				byGroup[g] = u
				p.units = append(p.units, unit{node: -1, group: g})
			}
			p.unitOf[s] = u
		case !n.Const:
			p.unitOf[s] = len(p.units)
			p.units = append(p.units, unit{node: s})
		}
	}
	// The edges between units, and the chips. An edge into or out of a
	// folded group stands for every edge between the same two units.
	type pair struct{ from, to int }
	merged := map[pair]int{}
	for i, e := range d.Edges {
		fu, tu := p.unitOf[e.From], p.unitOf[e.To]
		switch {
		case tu < 0 || fu == tu:
			continue // inside a folded group
		case d.Nodes[e.From].Const:
			if fu < 0 && p.units[tu].group == nil {
				p.chips = append(p.chips, chip{node: e.From, edge: i, unit: tu, port: e.Port})
			}
			continue
		case fu < 0:
			continue
		}
		if p.units[fu].group != nil || p.units[tu].group != nil {
			if k, ok := merged[pair{fu, tu}]; ok {
				p.edges[k].edges = append(p.edges[k].edges, i)
				continue
			}
			merged[pair{fu, tu}] = len(p.edges)
		}
		p.edges = append(p.edges, uedge{from: fu, to: tu, edges: []int{i}, port: e.Port})
	}
	for i := range p.edges {
		ue := &p.edges[i]
		if d.Out >= 0 {
			ue.labelled = true
			ue.labelW = labelWidth(d.sum(ue.edges))
		}
	}
	// Ports: a node's inputs arrive in the order of its operands; a
	// folded group's, an add's and a mul's are ordered after the layers
	// are (orderPorts).
	for _, ue := range p.edges {
		u := &p.units[ue.to]
		if u.group != nil {
			u.ports++
		} else {
			u.ports = max(u.ports, ue.port+1)
		}
	}
	for _, c := range p.chips {
		u := &p.units[c.unit]
		u.ports = max(u.ports, c.port+1)
	}
	// Sizes, for the widest text each box shows during the pass, and room
	// for the ports.
	final := d.GradsAfter(len(d.Steps))
	for u := range p.units {
		un := &p.units[u]
		gw := 0.0
		if un.group == nil {
			gw = d.gradW[un.node]
		} else {
			gw = d.gradW[un.group.out]
		}
		w, h := boxSize(d.unitLines(un, final, layoutBug(p.bug)), gw)
		ports := float64(un.ports)
		if vertical {
			un.portGap = 30
			for _, c := range p.chips {
				if c.unit == u {
					cw, _ := chipSize(d.Nodes[c.node].Value)
					un.portGap = max(un.portGap, cw+6)
				}
			}
			w = max(w, ports*un.portGap+8)
			un.size = [2]float64{h, w}
		} else {
			un.portGap = 22
			h = max(h, ports*un.portGap+4)
			un.size = [2]float64{w, h}
		}
	}
	ranks, ok := p.rank()
	if !ok {
		return nil
	}
	// A drawing that folds with groups open keeps the folded picture
	// around them: its layers and the order within them.
	var key []float64
	if d.folds && len(open) > 0 {
		if ref := d.layoutOpen(vertical, map[string]bool{}, bug); ref != nil {
			ranks, key = p.seed(ref)
		}
	}
	var items []item
	var layers [][]int
	for {
		p.layers = 0
		for u := range p.units {
			p.units[u].layer = ranks[u]
			p.layers = max(p.layers, ranks[u]+1)
		}
		items, layers = p.makeItems(d)
		if key != nil {
			p.seedOrder(items, layers, key)
		}
		if !vertical || !p.splitWide(ranks, items, layers) {
			break
		}
	}
	order(items, layers)
	p.crossed = crossings(items, layers)
	p.orderPorts(d, items)
	p.setLinkOffsets(items)
	p.place(items, layers)
	p.route(d, items, layers)
	return p
}

// sum adds the contributions of edges.
func (d *Drawing) sum(edges []int) float64 {
	s := 0.0
	for _, e := range edges {
		s += d.Edges[e].Contribution
	}
	return s
}

// rank gives each unit its layer: one after its deepest input, and a unit
// without inputs (a leaf) just before its first user. It reports false if
// the units do not form an acyclic graph.
func (p *picture) rank() ([]int, bool) {
	return rankUnits(len(p.units), p.edges)
}

// rankUnits ranks n units joined by edges, as rank does.
func rankUnits(n int, edges []uedge) ([]int, bool) {
	indeg := make([]int, n)
	succ := make([][]int, n)
	for _, e := range edges {
		indeg[e.to]++
		succ[e.from] = append(succ[e.from], e.to)
	}
	var queue []int
	for u := range n {
		if indeg[u] == 0 {
			queue = append(queue, u)
		}
	}
	rank := make([]int, n)
	var topo []int
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		topo = append(topo, u)
		for _, v := range succ[u] {
			rank[v] = max(rank[v], rank[u]+1)
			if indeg[v]--; indeg[v] == 0 {
				queue = append(queue, v)
			}
		}
	}
	if len(topo) != n {
		return nil, false
	}
	hasIn := make([]bool, n)
	for _, e := range edges {
		hasIn[e.to] = true
	}
	for u := range n {
		if !hasIn[u] && len(succ[u]) > 0 {
			first := math.MaxInt
			for _, v := range succ[u] {
				first = min(first, rank[v])
			}
			rank[u] = first - 1
		}
	}
	return rank, true
}

// seed ranks the units of a picture with groups open from ref, the same
// drawing folded, and returns with the ranks each unit's key: where the
// box it was folded into sits across ref. The boxes that stay folded keep
// their layers; an open group's values take its layer and as many after
// it as they need, ranked among themselves, and every later layer moves
// on by as many. A box with no inputs moves on with them, next to its
// users.
func (p *picture) seed(ref *picture) (ranks []int, key []float64) {
	n := len(p.units)
	refOf := make([]int, n) // the unit of ref each unit was folded into
	for s, u := range p.unitOf {
		if u >= 0 {
			refOf[u] = ref.unitOf[s]
		}
	}
	var inner []uedge // the edges inside a box of ref
	hasIn := make([]bool, n)
	for _, e := range p.edges {
		hasIn[e.to] = true
		if refOf[e.from] == refOf[e.to] {
			inner = append(inner, e)
		}
	}
	within, _ := rankUnits(n, inner) // acyclic: p.edges are
	depth := make([]int, len(ref.units))
	for u := range n {
		depth[refOf[u]] = max(depth[refOf[u]], within[u]+1)
	}
	thick := make([]int, ref.layers)
	for r, ru := range ref.units {
		thick[ru.layer] = max(thick[ru.layer], depth[r])
	}
	start := make([]int, ref.layers)
	for l := 1; l < ref.layers; l++ {
		start[l] = start[l-1] + thick[l-1]
	}
	ranks = make([]int, n)
	key = make([]float64, n)
	for u := range n {
		ru := &ref.units[refOf[u]]
		l := ru.layer
		ranks[u] = start[l] + within[u]
		if depth[refOf[u]] == 1 && !hasIn[u] {
			ranks[u] = start[l] + thick[l] - 1
		}
		key[u] = ref.crossMid(ru.box) + 1e-6*float64(u)
	}
	return ranks, key
}

// crossMid is the middle of a box along the cross axis.
func (p *picture) crossMid(b rect) float64 {
	if p.vertical {
		return b.x + b.w/2
	}
	return b.y + b.h/2
}

// seedOrder orders each layer by key, the place across of each unit; a
// dummy sits between the two units its edge joins.
func (p *picture) seedOrder(items []item, layers [][]int, key []float64) {
	at := func(i int) float64 {
		it := &items[i]
		if it.unit >= 0 {
			return key[it.unit]
		}
		ue := &p.edges[it.edge]
		a, b := p.units[ue.from], p.units[ue.to]
		f := float64(it.layer-a.layer) / float64(b.layer-a.layer)
		return key[ue.from] + f*(key[ue.to]-key[ue.from]) + 1e-9*float64(it.edge)
	}
	for _, ls := range layers {
		slices.SortStableFunc(ls, func(a, b int) int { return cmp.Compare(at(a), at(b)) })
		for o, i := range ls {
			items[i].order = o
		}
	}
}

// maxRow is the widest a row of a top-to-bottom picture may grow before
// its boxes wrap onto a new row: a phone's column.
const maxRow = 300.0

// splitWide wraps the first row of a top-to-bottom picture that is wider
// than maxRow, with the edges that pass through it: the boxes past the
// width move to a new row, and every row below moves down one. It reports
// whether it wrapped a row.
func (p *picture) splitWide(rank []int, items []item, layers [][]int) bool {
	// An item's width with its share of the gaps, as place keeps them.
	wide := func(i int) float64 {
		if items[i].unit < 0 {
			return items[i].size[1] + 6
		}
		return items[i].size[1] + crossGap(true)
	}
	for l, ls := range layers {
		width, units := 0.0, 0
		for _, i := range ls {
			width += wide(i)
			if items[i].unit >= 0 {
				units++
			}
		}
		if width <= maxRow || units < 2 {
			continue
		}
		// Keep the boxes that fit beside the row's edges.
		width = 0
		for _, i := range ls {
			if items[i].unit < 0 {
				width += wide(i)
			}
		}
		var move []int
		kept := 0
		for _, i := range ls {
			if u := items[i].unit; u >= 0 {
				if w := wide(i); kept == 0 || width+w <= maxRow {
					width += w
					kept++
				} else {
					move = append(move, u)
				}
			}
		}
		if len(move) == 0 {
			continue
		}
		for u, r := range rank {
			if r > l {
				rank[u]++
			}
		}
		for _, u := range move {
			rank[u] = l + 1
		}
		return true
	}
	return false
}

// crossGap is the least space between two boxes of a layer.
func crossGap(vertical bool) float64 {
	if vertical {
		return 16
	}
	return 18
}

// makeItems makes an item of every unit, and dummies for edges that
// cross layers, linked along each edge.
func (p *picture) makeItems(d *Drawing) ([]item, [][]int) {
	items := make([]item, 0, len(p.units))
	layers := make([][]int, p.layers)
	add := func(it item) int {
		i := len(items)
		it.order = len(layers[it.layer])
		items = append(items, it)
		layers[it.layer] = append(layers[it.layer], i)
		return i
	}
	for u, un := range p.units {
		add(item{unit: u, edge: -1, layer: un.layer, size: un.size})
	}
	for e := range p.edges {
		ue := &p.edges[e]
		ue.chain = []int{ue.from}
		for l := p.units[ue.from].layer + 1; l < p.units[ue.to].layer; l++ {
			// A dummy leaves room across for the edge's label, left to
			// right; top to bottom, where a label is wide, it is thin.
			cross := labelH + 4
			if p.vertical {
				cross = 8
			}
			ue.chain = append(ue.chain, add(item{unit: -1, edge: e, layer: l, size: [2]float64{0, cross}}))
		}
		ue.chain = append(ue.chain, ue.to)
		for k := 0; k+1 < len(ue.chain); k++ {
			a, b := ue.chain[k], ue.chain[k+1]
			w := 1.0
			if items[a].unit < 0 || items[b].unit < 0 {
				w = 2
			}
			if items[a].unit < 0 && items[b].unit < 0 {
				w = 8
			}
			frac := 0.0
			if u := &p.units[ue.to]; k+2 == len(ue.chain) && !p.freePorts(d, ue.to) && u.ports > 1 {
				frac = 0.8 * (float64(ue.port)/float64(u.ports-1) - 0.5)
			}
			items[a].out = append(items[a].out, link{item: b, weight: w, frac: frac})
			items[b].in = append(items[b].in, link{item: a, weight: w, frac: frac})
		}
	}
	return items, layers
}

// portOff is the cross offset of port k of unit u from its centre.
func (u *unit) portOff(k int) float64 {
	return (float64(k) - float64(u.ports-1)/2) * u.portGap
}

// order orders the items of each layer to cut crossings: barycentre sweeps
// down and up, keeping the best order seen, then swaps of neighbours.
func order(items []item, layers [][]int) {
	pos := func(l link) float64 { return float64(items[l.item].order) }
	sortLayer := func(ls []int, key func(i int) (float64, bool)) {
		keys := make(map[int]float64, len(ls))
		for _, i := range ls {
			if k, ok := key(i); ok {
				keys[i] = k
			} else {
				keys[i] = float64(items[i].order)
			}
		}
		sort.SliceStable(ls, func(a, b int) bool { return keys[ls[a]] < keys[ls[b]] })
		for o, i := range ls {
			items[i].order = o
		}
	}
	// An item wants to be level with the ports it links to: sign is -1
	// for its inputs (the port is its own), +1 for its outputs.
	bary := func(links []link, sign float64) (float64, bool) {
		if len(links) == 0 {
			return 0, false
		}
		s := 0.0
		for _, l := range links {
			s += pos(l) + sign*l.frac
		}
		return s / float64(len(links)), true
	}
	best := crossings(items, layers)
	saved := saveOrder(items)
	for round := 0; round < 8 && best > 0; round++ {
		for l := 1; l < len(layers); l++ {
			sortLayer(layers[l], func(i int) (float64, bool) { return bary(items[i].in, -1) })
		}
		for l := len(layers) - 2; l >= 0; l-- {
			sortLayer(layers[l], func(i int) (float64, bool) { return bary(items[i].out, 1) })
		}
		if c := crossings(items, layers); c < best {
			best, saved = c, saveOrder(items)
		}
	}
	restoreOrder(items, layers, saved)
	// Swap neighbours while that removes crossings.
	for pass := 0; pass < 4 && best > 0; pass++ {
		improved := false
		for l := range layers {
			for k := 0; k+1 < len(layers[l]); k++ {
				a, b := layers[l][k], layers[l][k+1]
				before := localCrossings(items, a, b)
				items[a].order, items[b].order = items[b].order, items[a].order
				if after := localCrossings(items, a, b); after < before {
					layers[l][k], layers[l][k+1] = b, a
					best -= before - after
					improved = true
				} else {
					items[a].order, items[b].order = items[b].order, items[a].order
				}
			}
		}
		if !improved {
			break
		}
	}
}

func saveOrder(items []item) []int {
	o := make([]int, len(items))
	for i := range items {
		o[i] = items[i].order
	}
	return o
}

func restoreOrder(items []item, layers [][]int, o []int) {
	for i := range items {
		items[i].order = o[i]
	}
	for _, ls := range layers {
		sort.Slice(ls, func(a, b int) bool { return items[ls[a]].order < items[ls[b]].order })
	}
}

// crossings counts the pairs of links between neighbouring layers that
// cross, ports counted.
func crossings(items []item, layers [][]int) int {
	n := 0
	for l := 0; l+1 < len(layers); l++ {
		type seg struct{ a, b float64 }
		var segs []seg
		for _, i := range layers[l] {
			for _, k := range items[i].out {
				segs = append(segs, seg{float64(items[i].order), float64(items[k.item].order) + k.frac})
			}
		}
		for x := range segs {
			for y := range x {
				if (segs[x].a-segs[y].a)*(segs[x].b-segs[y].b) < 0 {
					n++
				}
			}
		}
	}
	return n
}

// localCrossings counts the crossings between the links of a and those of
// b, two neighbours of one layer.
func localCrossings(items []item, a, b int) int {
	n := 0
	oa, ob := float64(items[a].order), float64(items[b].order)
	for _, x := range items[a].in {
		for _, y := range items[b].in {
			if (oa+x.frac-ob-y.frac)*float64(items[x.item].order-items[y.item].order) < 0 {
				n++
			}
		}
	}
	for _, x := range items[a].out {
		for _, y := range items[b].out {
			if (oa-ob)*(float64(items[x.item].order)+x.frac-float64(items[y.item].order)-y.frac) < 0 {
				n++
			}
		}
	}
	return n
}

// commutative are the ops whose inputs may arrive in either order.
var commutative = map[string]bool{"add": true, "mul": true}

// freePorts reports whether the inputs of unit u may arrive at its ports
// in any order: a folded group's, an add's or a mul's.
func (p *picture) freePorts(d *Drawing, u int) bool {
	un := &p.units[u]
	return un.group != nil || commutative[d.Nodes[un.node].Op]
}

// orderPorts orders the ports of each unit whose inputs may come in any
// order by where they come from, so that they do not cross as they
// arrive; its chips take the ports after them.
func (p *picture) orderPorts(d *Drawing, items []item) {
	byUnit := map[int][]int{}
	for e := range p.edges {
		if to := p.edges[e].to; p.freePorts(d, to) {
			byUnit[to] = append(byUnit[to], e)
		}
	}
	for _, es := range byUnit {
		prev := func(e int) int { c := p.edges[e].chain; return items[c[len(c)-2]].order }
		slices.SortStableFunc(es, func(a, b int) int { return prev(a) - prev(b) })
		for k, e := range es {
			p.edges[e].port = k
		}
	}
	next := map[int]int{}
	for i := range p.chips {
		c := &p.chips[i]
		if p.freePorts(d, c.unit) {
			c.port = len(byUnit[c.unit]) + next[c.unit]
			next[c.unit]++
		}
	}
}

// setLinkOffsets records, on each link into a unit, the cross offset of
// the port it arrives at.
func (p *picture) setLinkOffsets(items []item) {
	for e := range p.edges {
		ue := &p.edges[e]
		last := ue.chain[len(ue.chain)-1]
		prev := ue.chain[len(ue.chain)-2]
		u := &p.units[ue.to]
		off := u.portOff(ue.port)
		for k := range items[last].in {
			if items[last].in[k].item == prev && items[last].in[k].off == 0 {
				items[last].in[k].off = off
				break
			}
		}
		for k := range items[prev].out {
			if items[prev].out[k].item == last && items[prev].out[k].off == 0 {
				items[prev].out[k].off = off
				break
			}
		}
	}
}

// place gives every item its cross position: each layer in order, its
// items kept apart, each pulled towards the items it links to, in sweeps
// down and up (each layer placed exactly by isotonic regression).
func (p *picture) place(items []item, layers [][]int) {
	gap := crossGap(p.vertical)
	sep := func(a, b int) float64 {
		g := gap
		if items[a].unit < 0 || items[b].unit < 0 {
			g = 6
		}
		return (items[a].size[1]+items[b].size[1])/2 + g
	}
	for _, ls := range layers {
		c := 0.0
		for k, i := range ls {
			if k > 0 {
				c += sep(ls[k-1], i)
			}
			items[i].pos = c
		}
		for _, i := range ls {
			items[i].pos -= c / 2
		}
	}
	desire := func(i int, in, out bool) (float64, float64) {
		s, w := 0.0, 0.0
		if in {
			for _, l := range items[i].in {
				s += (items[l.item].pos - l.off) * l.weight
				w += l.weight
			}
		}
		if out {
			for _, l := range items[i].out {
				s += (items[l.item].pos + l.off) * l.weight
				w += l.weight
			}
		}
		if p.vertical {
			// Top to bottom, rows stay centred on one another, so that
			// the picture is no wider than its widest row needs.
			w += 6
		}
		if w == 0 {
			return items[i].pos, 0.01
		}
		return s / w, w
	}
	for round := 0; round < 16; round++ {
		down := round%2 == 0
		both := round >= 12
		for k := range layers {
			l := k
			if !down {
				l = len(layers) - 1 - k
			}
			ls := layers[l]
			target := make([]float64, len(ls))
			weight := make([]float64, len(ls))
			off := make([]float64, len(ls))
			for j, i := range ls {
				if j > 0 {
					off[j] = off[j-1] + sep(ls[j-1], i)
				}
				t, w := desire(i, down || both, !down || both)
				target[j], weight[j] = t-off[j], w
			}
			z := isotonic(target, weight)
			for j, i := range ls {
				items[i].pos = z[j] + off[j]
			}
		}
	}
}

// isotonic returns the non-decreasing sequence closest to t in weighted
// least squares (pool adjacent violators).
func isotonic(t, w []float64) []float64 {
	type block struct {
		sum, weight float64
		n           int
	}
	var bs []block
	for i := range t {
		bs = append(bs, block{t[i] * w[i], w[i], 1})
		for len(bs) > 1 {
			a, b := bs[len(bs)-2], bs[len(bs)-1]
			if a.sum/a.weight <= b.sum/b.weight {
				break
			}
			bs = append(bs[:len(bs)-2], block{a.sum + b.sum, a.weight + b.weight, a.n + b.n})
		}
	}
	z := make([]float64, 0, len(t))
	for _, b := range bs {
		for range b.n {
			z = append(z, b.sum/b.weight)
		}
	}
	return z
}

// route places the layers along the main axis, the chips and every edge's
// label, growing a gap between two layers when a label finds no room
// there, and writes each edge's path.
func (p *picture) route(d *Drawing, items []item, layers [][]int) {
	nl := len(layers)
	thick := make([]float64, nl)
	for _, it := range items {
		thick[it.layer] = max(thick[it.layer], it.size[0])
	}
	// A layer's chips sit in the gap before it.
	chipRoom := make([]float64, nl)
	for _, c := range p.chips {
		cw, ch := chipSize(d.Nodes[c.node].Value)
		m := cw
		if p.vertical {
			m = ch
		}
		l := p.units[c.unit].layer
		chipRoom[l] = max(chipRoom[l], m+chipGap+clearBox)
	}
	gaps := make([]float64, nl) // gaps[l] is the gap before layer l
	for l := range gaps {
		gaps[l] = chipRoom[l]
		if l > 0 {
			gaps[l] = max(gaps[l], minGap, chipRoom[l]+2*labelH)
		}
	}
	for _, ue := range p.edges {
		if !ue.labelled {
			continue
		}
		m := ue.labelW
		if p.vertical {
			m = labelH
		}
		l := p.units[ue.to].layer
		gaps[l] = max(gaps[l], m+clearBox+arrowRoom+4)
	}
	start := make([]float64, nl)
	for round := 0; ; round++ {
		at := 0.0
		for l := range nl {
			at += gaps[l]
			start[l] = at
			at += thick[l]
		}
		p.placeBoxes(d, items, start, thick)
		failed := p.placeLabels(items, start, thick)
		if len(failed) == 0 || round == maxGrow {
			break
		}
		for _, l := range failed {
			gaps[l] += growBy
		}
	}
	p.finish(start, thick, items)
}

// placeBoxes puts each unit in the middle of its layer and each chip next
// to the port it feeds.
func (p *picture) placeBoxes(d *Drawing, items []item, start, thick []float64) {
	for _, it := range items {
		if it.unit < 0 {
			continue
		}
		u := &p.units[it.unit]
		m := start[it.layer] + (thick[it.layer]-u.size[0])/2
		u.box = p.rect(m, it.pos-u.size[1]/2, u.size[0], u.size[1])
	}
	for i := range p.chips {
		c := &p.chips[i]
		u := &p.units[c.unit]
		cw, ch := chipSize(d.Nodes[c.node].Value)
		off := u.portOff(c.port)
		if p.vertical {
			cx := u.box.x + u.box.w/2 + off
			c.box = rect{cx - cw/2, u.box.y - chipGap - ch, cw, ch}
		} else {
			cy := u.box.y + u.box.h/2 + off
			c.box = rect{u.box.x - chipGap - cw, cy - ch/2, cw, ch}
		}
	}
}

// segment is the part of an edge between two neighbouring layers: a curve
// from (m0, c0) to (m1, c1) in main and cross coordinates, whose labels
// may sit between lo and hi along the main axis.
type segment struct {
	m0, c0, m1, c1 float64
	lo, hi         float64
	gap            int // the layer after the gap
}

// at returns the cross coordinate of the curve at main coordinate m: the
// curve is a cubic Bézier with its control points half way along the main
// axis, so its main coordinate grows with t and bisection finds t.
func (s segment) at(m float64) float64 {
	mm := (s.m0 + s.m1) / 2
	lo, hi := 0.0, 1.0
	for range 40 {
		t := (lo + hi) / 2
		if bezier(t, s.m0, mm, mm, s.m1) < m {
			lo = t
		} else {
			hi = t
		}
	}
	t := (lo + hi) / 2
	return bezier(t, s.c0, s.c0, s.c1, s.c1)
}

// segments returns the segments of an edge, first to last, and the
// straight runs through the layers of its dummies.
func (p *picture) segments(ue *uedge, items []item, start, thick []float64) (segs []segment, runs []segment) {
	for k := 0; k+1 < len(ue.chain); k++ {
		a, b := &items[ue.chain[k]], &items[ue.chain[k+1]]
		var s segment
		s.gap = b.layer
		if a.unit >= 0 {
			box := p.units[a.unit].box
			s.m0, s.c0 = p.far(box), a.pos
		} else {
			s.m0, s.c0 = start[a.layer]+thick[a.layer], a.pos
			runs = append(runs, segment{m0: start[a.layer], c0: a.pos, m1: s.m0, c1: a.pos, lo: start[a.layer], hi: s.m0, gap: -1})
		}
		if b.unit >= 0 {
			u := &p.units[b.unit]
			s.m1, s.c1 = p.near(u.box), b.pos+u.portOff(ue.port)
		} else {
			s.m1, s.c1 = start[b.layer], b.pos
		}
		s.lo, s.hi = start[a.layer]+thick[a.layer], start[b.layer]
		segs = append(segs, s)
	}
	return segs, runs
}

// near and far are a box's sides where edges arrive and leave.
func (p *picture) near(b rect) float64 {
	if p.vertical {
		return b.y
	}
	return b.x
}

func (p *picture) far(b rect) float64 {
	if p.vertical {
		return b.y + b.h
	}
	return b.x + b.w
}

// placeLabels puts each edge's label where it overlaps no box, chip or
// other label, and if it can, where it hides no other edge: along the
// edge's last segment first, nearest the node it feeds, then along its
// other segments, then on its runs through the layers it crosses. It
// returns the gaps that need to grow.
func (p *picture) placeLabels(items []item, start, thick []float64) []int {
	var solid []rect
	for _, u := range p.units {
		solid = append(solid, u.box)
	}
	for _, c := range p.chips {
		solid = append(solid, c.box)
	}
	// The points of every edge, in a grid of cells, to find the edges a
	// label would hide.
	const cell = 16.0
	type pt struct {
		x, y float64
		edge int
	}
	grid := map[[2]int][]pt{}
	segsOf := make([][]segment, len(p.edges))
	runsOf := make([][]segment, len(p.edges))
	for e := range p.edges {
		segsOf[e], runsOf[e] = p.segments(&p.edges[e], items, start, thick)
		sample := func(m, c float64) {
			x, y := p.point(m, c)
			k := [2]int{int(math.Floor(x / cell)), int(math.Floor(y / cell))}
			grid[k] = append(grid[k], pt{x, y, e})
		}
		for _, sg := range segsOf[e] {
			mm := (sg.m0 + sg.m1) / 2
			for i := 0; i <= 24; i++ {
				t := float64(i) / 24
				sample(bezier(t, sg.m0, mm, mm, sg.m1), bezier(t, sg.c0, sg.c0, sg.c1, sg.c1))
			}
		}
		for _, r := range runsOf[e] {
			for m := r.m0; m <= r.m1; m += 4 {
				sample(m, r.c0)
			}
		}
	}
	hides := func(r rect, e int) bool {
		for gx := int(math.Floor(r.x / cell)); gx <= int(math.Floor((r.x+r.w)/cell)); gx++ {
			for gy := int(math.Floor(r.y / cell)); gy <= int(math.Floor((r.y+r.h)/cell)); gy++ {
				for _, q := range grid[[2]int{gx, gy}] {
					if q.edge != e && q.x > r.x-1 && q.x < r.x+r.w+1 && q.y > r.y-1 && q.y < r.y+r.h+1 {
						return true
					}
				}
			}
		}
		return false
	}
	var placed []rect
	free := func(r rect) bool {
		for _, s := range solid {
			if r.overlaps(s, clearBox) {
				return false
			}
		}
		for _, s := range placed {
			if r.overlaps(s, clearLabel) {
				return false
			}
		}
		return true
	}
	var failed []int
	for e := range p.edges {
		ue := &p.edges[e]
		if !ue.labelled {
			continue
		}
		segs, runs := segsOf[e], runsOf[e]
		lm, lc := ue.labelW, labelH // main and cross size
		if p.vertical {
			lm, lc = labelH, ue.labelW
		}
		// candidates lists the places to try, best first.
		var candidates []rect
		at := func(s segment, m float64) {
			candidates = append(candidates, p.rect(m-lm/2, s.at(m)-lc/2, lm, lc))
		}
		for k := len(segs) - 1; k >= 0; k-- {
			s := segs[k]
			lo, hi := s.lo+clearBox+lm/2+1, s.hi-arrowRoom-lm/2
			if lo > hi {
				continue
			}
			// Nearest the node the edge feeds, where the edges that
			// arrive at it are apart; in the middle of an earlier gap.
			pref := hi
			if k < len(segs)-1 {
				pref = (lo + hi) / 2
			}
			for step := 0.0; pref+step <= hi || pref-step >= lo; step += 4 {
				if pref+step <= hi {
					at(s, pref+step)
				}
				if step > 0 && pref-step >= lo {
					at(s, pref-step)
				}
			}
		}
		for _, r := range runs {
			if r.hi-r.lo >= lm+2 && !p.vertical {
				at(r, (r.lo+r.hi)/2)
			}
		}
		found := -1
		for i, r := range candidates {
			if free(r) && !hides(r, e) {
				found = i
				break
			}
		}
		if found < 0 {
			for i, r := range candidates {
				if free(r) {
					found = i
					break
				}
			}
		}
		if found >= 0 {
			ue.label = candidates[found]
			placed = append(placed, ue.label)
			continue
		}
		failed = append(failed, segs[len(segs)-1].gap)
		// Draw it where it would go, for the next round to fix.
		s := segs[len(segs)-1]
		m := (s.lo + s.hi) / 2
		ue.label = p.rect(m-lm/2, s.at(m)-lc/2, lm, lc)
	}
	return failed
}

// finish shifts the picture to its margin, sizes it and writes the edges'
// paths.
func (p *picture) finish(start, thick []float64, items []item) {
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	grow := func(r rect) {
		lo[0], lo[1] = min(lo[0], r.x), min(lo[1], r.y)
		hi[0], hi[1] = max(hi[0], r.x+r.w), max(hi[1], r.y+r.h)
	}
	for _, u := range p.units {
		grow(u.box)
	}
	for _, c := range p.chips {
		grow(c.box)
	}
	for _, e := range p.edges {
		if e.labelled {
			grow(e.label)
		}
	}
	if len(p.units) == 0 {
		lo, hi = [2]float64{}, [2]float64{}
	}
	dx, dy := margin-lo[0], margin-lo[1]
	dx, dy = math.Round(dx), math.Round(dy)
	move := func(r *rect) { r.x, r.y = round1(r.x+dx), round1(r.y+dy) }
	for i := range p.units {
		move(&p.units[i].box)
	}
	for i := range p.chips {
		move(&p.chips[i].box)
	}
	for i := range p.edges {
		move(&p.edges[i].label)
	}
	p.w = math.Ceil(hi[0] - lo[0] + 2*margin)
	p.h = math.Ceil(hi[1] - lo[1] + 2*margin)
	dm, dc := dx, dy
	if p.vertical {
		dm, dc = dy, dx
	}
	for i := range start {
		start[i] += dm
	}
	for i := range items {
		items[i].pos += dc
	}
	for e := range p.edges {
		ue := &p.edges[e]
		segs, _ := p.segments(ue, items, start, thick)
		ue.path = p.pathOf(segs)
	}
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }

// appendNum appends x to one decimal place, without trailing zeros.
func appendNum(b []byte, x float64) []byte {
	return strconv.AppendFloat(b, round1(x)+0, 'f', -1, 64)
}

// pathOf writes the SVG path of an edge through its segments: a curve in
// each gap, a straight run through each layer between.
func (p *picture) pathOf(segs []segment) string {
	var b []byte
	pt := func(cmd byte, m, c float64) {
		x, y := p.point(m, c)
		b = append(b, cmd)
		b = appendNum(b, x)
		b = append(b, ',')
		b = appendNum(b, y)
	}
	for k, s := range segs {
		m1 := s.m1
		if k == len(segs)-1 {
			m1 -= 2 // leave room for the arrowhead's tip
		}
		if k == 0 {
			pt('M', s.m0, s.c0)
		} else {
			pt('L', s.m0, s.c0)
		}
		mm := (s.m0 + m1) / 2
		pt('C', mm, s.c0)
		pt(' ', mm, s.c1)
		pt(' ', m1, s.c1)
	}
	return string(b)
}

// boxOf returns the box node s is drawn in (its own, its folded group's,
// or its first chip's).
func (p *picture) boxOf(s int) (rect, bool) {
	if u := p.unitOf[s]; u >= 0 {
		return p.units[u].box, true
	}
	for _, c := range p.chips {
		if c.node == s {
			return c.box, true
		}
	}
	return rect{}, false
}

// layerOf returns the layer node s is drawn in.
func (p *picture) layerOf(s int) int {
	if u := p.unitOf[s]; u >= 0 {
		return p.units[u].layer
	}
	for _, c := range p.chips {
		if c.node == s {
			return max(0, p.units[c.unit].layer-1)
		}
	}
	return 0
}

// bezier returns the point at t of a cubic Bézier curve in one coordinate.
func bezier(t, p0, p1, p2, p3 float64) float64 {
	u := 1 - t
	return u*u*u*p0 + 3*u*u*t*p1 + 3*u*t*t*p2 + t*t*t*p3
}
