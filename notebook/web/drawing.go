//go:build js && wasm

package web

import (
	"fmt"
	"html"
	"strconv"

	"gradbook/notebook/block"
	"gradbook/notebook/draw"
)

// drawingView is one drawing under a cell with its controls: step through
// the reverse pass, show the overwrite bug, list the paths from a value.
type drawingView struct {
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
	step      int
	overwrite bool
	path      []int
}

// details selects the drawing's table.
const details = "details"

// newDrawingView adds a drawing with its controls to box; on owns their
// handlers.
func newDrawingView(p *Page, box *element, on *handlers, d *draw.Drawing, id string) *drawingView {
	v := &drawingView{d: d, id: id}
	fig := p.doc.CreateElement("figure")
	fig.SetAttribute("class", classDrawing)
	fig.SetID(id)
	fig.SetInnerHTML(fmt.Sprintf(`<figcaption>%s</figcaption><div class="%s" tabindex="0" role="group" aria-label="Drawing (scrolls sideways)"></div>%s<p class="%s" aria-live="polite"></p><div class="%s" aria-live="polite"></div><details><summary>The graph as a table</summary>%s</details>`,
		html.EscapeString(d.Title), classSVGBox, d.ControlsHTML(id), classStepText, classPaths, d.TableHTML()))
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
	v.text.SetTextContent(d.StepText(0))
	on.listen(fig, "click", func(ev *event) {
		t := ev.Target()
		switch {
		case t.Class().Contains(draw.ClassStep):
			spawn(func() { v.setStep(v.step + 1) })
		case t.Class().Contains(draw.ClassStepBack):
			spawn(func() { v.setStep(v.step - 1) })
		case t.Class().Contains(draw.ClassStepAll):
			spawn(func() { v.setStep(0) })
		}
	})
	on.listen(fig, "change", func(ev *event) {
		t := ev.Target()
		switch {
		case t.Class().Contains(draw.ClassOverwrite):
			on := t.Checked()
			spawn(func() { v.overwrite = on; v.redraw() })
		case t.Class().Contains(draw.ClassPathsFrom):
			val := t.Value()
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
	v.table.SetInnerHTML("<summary>The graph as a table</summary>" + d.TableHTML())
	v.step = min(v.step, len(d.Steps))
	v.text.SetTextContent(d.StepText(v.step))
	if v.from != nil && v.from.Value() != "" {
		v.showPaths(v.from.Value())
		return
	}
	v.redraw()
}

func (v *drawingView) redraw() {
	v.box.SetInnerHTML(v.d.SVG(draw.View{ID: v.id, Step: v.step, Overwrite: v.overwrite, Path: v.path}))
	v.root.SetAttribute(block.AttrStep, strconv.Itoa(v.step))
	if v.back != nil {
		v.back.SetDisabled(v.step == 0)
	}
	if v.all != nil {
		v.all.SetDisabled(v.step == 0)
	}
	if v.next != nil {
		v.next.SetDisabled(v.step >= len(v.d.Steps))
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
