//go:build js && wasm

package web

import (
	"strings"

	"honnef.co/go/js/dom/v2"

	"gradbook/notebook/block"
	"gradbook/notebook/progress"
)

type exploreView struct {
	p     *Page
	el    dom.Element
	e     *block.Explore
	vals  map[string]float64
	state dom.Element
	view  *drawingView
	box   dom.Element
	done  []bool
}

func (p *Page) wireExplore(el dom.Element) {
	e, err := block.ExploreOf(el.GetAttribute("data-cell-id"), blockData(el))
	state := el.QuerySelector(".explore-state")
	if err != nil {
		state.SetTextContent("This graph cannot be explored: " + err.Error())
		return
	}
	e.Caption = el.QuerySelector(".explore-caption").TextContent()
	v := &exploreView{p: p, el: el, e: e, vals: e.Start(), state: state, box: el.QuerySelector(".drawings"), done: make([]bool, len(e.Tasks))}
	for i, t := range el.QuerySelectorAll("li.task") {
		if r := p.keep.get(progress.KindTask, v.taskID(t)); r.Passed {
			v.done[i] = true
			tick(t)
		}
	}
	for _, l := range el.QuerySelectorAll(".leaf") {
		name := l.GetAttribute("data-leaf")
		r := l.QuerySelector("input[type=range]").(*dom.HTMLInputElement)
		n := l.QuerySelector("input[type=number]").(*dom.HTMLInputElement)
		p.listen(r, "input", func(dom.Event) {
			s := r.Value()
			spawn(func() {
				n.SetValue(s)
				v.set(name, s)
			})
		})
		p.listen(n, "input", func(dom.Event) {
			s := n.Value()
			spawn(func() {
				if _, ok := block.ParseNumber(s); ok {
					r.SetValue(s)
					v.set(name, s)
				}
			})
		})
	}
	v.update()
}

func (v *exploreView) set(name, s string) {
	x, ok := block.ParseNumber(s)
	if !ok {
		return
	}
	v.vals[name] = x
	v.update()
}

// update recomputes values, gradients, the drawing and the tasks.
func (v *exploreView) update() {
	vals, grads, met, err := v.e.State(v.vals)
	if err != nil {
		v.state.SetTextContent(err.Error())
		v.el.SetAttribute("data-state", "error")
		return
	}
	v.el.RemoveAttribute("data-state")
	v.state.SetInnerHTML(v.e.StateHTML(vals, grads))
	d := v.e.Drawing(vals)
	if v.view == nil {
		v.view = newDrawingView(v.p, v.box, &v.p.on, d, v.el.GetAttribute("data-cell-id")+"-d")
	} else {
		v.view.setDrawing(d)
	}
	for i, t := range v.el.QuerySelectorAll("li.task") {
		if met[i] && !v.done[i] {
			v.done[i] = true
			tick(t)
			v.p.say("Task done: " + strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(t.TextContent(), "✓"), "(done)")))
			spawn(func() {
				v.p.put(progress.Record{Kind: progress.KindTask, Lesson: v.p.keep.lesson, ID: v.taskID(t), Passed: true})
			})
		}
	}
}

// taskID names a task for its progress record: explore id and task id.
func (v *exploreView) taskID(t dom.Element) string {
	return v.el.GetAttribute("data-cell-id") + ":" + t.GetAttribute("data-task")
}

// tick shows a task as done.
func tick(t dom.Element) {
	t.Class().Add("done")
	t.QuerySelector(".tick").SetTextContent("✓")
	t.QuerySelector(".task-state").SetTextContent("(done)")
}
