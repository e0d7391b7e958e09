package page

import (
	"fmt"
	"slices"
	"strconv"

	"gradbook/engine"
	"gradbook/notebook/block"
	"gradbook/notebook/draw"
)

// drawingView is one drawing under a cell with its controls: step through
// the reverse pass (or do it yourself, typing each contribution), show the
// classic bugs (overwrite, a second call, a recursive pass) one at a time,
// list the paths from a value, open folded groups. It fits its column:
// scaled down to a legible minimum, then drawn top to bottom; Step
// scrolls the node it is at into view.
type drawingView struct {
	p         *Page
	d         *draw.Drawing
	id        string
	root      Node
	box       Node
	text      Node
	paths     Node
	table     Node
	back, all Node
	next      Node
	from      Node
	groups    Node // select.group-open, in a drawing that folds
	foldAll   Node
	practice  Node    // the "you do the backward pass" checkbox
	blanks    Node    // where the learner types the step's contributions
	asked     []blank // the fields there, one per contribution
	step      int
	bug       engine.Mode // the classic bug shown beside the right gradients (engine.Accumulate: none)
	path      []int
	expanded  []string
	vertical  bool
	doing     bool // the learner does the backward pass
}

// blank is a field where the learner types what a step sends along an
// edge, and where the drawing says what it makes of it.
type blank struct {
	in, verdict Node
	edge        int
}

// newDrawingView adds a drawing with its controls to box; on owns their
// listeners.
func (p *Page) newDrawingView(box Node, on *handlers, d *draw.Drawing, id string) *drawingView {
	v := &drawingView{p: p, d: d, id: id}
	fig := p.elem("figure", classDrawing, "", "id", id)
	v.root = fig
	v.box = p.elem("div", classSVGBox, "", "tabindex", "0", "role", "group", "aria-label", d.Title)
	appendAll(fig, p.elem("figcaption", "", d.Title), v.box, p.elem("p", classScrollCue, "Scroll the drawing sideways to see all of it →"))
	p.appendHTML(fig, d.ControlsHTML(id))
	if d.Out >= 0 && !d.Trivial() && d.Theirs == nil {
		label := p.elem("label", classPracticeLabel, "")
		v.practice = p.elem("input", classPractice, "", "type", "checkbox", "id", id+"-practice")
		appendAll(label, v.practice, p.doc.CreateText(" You do the backward pass"))
		v.blanks = p.elem("div", classBlanks, "", "aria-live", "polite")
		appendAll(fig, label, v.blanks)
	}
	v.text = p.elem("p", classStepText, "", "aria-live", "polite")
	v.paths = p.elem("div", classPaths, "", "aria-live", "polite")
	v.table = p.doc.Create("details")
	appendAll(fig, v.text, v.paths, v.table)
	v.setTable()
	box.Append(fig)
	v.back = fig.Query(block.Of(draw.ClassStepBack))
	v.all = fig.Query(block.Of(draw.ClassStepAll))
	v.next = fig.Query(block.Sel("button", draw.ClassStep))
	v.from = fig.Query(block.Sel("select", draw.ClassPathsFrom))
	v.groups = fig.Query(block.Sel("select", draw.ClassGroupOpen))
	v.foldAll = fig.Query(block.Sel("button", draw.ClassFoldAll))
	if d.Theirs != nil {
		v.text.SetText(d.CompareText())
	} else {
		v.text.SetText(d.StepText(0))
	}
	on.listen(p, fig, "click", func(ev Event) { v.clicked(ev.Target()) })
	on.listen(p, fig, "change", func(ev Event) { v.changed(ev.Target()) })
	p.views = append(p.views, v)
	on.after = append(on.after, func() {
		p.views = slices.DeleteFunc(p.views, func(w *drawingView) bool { return w == v })
	})
	v.relayout()
	return v
}

// appendHTML appends the nodes of markup (the build's own) to parent.
func (p *Page) appendHTML(parent Node, markup string) {
	if markup == "" {
		return
	}
	tmp := p.doc.Create("div")
	tmp.SetHTML(markup)
	for c := tmp.FirstChild(); c != nil; c = tmp.FirstChild() {
		parent.Append(c)
	}
}

// setTable shows the drawing's graph as a table, folded.
func (v *drawingView) setTable() {
	v.table.SetText("")
	v.table.Append(v.p.elem("summary", "", "The graph as a table"))
	v.p.appendHTML(v.table, v.d.TableHTMLIn(v.view()))
}

// clicked acts on a click in the drawing: its buttons, and a folded
// group's box, which opens it.
func (v *drawingView) clicked(t Node) {
	switch {
	case t == nil:
	case t.HasClass(draw.ClassStepBack):
		v.p.Do(func() { v.setStep(v.stopBefore()); v.keepFocus(t) })
	case t.HasClass(draw.ClassStepAll):
		v.p.Do(func() { v.setStep(0); v.keepFocus(t) })
	case t.HasClass(draw.ClassStep):
		v.p.Do(func() { v.stepOn(); v.keepFocus(t) })
	case t.HasClass(draw.ClassFoldAll):
		v.p.Do(func() { v.expanded = nil; v.relayout() })
	case t.HasClass(classCheckStep):
		v.p.Do(v.checkStep)
	default:
		if g := t.Closest(draw.SelFolded); g != nil {
			key := g.Attr(draw.AttrGroup)
			v.p.Do(func() { v.open(key) })
		}
	}
}

// changed acts on a change in the drawing: a bug's toggle (one at a
// time: checking one unchecks the others), the paths' and the groups'
// menus, and "you do the backward pass".
func (v *drawingView) changed(t Node) {
	switch {
	case t == nil:
	case t.HasClass(classPractice):
		on := t.Checked()
		v.p.Do(func() { v.setDoing(on) })
	case t.HasClass(draw.ClassPathsFrom):
		val := t.Value()
		v.p.Do(func() { v.showPaths(val) })
	case t.HasClass(draw.ClassGroupOpen):
		key := t.Value()
		v.p.Do(func() { v.open(key) })
	default:
		for bug, class := range draw.BugClasses {
			if t.HasClass(class) {
				on := t.Checked()
				v.p.Do(func() { v.toggle(bug, on) })
			}
		}
	}
}

// keepFocus gives the keyboard, when the stepping button pressed has
// turned itself off (Step at the last step, Whole pass, Step back at the
// start), to the one that goes on from there: Step, or else Whole pass,
// or else Step back. A disabled button loses the focus, and the browser
// would drop it to the page.
func (v *drawingView) keepFocus(pressed Node) {
	if !pressed.HasAttr(attrDisabled) {
		return
	}
	for _, b := range []Node{v.next, v.all, v.back} {
		if b != nil && !b.HasAttr(attrDisabled) {
			b.Focus()
			return
		}
	}
}

// toggle shows bug, or none, unchecking the other bugs' toggles.
func (v *drawingView) toggle(bug engine.Mode, on bool) {
	v.bug = engine.Accumulate
	if on {
		v.bug = bug
	}
	for b, class := range draw.BugClasses {
		if b != bug {
			if other := v.root.Query(block.Sel("input", class)); other != nil {
				other.SetChecked(false)
			}
		}
	}
	v.relayout()
}

// view is what the drawing shows now.
func (v *drawingView) view() draw.View {
	return draw.View{ID: v.id, Step: v.step, Bug: v.bug, Path: v.path, Vertical: v.vertical, Expanded: v.expanded, Practice: v.doing}
}

// relayout chooses the drawing's direction for the width its column has,
// and draws it.
func (v *drawingView) relayout() {
	if w := v.box.ClientWidth(); w > 0 {
		v.vertical = v.d.LayoutFor(w, v.view())
	}
	v.redraw()
}

// setDrawing shows d in place of the drawing, keeping the view's step,
// toggle, open groups and chosen path.
func (v *drawingView) setDrawing(d *draw.Drawing) {
	v.d = d
	v.setTable()
	v.step = min(v.step, len(d.Steps))
	v.text.SetText(d.StepTextIn(v.view()))
	if v.from != nil && v.from.Value() != "" {
		v.showPaths(v.from.Value())
		return
	}
	v.relayout()
}

func (v *drawingView) redraw() {
	view := v.view()
	v.box.SetHTML(v.d.SVG(view))
	if svg := v.box.FirstChild(); svg != nil {
		svg.SetStyle("min-width", strconv.FormatFloat(v.d.MinWidth(view), 'f', 0, 64)+"px")
	}
	if w := v.box.ClientWidth(); w > 0 && v.box.ScrollWidth() > w+1 {
		v.root.SetAttr(attrScrolls, "true")
	} else {
		v.root.RemoveAttr(attrScrolls)
	}
	v.root.SetAttr(block.AttrStep, strconv.Itoa(v.step))
	if v.back != nil {
		v.back.SetDisabled(v.step == 0)
	}
	if v.all != nil {
		v.all.SetDisabled(v.step == 0)
	}
	if v.next != nil {
		v.next.SetDisabled(v.step >= len(v.d.Steps) || v.doing)
	}
	if v.foldAll != nil {
		v.foldAll.SetDisabled(len(v.expanded) == 0)
	}
	v.scrollToStep(view)
}

// scrollToStep brings the node the step is at into view: sideways in the
// drawing's box, and on the page.
func (v *drawingView) scrollToStep(view draw.View) {
	x, y, w, h, ok := v.d.Focus(view)
	svg := v.box.FirstChild()
	if !ok || svg == nil {
		return
	}
	full, _ := v.d.Size(view)
	rect := svg.Rect()
	scale := rect.Width / full
	if scale <= 0 {
		return
	}
	left := (x+w/2)*scale - v.box.ClientWidth()/2
	v.box.SetScrollLeft(max(0, left))
	top := rect.Top + y*scale
	bottom := top + h*scale
	inner := v.p.browser.Height()
	if top < 0 || bottom > inner {
		v.p.browser.ScrollBy(top - inner/3)
	}
}

// stops are the steps Step stops at: one for a run of steps inside a
// folded group; every step when the learner does the pass.
func (v *drawingView) stops() []int {
	if v.doing {
		all := make([]int, len(v.d.Steps))
		for i := range all {
			all[i] = i + 1
		}
		return all
	}
	return v.d.Stops(v.view())
}

// stepOn goes to the next stop.
func (v *drawingView) stepOn() {
	for _, s := range v.stops() {
		if s > v.step {
			v.setStep(s)
			return
		}
	}
}

// stopBefore is the stop before the current step (0 for the start).
func (v *drawingView) stopBefore() int {
	prev := 0
	for _, s := range v.stops() {
		if s >= v.step {
			break
		}
		prev = s
	}
	return prev
}

// setStep shows the reverse pass after k steps (0: the finished pass).
func (v *drawingView) setStep(k int) {
	v.step = max(0, min(k, len(v.d.Steps)))
	v.text.SetText(v.d.StepTextIn(v.view()))
	v.redraw()
	if v.doing {
		v.setTable()
	}
	if v.doing {
		v.askBlanks()
	}
}

// open draws the folded group key open.
func (v *drawingView) open(key string) {
	if key == "" || slices.Contains(v.expanded, key) {
		return
	}
	v.expanded = append(v.expanded, key)
	if v.groups != nil {
		v.groups.SetValue("")
	}
	v.relayout()
}

func (v *drawingView) showPaths(val string) {
	from, err := strconv.Atoi(val)
	if err != nil {
		v.path = nil
		v.paths.SetText("")
		v.redraw()
		return
	}
	v.paths.SetHTML(v.d.PathsHTML(from))
	paths, _ := v.d.PathsTo(from)
	v.path = nil
	for _, p := range paths {
		v.path = append(v.path, p.Edges...)
	}
	v.redraw()
}

// setDoing turns "you do the backward pass" on or off. On, the pass
// starts over, and each step waits for the learner to type what it sends
// back along each edge, which the drawing judges.
func (v *drawingView) setDoing(on bool) {
	v.doing = on
	if !on {
		v.blanks.SetText("")
		v.asked = nil
		v.setStep(0)
		v.setTable()
		return
	}
	v.setStep(0)
	v.text.SetText("Do the reverse pass yourself: for each step, type what it adds to the gradient of each input, then check it.")
	v.redraw()
	v.askBlanks()
}

// askBlanks asks for the contributions of the step after the current one.
func (v *drawingView) askBlanks() {
	doc := v.p.doc
	v.blanks.SetText("")
	v.asked = nil
	k := v.step + 1
	if k > len(v.d.Steps) {
		v.blanks.Append(v.p.elem("p", "", "You did the whole reverse pass: every gradient is in the drawing."))
		return
	}
	v.blanks.Append(v.p.elem("p", "", fmt.Sprintf("Step %d of %d, at %s: what does it add to the gradient of each input?", k, len(v.d.Steps), v.d.Called(v.d.Steps[k-1].Node))))
	var first Node
	for i, e := range v.d.Blanks(k) {
		id := fmt.Sprintf("%s-blank-%d", v.id, i)
		row := v.p.elem("div", classBlank, "")
		in := v.p.elem("input", classBlankInput, "", "type", "text", "inputmode", "decimal", "autocomplete", "off", "id", id)
		verdict := v.p.elem("span", classBlankVerdict, "", "role", "status")
		appendAll(row, v.p.elem("label", "", v.d.Called(v.d.Edges[e].From)+".grad += ", "for", id), in, doc.CreateText(" "), verdict)
		v.blanks.Append(row)
		v.asked = append(v.asked, blank{in: in, verdict: verdict, edge: e})
		if first == nil {
			first = in
		}
	}
	v.blanks.Append(v.p.button(classCheckStep, "Check this step"))
	if first != nil {
		first.Focus()
	}
}

// checkStep judges what the learner typed for the next step, and goes on
// if every contribution is right.
func (v *drawingView) checkStep() {
	k := v.step + 1
	right := true
	for _, b := range v.asked {
		typed, ok := block.ParseNumber(b.in.Value())
		if !ok {
			right = false
			b.verdict.SetText("Type a number.")
			continue
		}
		j := v.d.Judge(k, b.edge, typed)
		right = right && j.Right
		b.verdict.SetText(j.Why)
	}
	if right {
		v.step = k
		v.text.SetText(v.d.StepText(k))
		v.redraw()
		v.setTable()
		v.askBlanks()
	}
}

// relayoutAll fits every drawing on the page to its column again, once
// the window's size has settled.
func (p *Page) relayoutAll() {
	for _, v := range p.views {
		v.relayout()
	}
}
