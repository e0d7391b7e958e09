package torch

// This file is the Tensor type: its operators, attributes, indexing and
// printing.

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"unsafe"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"gradbook/internal/words"
	"gradbook/notebook/internal/attrs"
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
	_ kernel.Augmented     = (*Tensor)(nil)
	_ kernel.MatMul        = (*Tensor)(nil)
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

// MatMul implements x @ y, the matrix product of two tensors, as
// t.matmul(u) computes it.
func (x *Tensor) MatMul(thread *starlark.Thread, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	u, ok := y.(*Tensor)
	if !ok {
		a, b := "Tensor", y.Type()
		if side == starlark.Right {
			a, b = b, a
		}
		return nil, fmt.Errorf("@ between a %s and a %s: @ is a matrix product of two tensors (to scale a tensor by a number, *)", a, b)
	}
	a, b := x.t, u.t
	if side == starlark.Right {
		a, b = b, a
	}
	return x.wrapErr(budgetOf(thread).Matmul(a, b))
}

// tensorAttrs are a tensor's attributes and methods (methods.go): the one
// table that Attr, AttrNames and SetField read. .label can be set, for
// the drawings, not read.
var tensorAttrs = attrs.New([]attrs.Field[*Tensor]{
	{Name: "data", Get: func(x *Tensor) (starlark.Value, error) { return x.p.wrap(x.t.Detach()), nil }, Set: (*Tensor).setData},
	{Name: "grad", Get: func(x *Tensor) (starlark.Value, error) {
		if x.t.Grad == nil {
			return starlark.None, nil
		}
		return x.p.wrap(x.t.Grad), nil
	}, Set: (*Tensor).setGrad},
	{Name: "requires_grad", Get: func(x *Tensor) (starlark.Value, error) { return starlark.Bool(x.t.RequiresGrad()), nil }, Set: (*Tensor).setRequiresGrad},
	{Name: "label", Set: func(x *Tensor, v starlark.Value) error {
		s, ok := starlark.AsString(v)
		if !ok {
			return fmt.Errorf("label must be a string, got %s", v.Type())
		}
		x.t.Label = kernel.ClipLabel(s)
		return nil
	}},
	{Name: "T", Get: (*Tensor).transposed},
	{Name: "mT", Get: (*Tensor).matrixTransposed},
	{Name: "ndim", Get: func(x *Tensor) (starlark.Value, error) { return starlark.MakeInt(x.t.NDim()), nil }},
	{Name: "shape", Get: func(x *Tensor) (starlark.Value, error) { return shapeTuple(x.t.Shape()), nil }},
}, tensorMethods)

// AttrNames lists a tensor's attributes and methods.
func (x *Tensor) AttrNames() []string { return tensorAttrs.Names() }

// Attr returns an attribute or a method.
func (x *Tensor) Attr(name string) (starlark.Value, error) {
	if name == "numpy" {
		// Not Starlark's "did you mean .numel?": say what gives the numbers.
		return nil, fmt.Errorf("a tensor here has no .numpy(): x.tolist() gives its numbers as (nested) lists, x.item() the number of a one-element tensor")
	}
	return tensorAttrs.Attr(x, name)
}

// Augmented refuses W -= x (and +=, *=, /=) on a parameter, a leaf that
// requires grad: in Starlark it rebinds W to a new tensor computed from
// it, which backward no longer fills (W.grad stays None, training stops);
// PyTorch refuses it too ("a leaf Variable that requires grad is being
// used in an in-place operation").
func (x *Tensor) Augmented(name, op string) error {
	if !x.t.IsLeaf() || !x.t.RequiresGrad() {
		return nil
	}
	return fmt.Errorf("%s %s …: %s is a parameter (requires_grad=True), and here %s %s … makes %s a new tensor that backward never reaches: its .grad would stay None and training would stop (PyTorch refuses it too). Change its numbers in place, as a torch.no_grad() update does: %s.data %s …", name, op, name, name, op, name, name, op)
}

func shapeTuple(shape []int) starlark.Tuple {
	t := make(starlark.Tuple, len(shape))
	for i, d := range shape {
		t[i] = starlark.MakeInt(d)
	}
	return t
}

// SetField sets .data (copied into the tensor's own numbers, as
// p.data += -lr * p.grad does), .grad (None, or a tensor of its shape),
// .requires_grad and .label.
func (x *Tensor) SetField(name string, v starlark.Value) error {
	return tensorAttrs.SetField(x, name, v)
}

func (x *Tensor) setData(v starlark.Value) error {
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
}

func (x *Tensor) setGrad(v starlark.Value) error {
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
}

func (x *Tensor) setRequiresGrad(v starlark.Value) error {
	on, ok := v.(starlark.Bool)
	if !ok {
		return fmt.Errorf(".requires_grad must be set to True or False, got %s", v.Type())
	}
	if !x.t.IsLeaf() {
		return fmt.Errorf(".requires_grad can be set only on a tensor made from data, not on one made by an op (%s): use .detach() to cut it from its graph", x.t.Op())
	}
	x.t.SetRequiresGrad(bool(on))
	return nil
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
	for _, k := range keys {
		switch k.(type) {
		case kernel.Slice, kernel.Ellipsis, starlark.NoneType:
			return sliced(t, keys)
		}
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

// sliced is a subscript of t with a slice, an ellipsis or a None among
// its keys, x[:, -1], x[..., :3], x[:, None], as NumPy's basic indexing:
// a whole number picks one position of its axis and drops it, a slice
// keeps the positions it selects, ... stands for as many whole axes as
// the other keys leave, None adds an axis of size 1, and the axes after
// the keys are kept whole.
func sliced(t *tensor.Tensor, keys starlark.Tuple) (*tensor.Tensor, error) {
	axes, ellipsis := 0, -1 // the axes the keys index; where ... is
	for i, k := range keys {
		switch k.(type) {
		case kernel.Ellipsis:
			if ellipsis >= 0 {
				return nil, fmt.Errorf("index: only one ... in a subscript")
			}
			ellipsis = i
		case starlark.NoneType:
		default:
			axes++
		}
	}
	if axes > t.NDim() {
		return nil, fmt.Errorf("index: %d indices for a tensor of shape %s", axes, tensor.ShapeString(t.Shape()))
	}
	var ix []tensor.Index
	var kinds []byte // per key of the result's shape: 's' a slice's axis, 'n' a new one
	for i, k := range keys {
		switch k := k.(type) {
		case kernel.Ellipsis:
			for range t.NDim() - axes {
				ix = append(ix, tensor.All())
				kinds = append(kinds, 's')
			}
		case starlark.NoneType:
			kinds = append(kinds, 'n')
		case kernel.Slice:
			var b [3]int
			for j, v := range [3]starlark.Value{k.Start, k.Stop, k.Step} {
				b[j] = tensor.Omit
				if v == starlark.None {
					continue
				}
				n, ok := wholeNumber(v)
				if !ok {
					return nil, fmt.Errorf("index %d of %d: a slice's bounds are whole numbers or None, got %s", i+1, len(keys), v.Type())
				}
				b[j] = n
			}
			if b[2] == tensor.Omit {
				b[2] = 1
			}
			ix = append(ix, tensor.SliceStep(b[0], b[1], b[2]))
			kinds = append(kinds, 's')
		default:
			n, ok := wholeNumber(k)
			if !ok {
				return nil, fmt.Errorf("index %d of %d: beside a slice, ... or None, an index is a whole number, got %s (index with a list or tensor in a subscript of its own: x[:, 1:3][idx])", i+1, len(keys), k.Type())
			}
			ix = append(ix, tensor.At(n))
		}
	}
	r, err := t.Index(ix...)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(kinds, 'n') {
		return r, nil
	}
	// Put the new axes of size 1 in.
	var shape []int
	kept := r.Shape()
	for _, k := range kinds {
		if k == 'n' {
			shape = append(shape, 1)
			continue
		}
		shape, kept = append(shape, kept[0]), kept[1:]
	}
	return r.Reshape(append(shape, kept...)...)
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
		n, ok := k.Int64()
		if !ok {
			return nil, fmt.Errorf("index %s is out of range: no axis of a tensor is that long", k)
		}
		return tensor.Scalar(float64(n)), nil
	case starlark.Iterable:
		return asTensor("index", k)
	}
	return nil, fmt.Errorf("a %s cannot index a tensor: use whole numbers, lists or ranges of them, or tensors of them, or slices, ... and None (x[:, -1], x[..., :3])", k.Type())
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

// maxPairAttrs are .values and .indices.
var maxPairAttrs = attrs.New([]attrs.Field[*maxPair]{
	{Name: "values", Get: func(m *maxPair) (starlark.Value, error) { return m.values, nil }},
	{Name: "indices", Get: func(m *maxPair) (starlark.Value, error) { return m.indices, nil }},
}, nil)

func (m *maxPair) AttrNames() []string                      { return maxPairAttrs.Names() }
func (m *maxPair) Attr(name string) (starlark.Value, error) { return maxPairAttrs.Attr(m, name) }

// TensorOf returns the tensor behind a cell's tensor.
func TensorOf(x starlark.Value) (*tensor.Tensor, bool) {
	t, ok := x.(*Tensor)
	if !ok {
		return nil, false
	}
	return t.t, true
}

// ToList returns t's numbers as the nested lists of numbers that
// t.tolist() gives, and that check compares a tensor as.
func ToList(t *tensor.Tensor) starlark.Value { return toList(t.Shape(), t.Data()) }

// tensorOf reads a tensor argument.
func tensorOf(name string, v starlark.Value) (*tensor.Tensor, error) {
	t, ok := v.(*Tensor)
	if !ok {
		return nil, fmt.Errorf("%s: want a Tensor, got %s", name, v.Type())
	}
	return t.t, nil
}
