package draw

import (
	"fmt"
	"html"
	"strings"

	"gradbook/internal/words"
)

// View chooses what an SVG of a Drawing shows.
type View struct {
	ID string // prefix for the ids inside the SVG, unique on the page
	// Step, if positive, shows the reverse pass after that many steps,
	// with the node of step Step highlighted; 0 shows the finished pass.
	Step int
	// Overwrite shows, beside each gradient, the one the overwrite bug
	// would give.
	Overwrite bool
	// Path highlights these edges.
	Path []int
}

// SVG draws d as an SVG element whose text alternative (title and desc)
// describes every node.
func (d *Drawing) SVG(v View) string {
	var b strings.Builder
	grads := d.GradsAfter(len(d.Steps))
	active := -1
	if v.Step > 0 {
		grads = d.GradsAfter(v.Step)
		active = d.Steps[v.Step-1].Node
	}
	onPath := map[int]bool{}
	for _, e := range v.Path {
		onPath[e] = true
	}
	id := html.EscapeString(v.ID)
	fmt.Fprintf(&b, `<svg class="graph" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %g %g" width="%g" height="%g" role="img" aria-labelledby="%s-title %s-desc">`,
		d.Width, d.Height, d.Width, d.Height, id, id)
	fmt.Fprintf(&b, `<title id="%s-title">%s</title><desc id="%s-desc">%s</desc>`, id, html.EscapeString(d.Title), id, html.EscapeString(d.Describe()))
	fmt.Fprintf(&b, `<defs><marker id="%s-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerUnits="userSpaceOnUse" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" class="arrowhead"/></marker></defs>`, id)
	sent := map[int]bool{}
	if active >= 0 {
		for _, e := range d.Steps[v.Step-1].Edges {
			sent[e] = true
		}
	}
	for i, e := range d.Edges {
		from, to := d.Nodes[e.From], d.Nodes[e.To]
		x1, y1 := from.X+nodeW, from.Y+nodeH/2
		x2, y2 := to.X, to.Y+nodeH/2
		if len(d.inputsOf(e.To)) == 2 {
			y2 += (float64(e.Port) - 0.5) * portGap
		}
		mx := (x1 + x2) / 2
		class := "edge"
		if onPath[i] {
			class += " on-path"
		}
		if sent[i] {
			class += " sending"
		}
		fmt.Fprintf(&b, `<g class="%s" data-from="%s" data-to="%s"><path d="M%g,%gC%g,%g %g,%g %g,%g" marker-end="url(#%s-arrow)"/>`,
			class, html.EscapeString(from.Name), html.EscapeString(to.Name), x1, y1, mx, y1, mx, y2, x2-2, y2, id)
		if d.Out >= 0 {
			// The label sits on the curve, nearer the consumer, where the
			// two edges of a value used twice are apart.
			lx, ly := bezier(0.7, x1, mx, mx, x2), bezier(0.7, y1, y1, y2, y2)
			label := words.Number(e.Contribution)
			if v.Step > 0 && !d.done(v.Step, e.To) {
				label = "·"
			}
			w := 7*float64(len(label)) + 8
			fmt.Fprintf(&b, `<rect class="contrib-bg" x="%.1f" y="%.1f" width="%g" height="15" rx="3"/><text class="contrib" x="%.1f" y="%.1f" text-anchor="middle">%s</text>`,
				lx-w/2, ly-7.5, w, lx, ly+4, html.EscapeString(label))
		}
		b.WriteString(`</g>`)
	}
	for s, n := range d.Nodes {
		class := "node"
		if n.Op == "" {
			class += " leaf"
		}
		if s == d.Out {
			class += " out"
		}
		if s == active {
			class += " active"
		}
		fmt.Fprintf(&b, `<g class="%s" data-name="%s" transform="translate(%g,%g)"><rect width="%g" height="%g" rx="8"/>`,
			class, html.EscapeString(n.Name), n.X, n.Y, nodeW, nodeH)
		head := n.Label
		if n.Op != "" && n.Op != n.Label {
			head += " = " + n.Op
		}
		fmt.Fprintf(&b, `<text class="label" x="8" y="17">%s</text>`, html.EscapeString(clip(head, 18)))
		fmt.Fprintf(&b, `<text class="val" x="8" y="35">value %s</text>`, html.EscapeString(clip(words.Number(n.Value), 12)))
		if d.Out >= 0 {
			g := fmt.Sprintf("grad %s", clip(words.Number(grads[s]), 10))
			fmt.Fprintf(&b, `<text class="grad" x="8" y="53">%s`, html.EscapeString(g))
			if v.Overwrite && d.Overwrite != nil {
				wrong := d.Overwrite[s]
				cls := "overwrite"
				if wrong != grads[s] {
					cls += " wrong"
				}
				fmt.Fprintf(&b, `<tspan class="%s" dx="6">bug: %s</tspan>`, cls, html.EscapeString(clip(words.Number(wrong), 8)))
			}
			b.WriteString(`</text>`)
		}
		b.WriteString(`</g>`)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// bezier returns the point at t of a cubic Bézier curve in one coordinate.
func bezier(t, p0, p1, p2, p3 float64) float64 {
	u := 1 - t
	return u*u*u*p0 + 3*u*u*t*p1 + 3*u*t*t*p2 + t*t*t*p3
}

// done reports whether, after k steps, node s has received every
// contribution it will get (so the edges into it may show theirs).
func (d *Drawing) done(k, s int) bool {
	for i := 0; i < k; i++ {
		if d.Steps[i].Node == s {
			return true
		}
	}
	return false
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
	var b strings.Builder
	fmt.Fprintf(&b, "%d values.", len(d.Nodes))
	if d.Out >= 0 {
		fmt.Fprintf(&b, " Gradients are of %s.", d.Nodes[d.Out].Label)
	}
	for s, n := range d.Nodes {
		b.WriteString(" ")
		b.WriteString(n.Label)
		if n.Op != "" {
			var ins []string
			for _, e := range d.Edges {
				if e.To == s {
					ins = append(ins, d.Nodes[e.From].Label)
				}
			}
			fmt.Fprintf(&b, " = %s(%s)", n.Op, strings.Join(ins, ", "))
		}
		fmt.Fprintf(&b, " = %s", words.Number(n.Value))
		if d.Out >= 0 {
			fmt.Fprintf(&b, ", gradient %s", words.Number(n.Grad))
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
// reverse pass, the overwrite toggle, and the leaf whose paths to list.
func (d *Drawing) ControlsHTML(id string) string {
	if d.Out < 0 {
		return ""
	}
	id = html.EscapeString(id)
	var b strings.Builder
	b.WriteString(`<div class="controls" role="group" aria-label="Reverse pass">`)
	b.WriteString(`<button type="button" class="step-back" disabled>Step back</button>`)
	b.WriteString(`<button type="button" class="step">Step</button>`)
	b.WriteString(`<button type="button" class="step-all" disabled>Whole pass</button>`)
	fmt.Fprintf(&b, `<label class="toggle"><input type="checkbox" class="overwrite" id="%s-overwrite"> Overwrite instead of add (the bug)</label>`, id)
	fmt.Fprintf(&b, `<label class="paths-label" for="%s-paths">Paths from</label><select class="paths-from" id="%s-paths"><option value="">(choose a value)</option>`, id, id)
	for s, n := range d.Nodes {
		if s != d.Out {
			fmt.Fprintf(&b, `<option value="%d">%s</option>`, s, html.EscapeString(n.Label))
		}
	}
	b.WriteString(`</select></div>`)
	return b.String()
}

// StepText says what step k of the reverse pass does (k from 1), or, for
// k = 0, what the whole pass is.
func (d *Drawing) StepText(k int) string {
	if d.Out < 0 {
		return ""
	}
	if k <= 0 || k > len(d.Steps) {
		return fmt.Sprintf("The reverse pass visits %d nodes, from %s back. Press Step to follow it.", len(d.Steps), d.Nodes[d.Out].Label)
	}
	before := d.GradsAfter(k - 1)
	st := d.Steps[k-1]
	n := d.Nodes[st.Node]
	var b strings.Builder
	fmt.Fprintf(&b, "Step %d of %d: at %s (%s), gradient %s.", k, len(d.Steps), n.Label, n.Op, words.Number(before[st.Node]))
	g := append([]float64(nil), before...)
	for _, e := range st.Edges {
		ed := d.Edges[e]
		from := d.Nodes[ed.From].Label
		g[ed.From] += ed.Contribution
		fmt.Fprintf(&b, " %s.grad += %s × %s = %s → %s.", from, words.Number(before[st.Node]), words.Number(ed.Local), words.Number(ed.Contribution), words.Number(g[ed.From]))
	}
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
	name := html.EscapeString(d.Nodes[from].Label)
	out := html.EscapeString(d.Nodes[d.Out].Label)
	if total == 0 {
		fmt.Fprintf(&b, `<p>No path leads from %s to %s, so its gradient is 0.</p>`, name, out)
		return b.String()
	}
	fmt.Fprintf(&b, `<p>%s paths from %s to %s:</p><ol class="path-list">`, words.Number(total), name, out)
	sum := 0.0
	for _, p := range paths {
		labels := []string{name}
		var factors []string
		for _, e := range p.Edges {
			to := html.EscapeString(d.Nodes[d.Edges[e].To].Label)
			if d.usesTwice(d.Edges[e].To, d.Edges[e].From) {
				to += fmt.Sprintf(" (input %d)", d.Edges[e].Port+1)
			}
			labels = append(labels, to)
			factors = append(factors, words.Number(d.Edges[e].Local))
		}
		sum += p.Product
		fmt.Fprintf(&b, `<li>%s: %s = %s</li>`, strings.Join(labels, " → "), strings.Join(factors, " × "), words.Number(p.Product))
	}
	b.WriteString(`</ol>`)
	if float64(len(paths)) < total {
		fmt.Fprintf(&b, `<p>Only the first %d are listed.</p>`, len(paths))
	} else {
		fmt.Fprintf(&b, `<p class="path-sum">Sum of the paths: %s = ∂%s/∂%s.</p>`, words.Number(sum), out, name)
	}
	return b.String()
}

// TableHTML lists the drawing's values as a table: a text alternative to
// the picture.
func (d *Drawing) TableHTML() string {
	var b strings.Builder
	b.WriteString(`<table class="graph-table"><thead><tr><th scope="col">value</th><th scope="col">computed as</th><th scope="col">value</th>`)
	if d.Out >= 0 {
		fmt.Fprintf(&b, `<th scope="col">∂%s/∂value</th>`, html.EscapeString(d.Nodes[d.Out].Label))
	}
	b.WriteString(`</tr></thead><tbody>`)
	for s, n := range d.Nodes {
		how := "leaf"
		if n.Op != "" {
			var ins []string
			for _, e := range d.Edges {
				if e.To == s {
					ins = append(ins, d.Nodes[e.From].Label)
				}
			}
			how = fmt.Sprintf("%s(%s)", n.Op, strings.Join(ins, ", "))
		}
		fmt.Fprintf(&b, `<tr data-name="%s"><th scope="row">%s</th><td>%s</td><td>%s</td>`, html.EscapeString(n.Name), html.EscapeString(n.Label), html.EscapeString(how), words.Number(n.Value))
		if d.Out >= 0 {
			fmt.Fprintf(&b, `<td>%s</td>`, words.Number(n.Grad))
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table>`)
	return b.String()
}
