package notebook

// This file is the cell language's tensors: the Starlark face of package
// tensor, with PyTorch's names (torch.zeros, t.sum(1, keepdim=True),
// t.grad, t.retain_grad(), F.cross_entropy) so that a learner's habits
// carry over. Starlark has no @ and no **: a.matmul(b) and t.pow(k).

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"unsafe"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"gradbook/internal/words"
	"gradbook/notebook/kernel"
	"gradbook/notebook/values"
	"gradbook/tensor"
)

// Tensor is a cell's tensor. Like a Value it stays changeable after the
// cell that made it ends (a training step sets p.data, backward sets
// p.grad), and a kept state records its numbers and gradient.
type Tensor struct {
	t *tensor.Tensor
	p *torchPart // the chain of cells that made it
}

var (
	_ starlark.HasBinary   = (*Tensor)(nil)
	_ starlark.HasUnary    = (*Tensor)(nil)
	_ starlark.HasAttrs    = (*Tensor)(nil)
	_ starlark.HasSetField = (*Tensor)(nil)
	_ starlark.Mapping     = (*Tensor)(nil)
	_ starlark.HasSetKey   = (*Tensor)(nil)
	_ starlark.Sliceable   = (*Tensor)(nil)
	_ starlark.Iterable    = (*Tensor)(nil)
	_ kernel.Changeable    = (*Tensor)(nil)
)

// KeptBy returns the part of the chain of cells that made the tensor,
// which records its numbers and gradient in a kept state.
func (x *Tensor) KeptBy() kernel.Part { return x.p }

// tensorYieldEvery is how many tensors a run makes between yields to the
// Go scheduler, for the collector's sake in WebAssembly (see made).
const tensorYieldEvery = 64

// wrap makes a cell's tensor of t, of the chain of cells p (nil outside
// a run).
func (p *torchPart) wrap(t *tensor.Tensor) *Tensor {
	if p == nil {
		return &Tensor{t: t}
	}
	if p.made++; p.made%tensorYieldEvery == 0 {
		runtime.Gosched()
	}
	return &Tensor{t: t, p: p}
}

// wrapErr wraps what an op returned.
func (x *Tensor) wrapErr(t *tensor.Tensor, err error) (starlark.Value, error) {
	if err != nil {
		return nil, err
	}
	return x.p.wrap(t), nil
}

// String prints the tensor as PyTorch does, nested lists of numbers, or
// its shape when it is large.
func (x *Tensor) String() string {
	var b strings.Builder
	b.WriteString("tensor(")
	if x.t.Size() > 200 {
		b.WriteString("shape=" + tensor.ShapeString(x.t.Shape()))
	} else {
		writeNested(&b, x.t.Shape(), x.t.Data())
	}
	if x.t.RequiresGrad() {
		b.WriteString(", requires_grad=True")
	}
	b.WriteString(")")
	return b.String()
}

// writeNested writes data of shape as nested lists, each number as
// words.Number writes it.
func writeNested(b *strings.Builder, shape []int, data []float64) {
	if len(shape) == 0 {
		b.WriteString(words.Number(data[0]))
		return
	}
	b.WriteByte('[')
	step := len(data) / max(shape[0], 1)
	for i := range shape[0] {
		if i > 0 {
			b.WriteString(", ")
		}
		writeNested(b, shape[1:], data[i*step:(i+1)*step])
	}
	b.WriteByte(']')
}

// Type returns "Tensor".
func (x *Tensor) Type() string { return "Tensor" }

// Freeze does nothing: see the type's doc.
func (x *Tensor) Freeze() {}

// Truth is true unless the tensor is one element that is 0.
func (x *Tensor) Truth() starlark.Bool {
	return !(x.t.Size() == 1 && x.t.Data()[0] == 0)
}

// Hash hashes a tensor by identity, as PyTorch does.
func (x *Tensor) Hash() (uint32, error) {
	p := uintptr(unsafe.Pointer(x.t))
	return uint32(p ^ p>>32), nil
}

// Len is the size of the first axis (0 for a scalar).
func (x *Tensor) Len() int {
	if x.t.NDim() == 0 {
		return 0
	}
	return x.t.Shape()[0]
}

// Iterate goes over the first axis: for row in X.
func (x *Tensor) Iterate() starlark.Iterator { return &tensorRows{x: x} }

type tensorRows struct {
	x *Tensor
	i int
}

func (it *tensorRows) Next(p *starlark.Value) bool {
	if it.i >= it.x.Len() {
		return false
	}
	r, err := it.x.t.Index(tensor.At(it.i))
	if err != nil {
		return false
	}
	*p = it.x.p.wrap(r)
	it.i++
	return true
}

func (it *tensorRows) Done() {}

// Unary implements -t.
func (x *Tensor) Unary(op syntax.Token) (starlark.Value, error) {
	switch op {
	case syntax.MINUS:
		return x.p.wrap(x.t.Neg()), nil
	case syntax.PLUS:
		return x, nil
	}
	return nil, nil
}

// Binary implements + - * / between tensors, and with a number on either
// side, broadcasting NumPy's way.
func (x *Tensor) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	var u *tensor.Tensor
	switch y := y.(type) {
	case *Tensor:
		u = y.t
	case starlark.Int, starlark.Float:
		f, _ := starlark.AsFloat(y)
		u = tensor.Scalar(f)
	case *values.Value:
		return nil, fmt.Errorf("%s between a Tensor and a Value: a tensor's elements are not Values (use v.value for the number, or make the Value's part a tensor)", op)
	default:
		return nil, nil
	}
	a, b := x.t, u
	if side == starlark.Right {
		a, b = u, x.t
	}
	switch op {
	case syntax.PLUS:
		return x.wrapErr(a.Add(b))
	case syntax.MINUS:
		return x.wrapErr(a.Sub(b))
	case syntax.STAR:
		return x.wrapErr(a.Mul(b))
	case syntax.SLASH:
		return x.wrapErr(a.Div(b))
	}
	return nil, nil
}

var tensorAttrs = func() []string {
	attrs := []string{"T", "data", "grad", "ndim", "requires_grad", "shape"}
	for name := range tensorMethods {
		attrs = append(attrs, name)
	}
	sort.Strings(attrs)
	return attrs
}()

// AttrNames lists a tensor's attributes and methods.
func (x *Tensor) AttrNames() []string { return tensorAttrs }

// Attr returns an attribute or a method.
func (x *Tensor) Attr(name string) (starlark.Value, error) {
	switch name {
	case "shape":
		return shapeTuple(x.t.Shape()), nil
	case "ndim":
		return starlark.MakeInt(x.t.NDim()), nil
	case "T":
		return x.p.wrap(x.t.T()), nil
	case "data":
		return x.p.wrap(x.t.Detach()), nil
	case "grad":
		if x.t.Grad == nil {
			return starlark.None, nil
		}
		return x.p.wrap(x.t.Grad), nil
	case "requires_grad":
		return starlark.Bool(x.t.RequiresGrad()), nil
	}
	if m := tensorMethods[name]; m != nil {
		return m.BindReceiver(x), nil
	}
	return nil, nil
}

func shapeTuple(shape []int) starlark.Tuple {
	t := make(starlark.Tuple, len(shape))
	for i, d := range shape {
		t[i] = starlark.MakeInt(d)
	}
	return t
}

// SetField sets .data (copied into the tensor's own numbers, as
// p.data += -lr * p.grad does), .grad (None, or a tensor of its shape) and
// .requires_grad.
func (x *Tensor) SetField(name string, v starlark.Value) error {
	switch name {
	case "data":
		u, err := asTensor("data", v)
		if err != nil {
			return err
		}
		if !slices.Equal(u.Shape(), x.t.Shape()) {
			if u.Size() != 1 {
				return fmt.Errorf(".data of a tensor of shape %s set to one of shape %s: the shapes must be the same", tensor.ShapeString(x.t.Shape()), tensor.ShapeString(u.Shape()))
			}
			for i := range x.t.Data() {
				x.t.Data()[i] = u.Data()[0]
			}
			return nil
		}
		copy(x.t.Data(), u.Data())
		return nil
	case "grad":
		if v == starlark.None {
			x.t.Grad = nil
			return nil
		}
		u, err := asTensor("grad", v)
		if err != nil {
			return err
		}
		if !slices.Equal(u.Shape(), x.t.Shape()) {
			return fmt.Errorf(".grad of a tensor of shape %s set to one of shape %s: a gradient has its tensor's shape", tensor.ShapeString(x.t.Shape()), tensor.ShapeString(u.Shape()))
		}
		g, _ := tensor.New(u.Data(), u.Shape()...)
		x.t.Grad = g
		return nil
	case "requires_grad":
		on, ok := v.(starlark.Bool)
		if !ok {
			return fmt.Errorf(".requires_grad must be set to True or False, got %s", v.Type())
		}
		if !x.t.IsLeaf() {
			return fmt.Errorf(".requires_grad can be set only on a tensor made from data, not on one made by an op (%s): use .detach() to cut it from its graph", x.t.Op())
		}
		x.t.SetRequiresGrad(bool(on))
		return nil
	case "label":
		s, ok := starlark.AsString(v)
		if !ok {
			return fmt.Errorf("label must be a string, got %s", v.Type())
		}
		x.t.Label = kernel.ClipLabel(s)
		return nil
	}
	return starlark.NoSuchAttrError(fmt.Sprintf("Tensor has no settable field .%s (.data, .grad, .requires_grad and .label can be set)", name))
}

// Get implements t[i], t[i, j], t[idx] (integer-array indexing: C[Xb]) and
// t[range(n), Yb].
func (x *Tensor) Get(k starlark.Value) (starlark.Value, bool, error) {
	r, err := index(x.t, k)
	if err != nil {
		return nil, false, err
	}
	return x.p.wrap(r), true, nil
}

// Slice implements t[a:b:c] along the first axis.
func (x *Tensor) Slice(start, end, step int) starlark.Value {
	r, err := x.t.Index(tensor.SliceStep(start, end, step))
	if err != nil {
		return starlark.None // Starlark has clipped start and end to the axis
	}
	return x.p.wrap(r)
}

// Index is t[i] for Starlark's own use of a sequence.
func (x *Tensor) Index(i int) starlark.Value {
	r, _ := x.t.Index(tensor.At(i))
	return x.p.wrap(r)
}

// index resolves a cell's subscript of t.
func index(t *tensor.Tensor, k starlark.Value) (*tensor.Tensor, error) {
	keys := starlark.Tuple{k}
	if tup, ok := k.(starlark.Tuple); ok {
		keys = tup
	}
	basic := true
	for _, k := range keys {
		if _, ok := wholeNumber(k); !ok {
			basic = false
		}
	}
	if basic {
		ix := make([]tensor.Index, len(keys))
		for i, k := range keys {
			n, _ := wholeNumber(k)
			ix[i] = tensor.At(n)
		}
		return t.Index(ix...)
	}
	idx := make([]*tensor.Tensor, len(keys))
	var shape []int
	for i, k := range keys {
		u, err := indexTensor(k)
		if err != nil {
			return nil, fmt.Errorf("index %d of %d: %w", i+1, len(keys), err)
		}
		idx[i] = u
		if u.NDim() > 0 && shape == nil {
			shape = u.Shape()
		}
	}
	for i, u := range idx { // a number beside index arrays picks the same for each
		if u.NDim() == 0 && shape != nil {
			f, _ := tensor.Full(u.Data()[0], shape...)
			idx[i] = f
		}
	}
	return t.Take(idx...)
}

// wholeNumber reads an int, or a one-element tensor holding a whole
// number, as an index.
func wholeNumber(k starlark.Value) (int, bool) {
	switch k := k.(type) {
	case starlark.Int:
		n, ok := k.Int64()
		return int(n), ok
	case *Tensor:
		if k.t.NDim() == 0 {
			f := k.t.Data()[0]
			if f == float64(int(f)) {
				return int(f), true
			}
		}
	}
	return 0, false
}

// indexTensor makes an index tensor of a list, a range, a tensor or a
// number.
func indexTensor(k starlark.Value) (*tensor.Tensor, error) {
	switch k := k.(type) {
	case *Tensor:
		return k.t, nil
	case starlark.Int:
		n, _ := k.Int64()
		return tensor.Scalar(float64(n)), nil
	case starlark.Iterable:
		return asTensor("index", k)
	}
	return nil, fmt.Errorf("a %s cannot index a tensor: use whole numbers, lists or ranges of them, or tensors of them (slices only alone: t[1:3])", k.Type())
}

// SetKey implements t[k] = v and t[k] += v: the elements t[k] picks are set
// to v, broadcast to their shape. A tensor that requires a gradient is
// not changed in place: its graph would no longer say how it was made.
func (x *Tensor) SetKey(k, v starlark.Value) error {
	if x.t.RequiresGrad() {
		return fmt.Errorf("cannot assign into a tensor that requires a gradient: autograd needs it as it is (work on a copy: t.detach() * 1, or zeros_like(t))")
	}
	// The positions t[k] picks, by indexing a tensor of positions.
	pos, err := tensor.Arange(0, float64(x.t.Size()), 1)
	if err != nil {
		return err
	}
	if pos, err = pos.Reshape(x.t.Shape()...); err != nil {
		return err
	}
	if pos, err = index(pos, k); err != nil {
		return err
	}
	u, err := asTensor("setitem", v)
	if err != nil {
		return err
	}
	w, err := tensor.ZerosLike(pos).Add(u)
	if err != nil {
		return fmt.Errorf("t[…] = v: the value's shape %s does not fit the %s elements picked: %w", tensor.ShapeString(u.Shape()), tensor.ShapeString(pos.Shape()), err)
	}
	if !slices.Equal(w.Shape(), pos.Shape()) {
		return fmt.Errorf("t[…] = v: the value's shape %s does not fit the %s elements picked", tensor.ShapeString(u.Shape()), tensor.ShapeString(pos.Shape()))
	}
	data := x.t.Data()
	for i, p := range pos.Data() {
		data[int(p)] = w.Data()[i]
	}
	return nil
}

// asTensor makes a tensor of a cell's value: a tensor itself, a number,
// or nested lists (or tuples, or ranges) of numbers.
func asTensor(what string, v starlark.Value) (*tensor.Tensor, error) {
	switch v := v.(type) {
	case *Tensor:
		return v.t, nil
	case starlark.Int, starlark.Float:
		f, _ := starlark.AsFloat(v)
		return tensor.Scalar(f), nil
	}
	n, err := nested(what, v, 0)
	if err != nil {
		return nil, err
	}
	return tensor.FromNested(n)
}

// nested turns nested lists of numbers into the []any of []float64 that
// tensor.FromNested reads.
func nested(what string, v starlark.Value, depth int) (any, error) {
	if depth > 32 {
		return nil, fmt.Errorf("%s: lists nested more than 32 deep", what)
	}
	switch v := v.(type) {
	case starlark.Int, starlark.Float:
		f, _ := starlark.AsFloat(v)
		return f, nil
	case *Tensor:
		return nil, fmt.Errorf("%s: a list of tensors; use torch.cat or torch.stack-free code: build the list of numbers (t.tolist())", what)
	case *values.Value:
		return nil, fmt.Errorf("%s: a Value in the list; a tensor holds numbers (v.value), not Values", what)
	case starlark.Iterable:
		var items []starlark.Value
		it := v.Iterate()
		var y starlark.Value
		for it.Next(&y) {
			items = append(items, y)
			if len(items) > tensor.MaxSize {
				break
			}
		}
		it.Done()
		numbers := true
		for _, y := range items {
			if _, ok := y.(starlark.Int); !ok {
				if _, ok := y.(starlark.Float); !ok {
					numbers = false
					break
				}
			}
		}
		if numbers {
			fs := make([]float64, len(items))
			for i, y := range items {
				fs[i], _ = starlark.AsFloat(y)
			}
			return fs, nil
		}
		out := make([]any, len(items))
		for i, y := range items {
			n, err := nested(what, y, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s: want numbers or lists of them, got %s", what, v.Type())
}

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

func toList(shape []int, data []float64) starlark.Value {
	if len(shape) == 0 {
		return starlark.Float(data[0])
	}
	out := make([]starlark.Value, shape[0])
	step := len(data) / max(shape[0], 1)
	for i := range out {
		out[i] = toList(shape[1:], data[i*step:(i+1)*step])
	}
	return starlark.NewList(out)
}

// maxResult is what t.max(dim) returns, as PyTorch's: .values and
// .indices, or unpacked, values, indices = t.max(1).
func maxResult(values, indices *Tensor) starlark.Value {
	return &maxPair{values, indices}
}

type maxPair struct{ values, indices *Tensor }

var (
	_ starlark.Sequence = (*maxPair)(nil)
	_ starlark.HasAttrs = (*maxPair)(nil)
	_ kernel.Changeable = (*maxPair)(nil)
)

// KeptBy returns the part that keeps the numbers of its tensors.
func (m *maxPair) KeptBy() kernel.Part { return m.values.p }

func (m *maxPair) String() string {
	return "torch.return_types.max(values=" + m.values.String() + ", indices=" + m.indices.String() + ")"
}
func (m *maxPair) Type() string          { return "max" }
func (m *maxPair) Freeze()               {}
func (m *maxPair) Truth() starlark.Bool  { return true }
func (m *maxPair) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: max") }
func (m *maxPair) Len() int              { return 2 }
func (m *maxPair) Index(i int) starlark.Value {
	if i == 0 {
		return m.values
	}
	return m.indices
}
func (m *maxPair) Iterate() starlark.Iterator {
	return starlark.Tuple{m.values, m.indices}.Iterate()
}
func (m *maxPair) AttrNames() []string { return []string{"indices", "values"} }
func (m *maxPair) Attr(name string) (starlark.Value, error) {
	switch name {
	case "values":
		return m.values, nil
	case "indices":
		return m.indices, nil
	}
	return nil, nil
}

// tensorOf reads a tensor argument.
func tensorOf(name string, v starlark.Value) (*tensor.Tensor, error) {
	t, ok := v.(*Tensor)
	if !ok {
		return nil, fmt.Errorf("%s: want a Tensor, got %s", name, v.Type())
	}
	return t.t, nil
}

// torchModule is the cell language's torch: making tensors, and the
// functions PyTorch has outside its tensors.
var torchModule = &starlarkstruct.Module{Name: "torch", Members: starlark.StringDict{
	"tensor":        starlark.NewBuiltin("torch.tensor", torchTensor),
	"zeros":         starlark.NewBuiltin("torch.zeros", torchFill),
	"ones":          starlark.NewBuiltin("torch.ones", torchFill),
	"randn":         starlark.NewBuiltin("torch.randn", torchFill),
	"rand":          starlark.NewBuiltin("torch.rand", torchFill),
	"zeros_like":    starlark.NewBuiltin("torch.zeros_like", torchLike),
	"ones_like":     starlark.NewBuiltin("torch.ones_like", torchLike),
	"randint":       starlark.NewBuiltin("torch.randint", torchRandint),
	"arange":        starlark.NewBuiltin("torch.arange", torchArange),
	"cat":           starlark.NewBuiltin("torch.cat", torchCat),
	"matmul":        starlark.NewBuiltin("torch.matmul", torchMatmul),
	"manual_seed":   starlark.NewBuiltin("torch.manual_seed", torchSeed),
	"multinomial":   starlark.NewBuiltin("torch.multinomial", torchMultinomial),
	"one_hot":       starlark.NewBuiltin("torch.one_hot", torchOneHot),
	"cross_entropy": starlark.NewBuiltin("torch.cross_entropy", torchCrossEntropy),
}}

// functionalModule is F, torch.nn.functional's two functions here.
var functionalModule = &starlarkstruct.Module{Name: "F", Members: starlark.StringDict{
	"one_hot":       starlark.NewBuiltin("F.one_hot", torchOneHot),
	"cross_entropy": starlark.NewBuiltin("F.cross_entropy", torchCrossEntropy),
}}

// made wraps a new tensor of a torch function, marked as a parameter
// when requires_grad=True was given.
func madeTensor(thread *starlark.Thread, t *tensor.Tensor, err error, grad bool) (starlark.Value, error) {
	if err != nil {
		return nil, err
	}
	t.SetRequiresGrad(grad)
	return kernel.PartOf[*torchPart](thread).wrap(t), nil
}

// splitGrad takes requires_grad out of kwargs.
func splitGrad(name string, kwargs []starlark.Tuple) ([]starlark.Tuple, bool, error) {
	var rest []starlark.Tuple
	grad := false
	for _, kv := range kwargs {
		if k, _ := starlark.AsString(kv[0]); k == "requires_grad" {
			b, ok := kv[1].(starlark.Bool)
			if !ok {
				return nil, false, fmt.Errorf("%s: requires_grad must be True or False, got %s", name, kv[1].Type())
			}
			grad = bool(b)
			continue
		}
		rest = append(rest, kv)
	}
	return rest, grad, nil
}

func torchTensor(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	kwargs, grad, err := splitGrad(b.Name(), kwargs)
	if err != nil {
		return nil, err
	}
	var data starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &data); err != nil {
		return nil, err
	}
	t, err := asTensor(b.Name(), data)
	if err != nil {
		return nil, err
	}
	if x, ok := data.(*Tensor); ok {
		t, _ = tensor.New(x.t.Data(), x.t.Shape()...)
	}
	return madeTensor(thread, t, nil, grad)
}

// generatorOf returns the run's generator of random tensors, seeded with
// 0 at every run's start until torch.manual_seed.
func generatorOf(thread *starlark.Thread, name string) (*tensor.Generator, error) {
	p := kernel.PartOf[*torchPart](thread)
	if p == nil {
		return nil, fmt.Errorf("%s: random tensors are drawn in a cell's run", name)
	}
	if p.trng == nil {
		p.trng = tensor.NewGenerator(0)
	}
	return p.trng, nil
}

func torchSeed(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var n int64
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &n); err != nil {
		return nil, err
	}
	p := kernel.PartOf[*torchPart](thread)
	if p == nil {
		return nil, fmt.Errorf("%s: only in a cell's run", b.Name())
	}
	p.trng = tensor.NewGenerator(uint64(n))
	return starlark.None, nil
}

func torchFill(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	kwargs, grad, err := splitGrad(b.Name(), kwargs)
	if err != nil {
		return nil, err
	}
	shape, err := shapeArgs(b.Name(), args, kwargs)
	if err != nil {
		return nil, err
	}
	var t *tensor.Tensor
	switch b.Name() {
	case "torch.zeros":
		t, err = tensor.Zeros(shape...)
	case "torch.ones":
		t, err = tensor.Ones(shape...)
	default:
		g, gerr := generatorOf(thread, b.Name())
		if gerr != nil {
			return nil, gerr
		}
		if b.Name() == "torch.randn" {
			t, err = g.Randn(shape...)
		} else {
			t, err = g.Rand(shape...)
		}
	}
	return madeTensor(thread, t, err, grad)
}

func torchLike(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	kwargs, grad, err := splitGrad(b.Name(), kwargs)
	if err != nil {
		return nil, err
	}
	var x *Tensor
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	t := tensor.ZerosLike(x.t)
	if b.Name() == "torch.ones_like" {
		t = tensor.OnesLike(x.t)
	}
	return madeTensor(thread, t, nil, grad)
}

func torchRandint(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var low, high int
	var size starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "low", &low, "high", &high, "size", &size); err != nil {
		return nil, err
	}
	shape, err := shapeArgs(b.Name(), starlark.Tuple{size}, nil)
	if err != nil {
		return nil, err
	}
	g, err := generatorOf(thread, b.Name())
	if err != nil {
		return nil, err
	}
	t, err := g.RandInt(low, high, shape...)
	return madeTensor(thread, t, err, false)
}

func torchArange(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var a, c starlark.Value
	stop := starlark.Value(nil)
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &a, &stop, &c); err != nil {
		return nil, err
	}
	f := func(v starlark.Value) (float64, error) {
		x, ok := values.AsFloat(v)
		if !ok {
			return 0, fmt.Errorf("%s: want numbers, got %s", b.Name(), v.Type())
		}
		return x, nil
	}
	start, end, step := 0.0, 0.0, 1.0
	var err error
	if stop == nil {
		if end, err = f(a); err != nil {
			return nil, err
		}
	} else {
		if start, err = f(a); err != nil {
			return nil, err
		}
		if end, err = f(stop); err != nil {
			return nil, err
		}
		if c != nil {
			if step, err = f(c); err != nil {
				return nil, err
			}
		}
	}
	t, err := tensor.Arange(start, end, step)
	return madeTensor(thread, t, err, false)
}

func torchCat(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var list starlark.Iterable
	dim := 0
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "tensors", &list, "dim?", &dim); err != nil {
		return nil, err
	}
	var ts []*tensor.Tensor
	it := list.Iterate()
	defer it.Done()
	var v starlark.Value
	for it.Next(&v) {
		t, err := tensorOf(b.Name(), v)
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
	}
	t, err := tensor.Cat(dim, ts...)
	if err != nil {
		return nil, err
	}
	return kernel.PartOf[*torchPart](thread).wrap(t), nil
}

func torchMatmul(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x, y *Tensor
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 2, &x, &y); err != nil {
		return nil, err
	}
	return x.wrapErr(x.t.Matmul(y.t))
}

// torchMultinomial draws one index per row of probabilities (weights),
// as torch.multinomial(probs, num_samples=1): the next token.
func torchMultinomial(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var p *Tensor
	samples := 1
	replacement := true
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "input", &p, "num_samples?", &samples, "replacement?", &replacement); err != nil {
		return nil, err
	}
	if samples < 1 || samples > 1<<16 {
		return nil, fmt.Errorf("%s: num_samples must be from 1 to 65,536, got %d", b.Name(), samples)
	}
	shape := p.t.Shape()
	if len(shape) != 1 && len(shape) != 2 {
		return nil, fmt.Errorf("%s: want a row of probabilities, or rows of them, got shape %s", b.Name(), tensor.ShapeString(shape))
	}
	g, err := generatorOf(thread, b.Name())
	if err != nil {
		return nil, err
	}
	rows, cols := 1, shape[len(shape)-1]
	if len(shape) == 2 {
		rows = shape[0]
	}
	out := make([]float64, 0, rows*samples)
	for r := range rows {
		w := p.t.Data()[r*cols : (r+1)*cols]
		if !replacement {
			w = slices.Clone(w) // each category drawn is taken out of the row
		}
		for k := range samples {
			i, err := g.Choice(w)
			if err != nil && k > 0 {
				// The weights were good for the first draw: what is left
				// adds up to 0.
				return nil, fmt.Errorf("%s: row %d has only %d categories to draw without replacement", b.Name(), r, k)
			}
			if err != nil {
				return nil, err
			}
			out = append(out, float64(i))
			if !replacement {
				w[i] = 0
			}
		}
	}
	oshape := []int{samples}
	if len(shape) == 2 {
		oshape = []int{rows, samples}
	}
	t, err := tensor.New(out, oshape...)
	return madeTensor(thread, t, err, false)
}

func torchOneHot(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x *Tensor
	classes := 0
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "tensor", &x, "num_classes", &classes); err != nil {
		return nil, err
	}
	t, err := tensor.OneHot(x.t, classes)
	return madeTensor(thread, t, err, false)
}

func torchCrossEntropy(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var logits, targets *Tensor
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 2, &logits, &targets); err != nil {
		return nil, err
	}
	return logits.wrapErr(tensor.CrossEntropy(logits.t, targets.t))
}

// cmpBuiltin is cmp(name, mine, t) of "Becoming a backprop ninja": it
// compares a gradient worked out by hand with the one autograd left in
// t.grad, prints whether they are exactly equal, close (as
// torch.allclose), and their largest difference, and returns whether they
// are close. A wrong shape says which of the usual mistakes it looks like.
func cmpBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name string
	var mine, t *Tensor
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 3, &name, &mine, &t); err != nil {
		return nil, err
	}
	run := kernel.RunOf(thread)
	cell, _, line := run.Caller(thread)
	name = kernel.Clip(name)
	if t.t.Grad == nil {
		who := nameOfTensor(run.Globals(), t.t)
		if who == "" {
			who = "it"
		}
		if t.t.IsLeaf() {
			return nil, fmt.Errorf("cmp: %s has no gradient to compare with yet: run loss.backward() first (and make %s with requires_grad=True)", who, who)
		}
		return nil, fmt.Errorf("cmp: %s has no gradient to compare with: call %s.retain_grad() before loss.backward() (autograd keeps an intermediate's gradient only when asked)", who, who)
	}
	r := kernel.CheckResult{Label: name, Line: line}
	exact, approx, diff, err := tensor.Compare(mine.t, t.t.Grad)
	if errors.Is(err, tensor.ErrShape) {
		r.Text = fmt.Sprintf("✗ %-15s | shape %s, but the gradient has its tensor's shape %s%s", name, tensor.ShapeString(mine.t.Shape()), tensor.ShapeString(t.t.Shape()), shapeMistake(mine.t.Shape(), t.t.Shape()))
	} else if err != nil {
		return nil, err
	} else {
		r.Passed = approx
		mark := "✓"
		if !approx {
			mark = "✗"
		}
		r.Text = fmt.Sprintf("%s %-15s | exact: %-5s | approximate: %-5s | maxdiff: %s", mark, name, pyBool(exact), pyBool(approx), words.Number(diff))
	}
	r.Text = kernel.CapMessage(r.Text)
	run.Check(cell, r)
	return starlark.Bool(r.Passed), nil
}

// nameOfTensor returns the name of a global that holds t, or "".
func nameOfTensor(globals starlark.StringDict, t *tensor.Tensor) string {
	for _, name := range globals.Keys() {
		if x, ok := globals[name].(*Tensor); ok && x.t == t {
			return name
		}
	}
	return ""
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// shapeMistake names the usual mistake a gradient of shape got, where the
// tensor's is want, looks like.
func shapeMistake(got, want []int) string {
	if len(got) == 2 && len(want) == 2 && got[0] == want[1] && got[1] == want[0] {
		return ": transposed — is a .T on the wrong side of the matmul?"
	}
	n, m := 1, 1
	for _, d := range got {
		n *= d
	}
	for _, d := range want {
		m *= d
	}
	if n > m {
		return ": larger — the tensor was broadcast in the forward pass, so its gradient sums over the dimensions it was stretched along (.sum(0), with keepdim=True where it kept a 1)"
	}
	if n < m {
		return ": smaller — a sum too many, or keepdim left out?"
	}
	return ": the same elements in another shape — .view it to the tensor's shape"
}

// tensorCount is the number of elements a drawing of a tensor computation
// expands to, roughly: a matmul's every product and sum.
func tensorCount(t *tensor.Tensor) int {
	n := 0
	for _, u := range tensor.Topo(t) {
		in := u.Inputs()
		switch {
		case u.Op() == "matmul":
			k := in[0].Shape()[in[0].NDim()-1]
			n += 2 * u.Size() * k
		case len(in) > 0:
			for _, x := range in {
				n += x.Size()
			}
			n += u.Size()
		default:
			n += u.Size()
		}
		if n > 1<<20 {
			break
		}
	}
	return n
}

// maxShownScalars is the largest tensor computation show expands into
// scalar Values.
const maxShownScalars = 2000

// showTensor draws a one-element tensor's computation as the graph of
// scalar Values it stands for, each leaf element named after its
// tensor's variable ("W[0,1]").
func showTensor(thread *starlark.Thread, cell int, t *tensor.Tensor) error {
	if t.Size() != 1 {
		return fmt.Errorf("show: a tensor of shape %s; show draws the computation of one number, such as a loss (show(t.sum()))", tensor.ShapeString(t.Shape()))
	}
	if n := tensorCount(t); n > maxShownScalars {
		return fmt.Errorf("show: this computation stands for about %s scalar operations, more than the %s a drawing shows: draw it on smaller tensors (a 2×3 case)", words.Int(n), words.Int(maxShownScalars))
	}
	// Name the tensors after the variables that hold them.
	run := kernel.RunOf(thread)
	globals := run.Globals()
	for _, name := range globals.Keys() {
		if x, ok := globals[name].(*Tensor); ok && x.t.Label == "" {
			x.t.Label = name
		}
	}
	m := tensor.Scalars(t)
	root := m[t][0]
	if name := nameOfTensor(globals, t); name != "" && root.Label == "" {
		root.Label = name
	}
	run.Show(cell, values.Graph(thread, root))
	return nil
}
