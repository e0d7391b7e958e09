package draw

import (
	"fmt"
	"math"
	"strings"

	"gradbook/engine"
	"gradbook/internal/htmltext"
	"gradbook/internal/words"
)

// View chooses what an SVG of a Drawing shows.
type View struct {
	ID string // prefix for the ids inside the SVG, unique on the page
	// Step, if positive, shows the reverse pass after that many steps,
	// with the node of step Step highlighted; 0 shows the finished pass.
	Step int
	// Bug, if not engine.Accumulate, shows under each gradient that
	// classic bug gets wrong the one it would give.
	Bug engine.Mode
	// Path highlights these edges.
	Path []int
	// Vertical draws the graph top to bottom, its layers as rows, for a
	// column too narrow for the drawing left to right (see LayoutFor).
	Vertical bool
	// Expanded lists the groups drawn open, by key (see Groups), in a
	// drawing that folds, and with them the groups they are in; the
	// others are one box each.
	Expanded []string
	// Practice draws the pass as the learner does it ("you do the
	// backward pass"): Step 0 is the pass before its first step, with
	// only the output's gradient, and no gradient or contribution is
	// shown before the step that earns it.
	Practice bool
}

// MinScale is the smallest a page should scale a drawing: its 12 px text
// then reads at 11 px.
const MinScale = 11.0 / 12

// Size returns the natural size of the picture v draws, in CSS pixels.
func (d *Drawing) Size(v View) (w, h float64) {
	p := d.picture(v.Vertical, v.Expanded, v.Bug)
	return p.w, p.h
}

// MinWidth returns the narrowest column the picture v draws fits at
// MinScale: below it, a page should let its box scroll rather than shrink
// it further (SVG writes it as data-min-width).
func (d *Drawing) MinWidth(v View) float64 {
	w, _ := d.Size(v)
	return math.Ceil(w * MinScale)
}

// LayoutFor says whether a column width CSS pixels wide should show v
// top to bottom: left to right if that fits at MinScale, else top to
// bottom if that does, else whichever is narrower.
func (d *Drawing) LayoutFor(width float64, v View) (vertical bool) {
	v.Vertical = false
	across := d.MinWidth(v)
	if across <= width {
		return false
	}
	v.Vertical = true
	down := d.MinWidth(v)
	return down <= width || down < across
}

// Focus returns the box of the node that view v's step is at (its folded
// group's, if it is inside one), in the SVG's units, for the page to
// scroll into view; ok is false when no step is shown.
func (d *Drawing) Focus(v View) (x, y, w, h float64, ok bool) {
	if v.Step <= 0 || v.Step > len(d.Steps) {
		return 0, 0, 0, 0, false
	}
	b, ok := d.picture(v.Vertical, v.Expanded, v.Bug).boxOf(d.Steps[v.Step-1].Node)
	return b.x, b.y, b.w, b.h, ok
}

// unitName is what the SVG calls a unit in its data attributes: a node's
// name, or a folded group's key.
func (d *Drawing) unitName(p *picture, u int) string {
	if g := p.units[u].group; g != nil {
		return g.key
	}
	return d.Nodes[p.units[u].node].Name
}

// stepOf returns, for each node, the step (from 1) at which the reverse
// pass is at it, or 0.
func (d *Drawing) stepOf() []int {
	at := make([]int, len(d.Nodes))
	for k, st := range d.Steps {
		at[st.Node] = k + 1
	}
	return at
}

// SVG draws d as an SVG element whose text alternative (title and desc)
// describes every node. Its width and height are its natural size, in CSS
// pixels, and its viewBox lets a stylesheet scale it to its column
// (max-width: 100%; height: auto); data-min-width is MinWidth, the
// narrowest it reads at (a page sets it as min-width: the site's CSP
// allows no style attribute). Each node's group (class node, data-name)
// is placed by its transform; a folded group's box has classes group and
// folded and data-group, its key; the svg element's data-focus holds the
// box of the step's node ("x y w h"), for the page to scroll to.
func (d *Drawing) SVG(v View) string {
	p := d.picture(v.Vertical, v.Expanded, v.Bug)
	var b strings.Builder
	grads := d.GradsAfter(len(d.Steps))
	active := -1
	if v.Step > 0 && v.Step <= len(d.Steps) {
		grads = d.GradsAfter(v.Step)
		active = d.Steps[v.Step-1].Node
	} else {
		v.Step = 0
		if v.Practice {
			grads = d.GradsAfter(0)
		}
	}
	desc := d.Describe()
	if v.Practice {
		desc = d.describe(grads)
	}
	activeUnit, wrongUnit := -1, -1
	if active >= 0 {
		activeUnit = p.unitOf[active]
	}
	if d.FirstWrong >= 0 {
		wrongUnit = p.unitOf[d.FirstWrong]
	}
	onPath := map[int]bool{}
	for _, e := range v.Path {
		onPath[e] = true
	}
	sent := map[int]bool{}
	if active >= 0 {
		for _, e := range d.Steps[v.Step-1].Edges {
			sent[e] = true
		}
	}
	stepAt := d.stepOf()
	id := htmltext.Escape(v.ID)
	layout := "horizontal"
	if p.vertical {
		layout = "vertical"
	}
	fmt.Fprintf(&b, `<svg class="graph" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %g %g" width="%g" height="%g" data-min-width="%g" data-layout="%s"`,
		p.w, p.h, p.w, p.h, math.Ceil(p.w*MinScale), layout)
	if activeUnit >= 0 {
		r := p.units[activeUnit].box
		fmt.Fprintf(&b, ` data-focus="%g %g %g %g"`, r.x, r.y, r.w, r.h)
	}
	fmt.Fprintf(&b, ` role="img" aria-labelledby="%s-title %s-desc">`, id, id)
	fmt.Fprintf(&b, `<title id="%s-title">%s</title><desc id="%s-desc">%s</desc>`, id, htmltext.Escape(d.Title), id, htmltext.Escape(desc))
	fmt.Fprintf(&b, `<defs><marker id="%s-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerUnits="userSpaceOnUse" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" class="arrowhead"/></marker></defs>`, id)
	for _, ue := range p.edges {
		class := "edge"
		shown := true
		for _, e := range ue.edges {
			if onPath[e] && !strings.Contains(class, "on-path") {
				class += " on-path"
			}
			if sent[e] && !strings.Contains(class, "sending") {
				class += " sending"
			}
			if (v.Step > 0 || v.Practice) && (stepAt[d.Edges[e].To] == 0 || stepAt[d.Edges[e].To] > v.Step) {
				shown = false
			}
		}
		fmt.Fprintf(&b, `<g class="%s" data-from="%s" data-to="%s"><path d="%s" marker-end="url(#%s-arrow)"/>`,
			class, htmltext.Escape(d.unitName(p, ue.from)), htmltext.Escape(d.unitName(p, ue.to)), ue.path, id)
		if ue.labelled {
			label := words.Rounded(d.sum(ue.edges))
			r := ue.label
			if !shown {
				// Not sent yet: a dot in a box its size, inside the
				// place kept for the number.
				label = "·"
				w := labelWidth(0)
				r = rect{round1(r.x + (r.w-w)/2), r.y, w, r.h}
			}
			fmt.Fprintf(&b, `<rect class="contrib-bg" x="%g" y="%g" width="%g" height="%g" rx="3"/><text class="contrib" x="%g" y="%g" text-anchor="middle">%s</text>`,
				r.x, r.y, r.w, r.h, round1(r.x+r.w/2), round1(r.y+r.h/2+(ascent-descent)/2*fontSize), htmltext.Escape(label))
		}
		b.WriteString(`</g>`)
	}
	for _, c := range p.chips {
		n := d.Nodes[c.node]
		r := c.box
		x1, y1, x2, y2 := r.x+r.w, r.y+r.h/2, r.x+r.w+chipGap, r.y+r.h/2
		if p.vertical {
			x1, y1, x2, y2 = r.x+r.w/2, r.y+r.h, r.x+r.w/2, r.y+r.h+chipGap
		}
		fmt.Fprintf(&b, `<g class="chip" data-name="%s" data-to="%s"><title>the constant %s</title><line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#7b8494"/><rect x="%g" y="%g" width="%g" height="%g" rx="8" fill="#f3f4f1" stroke="#8a93a3"/><text x="%g" y="%g" text-anchor="middle">%s</text></g>`,
			htmltext.Escape(n.Name), htmltext.Escape(d.unitName(p, c.unit)), htmltext.Escape(words.Rounded(n.Value)),
			x1, y1, x2, y2, r.x, r.y, r.w, r.h, round1(r.x+r.w/2), round1(r.y+r.h/2+(ascent-descent)/2*fontSize), htmltext.Escape(words.Rounded(n.Value)))
	}
	for u := range p.units {
		un := &p.units[u]
		class := "node"
		var attr string
		if un.group != nil {
			class += " group folded"
			if d.Out >= 0 && p.unitOf[d.Out] == u {
				class += " out"
			}
			attr = fmt.Sprintf(`data-group="%s"`, htmltext.Escape(un.group.key))
		} else {
			n := d.Nodes[un.node]
			if n.Op == "" {
				class += " leaf"
			}
			if un.node == d.Out {
				class += " out"
			}
			attr = fmt.Sprintf(`data-name="%s"`, htmltext.Escape(n.Name))
			if len(n.Group) > 0 {
				attr += fmt.Sprintf(` data-group="%s"`, htmltext.Escape(groupKey(n.Group)))
			}
		}
		if u == activeUnit {
			class += " active"
		}
		if u == wrongUnit {
			class += " first-wrong"
		}
		r := un.box
		fmt.Fprintf(&b, `<g class="%s" %s transform="translate(%g,%g)"><rect width="%g" height="%g" rx="8"`, class, attr, r.x, r.y, r.w, r.h)
		if un.group != nil {
			b.WriteString(` stroke-dasharray="5 3"`)
		}
		b.WriteString(`/>`)
		ls := d.unitLines(un, grads, v.Bug)
		if full := d.unitHeader(un); len([]rune(full)) > headMax {
			fmt.Fprintf(&b, `<title>%s</title>`, htmltext.Escape(full))
		}
		for i, l := range ls {
			if l.text == "" {
				continue
			}
			fmt.Fprintf(&b, `<text class="%s" x="%g" y="%g">%s</text>`, l.class, textInset, lineY(i), htmltext.Escape(l.text))
		}
		b.WriteString(`</g>`)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// unitHeader is the whole first line of a unit's box, before clip.
func (d *Drawing) unitHeader(u *unit) string {
	if u.group != nil {
		return u.group.name
	}
	n := d.Nodes[u.node]
	if n.Op != "" && n.Op != n.Label {
		return n.Label + " = " + n.Op
	}
	return n.Label
}

// usesTwice reports whether node s takes from as both of its inputs.
func (d *Drawing) usesTwice(s, from int) bool {
	n := 0
	for _, in := range d.inputsOf(s) {
		if in == from {
			n++
		}
	}
	return n > 1
}

func (d *Drawing) inputsOf(s int) []int {
	var in []int
	for _, e := range d.Edges {
		if e.To == s {
			in = append(in, e.From)
		}
	}
	return in
}

// Describe says in words what the drawing shows: each node's value and
// gradient, and how it was computed.
func (d *Drawing) Describe() string {
	grads := make([]float64, len(d.Nodes))
	for s, n := range d.Nodes {
		grads[s] = n.Grad
	}
	return d.describe(grads)
}

// describe is Describe with these gradients.
func (d *Drawing) describe(grads []float64) string {
	var b strings.Builder
	b.WriteString(words.Count(len(d.Nodes), "value") + ".")
	if d.Out >= 0 {
		fmt.Fprintf(&b, " Gradients are of %s.", d.Nodes[d.Out].Label)
	}
	for s, n := range d.Nodes {
		b.WriteString(" ")
		b.WriteString(n.Label)
		if n.Op != "" {
			var ins []string
			for _, in := range d.inputsOf(s) {
				ins = append(ins, d.Nodes[in].Label)
			}
			fmt.Fprintf(&b, " = %s(%s)", n.Op, strings.Join(ins, ", "))
		}
		fmt.Fprintf(&b, " = %s", words.Rounded(n.Value))
		if d.Out >= 0 {
			fmt.Fprintf(&b, ", gradient %s", words.Rounded(grads[s]))
		}
		if d.Theirs != nil {
			fmt.Fprintf(&b, ", yours %s", words.Rounded(d.Theirs[s]))
		}
		b.WriteString(";")
	}
	return b.String()
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// ControlsHTML returns the controls under a drawing: stepping through the
// reverse pass, the overwrite toggle, the value whose paths to list and,
// in a drawing that folds, the group to open and a button that folds them
// all again. A trivial drawing has none.
func (d *Drawing) ControlsHTML(id string) string {
	d.ready()
	if d.Out < 0 || d.Trivial() {
		return ""
	}
	id = htmltext.Escape(id)
	var b strings.Builder
	b.WriteString(`<div class="controls" role="group" aria-label="Reverse pass">`)
	b.WriteString(`<button type="button" class="step-back" disabled>Step back</button>`)
	b.WriteString(`<button type="button" class="step">Step</button>`)
	b.WriteString(`<button type="button" class="step-all" disabled>Whole pass</button>`)
	fmt.Fprintf(&b, `<label class="toggle"><input type="checkbox" class="%s" id="%s-overwrite"> Overwrite instead of add (the bug)</label>`, ClassOverwrite, id)
	fmt.Fprintf(&b, `<label class="toggle"><input type="checkbox" class="%s" id="%s-twice"> Backward twice, not zeroed</label>`, ClassTwice, id)
	if d.differs(engine.RecursiveBug) {
		fmt.Fprintf(&b, `<label class="toggle"><input type="checkbox" class="%s" id="%s-recursive"> Recursive backward, in visiting order</label>`, ClassRecursive, id)
	}
	fmt.Fprintf(&b, `<label class="paths-label" for="%s-paths">Paths from</label><select class="paths-from" id="%s-paths"><option value="">(choose a value)</option>`, id, id)
	byGroup := map[string][]string{}
	var keys []string
	for s, n := range d.Nodes {
		if s == d.Out || n.Const {
			continue
		}
		opt := fmt.Sprintf(`<option value="%d">%s</option>`, s, htmltext.Escape(d.menuName(s)))
		k := ""
		if d.folds {
			k = groupKey(n.Group)
		}
		if _, ok := byGroup[k]; !ok && k != "" {
			keys = append(keys, k)
		}
		byGroup[k] = append(byGroup[k], opt)
	}
	b.WriteString(strings.Join(byGroup[""], ""))
	for _, k := range keys {
		fmt.Fprintf(&b, `<optgroup label="%s">%s</optgroup>`, htmltext.Escape(k), strings.Join(byGroup[k], ""))
	}
	b.WriteString(`</select>`)
	if d.folds {
		fmt.Fprintf(&b, `<label class="groups-label" for="%s-groups">Open</label><select class="group-open" id="%s-groups"><option value="">(a folded group)</option>`, id, id)
		for _, g := range d.groups {
			fmt.Fprintf(&b, `<option value="%s">%s</option>`, htmltext.Escape(g.key), htmltext.Escape(g.key))
		}
		b.WriteString(`</select><button type="button" class="fold-all" disabled>Fold every group</button>`)
	}
	b.WriteString(`</div>`)
	return b.String()
}

// menuName is what the Paths menu calls node s: its name, or, where the
// name is its label, which other values may share ("mul"), or tells it
// apart only by a number ("mul#17"), what the step texts call it ("mul
// (the 17th, value 0.5)").
func (d *Drawing) menuName(s int) string {
	n := d.Nodes[s]
	if n.Name == n.Label || strings.HasPrefix(n.Name, n.Label+"#") {
		return d.Called(s)
	}
	return n.Name
}

// StepText says what step k of the reverse pass does (k from 1), or, for
// k = 0, what the whole pass is.
func (d *Drawing) StepText(k int) string {
	d.ready()
	if d.Out < 0 {
		return ""
	}
	if d.Trivial() {
		return fmt.Sprintf("%s is not computed from other values: there is no reverse pass to step through.", d.Nodes[d.Out].Label)
	}
	if k <= 0 || k > len(d.Steps) {
		return fmt.Sprintf("The reverse pass visits %s, from %s back. Press Step to follow it.", words.Count(len(d.Steps), "node"), d.Nodes[d.Out].Label)
	}
	before := d.GradsAfter(k - 1)
	st := d.Steps[k-1]
	n := d.Nodes[st.Node]
	var b strings.Builder
	fmt.Fprintf(&b, "Step %d of %d: at %s", k, len(d.Steps), d.Called(st.Node))
	if n.Op != n.Label {
		fmt.Fprintf(&b, " (%s)", n.Op)
	}
	if len(n.Group) > 0 && d.folds {
		fmt.Fprintf(&b, ", in %s", groupKey(n.Group))
	}
	fmt.Fprintf(&b, ", gradient %s.", words.Rounded(before[st.Node]))
	g := append([]float64(nil), before...)
	consts := 0
	for _, e := range st.Edges {
		ed := d.Edges[e]
		g[ed.From] += ed.Contribution
		if d.Nodes[ed.From].Const {
			consts++
			continue
		}
		fmt.Fprintf(&b, " %s.grad += %s × %s = %s → %s.", d.Called(ed.From), words.Rounded(before[st.Node]), words.Rounded(ed.Local), words.Rounded(ed.Contribution), words.Rounded(g[ed.From]))
	}
	if consts > 0 && consts == len(st.Edges) {
		b.WriteString(" Its inputs are constants, whose gradients nobody needs.")
	}
	return b.String()
}

// Stops returns the steps (from 1) that the Step button stops at in view
// v: every step, except that a run of steps inside one folded group is one
// stop, at the run's last step.
func (d *Drawing) Stops(v View) []int {
	p := d.picture(v.Vertical, v.Expanded, v.Bug)
	var stops []int
	for k, st := range d.Steps {
		u := p.unitOf[st.Node]
		if len(stops) > 0 && u >= 0 && p.units[u].group != nil {
			last := d.Steps[stops[len(stops)-1]-1].Node
			if p.unitOf[last] == u {
				stops[len(stops)-1] = k + 1
				continue
			}
		}
		stops = append(stops, k+1)
	}
	return stops
}

// StepTextIn says what view v's step does: StepText(v.Step), or for a stop
// inside a folded group, what the run of steps ending there does, as one.
func (d *Drawing) StepTextIn(v View) string {
	k := v.Step
	if k <= 0 || k > len(d.Steps) {
		return d.StepText(k)
	}
	p := d.picture(v.Vertical, v.Expanded, v.Bug)
	u := p.unitOf[d.Steps[k-1].Node]
	if u < 0 || p.units[u].group == nil {
		return d.StepText(k)
	}
	first := k
	for first > 1 && p.unitOf[d.Steps[first-2].Node] == u {
		first--
	}
	g := p.units[u].group
	before := d.GradsAfter(first - 1)
	after := d.GradsAfter(k)
	var b strings.Builder
	fmt.Fprintf(&b, "Steps %d to %d of %d are inside %s, folded: the gradient %s at %s flows back through %s.",
		first, k, len(d.Steps), g.key, words.Rounded(before[g.out]), d.Nodes[g.out].Label, words.Count(len(g.members), "value"))
	if first == k {
		b.Reset()
		fmt.Fprintf(&b, "Step %d of %d is inside %s, folded: at %s, gradient %s.", k, len(d.Steps), g.key, d.Nodes[d.Steps[k-1].Node].Label, words.Rounded(before[d.Steps[k-1].Node]))
	}
	// What leaves the group in these steps, by the unit it reaches.
	stepAt := d.stepOf()
	for _, ue := range p.edges {
		if ue.to != u {
			continue
		}
		sum, sends := 0.0, false
		for _, e := range ue.edges {
			if at := stepAt[d.Edges[e].To]; at >= first && at <= k {
				sum += d.Edges[e].Contribution
				sends = true
			}
		}
		if !sends {
			continue
		}
		if from := p.units[ue.from]; from.group == nil {
			fmt.Fprintf(&b, " %s.grad += %s → %s.", d.Nodes[from.node].Label, words.Rounded(sum), words.Rounded(after[from.node]))
		} else {
			fmt.Fprintf(&b, " %s receives %s.", from.group.key, words.Rounded(sum))
		}
	}
	b.WriteString(" Open the group to follow each step.")
	return b.String()
}

// PathsHTML lists every path from node from to the output with the product
// of its local derivatives, and their sum, which is the gradient.
func (d *Drawing) PathsHTML(from int) string {
	if from < 0 || from >= len(d.Nodes) || d.Out < 0 {
		return ""
	}
	paths, total := d.PathsTo(from)
	var b strings.Builder
	name := htmltext.Escape(d.Nodes[from].Label)
	out := htmltext.Escape(d.Nodes[d.Out].Label)
	if total == 0 {
		fmt.Fprintf(&b, `<p>No path leads from %s to %s, so its gradient is 0.</p>`, name, out)
		return b.String()
	}
	what := "paths"
	if total == 1 {
		what = "path"
	}
	fmt.Fprintf(&b, `<p>%s %s from %s to %s:</p><ol class="path-list">`, words.Rounded(total), what, name, out)
	sum := 0.0
	for _, p := range paths {
		labels := []string{name}
		var factors []string
		for _, e := range p.Edges {
			to := htmltext.Escape(d.Nodes[d.Edges[e].To].Label)
			if d.usesTwice(d.Edges[e].To, d.Edges[e].From) {
				to += fmt.Sprintf(" (input %d)", d.Edges[e].Port+1)
			}
			labels = append(labels, to)
			factors = append(factors, words.Rounded(d.Edges[e].Local))
		}
		sum += p.Product
		fmt.Fprintf(&b, `<li>%s: %s = %s</li>`, strings.Join(labels, " → "), strings.Join(factors, " × "), words.Rounded(p.Product))
	}
	b.WriteString(`</ol>`)
	if float64(len(paths)) < total {
		fmt.Fprintf(&b, `<p>Only the first %d are listed.</p>`, len(paths))
	} else {
		fmt.Fprintf(&b, `<p class="path-sum">Sum of the paths: %s = ∂%s/∂%s.</p>`, words.Rounded(sum), out, name)
	}
	return b.String()
}

// TableHTML lists the drawing's values as a table: a text alternative to
// the picture. A drawing that folds adds each value's group; a comparison
// adds the learner's gradients and marks the first that is wrong.
func (d *Drawing) TableHTML() string { return d.TableHTMLIn(View{}) }

// TableHTMLIn is TableHTML for view v: in practice, the gradients so far.
func (d *Drawing) TableHTMLIn(v View) string {
	d.ready()
	grads := make([]float64, len(d.Nodes))
	for s, n := range d.Nodes {
		grads[s] = n.Grad
	}
	if v.Practice {
		grads = d.GradsAfter(v.Step)
	}
	var b strings.Builder
	b.WriteString(`<table class="graph-table"><thead><tr><th scope="col">name</th><th scope="col">computed as</th><th scope="col">value</th>`)
	if d.Out >= 0 {
		so := ""
		if v.Practice {
			so = ", so far"
		}
		fmt.Fprintf(&b, `<th scope="col">∂%s/∂value%s</th>`, htmltext.Escape(d.Nodes[d.Out].Label), so)
	}
	if d.Theirs != nil {
		b.WriteString(`<th scope="col">yours</th>`)
	}
	if d.folds {
		b.WriteString(`<th scope="col">group</th>`)
	}
	b.WriteString(`</tr></thead><tbody>`)
	for s, n := range d.Nodes {
		how := "leaf"
		switch {
		case n.Const:
			how = "constant"
		case n.Op != "":
			var ins []string
			for _, in := range d.inputsOf(s) {
				ins = append(ins, d.Nodes[in].Label)
			}
			how = fmt.Sprintf("%s(%s)", n.Op, strings.Join(ins, ", "))
		}
		row := ""
		if s == d.FirstWrong {
			row = ` class="first-wrong"`
		}
		fmt.Fprintf(&b, `<tr data-name="%s"%s><th scope="row">%s</th><td>%s</td><td>%s</td>`, htmltext.Escape(n.Name), row, htmltext.Escape(n.Label), htmltext.Escape(how), words.Rounded(n.Value))
		if d.Out >= 0 {
			fmt.Fprintf(&b, `<td>%s</td>`, words.Rounded(grads[s]))
		}
		if d.Theirs != nil {
			cls := "theirs"
			if !agrees(d.Theirs[s], n.Grad) {
				cls += " wrong"
			}
			t := words.Rounded(d.Theirs[s])
			if math.IsNaN(d.Theirs[s]) {
				t = "none"
			}
			fmt.Fprintf(&b, `<td class="%s">%s</td>`, cls, t)
		}
		if d.folds {
			fmt.Fprintf(&b, `<td>%s</td>`, htmltext.Escape(groupKey(n.Group)))
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table>`)
	return b.String()
}
