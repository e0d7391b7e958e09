package library

// This file is the built-ins over graphs in the lessons' list format,
// [name, op, [inputs]]: evaluate and backward, which answer as the
// JavaScript API does, and show, which draws them (and the graph behind
// a Value, or a tensor computation).

import (
	"fmt"

	"go.starlark.net/starlark"

	"gradbook/engine"
	"gradbook/internal/jsontext"
	"gradbook/notebook/draw"
	"gradbook/notebook/kernel"
	"gradbook/notebook/torch"
	"gradbook/notebook/values"
)

// tree converts a Starlark value of lists, tuples, dicts, strings and
// numbers into decoded-JSON shapes ([]any, jsontext.Object, string,
// float64), for engine.GraphOf and engine.ValuesOf, which then report
// shape errors in the same words as the JavaScript API.
func tree(what string, x starlark.Value) (any, error) {
	v, err := treeOf(x, 0)
	if err != nil {
		return nil, fmt.Errorf("the %s must hold only lists, strings and numbers: %v", what, err)
	}
	return v, nil
}

func treeOf(x starlark.Value, depth int) (any, error) {
	if depth > 100 {
		return nil, fmt.Errorf("it is nested too deeply")
	}
	switch x := x.(type) {
	case starlark.NoneType:
		return nil, nil
	case starlark.Bool:
		return bool(x), nil
	case starlark.Int, starlark.Float:
		f, _ := starlark.AsFloat(x)
		return f, nil
	case starlark.String:
		return string(x), nil
	case *starlark.Dict:
		o := make(jsontext.Object, 0, x.Len())
		for _, item := range x.Items() {
			k, ok := item[0].(starlark.String)
			if !ok {
				return nil, fmt.Errorf("a dict key is a %s, not a string", item[0].Type())
			}
			v, err := treeOf(item[1], depth+1)
			if err != nil {
				return nil, err
			}
			o = append(o, jsontext.Member{Name: string(k), Value: v})
		}
		return o, nil
	case starlark.Indexable: // lists and tuples
		a := make([]any, x.Len())
		for i := range a {
			var err error
			if a[i], err = treeOf(x.Index(i), depth+1); err != nil {
				return nil, err
			}
		}
		return a, nil
	}
	return nil, fmt.Errorf("it contains a %s", x.Type())
}

// graphArgs reads a graph in the list format and named values (or leaves)
// from Starlark, and compiles the graph.
func graphArgs(graph, values starlark.Value, what string) (*engine.Tape, engine.Graph, named, error) {
	var n named
	gv, err := tree("graph", graph)
	if err != nil {
		return nil, nil, n, err
	}
	vv, err := tree(what, values)
	if err != nil {
		return nil, nil, n, err
	}
	g, err := engine.GraphOf(gv)
	if err != nil {
		return nil, nil, n, err
	}
	names, xs, err := engine.ValuesOf(vv)
	if err != nil {
		return nil, nil, n, err
	}
	t, err := engine.Compile(g)
	if err != nil {
		return nil, nil, n, err
	}
	n.names, n.Values = names, t.Bind(names, xs)
	return t, g, n, nil
}

// graphDrawing is a graph in the list format to draw, compiled, with the
// value of every slot and the output whose gradients to show ("" for
// values only): a kernel.Drawable.
type graphDrawing struct {
	tape *engine.Tape
	vals []float64
	out  string
}

// Draw draws the graph, or returns nil and how many values it has if that
// is too many to draw.
func (g *graphDrawing) Draw() (*draw.Drawing, int) {
	if n := len(g.tape.Names()); n > draw.MaxDrawnNodes {
		return nil, n
	}
	d := draw.Graph(g.tape, g.vals, g.out)
	d.Title = "The graph"
	if g.out != "" {
		d.Title += ", with gradients of " + g.out
	}
	return d, len(d.Nodes)
}

// loaded reads a graph and its named values as graphArgs does, and loads
// the values into the tape's slots: the leaves only, or every slot.
func loaded(graph, values starlark.Value, what string, leaves bool) (*engine.Tape, named, []float64, error) {
	t, _, in, err := graphArgs(graph, values, what)
	if err != nil {
		return nil, in, nil, err
	}
	vals, err := t.Load(in.Values, leaves)
	return t, in, vals, err
}

// named is values as a cell gave them, in order, and bound to a tape.
type named struct {
	engine.Values
	names []string // the name of each of Values.Xs
}

// evaluate(graph, leaves) returns a dict of every value: the leaves, then
// the nodes, as the JavaScript API does.
func evaluateBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var graph, leaves starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 2, &graph, &leaves); err != nil {
		return nil, err
	}
	t, in, vals, err := loaded(graph, leaves, "leaves", true)
	if err != nil {
		return nil, err
	}
	if err := t.Forward(vals); err != nil {
		return nil, err
	}
	d := starlark.NewDict(len(in.names) + t.NumNodes())
	for i, name := range in.names {
		d.SetKey(starlark.String(name), starlark.Float(in.Xs[i]))
	}
	for i, n := range t.Names()[t.NumLeaves():] {
		d.SetKey(starlark.String(n), starlark.Float(vals[t.NumLeaves()+i]))
	}
	kernel.RunOf(thread).Built(&graphDrawing{tape: t, vals: vals})
	return d, nil
}

// backward(graph, values, out) returns a dict of d(out)/d(name) for every
// name in values.
func backwardBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var graph, values starlark.Value
	var out string
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 3, &graph, &values, &out); err != nil {
		return nil, err
	}
	t, in, vals, err := loaded(graph, values, "values", false)
	if err != nil {
		return nil, err
	}
	grads, err := t.Gradients(vals, in.Values, out, engine.Accumulate)
	if err != nil {
		return nil, err
	}
	d := starlark.NewDict(len(in.names))
	for i, name := range in.names {
		d.SetKey(starlark.String(name), starlark.Float(grads[i]))
	}
	kernel.RunOf(thread).Built(&graphDrawing{tape: t, vals: vals, out: out})
	return d, nil
}

// show(v) draws the graph behind the Value v; show(graph, values, out)
// draws a graph in the list format with its values and the gradients of
// out (out may be left out to draw values only).
func showBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	run := kernel.RunOf(thread)
	cell, _, _ := run.Caller(thread)
	if len(args) == 1 && len(kwargs) == 0 {
		if t, ok := torch.TensorOf(args[0]); ok {
			d, err := torch.Graph(thread, t)
			if err != nil {
				return nil, err
			}
			run.Show(cell, d)
			return starlark.None, nil
		}
		v, ok := values.EngineValue(args[0])
		if !ok {
			return nil, fmt.Errorf("show: want a Value, a one-element Tensor, or a graph with its values, got %s", args[0].Type())
		}
		run.Show(cell, values.Graph(thread, v))
		return starlark.None, nil
	}
	var graph, values starlark.Value
	var out string
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 2, &graph, &values, &out); err != nil {
		return nil, err
	}
	t, _, in, err := graphArgs(graph, values, "values")
	if err != nil {
		return nil, err
	}
	// Values may be just the leaves: compute the nodes, then keep any
	// node value given.
	var leafNames []string
	var leafXs []float64
	for i, s := range in.Slots {
		if int(s) < t.NumLeaves() {
			leafNames = append(leafNames, in.names[i])
			leafXs = append(leafXs, in.Xs[i])
		}
	}
	vals, err := t.Load(t.Bind(leafNames, leafXs), true)
	if err != nil {
		return nil, err
	}
	if err := t.Forward(vals); err != nil {
		return nil, err
	}
	for i, s := range in.Slots {
		if int(s) >= t.NumLeaves() {
			vals[s] = in.Xs[i]
		}
	}
	run.Show(cell, &graphDrawing{tape: t, vals: vals, out: out})
	return starlark.None, nil
}
