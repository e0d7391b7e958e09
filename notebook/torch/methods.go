package torch

// This file is a tensor's methods: t.sum(1, keepdim=True), t.backward(),
// t.matmul(u), ….

import (
	"fmt"
	"math"
	"strings"

	"go.starlark.net/starlark"

	"gradbook/internal/words"
	"gradbook/notebook/values"
	"gradbook/tensor"
)

// tensorMethods are a tensor's methods, bound to it when a cell reads one.
var tensorMethods = func() map[string]*starlark.Builtin {
	m := map[string]*starlark.Builtin{}
	for _, name := range []string{"backward", "retain_grad", "item", "tolist", "numel", "size", "sum", "mean", "max",
		"exp", "log", "tanh", "relu", "sigmoid", "pow", "matmul", "view", "reshape", "detach", "clone", "float", "zero_"} {
		m[name] = starlark.NewBuiltin(name, tensorMethod)
	}
	return m
}()

func tensorMethod(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	x := b.Receiver().(*Tensor)
	t := x.t
	name := b.Name()
	noArgs := func() error { return starlark.UnpackPositionalArgs(name, args, kwargs, 0) }
	switch name {
	case "backward":
		var grad starlark.Value = starlark.None
		if err := starlark.UnpackArgs(name, args, kwargs, "gradient?", &grad); err != nil {
			return nil, err
		}
		if grad == starlark.None {
			return starlark.None, t.Backward()
		}
		g, err := asTensor("backward", grad)
		if err != nil {
			return nil, err
		}
		return starlark.None, t.BackwardWith(g, 0)
	case "retain_grad":
		if err := noArgs(); err != nil {
			return nil, err
		}
		t.RetainGrad()
		return starlark.None, nil
	case "item":
		if err := noArgs(); err != nil {
			return nil, err
		}
		f, err := t.Item()
		return starlark.Float(f), err
	case "tolist":
		if err := noArgs(); err != nil {
			return nil, err
		}
		return toList(t.Shape(), t.Data()), nil
	case "numel":
		if err := noArgs(); err != nil {
			return nil, err
		}
		return starlark.MakeInt(t.Size()), nil
	case "size":
		var dim starlark.Value = starlark.None
		if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0, &dim); err != nil {
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
	case "sum", "mean", "max":
		axis, keep, err := reductionArgs(name, args, kwargs)
		if err != nil {
			return nil, err
		}
		switch name {
		case "sum":
			return x.wrapErr(t.Sum(axis, keep))
		case "mean":
			return x.wrapErr(t.Mean(axis, keep))
		}
		values, indices, err := t.Max(axis, keep)
		if err != nil {
			return nil, err
		}
		if axis == tensor.AllAxes {
			return x.p.wrap(values), nil
		}
		return maxResult(x.p.wrap(values), x.p.wrap(indices)), nil
	case "exp", "log", "tanh", "relu", "sigmoid", "detach", "clone", "float":
		if err := noArgs(); err != nil {
			return nil, err
		}
		switch name {
		case "exp":
			return x.p.wrap(t.Exp()), nil
		case "log":
			for i, v := range t.Data() {
				if v <= 0 {
					return nil, fmt.Errorf("log of a tensor with %s at %s: log needs positive numbers", words.Number(v), elementAt(t.Shape(), i))
				}
			}
			return x.p.wrap(t.Log()), nil
		case "tanh":
			return x.p.wrap(t.Tanh()), nil
		case "relu":
			return x.p.wrap(t.Relu()), nil
		case "sigmoid":
			return x.p.wrap(t.Sigmoid()), nil
		case "detach":
			return x.p.wrap(t.Detach()), nil
		case "clone":
			c, _ := tensor.New(t.Data(), t.Shape()...)
			return x.p.wrap(c), nil
		}
		return x, nil // float: every tensor holds float64s
	case "zero_":
		if err := noArgs(); err != nil {
			return nil, err
		}
		if t.RequiresGrad() {
			return nil, fmt.Errorf("zero_: the tensor requires a gradient; set its gradient to None with p.grad = None")
		}
		clear(t.Data())
		return x, nil
	case "pow":
		var kv starlark.Value
		if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &kv); err != nil {
			return nil, err
		}
		k, ok := values.AsFloat(kv)
		if !ok || math.IsNaN(k) || math.IsInf(k, 0) {
			return nil, fmt.Errorf("pow: the exponent must be a finite number, got %s", kv.String())
		}
		return x.p.wrap(t.Pow(k)), nil
	case "matmul":
		var u *Tensor
		if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &u); err != nil {
			return nil, err
		}
		return x.wrapErr(t.Matmul(u.t))
	case "view", "reshape":
		shape, err := shapeArgs(name, args, kwargs)
		if err != nil {
			return nil, err
		}
		return x.wrapErr(t.Reshape(shape...))
	}
	return nil, fmt.Errorf("%s: not a tensor method", name)
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
