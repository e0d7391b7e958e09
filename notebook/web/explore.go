//go:build js && wasm

package web

import (
	"strings"

	"gradbook/notebook/block"
	"gradbook/notebook/page"
	"gradbook/notebook/progress"
)

type exploreView struct {
	p     *Page
	el    *element
	e     *block.Explore
	vals  map[string]float64
	state *element
	view  *drawingView
	box   *element
	done  []bool
}

func (p *Page) wireExplore(el *element) {
	e, err := block.ExploreOf(el.GetAttribute(block.AttrCellID), blockData(el))
	state := el.QuerySelector(block.Of(block.ClassExploreSt))
	if err != nil {
		state.SetTextContent("This graph cannot be explored: " + err.Error())
		return
	}
	e.Caption = el.QuerySelector(block.Of(block.ClassExploreCap)).TextContent()
	v := &exploreView{p: p, el: el, e: e, vals: e.Start(), state: state, box: el.QuerySelector(block.Sel("div", block.ClassDrawings)), done: make([]bool, len(e.Tasks))}
	for i, t := range el.QuerySelectorAll(block.Sel("li", block.ClassTask)) {
		if r := p.keep.get(progress.KindTask, v.taskID(t)); r.Passed {
			v.done[i] = true
			tick(t)
		}
	}
	for _, l := range el.QuerySelectorAll(block.Of(block.ClassLeaf)) {
		name := l.GetAttribute(block.AttrLeaf)
		r := l.QuerySelector(block.SelRange)
		n := l.QuerySelector(block.SelNumber)
		p.listen(r, "input", func(*event) {
			s := r.Value()
			spawn(func() {
				n.SetValue(s)
				v.set(name, s)
			})
		})
		p.listen(n, "input", func(*event) {
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
		v.el.SetAttribute(block.AttrState, page.Error)
		return
	}
	v.el.RemoveAttribute(block.AttrState)
	v.state.SetInnerHTML(v.e.StateHTML(vals, grads))
	d := v.e.Drawing(vals)
	if v.view == nil {
		v.view = newDrawingView(v.p, v.box, &v.p.on, d, v.el.GetAttribute(block.AttrCellID)+"-d")
	} else {
		v.view.setDrawing(d)
	}
	for i, t := range v.el.QuerySelectorAll(block.Sel("li", block.ClassTask)) {
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
func (v *exploreView) taskID(t *element) string {
	return v.el.GetAttribute(block.AttrCellID) + ":" + t.GetAttribute(block.AttrTask)
}

// tick shows a task as done.
func tick(t *element) {
	t.Class().Add(classDone)
	t.QuerySelector(block.Of(block.ClassTick)).SetTextContent("✓")
	t.QuerySelector(block.Of(block.ClassTaskState)).SetTextContent("(done)")
}
