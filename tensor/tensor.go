package tensor

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gradbook/internal/words"
)

// MaxSize is the largest number of elements a tensor may hold (256 MiB of
// float64s), so that a huge shape gets an error instead of exhausting
// memory, which a WebAssembly program cannot recover from.
const MaxSize = 1 << 25

// MaxDims is the most dimensions a tensor may have, as NumPy's 32: its
// nested lists are printed, compared and made one call per dimension.
const MaxDims = 32

// Tensor is an n-dimensional array of float64s in row-major order, with a
// shape ([] for a 0-d scalar) and, when it requires a gradient, the record
// of the op that made it.
//
// A Tensor made by an op from inputs of which one requires a gradient
// remembers the op and its inputs, so that Backward can run the chain rule
// back through them. Tensors are not safe for concurrent use.
type Tensor struct {
	// Grad is the gradient that Backward accumulated into a leaf that
	// requires a gradient, or into a tensor marked with RetainGrad; nil
	// until a backward pass reaches it. Gradients add up across Backward
	// calls, as in PyTorch: ZeroGrad resets them.
	Grad *Tensor
	// Label names the tensor in its scalar graph: element (i, j) of a leaf
	// labelled "W" is the Value labelled "W[i,j]" (see Scalars).
	Label string

	shape        []int
	data         []float64
	requiresGrad bool
	retainGrad   bool
	node         *node   // the op that made the tensor; nil for a leaf
	tangent      *Tensor // forward mode: d(this)/d(the seeded direction)
}

// Errors returned by the package, matched with errors.Is. Every one comes
// as an *Error that names the op and says what is wrong.
var (
	// ErrShape is the kind of error of shapes that do not fit an op.
	ErrShape = errors.New("shapes do not fit")
	// ErrAxis is the kind of error of an axis that a tensor does not have.
	ErrAxis = errors.New("axis out of range")
	// ErrIndex is the kind of error of an index out of range, or not a
	// whole number.
	ErrIndex = errors.New("bad index")
	// ErrValue is the kind of error of an argument that makes no sense: a
	// negative dimension, a step of 0, something that is not a number.
	ErrValue = errors.New("bad value")
	// ErrGrad is the kind of error of a backward pass that cannot start.
	ErrGrad = errors.New("no gradient")
	// ErrTooLarge is the kind of error of a tensor of more than MaxSize
	// elements.
	ErrTooLarge = errors.New("tensor too large")
)

// Error is an error from one op or constructor.
type Error struct {
	Op  string // the op or function at fault: "matmul", "reshape", "from_nested"
	Err error  // one of the Err variables
	Why string // what exactly is wrong, for people
}

// Error returns the message: the op, then what is wrong.
func (e *Error) Error() string { return e.Op + ": " + e.Why }

// Unwrap returns the kind of error, for errors.Is.
func (e *Error) Unwrap() error { return e.Err }

func errorf(op string, kind error, format string, args ...any) error {
	return &Error{Op: op, Err: kind, Why: fmt.Sprintf(format, args...)}
}

// ShapeString formats a shape as Python prints a tuple: (32, 27), (3,), ().
func ShapeString(shape []int) string {
	if len(shape) == 1 {
		return "(" + strconv.Itoa(shape[0]) + ",)"
	}
	var b strings.Builder
	b.WriteByte('(')
	for i, d := range shape {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(d))
	}
	b.WriteByte(')')
	return b.String()
}

// sizeOf returns the number of elements of shape, or an error naming op
// when a dimension is negative or the shape is larger than MaxSize. A
// dimension of 0 counts as 1 in that bound: an empty tensor's other
// dimensions must fit too, since a reduction, an index or a view of it
// can drop the 0 and keep the rest (torch.zeros(0, 1 << 29).sum(0)). So
// every shape a tensor has, and every part of one, holds at most MaxSize
// elements, and numel never overflows.
func sizeOf(op string, shape []int) (int, error) {
	if len(shape) > MaxDims {
		return 0, errorf(op, ErrTooLarge, "%s dimensions are more than a tensor may have (%d)", words.Int(len(shape)), MaxDims)
	}
	n, bound := 1, 1
	for _, d := range shape {
		if d < 0 {
			return 0, errorf(op, ErrValue, "negative dimension %d in shape %s", d, ShapeString(shape))
		}
		if d > 0 && bound > MaxSize/d {
			return 0, tooLarge(op, shape)
		}
		n *= d
		bound *= max(d, 1)
	}
	if bound > MaxSize {
		return 0, tooLarge(op, shape)
	}
	return n, nil
}

func tooLarge(op string, shape []int) error {
	for _, d := range shape {
		if d == 0 {
			return errorf(op, ErrTooLarge, "shape %s is too large: even empty, its other dimensions must hold at most %s elements", ShapeString(shape), words.Int(MaxSize))
		}
	}
	return errorf(op, ErrTooLarge, "shape %s has more than %s elements", ShapeString(shape), words.Int(MaxSize))
}

// numel is the number of elements of a shape already checked by sizeOf
// (or a part of one). A shape that was not is a bug in the package, and
// numel panics rather than wrap around.
func numel(shape []int) int {
	n, bound := 1, 1
	for _, d := range shape {
		if d < 0 || d > 0 && bound > MaxSize/d {
			panic("tensor: internal error: shape " + ShapeString(shape) + " was not checked")
		}
		n *= d
		bound *= max(d, 1)
	}
	return n
}

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// newTensor returns a zero tensor of a valid shape, which it keeps.
func newTensor(shape []int) *Tensor {
	return &Tensor{shape: shape, data: make([]float64, numel(shape))}
}

// New returns a tensor of the given shape holding a copy of data, whose
// length must be the shape's number of elements.
func New(data []float64, shape ...int) (*Tensor, error) {
	n, err := sizeOf("new", shape)
	if err != nil {
		return nil, err
	}
	if n != len(data) {
		return nil, errorf("new", ErrShape, "%s do not fill shape %s (%s)", words.Count(len(data), "value"), ShapeString(shape), words.Count(n, "element"))
	}
	t := newTensor(append([]int(nil), shape...))
	copy(t.data, data)
	return t, nil
}

// Scalar returns a 0-d tensor holding x.
func Scalar(x float64) *Tensor { return &Tensor{shape: []int{}, data: []float64{x}} }

// Full returns a tensor of the given shape with every element x.
func Full(x float64, shape ...int) (*Tensor, error) {
	if _, err := sizeOf("full", shape); err != nil {
		return nil, err
	}
	t := newTensor(append([]int(nil), shape...))
	if x != 0 {
		for i := range t.data {
			t.data[i] = x
		}
	}
	return t, nil
}

// Zeros returns a tensor of the given shape filled with 0.
func Zeros(shape ...int) (*Tensor, error) { return Full(0, shape...) }

// Ones returns a tensor of the given shape filled with 1.
func Ones(shape ...int) (*Tensor, error) { return Full(1, shape...) }

// ZerosLike returns a tensor of t's shape filled with 0.
func ZerosLike(t *Tensor) *Tensor { return newTensor(t.Shape()) }

// OnesLike returns a tensor of t's shape filled with 1.
func OnesLike(t *Tensor) *Tensor {
	o := newTensor(t.Shape())
	for i := range o.data {
		o.data[i] = 1
	}
	return o
}

// Arange returns the 1-d tensor start, start+step, … up to but excluding
// stop, as NumPy's arange: ⌈(stop−start)/step⌉ elements. Arange(0, n, 1)
// is Python's range(n).
func Arange(start, stop, step float64) (*Tensor, error) {
	if step == 0 || math.IsNaN(step) || math.IsInf(step, 0) || math.IsNaN(start) || math.IsInf(start, 0) || math.IsNaN(stop) || math.IsInf(stop, 0) {
		return nil, errorf("arange", ErrValue, "start, stop and step must be finite and step not 0, got %s, %s, %s", words.Number(start), words.Number(stop), words.Number(step))
	}
	count := math.Ceil((stop - start) / step)
	if count < 0 {
		count = 0
	}
	if count > MaxSize {
		return nil, errorf("arange", ErrTooLarge, "%s elements are more than %s", words.Number(count), words.Int(MaxSize))
	}
	t := newTensor([]int{int(count)})
	for i := range t.data {
		t.data[i] = start + float64(i)*step
	}
	return t, nil
}

// FromNested returns the tensor of a nested list of numbers: a float64 or
// int is a 0-d tensor, a []float64 or []int a 1-d one, and a []any of
// lists one more dimension than its elements, whose shapes must all be the
// same (a ragged list is an error that says where).
func FromNested(x any) (*Tensor, error) {
	var shape []int
	for v := x; ; {
		n, first, ok := listOf(v)
		if !ok {
			break
		}
		shape = append(shape, n)
		if n == 0 || first == nil {
			break
		}
		v = first
	}
	size, err := sizeOf("from_nested", shape)
	if err != nil {
		return nil, err
	}
	t := newTensor(shape)
	f := filler{t: t}
	if err := f.fill(x, 0, nil); err != nil {
		return nil, err
	}
	if f.n != size {
		panic("tensor: from_nested filled the wrong number of elements")
	}
	return t, nil
}

// listOf reports whether v is a list, its length, and its first element
// when it is a []any (nil for lists of numbers).
func listOf(v any) (n int, first any, ok bool) {
	switch v := v.(type) {
	case []any:
		if len(v) > 0 {
			return len(v), v[0], true
		}
		return 0, nil, true
	case []float64:
		return len(v), nil, true
	case []int:
		return len(v), nil, true
	}
	return 0, nil, false
}

type filler struct {
	t *Tensor
	n int
}

// fill copies the numbers of v, found at depth and path in the nesting,
// into f.t, or says why it cannot.
func (f *filler) fill(v any, depth int, path []int) error {
	shape := f.t.shape
	why, kind := "", ErrShape
	switch x := v.(type) {
	case float64, int:
		if depth < len(shape) {
			why = "is a number where the others are lists of " + strconv.Itoa(shape[depth])
			break
		}
		if i, ok := x.(int); ok {
			f.t.data[f.n] = float64(i)
		} else {
			f.t.data[f.n] = x.(float64)
		}
		f.n++
	case []any, []float64, []int:
		n, _, _ := listOf(v)
		_, nested := x.([]any)
		switch {
		case depth == len(shape):
			why = "is a list where the others hold numbers"
		case n != shape[depth]:
			why = "has " + words.Count(n, "element") + " where the first has " + strconv.Itoa(shape[depth])
		case !nested && depth+1 != len(shape):
			why = "holds numbers where the others hold lists"
		case nested:
			for i, e := range x.([]any) {
				if err := f.fill(e, depth+1, append(path, i)); err != nil {
					return err
				}
			}
		default:
			if fs, ok := x.([]float64); ok {
				f.n += copy(f.t.data[f.n:], fs)
				break
			}
			for _, i := range x.([]int) {
				f.t.data[f.n] = float64(i)
				f.n++
			}
		}
	default:
		why, kind = fmt.Sprintf("is a %T, not a number or a list", v), ErrValue
	}
	if why == "" {
		return nil
	}
	where := "the outer list"
	if len(path) > 0 {
		where = "element "
		for _, p := range path {
			where += "[" + strconv.Itoa(p) + "]"
		}
	}
	if kind == ErrShape {
		return errorf("from_nested", kind, "ragged list: %s %s (every row must have the same shape)", where, why)
	}
	return errorf("from_nested", kind, "%s %s", where, why)
}

// Must returns t, or panics if err is not nil. It is for Go code whose
// shapes are known to fit, as template.Must is; never call it on a
// learner's input.
func Must(t *Tensor, err error) *Tensor {
	if err != nil {
		panic(err)
	}
	return t
}

// Shape returns the tensor's shape; the caller must not change it.
func (t *Tensor) Shape() []int { return t.shape }

// NDim returns the number of dimensions, 0 for a scalar.
func (t *Tensor) NDim() int { return len(t.shape) }

// Size returns the number of elements.
func (t *Tensor) Size() int { return len(t.data) }

// Data returns the elements in row-major order. It is the tensor's own
// storage, shared with tensors made from it by Reshape and Detach:
// writing to it changes them all, which is how a training step updates a
// parameter in place (p.data -= lr * p.grad in PyTorch).
func (t *Tensor) Data() []float64 { return t.data }

// Item returns the one element of a tensor of size 1.
func (t *Tensor) Item() (float64, error) {
	if len(t.data) != 1 {
		return 0, errorf("item", ErrShape, "a tensor of shape %s has %s, not 1", ShapeString(t.shape), words.Count(len(t.data), "element"))
	}
	return t.data[0], nil
}

// At returns the element at the given position, one index per dimension;
// a negative index counts from the end.
func (t *Tensor) At(idx ...int) (float64, error) {
	if len(idx) != len(t.shape) {
		return 0, errorf("at", ErrIndex, "%s for a tensor of shape %s", indices(len(idx)), ShapeString(t.shape))
	}
	off := 0
	for d, i := range idx {
		j, err := wrapIndex("at", i, d, t.shape[d])
		if err != nil {
			return 0, err
		}
		off = off*t.shape[d] + j
	}
	return t.data[off], nil
}

func indices(n int) string {
	if n == 1 {
		return "1 index"
	}
	return words.Int(n) + " indices"
}

// wrapIndex resolves a possibly negative index i along axis d of size n.
func wrapIndex(op string, i, d, n int) (int, error) {
	j := i
	if j < 0 {
		j += n
	}
	if j < 0 || j >= n {
		return 0, errorf(op, ErrIndex, "index %d is out of range for axis %d of size %d", i, d, n)
	}
	return j, nil
}

// String formats the tensor as nested lists, [[1, 2], [3, 4]], or, past
// 200 elements, as its shape alone.
func (t *Tensor) String() string {
	if len(t.data) > 200 {
		return "tensor of shape " + ShapeString(t.shape)
	}
	var b strings.Builder
	var rec func(d, off int) int
	rec = func(d, off int) int {
		if d == len(t.shape) {
			b.WriteString(strconv.FormatFloat(t.data[off], 'g', -1, 64))
			return off + 1
		}
		b.WriteByte('[')
		for i := 0; i < t.shape[d]; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			off = rec(d+1, off)
		}
		b.WriteByte(']')
		return off
	}
	rec(0, 0)
	return b.String()
}
