package page

import (
	"strconv"
	"strings"

	"gradbook/notebook/block"
	"gradbook/notebook/progress"
)

// exploreView is an explore block on the page: sliders and number boxes
// for a graph's inputs, its values and gradients, its drawing, and tasks
// that tick themselves once met.
type exploreView struct {
	p     *Page
	el    Node
	e     *block.Explore
	vals  map[string]float64
	state Node
	view  *drawingView
	box   Node
	done  []bool
}

func (p *Page) wireExplore(el Node) {
	e, err := block.ExploreOf(el.Attr(block.AttrCellID), blockData(el))
	state := el.Query(block.Of(block.ClassExploreSt))
	if err != nil {
		state.SetText("This graph cannot be explored: " + err.Error())
		return
	}
	e.Caption = el.Query(block.Of(block.ClassExploreCap)).Text()
	v := &exploreView{p: p, el: el, e: e, vals: e.Start(), state: state, box: el.Query(block.Sel("div", block.ClassDrawings)), done: make([]bool, len(e.Tasks))}
	for i, t := range el.QueryAll(block.Sel("li", block.ClassTask)) {
		if r := p.keep.get(kindTask, v.taskID(t)); r.Passed && i < len(v.done) {
			v.done[i] = true
			tick(t)
		}
	}
	for _, l := range el.QueryAll(block.Of(block.ClassLeaf)) {
		name := l.Attr(block.AttrLeaf)
		r := l.Query(block.SelRange)
		n := l.Query(block.SelNumber)
		p.listen(r, "input", func(Event) { p.Do(func() { v.set(name, r.Value(), n) }) })
		p.listen(n, "input", func(Event) { p.Do(func() { v.set(name, n.Value(), r) }) })
	}
	v.update()
}

// set takes s, slid or typed for leaf name, if it is a number (a number
// box half typed, "-" or "1e", is not yet), and shows it in the leaf's
// other control too.
func (v *exploreView) set(name, s string, other Node) {
	x, ok := block.ParseNumber(s)
	if !ok {
		return
	}
	other.SetValue(strconv.FormatFloat(x, 'g', -1, 64))
	v.vals[name] = x
	v.update()
}

// update recomputes values, gradients, the drawing and the tasks.
func (v *exploreView) update() {
	vals, grads, met, err := v.e.State(v.vals)
	if err != nil {
		v.state.SetText(err.Error())
		v.el.SetAttr(block.AttrState, Error)
		return
	}
	v.el.RemoveAttr(block.AttrState)
	v.state.SetHTML(v.e.StateHTML(vals, grads))
	d := v.e.Drawing(vals)
	if v.view == nil {
		v.view = v.p.newDrawingView(v.box, &v.p.on, d, v.el.Attr(block.AttrCellID)+"-d")
	} else {
		v.view.setDrawing(d)
	}
	for i, t := range v.el.QueryAll(block.Sel("li", block.ClassTask)) {
		if i < len(met) && met[i] && !v.done[i] {
			v.done[i] = true
			tick(t)
			v.p.say("Task done: " + strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(t.Text(), "✓"), "(done)")))
			id := v.taskID(t)
			v.p.Do(func() {
				v.p.put(progress.Record{Kind: kindTask, Lesson: v.p.keep.lesson, ID: id, Passed: true})
			})
		}
	}
}

// taskID names a task for its progress record: explore id and task id.
func (v *exploreView) taskID(t Node) string {
	return v.el.Attr(block.AttrCellID) + ":" + t.Attr(block.AttrTask)
}

// tick shows a task as done.
func tick(t Node) {
	t.AddClass(classDone)
	t.Query(block.Of(block.ClassTick)).SetText("✓")
	t.Query(block.Of(block.ClassTaskState)).SetText("(done)")
}
