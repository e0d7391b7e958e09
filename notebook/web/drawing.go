//go:build js && wasm

package web

import (
	"fmt"
	"html"
	"strconv"

	"honnef.co/go/js/dom/v2"

	"gradbook/notebook/draw"
)

// drawingView is one drawing under a cell with its controls: step through
// the reverse pass, show the overwrite bug, list the paths from a value.
type drawingView struct {
	d         *draw.Drawing
	id        string
	root      dom.Element
	box       dom.Element
	text      dom.Element
	paths     dom.Element
	step      int
	overwrite bool
	path      []int
}

// newDrawingView adds a drawing with its controls to box; on owns their
// handlers.
func newDrawingView(p *Page, box dom.Element, on *handlers, d *draw.Drawing, id string) *drawingView {
	v := &drawingView{d: d, id: id}
	fig := p.doc.CreateElement("figure")
	fig.SetAttribute("class", "drawing")
	fig.SetID(id)
	fig.SetInnerHTML(fmt.Sprintf(`<figcaption>%s</figcaption><div class="svg-box" tabindex="0" role="group" aria-label="Drawing (scrolls sideways)"></div>%s<p class="step-text" aria-live="polite"></p><div class="paths" aria-live="polite"></div><details><summary>The graph as a table</summary>%s</details>`,
		html.EscapeString(d.Title), d.ControlsHTML(id), d.TableHTML()))
	box.AppendChild(fig)
	v.root = fig
	v.box = fig.QuerySelector(".svg-box")
	v.text = fig.QuerySelector(".step-text")
	v.paths = fig.QuerySelector(".paths")
	v.text.SetTextContent(d.StepText(0))
	on.listen(fig, "click", func(ev dom.Event) {
		t := ev.Target()
		switch {
		case t.Class().Contains("step"):
			spawn(func() { v.setStep(v.step + 1) })
		case t.Class().Contains("step-back"):
			spawn(func() { v.setStep(v.step - 1) })
		case t.Class().Contains("step-all"):
			spawn(func() { v.setStep(0) })
		}
	})
	on.listen(fig, "change", func(ev dom.Event) {
		t := ev.Target()
		switch {
		case t.Class().Contains("overwrite"):
			on := t.(*dom.HTMLInputElement).Checked()
			spawn(func() { v.overwrite = on; v.redraw() })
		case t.Class().Contains("paths-from"):
			val := t.(*dom.HTMLSelectElement).Value()
			spawn(func() { v.showPaths(val) })
		}
	})
	v.redraw()
	return v
}

// setDrawing shows d in place of the drawing, keeping the view's step,
// toggle and chosen path.
func (v *drawingView) setDrawing(d *draw.Drawing) {
	v.d = d
	v.root.QuerySelector("details").SetInnerHTML("<summary>The graph as a table</summary>" + d.TableHTML())
	v.step = min(v.step, len(d.Steps))
	v.text.SetTextContent(d.StepText(v.step))
	if sel, ok := v.root.QuerySelector("select.paths-from").(*dom.HTMLSelectElement); ok && sel.Value() != "" {
		v.showPaths(sel.Value())
		return
	}
	v.redraw()
}

func (v *drawingView) redraw() {
	v.box.SetInnerHTML(v.d.SVG(draw.View{ID: v.id, Step: v.step, Overwrite: v.overwrite, Path: v.path}))
	v.root.SetAttribute("data-step", strconv.Itoa(v.step))
	if back, ok := v.root.QuerySelector(".step-back").(*dom.HTMLButtonElement); ok {
		back.SetDisabled(v.step == 0)
	}
	if all, ok := v.root.QuerySelector(".step-all").(*dom.HTMLButtonElement); ok {
		all.SetDisabled(v.step == 0)
	}
	if next, ok := v.root.QuerySelector("button.step").(*dom.HTMLButtonElement); ok {
		next.SetDisabled(v.step >= len(v.d.Steps))
	}
}

// setStep shows the reverse pass after k steps (0: the finished pass).
func (v *drawingView) setStep(k int) {
	v.step = max(0, min(k, len(v.d.Steps)))
	v.text.SetTextContent(v.d.StepText(v.step))
	v.redraw()
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
