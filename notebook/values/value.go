package values

import (
	"fmt"
	"math"
	"strings"
	"unsafe"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"gradbook/engine"
	"gradbook/internal/words"
	"gradbook/notebook/internal/attrs"
	"gradbook/notebook/kernel"
)

// Builtins returns the built-ins that make and take Values.
func Builtins() []kernel.Builtin { return builtins }

// builtins are the package's built-ins, under the file that defines each
// (README's "Where things go" names it, and a test checks it).
var builtins = []kernel.Builtin{
	// value.go: Values.
	{Name: "Value", Fn: newValue},
	{Name: "detach", Fn: detach},
	{Name: "max", Fn: maxBuiltin},
	// trace.go: a graph recorded once and replayed.
	{Name: "trace", Fn: traceBuiltin},
}

// NewPart returns the part of a new chain of cells that their Values
// share (part.go): a Session of the cell language makes one for each.
func NewPart() kernel.Part { return new(part) }

// Value is the Starlark face of an engine.Value: a scalar that records how
// it was computed. It supports + - * / with Values or numbers on either
// side, unary -, and the methods and attributes listed in attrs.
//
// A Value's gradient is set by backward even after the cell that made it
// has finished (Starlark freezes a cell's globals): backward recomputes
// every gradient it sets, so no answer depends on what ran before.
type Value struct {
	v   *engine.Value
	p   *part      // the chain of cells that made it, nil outside a run
	rec *recording // the trace that was recording when it was made, if any
}

var (
	_ starlark.HasBinary   = (*Value)(nil)
	_ starlark.HasUnary    = (*Value)(nil)
	_ starlark.HasAttrs    = (*Value)(nil)
	_ starlark.HasSetField = (*Value)(nil)
	_ kernel.Changeable    = (*Value)(nil)
)

// KeptBy returns the part of the chain of cells that made the Value,
// which records its number, gradient and label in a kept state.
func (v *Value) KeptBy() kernel.Part { return v.p }

// SetField lets a cell name a Value for its drawings (v.label = "p"),
// change its number, as a training step does (p.value -= rate * p.grad),
// and set its gradient (p.grad = 0 after the update: backward starts at
// 0 only the gradients it reaches).
func (v *Value) SetField(name string, val starlark.Value) error {
	return valueAttrs.SetField(v, name, val)
}

// String returns the Value as Python's micrograd prints it.
func (v *Value) String() string {
	if v.v.Label != "" {
		return fmt.Sprintf("Value(data=%s, grad=%s, label=%q)", words.Number(v.v.Data), words.Number(v.v.Grad), v.v.Label)
	}
	return fmt.Sprintf("Value(data=%s, grad=%s)", words.Number(v.v.Data), words.Number(v.v.Grad))
}

// Type returns "Value".
func (v *Value) Type() string { return "Value" }

// Freeze does nothing: see the type's doc.
func (v *Value) Freeze() {}

// Truth reports whether the value is non-zero, as for a number.
func (v *Value) Truth() starlark.Bool {
	v.reading("if on a Value")
	return v.v.Data != 0
}

// reading notes, while trace records a graph, that the code reads the
// number of a Value: one the graph depends on, whose number the graph may
// then depend on, or one from outside the traced function, which each
// call reads anew (it is an input of the tape) where the number read now
// would stay on the tape.
func (v *Value) reading(what string) {
	p := v.p
	if p == nil || p.rec == nil || p.rec.read != "" {
		return
	}
	cell, code := p.run.Here()
	p.rec.read = fmt.Sprintf("%s, in cell %d: %s", what, cell+1, strings.TrimSpace(code))
}

// Hash hashes a Value by identity, so Values can be dict keys.
func (v *Value) Hash() (uint32, error) {
	p := uintptr(unsafe.Pointer(v.v))
	return uint32(p ^ p>>32), nil
}

// AsFloat reads a number or a Value's data, as starlark.AsFloat reads a
// number; a bool is not one.
func AsFloat(x starlark.Value) (float64, bool) {
	if v, ok := x.(*Value); ok {
		return v.v.Data, true
	}
	if _, ok := x.(starlark.Bool); ok {
		return 0, false
	}
	return starlark.AsFloat(x)
}

// New returns the leaf Value of x, labelled label, made in the run thread
// runs, as Value(x, label) makes it: it counts towards the cell's Values.
func New(thread *starlark.Thread, x float64, label string) (*Value, error) {
	c := &cellValue{e: engine.Value{Data: x, Label: kernel.ClipLabel(label)}}
	v, err := kernel.PartOf[*part](thread).made(c, "Value")
	if err != nil {
		return nil, err
	}
	return v.(*Value), nil
}

// EngineValue returns the engine Value behind a cell's Value.
func EngineValue(x starlark.Value) (*engine.Value, bool) {
	v, ok := x.(*Value)
	if !ok {
		return nil, false
	}
	return v.v, true
}

// unaryMethods are the engine's one-input ops that a Value has as
// methods: v.relu(), v.tanh(), … Each is engine.Value.Apply.
var unaryMethods = []string{"relu", "tanh", "exp", "log", "sigmoid", "detach"}

// valueAttrs are a Value's attributes and methods: the one table that
// Attr, AttrNames and SetField read. A method is a function of this
// file; each of unaryMethods is unaryMethod.
var valueAttrs = attrs.New([]attrs.Field[*Value]{
	{Name: "value", Get: func(v *Value) (starlark.Value, error) {
		v.reading(".value")
		return starlark.Float(v.v.Data), nil
	}, Set: func(v *Value, x starlark.Value) error { return setNumber(".value", x, &v.v.Data) }},
	{Name: "data", Get: func(v *Value) (starlark.Value, error) {
		v.reading(".data")
		return starlark.Float(v.v.Data), nil
	}, Set: func(v *Value, x starlark.Value) error { return setNumber(".data", x, &v.v.Data) }},
	// p.grad = 0 after an update, as micrograd's zero_grad.
	{Name: "grad", Get: func(v *Value) (starlark.Value, error) { return starlark.Float(v.v.Grad), nil },
		Set: func(v *Value, x starlark.Value) error { return setNumber(".grad", x, &v.v.Grad) }},
	{Name: "label", Get: func(v *Value) (starlark.Value, error) { return starlark.String(v.v.Label), nil },
		Set: func(v *Value, val starlark.Value) error {
			s, ok := starlark.AsString(val)
			if !ok {
				return fmt.Errorf("label must be a string, got %s", val.Type())
			}
			v.v.Label = kernel.ClipLabel(s)
			return nil
		}},
	{Name: "op", Get: func(v *Value) (starlark.Value, error) { return starlark.String(v.v.Op()), nil }},
}, func() []attrs.Method[*Value] {
	m := []attrs.Method[*Value]{{Name: "pow", Call: (*Value).pow}, {Name: "backward", Call: (*Value).backward}}
	for _, name := range unaryMethods {
		m = append(m, attrs.Method[*Value]{Name: name, Call: (*Value).unaryMethod})
	}
	return m
}())

// setNumber sets *to, the number of a Value's field (.value, .data or
// .grad), to x, a finite number.
func setNumber(field string, x starlark.Value, to *float64) error {
	f, ok := AsFloat(x)
	if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Errorf("%s must be set to a finite number, got %s", field, kernel.Short(x))
	}
	*to = f
	return nil
}

// AttrNames lists the attributes and methods of a Value.
func (v *Value) AttrNames() []string { return valueAttrs.Names() }

// Attr returns .value (or .data), .grad, .label, .op, or a method.
func (v *Value) Attr(name string) (starlark.Value, error) { return valueAttrs.Attr(v, name) }

func (v *Value) unaryMethod(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 0); err != nil {
		return nil, err
	}
	if b.Name() == "log" && v.v.Data <= 0 {
		return nil, fmt.Errorf("log of a non-positive number: %s is %s", describe(v.v), words.Number(v.v.Data))
	}
	return v.p.node(b.Name(), v.v, nil, 0)
}

func (v *Value) pow(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	k, ok := AsFloat(x)
	if !ok || math.IsNaN(k) || math.IsInf(k, 0) {
		return nil, fmt.Errorf("pow: the exponent must be a finite number, got %s", kernel.Short(x))
	}
	return v.p.node("pow", v.v, nil, k)
}

func (v *Value) backward(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	overwrite, accumulate, recursive := false, false, false
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "overwrite?", &overwrite, "accumulate?", &accumulate, "recursive?", &recursive); err != nil {
		return nil, err
	}
	mode := engine.Accumulate
	switch {
	case overwrite && recursive:
		return nil, fmt.Errorf("backward: overwrite=True and recursive=True are two different bugs: show one at a time")
	case overwrite:
		mode = engine.OverwriteBug
	case recursive:
		mode = engine.RecursiveBug
	}
	// accumulate=True adds this pass's gradients onto what every Value
	// already holds, as PyTorch and micrograd do when nobody zeroes them.
	var before []float64
	var order []*engine.Value
	if accumulate {
		order = engine.Topo(v.v)
		before = make([]float64, len(order))
		for i, u := range order {
			before[i] = u.Grad
		}
	}
	if err := v.v.BackwardMode(mode); err != nil {
		return nil, fmt.Errorf("backward(recursive=True): %v", err)
	}
	for i, u := range order {
		u.Grad += before[i]
	}
	if p := v.p; p != nil && p.run != nil {
		if mode == engine.Accumulate && !accumulate {
			p.keepBackward(v.v)
		} else {
			// The drawing shows a backward pass's own gradients, which
			// these are not: it says they are what backward() would give,
			// and its toggles show the bug's.
			delete(p.atBackward, v.v)
		}
		p.run.Built(&drawing{p: p, root: v.v})
	}
	return starlark.None, nil
}

// cellValue is a Value and its engine Value in one heap object, which
// halves what a cell's arithmetic allocates.
type cellValue struct {
	e engine.Value
	w Value
}

// cellConst is a cellValue with the constant leaf that a number on one
// side of an operator becomes, in the same heap object.
type cellConst struct {
	cellValue
	k engine.Value
}

// node makes the Value of the op called name on a (and b, for a two-input
// op) with pow's constant k: see made.
func (p *part) node(name string, a, b *engine.Value, k float64) (starlark.Value, error) {
	return p.nodeIn(new(cellValue), name, a, b, k)
}

// nodeIn is node, made in c.
func (p *part) nodeIn(c *cellValue, name string, a, b *engine.Value, k float64) (starlark.Value, error) {
	if !c.e.Make(name, a, b, k) {
		return nil, fmt.Errorf("%s: the engine has no such op", name)
	}
	if b == nil {
		return p.made(c, name, a)
	}
	return p.made(c, name, a, b)
}

// made checks a new Value's data, counts it, records it as the cell's
// latest graph, and wraps it.
func (p *part) made(c *cellValue, op string, in ...*engine.Value) (starlark.Value, error) {
	r := &c.e
	// The hot path of every Value a cell makes is written out by hand
	// (one call to the run), so that it does not depend on the compiler
	// inlining: gradbook.wasm inlines in few packages.
	if d := r.Data; d != d || d-d != 0 { // NaN or ±Inf
		args := ""
		for i, u := range in {
			if i > 0 {
				args += ", "
			}
			args += words.Number(u.Data)
		}
		return nil, fmt.Errorf("%s(%s) is %s: the result is not a finite number", op, args, words.Number(r.Data))
	}
	if p == nil || p.run == nil { // an author's expression evaluated outside a run
		c.w = Value{v: r}
		return &c.w, nil
	}
	latest, record, err := p.run.Made()
	if err != nil {
		return nil, err
	}
	c.w = Value{v: r, p: p}
	if p.rec != nil {
		c.w.rec = p.rec // a trace records: no drawing
		p.rec.made[r] = true
		return &c.w, nil
	}
	if !record {
		return &c.w, nil
	}
	// Record r as the cell's latest graph without a new drawing for each
	// Value: the cell's latest, when it is the graph behind a Value (which
	// nothing else holds), takes r as its root.
	if d, ok := latest.(*drawing); ok {
		d.root = r
		return &c.w, nil
	}
	p.run.Built(&drawing{p: p, root: r})
	return &c.w, nil
}

// Unary implements -v (and +v).
func (v *Value) Unary(op syntax.Token) (starlark.Value, error) {
	switch op {
	case syntax.MINUS:
		return v.p.node("neg", v.v, nil, 0)
	case syntax.PLUS:
		return v, nil
	}
	return nil, nil
}

// Binary implements + - * / between Values, and between a Value and a
// number on either side. Other operators are not supported (Starlark has
// no **: use .pow(k)).
func (v *Value) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	var w *engine.Value
	var c *cellValue
	switch y := y.(type) {
	case *Value:
		w, c = y.v, new(cellValue)
	case starlark.Float:
		cc := &cellConst{k: engine.Value{Data: float64(y), Const: true}} // the number is a constant leaf
		w, c = &cc.k, &cc.cellValue
	case starlark.Int:
		cc := &cellConst{k: engine.Value{Data: float64(y.Float()), Const: true}}
		w, c = &cc.k, &cc.cellValue
	default:
		return nil, nil
	}
	a, b := v.v, w
	if side == starlark.Right {
		a, b = w, v.v
	}
	var name string
	switch op {
	case syntax.PLUS:
		name = "add"
	case syntax.MINUS:
		name = "sub"
	case syntax.STAR:
		name = "mul"
	case syntax.SLASH:
		if b.Data == 0 {
			return nil, fmt.Errorf("division by zero: %s is 0", describe(b))
		}
		name = "div"
	default:
		return nil, nil
	}
	// nodeIn, by hand: this is most of the Values a cell makes.
	if !c.e.Make(name, a, b, 0) {
		return nil, fmt.Errorf("%s: the engine has no such op", name)
	}
	return v.p.made(c, name, a, b)
}

func describe(v *engine.Value) string {
	if v.Label != "" {
		return v.Label
	}
	if v.Op() == "" {
		return "the divisor"
	}
	return "the " + v.Op() + " result"
}

// newValue is the built-in Value(x) or Value(x, "label").
func newValue(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	var label string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "x", &x, "label?", &label); err != nil {
		return nil, err
	}
	if v, ok := x.(*Value); ok {
		return v, nil
	}
	f, ok := starlark.AsFloat(x)
	if !ok || x.Type() == "bool" {
		return nil, fmt.Errorf("Value: want a number, got %s", x.Type())
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("Value: want a finite number, got %s", words.Number(f))
	}
	v, err := New(thread, f, label)
	if err != nil {
		return nil, err
	}
	return v, nil
}

// detach is the built-in detach(v): a stop-gradient.
func detach(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v *Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &v); err != nil {
		return nil, err
	}
	return v.p.node("detach", v.v, nil, 0)
}

// maxBuiltin is Python's max, which also takes Values: max(xs) or
// max(a, b, …) over Values (and numbers) is a Value, made of the engine's
// max op, whose whole gradient goes to the largest input. It is part of
// the graph, so a traced function that uses it replays it with the new
// numbers; detach(max(logits)) is the constant a stable softmax
// subtracts. Over numbers and strings it is Starlark's own max.
func maxBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	items := []starlark.Value(args)
	if len(args) == 1 {
		if it, ok := args[0].(starlark.Iterable); ok {
			items = nil
			iter := it.Iterate()
			var x starlark.Value
			for iter.Next(&x) {
				items = append(items, x)
			}
			iter.Done()
		}
	}
	var first *Value
	for _, x := range items {
		if v, ok := x.(*Value); ok {
			first = v
			break
		}
	}
	if first == nil || len(kwargs) > 0 {
		return starlark.Call(thread, starlark.Universe["max"], args, kwargs)
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("max: the list is empty")
	}
	var top starlark.Value
	for i, x := range items {
		var e *engine.Value
		switch x := x.(type) {
		case *Value:
			e = x.v
		case starlark.Int, starlark.Float:
			f, _ := starlark.AsFloat(x)
			e = &engine.Value{Data: f, Const: true}
		default:
			return nil, fmt.Errorf("max: item %d is %s; max takes Values and numbers", i, x.Type())
		}
		if top == nil {
			if v, ok := x.(*Value); ok {
				top = v
				continue
			}
			top = &Value{v: e, p: first.p}
			continue
		}
		var err error
		if top, err = first.p.node("max", top.(*Value).v, e, 0); err != nil {
			return nil, err
		}
	}
	return top, nil
}
