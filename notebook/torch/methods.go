package torch

// This file is a tensor's methods: t.sum(1, keepdim=True), t.backward(),
// t.matmul(u), ….

import (
	"fmt"
	"math"
	"strings"

	"go.starlark.net/starlark"

	"gradbook/engine"
	"gradbook/internal/words"
	"gradbook/notebook/internal/attrs"
	"gradbook/notebook/kernel"
	"gradbook/notebook/values"
	"gradbook/tensor"
)

// tensorMethods are a tensor's methods, bound to it when a cell reads
// one: the one list of them, which AttrNames and the dispatch read
// (tensorAttrs).
var tensorMethods = []attrs.Method[*Tensor]{
	{Name: "backward", Call: (*Tensor).backward},
	{Name: "retain_grad", NoArgs: func(x *Tensor) (starlark.Value, error) { x.t.RetainGrad(); return starlark.None, nil }},
	{Name: "item", NoArgs: func(x *Tensor) (starlark.Value, error) {
		f, err := x.t.Item()
		return starlark.Float(f), err
	}},
	{Name: "tolist", NoArgs: func(x *Tensor) (starlark.Value, error) { return toList(x.t.Shape(), x.t.Data()), nil }},
	{Name: "numel", NoArgs: func(x *Tensor) (starlark.Value, error) { return starlark.MakeInt(x.t.Size()), nil }},
	{Name: "size", Call: (*Tensor).size},
	{Name: "sum", Call: func(x *Tensor, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return x.reduce((*tensor.Tensor).Sum, b, args, kwargs)
	}},
	{Name: "mean", Call: func(x *Tensor, _ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return x.reduce((*tensor.Tensor).Mean, b, args, kwargs)
	}},
	{Name: "max", Call: (*Tensor).max},
	{Name: "exp", NoArgs: func(x *Tensor) (starlark.Value, error) { return x.p.wrap(x.t.Exp()), nil }},
	{Name: "log", NoArgs: (*Tensor).log},
	{Name: "tanh", NoArgs: func(x *Tensor) (starlark.Value, error) { return x.p.wrap(x.t.Tanh()), nil }},
	{Name: "relu", NoArgs: func(x *Tensor) (starlark.Value, error) { return x.p.wrap(x.t.Relu()), nil }},
	{Name: "sigmoid", NoArgs: func(x *Tensor) (starlark.Value, error) { return x.p.wrap(x.t.Sigmoid()), nil }},
	{Name: "detach", NoArgs: func(x *Tensor) (starlark.Value, error) { return x.p.wrap(x.t.Detach()), nil }},
	{Name: "clone", NoArgs: func(x *Tensor) (starlark.Value, error) {
		c, _ := tensor.New(x.t.Data(), x.t.Shape()...)
		return x.p.wrap(c), nil
	}},
	{Name: "float", NoArgs: func(x *Tensor) (starlark.Value, error) { return x, nil }}, // every tensor holds float64s
	{Name: "zero_", NoArgs: (*Tensor).zero},
	{Name: "pow", Call: (*Tensor).pow},
	{Name: "matmul", Call: (*Tensor).matmul},
	{Name: "softmax", Call: (*Tensor).softmax},
	{Name: "transpose", Call: (*Tensor).transpose},
	{Name: "masked_fill", Call: (*Tensor).maskedFill},
	{Name: "eq", Call: (*Tensor).eq},
	{Name: "view", Call: (*Tensor).reshape},
	{Name: "reshape", Call: (*Tensor).reshape},
}

// reduce reduces the tensor with op along the method's dim (sum, mean).
func (x *Tensor) reduce(op func(t *tensor.Tensor, axis int, keep bool) (*tensor.Tensor, error), b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	axis, keep, err := reductionArgs(b.Name(), args, kwargs)
	if err != nil {
		return nil, err
	}
	return x.wrapErr(op(x.t, axis, keep))
}

// backward is t.backward(gradient=None).
func (x *Tensor) backward(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var grad starlark.Value = starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "gradient?", &grad); err != nil {
		return nil, err
	}
	var g *tensor.Tensor
	if grad != starlark.None {
		var err error
		if g, err = asTensor("backward", grad); err != nil {
			return nil, err
		}
	}
	return starlark.None, budgetOf(thread).Backward(x.t, g, engine.Accumulate)
}

// size is t.size() (the shape) or t.size(dim).
func (x *Tensor) size(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	t := x.t
	var dim starlark.Value = starlark.None
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 0, &dim); err != nil {
		return nil, err
	}
	if dim == starlark.None {
		return shapeTuple(t.Shape()), nil
	}
	d, err := starlark.AsInt32(dim)
	if err != nil {
		return nil, err
	}
	if d < 0 {
		d += t.NDim()
	}
	if d < 0 || d >= t.NDim() {
		return nil, fmt.Errorf("size: a tensor of shape %s has no dimension %s", tensor.ShapeString(t.Shape()), dim)
	}
	return starlark.MakeInt(t.Shape()[d]), nil
}

// max is t.max(), or t.max(dim), which gives .values and .indices.
func (x *Tensor) max(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	axis, keep, err := reductionArgs(b.Name(), args, kwargs)
	if err != nil {
		return nil, err
	}
	values, indices, err := x.t.Max(axis, keep)
	if err != nil {
		return nil, err
	}
	if axis == tensor.AllAxes {
		return x.p.wrap(values), nil
	}
	return maxResult(x.p.wrap(values), x.p.wrap(indices)), nil
}

// log is t.log(), of positive numbers only.
func (x *Tensor) log() (starlark.Value, error) {
	for i, v := range x.t.Data() {
		if v <= 0 {
			return nil, fmt.Errorf("log of a tensor with %s at %s: log needs positive numbers", words.Number(v), elementAt(x.t.Shape(), i))
		}
	}
	return x.p.wrap(x.t.Log()), nil
}

// zero is t.zero_(), on a tensor that needs no gradient.
func (x *Tensor) zero() (starlark.Value, error) {
	if x.t.RequiresGrad() {
		return nil, fmt.Errorf("zero_: the tensor requires a gradient; set its gradient to None with p.grad = None")
	}
	clear(x.t.Data())
	return x, nil
}

// pow is t.pow(k), for a finite number k.
func (x *Tensor) pow(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var kv starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &kv); err != nil {
		return nil, err
	}
	k, ok := values.AsFloat(kv)
	if !ok || math.IsNaN(k) || math.IsInf(k, 0) {
		return nil, fmt.Errorf("pow: the exponent must be a finite number, got %s", kv.String())
	}
	return x.p.wrap(x.t.Pow(k)), nil
}

// softmax is t.softmax(dim): exp(t) / Σ exp(t) along dim, whose entries
// then add up to 1; dim is required, as PyTorch warns without it.
func (x *Tensor) softmax(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var dim starlark.Value = starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "dim?", &dim); err != nil {
		return nil, err
	}
	d, err := starlark.AsInt32(dim)
	if err != nil {
		return nil, fmt.Errorf("softmax: give dim, the dimension whose entries add up to 1 (dim=-1 for the last), not %s", dim.String())
	}
	return x.wrapErr(x.t.Softmax(d))
}

// matmul is t.matmul(u), t @ u.
func (x *Tensor) matmul(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var u *Tensor
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &u); err != nil {
		return nil, err
	}
	return x.wrapErr(budgetOf(thread).Matmul(x.t, u.t))
}

// multiplyAddsPerSecond is the fastest any path computes a matrix
// product's multiply-adds (the kernels and the plain loops do 0.4 to 10
// billion a second): a product that would take longer than the run has
// left even at this rate is refused before it starts.
const multiplyAddsPerSecond = 1e10

// budgetOf returns the budget of the long products a cell's run computes
// on thread: checked against the run's time between panels, and refused
// up front when they cannot finish in it.
func budgetOf(thread *starlark.Thread) tensor.Budget {
	r := kernel.RunOf(thread)
	if r == nil {
		return nil
	}
	return func(work int) error { return r.Afford(float64(work), multiplyAddsPerSecond, "multiply-adds") }
}

// reshape is t.view(…) and t.reshape(…), with one -1 at most.
func (x *Tensor) reshape(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	shape, err := shapeArgs(b.Name(), args, kwargs)
	if err != nil {
		return nil, err
	}
	return x.wrapErr(x.t.Reshape(shape...))
}

// elementAt names element i of a tensor of shape: "(1, 2)".
func elementAt(shape []int, i int) string {
	p := make([]string, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		p[d] = fmt.Sprint(i % shape[d])
		i /= shape[d]
	}
	return "(" + strings.Join(p, ", ") + ")"
}

// reductionArgs reads sum's, mean's and max's (dim=None, keepdim=False),
// with NumPy's names too (axis, keepdims).
func reductionArgs(name string, args starlark.Tuple, kwargs []starlark.Tuple) (int, bool, error) {
	var dim starlark.Value = starlark.None
	keep := false
	if len(args) > 2 {
		return 0, false, fmt.Errorf("%s: want at most 2 arguments (dim, keepdim), got %d", name, len(args))
	}
	if len(args) > 0 {
		dim = args[0]
	}
	if len(args) > 1 {
		b, ok := args[1].(starlark.Bool)
		if !ok {
			return 0, false, fmt.Errorf("%s: keepdim must be True or False, got %s", name, args[1].Type())
		}
		keep = bool(b)
	}
	for _, kv := range kwargs {
		k, _ := starlark.AsString(kv[0])
		switch k {
		case "dim", "axis":
			dim = kv[1]
		case "keepdim", "keepdims":
			b, ok := kv[1].(starlark.Bool)
			if !ok {
				return 0, false, fmt.Errorf("%s: %s must be True or False, got %s", name, k, kv[1].Type())
			}
			keep = bool(b)
		default:
			return 0, false, fmt.Errorf("%s: unexpected keyword argument %s (dim and keepdim)", name, k)
		}
	}
	if dim == starlark.None {
		return tensor.AllAxes, keep, nil
	}
	d, err := starlark.AsInt32(dim)
	if err != nil {
		return 0, false, fmt.Errorf("%s: dim must be a whole number, got %s", name, dim.Type())
	}
	return d, keep, nil
}

// shapeArgs reads a shape given as numbers (zeros(2, 3)) or as one tuple
// or list (zeros((2, 3))).
func shapeArgs(name string, args starlark.Tuple, kwargs []starlark.Tuple) ([]int, error) {
	if len(kwargs) > 0 {
		return nil, fmt.Errorf("%s: unexpected keyword argument %s", name, kwargs[0][0])
	}
	items := []starlark.Value(args)
	if len(args) == 1 {
		if it, ok := args[0].(starlark.Indexable); ok {
			items = nil
			for i := range it.Len() {
				items = append(items, it.Index(i))
			}
		}
	}
	shape := make([]int, len(items))
	for i, v := range items {
		n, err := starlark.AsInt32(v)
		if err != nil {
			return nil, fmt.Errorf("%s: a shape is whole numbers, got %s", name, v.Type())
		}
		shape[i] = n
	}
	return shape, nil
}
