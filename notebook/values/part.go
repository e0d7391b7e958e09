package values

import (
	"fmt"
	"maps"

	"go.starlark.net/starlark"

	"gradbook/engine"
	"gradbook/notebook/draw"
	"gradbook/notebook/kernel"
)

// part is what the Values of one chain of cells share, their
// kernel.Part: the run going on now, which Values made in earlier runs
// report to (a Value's operators are given no thread); the recording that
// trace makes, if any; the names cells gave Values, for their drawings;
// and what backward left, for the drawing of its graph.
type part struct {
	run   *kernel.Run
	rec   *recording
	names map[*engine.Value]string // the names cells gave Values
	// atBackward keeps, for each Value the run called backward on (a
	// graph small enough to draw), every value and gradient of its graph
	// as backward left them: its drawing shows those, the program's own.
	atBackward map[*engine.Value][]savedValue
	size       int // Values in its last kept state
}

// SetRun starts the Values' share of run r (nil once it has ended).
func (p *part) SetRun(r *kernel.Run) {
	p.run, p.rec, p.atBackward = r, nil, nil
}

// CellDone names, for the drawings, the Values that the cell's
// top-level assignments gave a name and no label.
func (p *part) CellDone(_ int, assigned []string) {
	env := p.run.Globals()
	for _, n := range assigned {
		if v, ok := env[n].(*Value); ok && v.v.Label == "" {
			if p.names == nil {
				p.names = map[*engine.Value]string{}
			}
			p.names[v.v] = n
		}
	}
}

type savedValue struct {
	v          *engine.Value
	data, grad float64
	label      string
}

// Keep records the number, gradient and label of every Value that the
// held ones were made from (backward reaches them), and the names cells
// gave Values.
func (p *part) Keep(held []kernel.Changeable) (restore func() error, cost int) {
	roots := make([]*engine.Value, 0, len(held))
	for _, h := range held {
		if v, ok := h.(*Value); ok {
			roots = append(roots, v.v)
		}
	}
	// Sized as the chain's last kept state was: the graphs are mostly the
	// same.
	values := make([]savedValue, 0, p.size)
	engine.Reach(roots, func(v *engine.Value) {
		values = append(values, savedValue{v, v.Data, v.Grad, v.Label})
	})
	p.size = len(values)
	names := maps.Clone(p.names)
	return func() error {
		for _, sv := range values {
			sv.v.Data, sv.v.Grad, sv.v.Label = sv.data, sv.grad, sv.label
		}
		p.names = maps.Clone(names)
		return nil
	}, len(values)
}

// keepBackward notes the values and gradients backward from root left,
// for root's drawing.
func (p *part) keepBackward(root *engine.Value) {
	if p.run.Quiet() || engine.SizeAtMost(root, draw.MaxDrawnNodes) > draw.MaxDrawnNodes {
		return
	}
	if p.atBackward == nil {
		p.atBackward = map[*engine.Value][]savedValue{}
	}
	nodes := engine.Topo(root)
	saved := make([]savedValue, len(nodes))
	for i, v := range nodes {
		saved[i] = savedValue{v, v.Data, v.Grad, v.Label}
	}
	p.atBackward[root] = saved
}

// Graph returns the graph behind root to draw, as a cell's run draws the
// graph behind a Value, with the names its cells gave Values: show(v)
// asks for it, and show(t) of a one-element tensor for the graph of the
// scalar Values its computation stands for.
func Graph(thread *starlark.Thread, root *engine.Value) kernel.Drawable {
	return &drawing{p: kernel.PartOf[*part](thread), root: root}
}

// drawing is the graph behind a Value, to draw: a kernel.Drawable.
type drawing struct {
	p    *part
	root *engine.Value
}

// Draw draws the graph, or returns nil and how many values it has if
// that is too many to draw.
//
// A drawing shows the program's own state: for a Value the program called
// backward on in this run, the values and gradients backward left (as
// keepBackward noted them), even if the code changed values since; for
// any other, the values it holds now and, said so in the title, the
// gradients its backward would give.
func (d *drawing) Draw() (*draw.Drawing, int) {
	if d.p == nil { // outside a run: nothing draws
		d.p = new(part)
	}
	if n := engine.SizeAtMost(d.root, draw.MaxDrawnNodes); n > draw.MaxDrawnNodes {
		return nil, engine.Size(d.root)
	}
	at := d.p.atBackward[d.root]
	// Draw the state backward left, then put the program's back.
	now := make([]savedValue, len(at))
	for i, sv := range at {
		now[i] = savedValue{sv.v, sv.v.Data, sv.v.Grad, sv.v.Label}
		sv.v.Data, sv.v.Grad = sv.data, sv.grad
	}
	dr := draw.Value(d.root, d.p.names, draw.WithConstants(func(v *engine.Value) bool { return v.Const }))
	for _, sv := range now {
		sv.v.Data, sv.v.Grad = sv.data, sv.grad
	}
	name := dr.Nodes[dr.Out].Label
	if at != nil {
		dr.Title = fmt.Sprintf("The graph behind %s, with the gradients %s.backward() set", name, name)
	} else {
		dr.Title = fmt.Sprintf("The graph behind %s: gradients as %s.backward() would give them", name, name)
	}
	return dr, len(dr.Nodes)
}
