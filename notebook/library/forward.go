package library

// This file is forward mode in the cell language: jvp pushes a direction
// through a function with each op's local derivatives, the same table the
// reverse pass uses, on Values and on tensors; jacobian builds a whole
// Jacobian either way and says how many passes it took.

import (
	"fmt"
	"time"

	"go.starlark.net/starlark"

	"gradbook/engine"
	"gradbook/internal/words"
	"gradbook/notebook/kernel"
	"gradbook/notebook/torch"
	"gradbook/notebook/values"
	"gradbook/tensor"
)

// primals turns jvp's or jacobian's inputs into f's arguments: a number
// becomes a leaf Value, a list of numbers a list of them, a tensor a leaf
// tensor of the same numbers. leaves collects the Values, in order, and
// tensors the tensors.
type primals struct {
	thread  *starlark.Thread
	leaves  []*engine.Value
	tensors []*tensor.Tensor
}

// newPrimals starts the inputs of a call of f, in a cell's run only: the
// Values it makes count towards the cell's.
func newPrimals(thread *starlark.Thread, name string) (*primals, error) {
	if kernel.RunOf(thread) == nil {
		return nil, fmt.Errorf("%s: only in a cell's run", name)
	}
	return &primals{thread: thread}, nil
}

func (p *primals) arg(x starlark.Value, depth int) (starlark.Value, error) {
	if depth > 8 {
		return nil, fmt.Errorf("the inputs are nested more than 8 deep")
	}
	if t, ok := torch.TensorOf(x); ok {
		c, _ := tensor.New(t.Data(), t.Shape()...) // a copy
		p.tensors = append(p.tensors, c)
		return torch.Wrap(p.thread, c), nil
	}
	switch x := x.(type) {
	case *starlark.List, starlark.Tuple:
		it := x.(starlark.Iterable).Iterate()
		defer it.Done()
		var out []starlark.Value
		var y starlark.Value
		for it.Next(&y) {
			a, err := p.arg(y, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, a)
		}
		return starlark.NewList(out), nil
	}
	f, ok := values.AsFloat(x)
	if !ok {
		return nil, fmt.Errorf("the inputs are numbers, lists of them, or tensors; got %s", x.Type())
	}
	v, err := values.New(p.thread, f, fmt.Sprintf("x%d", len(p.leaves)))
	if err != nil {
		return nil, err
	}
	e, _ := values.EngineValue(v)
	p.leaves = append(p.leaves, e)
	return v, nil
}

// flatNumbers reads tangents given in the shape of the inputs, numbers in
// order, into out; tensors go to ts.
func flatNumbers(x starlark.Value, out *[]float64, ts *[]*tensor.Tensor, depth int) error {
	if depth > 8 {
		return fmt.Errorf("the tangents are nested more than 8 deep")
	}
	if t, ok := torch.TensorOf(x); ok {
		*ts = append(*ts, t)
		return nil
	}
	switch x := x.(type) {
	case *starlark.List, starlark.Tuple:
		it := x.(starlark.Iterable).Iterate()
		defer it.Done()
		var y starlark.Value
		for it.Next(&y) {
			if err := flatNumbers(y, out, ts, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	f, ok := values.AsFloat(x)
	if !ok {
		return fmt.Errorf("the tangents are numbers, lists of them, or tensors, in the inputs' shape; got %s", x.Type())
	}
	*out = append(*out, f)
	return nil
}

// call calls f with args on the learner's behalf (what it prints and
// draws is not the cell's), and reads what it returned: one Value or
// number, a list of them, or one tensor.
func call(thread *starlark.Thread, name string, f starlark.Callable, args starlark.Tuple) (vs []*engine.Value, list bool, t *tensor.Tensor, err error) {
	y, err := kernel.RunOf(thread).CallQuietly(thread, f, args)
	if err != nil {
		return nil, false, nil, err
	}
	if t, ok := torch.TensorOf(y); ok {
		return nil, false, t, nil
	}
	one := func(y starlark.Value) (*engine.Value, error) {
		if v, ok := values.EngineValue(y); ok {
			return v, nil
		}
		f, ok := values.AsFloat(y)
		if !ok {
			return nil, fmt.Errorf("%s: the function must return a Value, a number, a list of them or a tensor; it returned %s", name, y.Type())
		}
		return &engine.Value{Data: f, Const: true}, nil // depends on no input
	}
	if l, ok := y.(*starlark.List); ok {
		for i := range l.Len() {
			v, err := one(l.Index(i))
			if err != nil {
				return nil, false, nil, err
			}
			vs = append(vs, v)
		}
		return vs, true, nil, nil
	}
	v, err := one(y)
	return []*engine.Value{v}, false, nil, err
}

// jvpBuiltin is jvp(f, primals, tangents), JAX's: f called with the
// primals (a list of its arguments: numbers, lists of numbers, tensors),
// and the derivative of what it returns along the tangents, in one
// forward pass. It returns (f's result, its tangent) as numbers, lists of
// numbers or tensors.
func jvpBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var f starlark.Callable
	var xs, ts starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "f", &f, "primals", &xs, "tangents", &ts); err != nil {
		return nil, err
	}
	p, err := newPrimals(thread, b.Name())
	if err != nil {
		return nil, err
	}
	xl, ok := xs.(*starlark.List)
	if !ok {
		return nil, fmt.Errorf("jvp: primals is the list of f's arguments, as jvp(f, [x], [dx]); got %s", xs.Type())
	}
	var fargs starlark.Tuple
	for i := range xl.Len() {
		a, err := p.arg(xl.Index(i), 0)
		if err != nil {
			return nil, fmt.Errorf("jvp: %v", err)
		}
		fargs = append(fargs, a)
	}
	var dirs []float64
	var tdirs []*tensor.Tensor
	if err := flatNumbers(ts, &dirs, &tdirs, 0); err != nil {
		return nil, fmt.Errorf("jvp: %v", err)
	}
	if len(dirs) != len(p.leaves) || len(tdirs) != len(p.tensors) {
		return nil, fmt.Errorf("jvp: %d numbers and %d tensors of tangents for %d numbers and %d tensors of primals: give one tangent for each", len(dirs), len(tdirs), len(p.leaves), len(p.tensors))
	}
	for i, t := range p.tensors {
		if err := t.SetTangent(tdirs[i]); err != nil {
			return nil, fmt.Errorf("jvp: tangent %d: %v", i+1, err)
		}
	}
	vs, list, t, err := call(thread, b.Name(), f, fargs)
	if err != nil {
		return nil, err
	}
	if t != nil {
		tan := t.Tangent()
		if tan == nil {
			tan = tensor.ZerosLike(t)
		}
		for i, x := range tan.Data() {
			if x != x || x-x != 0 { // NaN or ±Inf
				return nil, fmt.Errorf("jvp: element %d of the tangent is %s: the derivative along the tangents is not a finite number there", i, words.Number(x))
			}
		}
		return starlark.Tuple{torch.Wrap(thread, t.Detach()), torch.Wrap(thread, tan)}, nil
	}
	seed := map[*engine.Value]float64{}
	for i, v := range p.leaves {
		seed[v] = dirs[i]
	}
	d, bad := engine.FiniteTangentsOf(vs, func(v *engine.Value) float64 { return seed[v] })
	if bad != nil {
		return nil, notFinite(b.Name(), bad)
	}
	if !list {
		return starlark.Tuple{starlark.Float(vs[0].Data), starlark.Float(d[0])}, nil
	}
	vals, tans := make([]starlark.Value, len(vs)), make([]starlark.Value, len(vs))
	for i, v := range vs {
		vals[i], tans[i] = starlark.Float(v.Data), starlark.Float(d[i])
	}
	return starlark.Tuple{starlark.NewList(vals), starlark.NewList(tans)}, nil
}

// notFinite is the error of forward mode whose tangent at bad is not a
// finite number, as a Value whose number is not one is refused: name
// the op and its inputs.
func notFinite(name string, bad *engine.Value) error {
	args := ""
	for i, u := range bad.Inputs() {
		if i > 0 {
			args += ", "
		}
		args += words.Number(u.Data)
	}
	return fmt.Errorf("%s: the tangent of %s(%s) is not a finite number: its derivative there is infinite or undefined", name, bad.Op(), args)
}

// visitsPerSecond is the fastest a Jacobian's passes visit nodes (a
// forward pass, a reverse one), at best: passes that would take longer
// than the run has left even at this rate are refused before they start.
const visitsPerSecond = 1e8

// jacobianBuiltin is jacobian(f, xs, mode="reverse"): the m × n matrix of
// the derivatives of f's m outputs with respect to its n inputs (xs, a
// list of numbers; f takes the list of Values). Forward mode builds it a
// column at a time, one pass per input; reverse a row at a time, one pass
// per output. It returns a dict: "matrix", "passes", "visits" (the nodes
// those passes visited together), "mode" and "ms", as grad_check returns
// its table.
func jacobianBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var f starlark.Callable
	var xs *starlark.List
	mode := "reverse"
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "f", &f, "xs", &xs, "mode?", &mode); err != nil {
		return nil, err
	}
	if mode != "forward" && mode != "reverse" {
		return nil, fmt.Errorf("jacobian: mode is \"forward\" or \"reverse\", got %q", mode)
	}
	p, err := newPrimals(thread, b.Name())
	if err != nil {
		return nil, err
	}
	arg, err := p.arg(xs, 0)
	if err != nil {
		return nil, fmt.Errorf("jacobian: %v", err)
	}
	if len(p.tensors) > 0 || len(p.leaves) != xs.Len() {
		return nil, fmt.Errorf("jacobian: xs is a list of numbers")
	}
	start := time.Now()
	outs, _, t, err := call(thread, b.Name(), f, starlark.Tuple{arg})
	if err != nil {
		return nil, err
	}
	if t != nil {
		return nil, fmt.Errorf("jacobian: f returned a tensor; jacobian works on Values (jvp takes tensors)")
	}
	// The graph's size: what each pass visits.
	size := 0
	engine.Reach(outs, func(*engine.Value) { size++ })
	n, m := len(p.leaves), len(outs)
	J := make([][]float64, m)
	for i := range J {
		J[i] = make([]float64, n)
	}
	passes := 0
	run, total := kernel.RunOf(thread), n
	if mode == "reverse" {
		total = m
	}
	// Each pass visits the graph: the run's time is checked before each,
	// and what cannot finish in it is refused up front.
	afford := func() error {
		return run.Afford(float64((total-passes)*size), visitsPerSecond, "visits of the graph's nodes")
	}
	if mode == "forward" {
		for j, x := range p.leaves {
			if err := afford(); err != nil {
				return nil, err
			}
			d, bad := engine.FiniteTangentsOf(outs, func(v *engine.Value) float64 {
				if v == x {
					return 1
				}
				return 0
			})
			if bad != nil {
				return nil, notFinite(b.Name(), bad)
			}
			for i := range outs {
				J[i][j] = d[i]
			}
			passes++
		}
	} else {
		for i, o := range outs {
			if err := afford(); err != nil {
				return nil, err
			}
			for _, x := range p.leaves {
				x.Grad = 0
			}
			o.Backward()
			for j, x := range p.leaves {
				J[i][j] = x.Grad
			}
			passes++
		}
	}
	rows := make([]starlark.Value, m)
	for i, r := range J {
		row := make([]starlark.Value, n)
		for j, x := range r {
			row[j] = starlark.Float(x)
		}
		rows[i] = starlark.NewList(row)
	}
	out := starlark.NewDict(5)
	for _, kv := range []struct {
		k string
		v starlark.Value
	}{
		{"matrix", starlark.NewList(rows)},
		{"passes", starlark.MakeInt(passes)},
		{"visits", starlark.MakeInt(passes * size)},
		{"mode", starlark.String(mode)},
		{"ms", starlark.Float(float64(time.Since(start).Microseconds()) / 1000)},
	} {
		out.SetKey(starlark.String(kv.k), kv.v)
	}
	return out, nil
}
