//go:build js && wasm

package web

import (
	"fmt"
	"html"
	"slices"
	"strconv"
	"syscall/js"

	"gradbook/engine"
	"gradbook/notebook/block"
	"gradbook/notebook/draw"
)

// drawingView is one drawing under a cell with its controls: step through
// the reverse pass (or do it yourself, typing each contribution), show the
// classic bugs (overwrite, a second call, a recursive pass), list the paths from a value, open folded groups. It
// fits its column: scaled down to a legible minimum, then drawn top to
// bottom; Step scrolls the node it is at into view.
type drawingView struct {
	p         *Page
	d         *draw.Drawing
	id        string
	root      *element
	box       *element
	text      *element
	paths     *element
	table     *element
	back, all *element
	next      *element
	from      *element
	groups    *element // select.group-open, in a drawing that folds
	foldAll   *element
	practice  *element // the "you do the backward pass" checkbox
	blanks    *element // where the learner types the step's contributions
	step      int
	bug       engine.Mode // the classic bug shown beside the right gradients
	path      []int
	expanded  []string
	vertical  bool
	doing     bool // the learner does the backward pass
}

// details selects the drawing's table.
const details = "details"

// newDrawingView adds a drawing with its controls to box; on owns their
// handlers.
func newDrawingView(p *Page, box *element, on *handlers, d *draw.Drawing, id string) *drawingView {
	v := &drawingView{p: p, d: d, id: id}
	fig := p.doc.CreateElement("figure")
	fig.SetAttribute("class", classDrawing)
	fig.SetID(id)
	practice := ""
	if d.Out >= 0 && !d.Trivial() && d.Theirs == nil {
		practice = fmt.Sprintf(`<label class="%s"><input type="checkbox" class="%s" id="%s-practice"> You do the backward pass</label><div class="%s" aria-live="polite"></div>`,
			classPracticeLabel, classPractice, html.EscapeString(id), classBlanks)
	}
	fig.SetInnerHTML(fmt.Sprintf(`<figcaption>%s</figcaption><div class="%s" tabindex="0" role="group" aria-label="%s"></div><p class="%s">Scroll the drawing sideways to see all of it →</p>%s%s<p class="%s" aria-live="polite"></p><div class="%s" aria-live="polite"></div><details><summary>The graph as a table</summary>%s</details>`,
		html.EscapeString(d.Title), classSVGBox, html.EscapeString(d.Title), classScrollCue, d.ControlsHTML(id), practice, classStepText, classPaths, d.TableHTML()))
	box.AppendChild(fig)
	v.root = fig
	v.box = fig.QuerySelector(block.Of(classSVGBox))
	v.text = fig.QuerySelector(block.Of(classStepText))
	v.paths = fig.QuerySelector(block.Of(classPaths))
	v.table = fig.QuerySelector(details)
	v.back = fig.QuerySelector(block.Of(draw.ClassStepBack))
	v.all = fig.QuerySelector(block.Of(draw.ClassStepAll))
	v.next = fig.QuerySelector(block.Sel("button", draw.ClassStep))
	v.from = fig.QuerySelector(block.Sel("select", draw.ClassPathsFrom))
	v.groups = fig.QuerySelector(block.Sel("select", draw.ClassGroupOpen))
	v.foldAll = fig.QuerySelector(block.Sel("button", draw.ClassFoldAll))
	v.practice = fig.QuerySelector(block.Of(classPractice))
	v.blanks = fig.QuerySelector(block.Of(classBlanks))
	if d.Theirs != nil {
		v.text.SetTextContent(d.CompareText())
	} else {
		v.text.SetTextContent(d.StepText(0))
	}
	on.listen(fig, "click", func(ev *event) {
		t := ev.Target()
		switch {
		case t == nil:
		case t.Class().Contains(draw.ClassStepBack):
			spawn(func() { v.setStep(v.stopBefore()) })
		case t.Class().Contains(draw.ClassStepAll):
			spawn(func() { v.setStep(0) })
		case t.Class().Contains(draw.ClassStep):
			spawn(func() { v.stepOn() })
		case t.Class().Contains(draw.ClassFoldAll):
			spawn(func() { v.expanded = nil; v.relayout() })
		case t.Class().Contains(classCheckStep):
			spawn(func() { v.checkStep() })
		default:
			// A folded group's box opens it.
			if g := t.Closest(draw.SelFolded); g != nil {
				key := g.GetAttribute(draw.AttrGroup)
				spawn(func() { v.open(key) })
			}
		}
	})
	on.listen(fig, "change", func(ev *event) {
		t := ev.Target()
		switch {
		case t.Class().Contains(draw.ClassOverwrite), t.Class().Contains(draw.ClassTwice), t.Class().Contains(draw.ClassRecursive):
			// One bug at a time: checking one unchecks the others.
			bug := engine.Accumulate
			for b, class := range draw.BugClasses {
				if t.Class().Contains(class) {
					if t.Checked() {
						bug = b
					}
					continue
				}
				if other := fig.QuerySelector("input." + class); other != nil {
					other.SetChecked(false)
				}
			}
			spawn(func() { v.bug = bug; v.relayout() })
		case t.Class().Contains(draw.ClassPathsFrom):
			val := t.Value()
			spawn(func() { v.showPaths(val) })
		case t.Class().Contains(draw.ClassGroupOpen):
			key := t.Value()
			spawn(func() { v.open(key) })
		case t.Class().Contains(classPractice):
			on := t.Checked()
			spawn(func() { v.setDoing(on) })
		}
	})
	p.views = append(p.views, v)
	on.after = append(on.after, func() {
		p.views = slices.DeleteFunc(p.views, func(w *drawingView) bool { return w == v })
	})
	v.relayout()
	return v
}

// view is what the drawing shows now.
func (v *drawingView) view() draw.View {
	return draw.View{ID: v.id, Step: v.step, Bug: v.bug, Path: v.path, Vertical: v.vertical, Expanded: v.expanded}
}

// relayout chooses the drawing's direction for the width its column has,
// and draws it.
func (v *drawingView) relayout() {
	if w := v.box.Get("clientWidth").Float(); w > 0 {
		v.vertical = v.d.LayoutFor(w, v.view())
	}
	v.redraw()
}

// setDrawing shows d in place of the drawing, keeping the view's step,
// toggle, open groups and chosen path.
func (v *drawingView) setDrawing(d *draw.Drawing) {
	v.d = d
	v.table.SetInnerHTML("<summary>The graph as a table</summary>" + d.TableHTML())
	v.step = min(v.step, len(d.Steps))
	v.text.SetTextContent(d.StepTextIn(v.view()))
	if v.from != nil && v.from.Value() != "" {
		v.showPaths(v.from.Value())
		return
	}
	v.relayout()
}

func (v *drawingView) redraw() {
	view := v.view()
	v.box.SetInnerHTML(v.d.SVG(view))
	if svg := v.box.FirstElementChild(); svg != nil {
		// Set through the CSSOM: the CSP refuses style attributes.
		svg.Get("style").Call("setProperty", "min-width", strconv.FormatFloat(v.d.MinWidth(view), 'f', 0, 64)+"px")
	}
	if w := v.box.Get("clientWidth").Float(); w > 0 && v.box.Get("scrollWidth").Float() > w+1 {
		v.root.SetAttribute(attrScrolls, "true")
	} else {
		v.root.RemoveAttribute(attrScrolls)
	}
	v.root.SetAttribute(block.AttrStep, strconv.Itoa(v.step))
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
	svg := v.box.FirstElementChild()
	if !ok || svg == nil {
		return
	}
	full, _ := v.d.Size(view)
	rect := svg.Underlying().Call("getBoundingClientRect")
	scale := rect.Get("width").Float() / full
	if scale <= 0 {
		return
	}
	left := (x+w/2)*scale - v.box.Get("clientWidth").Float()/2
	v.box.Underlying().Set("scrollLeft", max(0, left))
	top := rect.Get("top").Float() + y*scale
	bottom := top + h*scale
	inner := js.Global().Get("innerHeight").Float()
	if top < 0 || bottom > inner {
		js.Global().Call("scrollBy", map[string]any{"top": top - inner/3, "behavior": "smooth"})
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
	v.text.SetTextContent(v.d.StepTextIn(v.view()))
	v.redraw()
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
		v.paths.SetInnerHTML("")
		v.redraw()
		return
	}
	v.paths.SetInnerHTML(v.d.PathsHTML(from))
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
		v.blanks.SetInnerHTML("")
		v.setStep(0)
		return
	}
	v.setStep(0)
	v.step = 0
	v.text.SetTextContent("Do the reverse pass yourself: for each step, type what it adds to the gradient of each input, then check it.")
	v.redraw()
	v.askBlanks()
}

// askBlanks asks for the contributions of the step after the current one.
func (v *drawingView) askBlanks() {
	k := v.step + 1
	if k > len(v.d.Steps) {
		v.blanks.SetInnerHTML(`<p>` + html.EscapeString("You did the whole reverse pass: every gradient is in the drawing.") + `</p>`)
		return
	}
	at := v.d.Nodes[v.d.Steps[k-1].Node]
	var b []byte
	b = fmt.Appendf(b, `<p>Step %d of %d, at %s: what does it add to the gradient of each input?</p>`, k, len(v.d.Steps), html.EscapeString(at.Label))
	for i, e := range v.d.Blanks(k) {
		from := v.d.Nodes[v.d.Edges[e].From]
		id := fmt.Sprintf("%s-blank-%d", v.id, i)
		b = fmt.Appendf(b, `<div class="%s"><label for="%s">%s.grad += </label><input type="text" inputmode="decimal" autocomplete="off" id="%s" class="%s" data-edge="%d"> <span class="%s" role="status"></span></div>`,
			classBlank, html.EscapeString(id), html.EscapeString(from.Label), html.EscapeString(id), classBlankInput, e, classBlankVerdict)
	}
	b = fmt.Appendf(b, `<button type="button" class="%s">Check this step</button>`, classCheckStep)
	v.blanks.SetInnerHTML(string(b))
	for _, in := range v.blanks.QuerySelectorAll(block.Of(classBlankInput)) {
		in.Focus()
		break
	}
}

// checkStep judges what the learner typed for the next step, and goes on
// if every contribution is right.
func (v *drawingView) checkStep() {
	k := v.step + 1
	right := true
	for _, in := range v.blanks.QuerySelectorAll(block.Of(classBlankInput)) {
		e, err := strconv.Atoi(in.GetAttribute(attrEdge))
		verdict := in.ParentElement().QuerySelector(block.Of(classBlankVerdict))
		typed, ok := block.ParseNumber(in.Value())
		switch {
		case err != nil:
			continue
		case !ok:
			right = false
			verdict.SetTextContent("Type a number.")
		default:
			j := v.d.Judge(k, e, typed)
			right = right && j.Right
			verdict.SetTextContent(j.Why)
		}
	}
	if right {
		v.step = k
		v.text.SetTextContent(v.d.StepText(k))
		v.redraw()
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
