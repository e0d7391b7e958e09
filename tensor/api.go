package tensor

// This file holds the ops' constructors: each checks its inputs, works out
// the output's shape and the node's parameters, and runs the op's rules
// from ops.go. Ops that can be built from others are, with a comment.

import (
	"errors"
	"math"
	"strconv"

	"gradbook/internal/words"
)

// run computes the output y of n, records n in y when an input requires a
// gradient, and carries tangents forward (forward mode).
func run(n *node, y *Tensor) *Tensor {
	o := &ops[n.op]
	if o.arity != 0 && len(n.in) != o.arity {
		panic("tensor: internal error: " + o.name + " given " + strconv.Itoa(len(n.in)) + " inputs")
	}
	if !fastForward(n, y) {
		o.forward(n, y)
	}
	tangents := false
	for _, x := range n.in {
		if x.requiresGrad {
			y.requiresGrad = true
			y.node = n
		}
		tangents = tangents || x.tangent != nil
	}
	if tangents {
		tx := make([][]float64, len(n.in))
		for i, x := range n.in {
			if x.tangent != nil {
				tx[i] = x.tangent.data
			} else {
				tx[i] = make([]float64, len(x.data))
			}
		}
		ty := make([]float64, len(y.data))
		o.jvp(n, y, tx, ty)
		y.tangent = &Tensor{shape: y.shape, data: ty}
	}
	return y
}

// newOp runs n on in, into a new zero tensor of shape: the tensor, n and
// the list of its inputs are one allocation, its elements another.
//
// The tensor keeps the whole allocation alive, its node included: when no
// input requires a gradient the node is cleared, or else each result would
// hold its inputs, and a loop such as m = 0.9*m + 0.1*g, with nothing
// requiring a gradient, would keep every step's tensors.
func newOp(n node, shape []int, in ...*Tensor) *Tensor {
	c := &struct {
		y   Tensor
		n   node
		ins [3]*Tensor
	}{n: n}
	c.n.in = append(c.ins[:0:len(c.ins)], in...)
	c.y = Tensor{shape: shape, data: make([]float64, numel(shape))}
	y := run(&c.n, &c.y)
	if y.node == nil {
		c.n, c.ins = node{}, [3]*Tensor{}
	}
	return y
}

// withBudget is newOp for an op whose node has a budget while it runs,
// and none after.
func withBudget(n node, shape []int, in ...*Tensor) *Tensor {
	y := newOp(n, shape, in...)
	if y.node != nil {
		y.node.budget = nil
	}
	return y
}

func (t *Tensor) binary(op opcode, u *Tensor) (*Tensor, error) {
	shape, err := broadcastShapes(ops[op].name, t.shape, u.shape)
	if err != nil {
		return nil, err
	}
	return newOp(node{op: op, bc: newBcast(t.shape, u.shape, shape)}, shape, t, u), nil
}

// Add returns t + u, elementwise, broadcasting NumPy's way: shapes are
// aligned at their last dimension, and a dimension of 1 (or a missing
// one) is stretched to match the other's.
func (t *Tensor) Add(u *Tensor) (*Tensor, error) { return t.binary(opAdd, u) }

// Sub returns t − u, elementwise, broadcasting as Add.
func (t *Tensor) Sub(u *Tensor) (*Tensor, error) { return t.binary(opSub, u) }

// Mul returns t · u, elementwise, broadcasting as Add.
func (t *Tensor) Mul(u *Tensor) (*Tensor, error) { return t.binary(opMul, u) }

// Div returns t / u, elementwise, broadcasting as Add. Dividing by zero
// gives infinities or NaN, as in NumPy.
func (t *Tensor) Div(u *Tensor) (*Tensor, error) { return t.binary(opDiv, u) }

func (t *Tensor) unary(op opcode, k float64) *Tensor {
	return newOp(node{op: op, k: k}, t.shape, t)
}

// Neg returns −t.
func (t *Tensor) Neg() *Tensor { return t.unary(opNeg, 0) }

// Pow returns tᵏ, elementwise, for a constant k: negative and fractional
// exponents too, (var + eps)^−0.5 and sum^−1. Its derivative is k·tᵏ⁻¹.
func (t *Tensor) Pow(k float64) *Tensor { return t.unary(opPow, k) }

// Exp returns eᵗ, elementwise.
func (t *Tensor) Exp() *Tensor { return t.unary(opExp, 0) }

// Log returns ln t, elementwise.
func (t *Tensor) Log() *Tensor { return t.unary(opLog, 0) }

// Tanh returns tanh t, elementwise.
func (t *Tensor) Tanh() *Tensor { return t.unary(opTanh, 0) }

// Relu returns max(0, t), elementwise; its derivative at exactly 0 is 0.
func (t *Tensor) Relu() *Tensor { return t.unary(opRelu, 0) }

// Sigmoid returns 1/(1+e⁻ᵗ), elementwise.
func (t *Tensor) Sigmoid() *Tensor { return t.unary(opSigmoid, 0) }

// Matmul returns t @ u, the matrix product, as NumPy's matmul: (m, k) @
// (k, n) is (m, n); a 1-d t is a row and a 1-d u a column, whose 1 is
// dropped from the result, so (k,) @ (k,) is their dot product, a scalar;
// and tensors of more dimensions are stacks of matrices in their last
// two, the leading (batch) dimensions broadcast against each other:
// (b, m, k) @ (k, n) is (b, m, n), (b, h, m, k) @ (b, h, k, n) is
// (b, h, m, n).
func (t *Tensor) Matmul(u *Tensor) (*Tensor, error) { return Budget(nil).Matmul(t, u) }

func (t *Tensor) matmul(u *Tensor, budget Budget) (*Tensor, error) {
	a, b := t.shape, u.shape
	if len(a) == 0 || len(b) == 0 {
		return nil, errorf("matmul", ErrShape, "shapes %s and %s: a scalar has no matrix product; use mul", ShapeString(a), ShapeString(b))
	}
	m, k, abatch := 1, a[len(a)-1], []int{}
	if len(a) >= 2 {
		m, abatch = a[len(a)-2], a[:len(a)-2]
	}
	k2, c, bbatch := b[0], 1, []int{}
	if len(b) >= 2 {
		k2, c, bbatch = b[len(b)-2], b[len(b)-1], b[:len(b)-2]
	}
	if k != k2 {
		return nil, errorf("matmul", ErrShape, "shapes %s and %s do not fit: %d ≠ %d", ShapeString(a), ShapeString(b), k, k2)
	}
	batch, err := broadcastShapes("matmul", abatch, bbatch)
	if errors.Is(err, ErrShape) {
		return nil, errorf("matmul", ErrShape, "shapes %s and %s: their batch dimensions %s and %s do not broadcast", ShapeString(a), ShapeString(b), ShapeString(abatch), ShapeString(bbatch))
	} else if err != nil {
		return nil, errorf("matmul", ErrTooLarge, "shapes %s and %s: the result would have more than %s elements", ShapeString(a), ShapeString(b), words.Int(MaxSize))
	}
	shape := append(make([]int, 0, len(batch)+2), batch...)
	if len(a) >= 2 {
		shape = append(shape, m)
	}
	if len(b) >= 2 {
		shape = append(shape, c)
	}
	if _, err := sizeOf("matmul", shape); err != nil {
		return nil, err
	}
	return withBudget(node{op: opMatmul, dim: [3]int{m, k, c}, bc: newBcast(abatch, bbatch, batch), budget: budget}, shape, t, u), nil
}

// axis resolves a possibly negative axis of t for op.
func (t *Tensor) axis(op string, axis int) (int, error) {
	n := len(t.shape)
	if axis < -n || axis >= n {
		if n == 0 {
			return 0, errorf(op, ErrAxis, "axis %d is out of range: a scalar has no axes", axis)
		}
		return 0, errorf(op, ErrAxis, "axis %d is out of range for shape %s: use 0 to %d, or -%d to -1", axis, ShapeString(t.shape), n-1, n)
	}
	if axis < 0 {
		axis += n
	}
	return axis, nil
}

// AllAxes, as the axis of Sum, Mean or Max, reduces over every axis at
// once, as axis=None does in NumPy.
const AllAxes = math.MaxInt

// reduction works out a reduction of t for op along axis: t read as
// (outer, n, inner) to be reduced over n, and the result's shape.
func (t *Tensor) reduction(op string, axis int, keepdims bool) (dim [3]int, shape []int, err error) {
	if axis == AllAxes {
		shape = []int{}
		if keepdims {
			shape = make([]int, len(t.shape))
			for i := range shape {
				shape[i] = 1
			}
		}
		return [3]int{1, len(t.data), 1}, shape, nil
	}
	d, err := t.axis(op, axis)
	if err != nil {
		return dim, nil, err
	}
	shape = append([]int(nil), t.shape[:d]...)
	if keepdims {
		shape = append(shape, 1)
	}
	shape = append(shape, t.shape[d+1:]...)
	return [3]int{numel(t.shape[:d]), t.shape[d], numel(t.shape[d+1:])}, shape, nil
}

// Sum returns the sum of t along axis (negative counts from the end; or
// AllAxes), as t.sum(axis, keepdims=keepdims) in NumPy: the axis is
// dropped, or kept as 1 with keepdims, so that the result broadcasts
// against t.
func (t *Tensor) Sum(axis int, keepdims bool) (*Tensor, error) {
	dim, shape, err := t.reduction("sum", axis, keepdims)
	if err != nil {
		return nil, err
	}
	return newOp(node{op: opSum, dim: dim}, shape, t), nil
}

// SumAll returns the sum of every element of t, a scalar.
func (t *Tensor) SumAll() *Tensor { return Must(t.Sum(AllAxes, false)) }

// Mean returns the mean of t along axis (or AllAxes), as Sum does the
// sum; the mean of nothing is NaN. It is derived: Sum divided by the
// count.
func (t *Tensor) Mean(axis int, keepdims bool) (*Tensor, error) {
	dim, shape, err := t.reduction("mean", axis, keepdims)
	if err != nil {
		return nil, err
	}
	s := newOp(node{op: opSum, dim: dim}, shape, t)
	return s.divBy(dim[1]), nil
}

// MeanAll returns the mean of every element of t, a scalar.
func (t *Tensor) MeanAll() *Tensor { return Must(t.Mean(AllAxes, false)) }

// divBy returns t / n, the constant labelled with its value.
func (t *Tensor) divBy(n int) *Tensor {
	c := Scalar(float64(n))
	c.Label = strconv.Itoa(n)
	return Must(t.Div(c))
}

// Max returns the largest elements of t along axis and their positions
// along it (the first of equals), as PyTorch's t.max(axis, keepdim):
// values and indices have t's shape without the axis, or with it as 1
// with keepdims. Along AllAxes the index is the position among all the
// elements in row-major order, as NumPy's argmax. The gradient of values
// goes to the largest elements. The indices are whole numbers (float64)
// that Take and OneHot accept.
func (t *Tensor) Max(axis int, keepdims bool) (values, indices *Tensor, err error) {
	dim, shape, err := t.reduction("max", axis, keepdims)
	if err != nil {
		return nil, nil, err
	}
	if dim[1] == 0 {
		if axis == AllAxes {
			return nil, nil, errorf("max", ErrShape, "a tensor of shape %s is empty: it has no max", ShapeString(t.shape))
		}
		return nil, nil, errorf("max", ErrShape, "axis %d of shape %s is empty: an empty axis has no max", axis, ShapeString(t.shape))
	}
	values, indices = t.max(dim, shape)
	return values, indices, nil
}

// MaxAll returns the largest element of t, a scalar, and its position
// among t's elements in row-major order (the first of equals). t must not
// be empty.
func (t *Tensor) MaxAll() (value, index *Tensor, err error) { return t.Max(AllAxes, false) }

func (t *Tensor) max(dim [3]int, shape []int) (values, indices *Tensor) {
	outer, k, inner := dim[0], dim[1], dim[2]
	src := make([]int32, outer*inner)
	indices = newTensor(shape)
	for o := range outer {
		for j := range inner {
			base := o*k*inner + j
			best := 0
			for p := 1; p < k; p++ {
				v, b := t.data[base+p*inner], t.data[base+best*inner]
				if v > b || v != v && b == b {
					best = p
				}
			}
			src[o*inner+j] = int32(base + best*inner)
			indices.data[o*inner+j] = float64(best)
		}
	}
	return newOp(node{op: opMax, src: src}, shape, t), indices
}

// T returns t with its axes reversed, as NumPy's .T: the transpose of a
// matrix. A tensor of fewer than 2 dimensions is returned as it is.
func (t *Tensor) T() *Tensor {
	nd := len(t.shape)
	if nd < 2 {
		return t
	}
	shape := make([]int, nd)
	stride := make([]int, nd)
	s := 1
	for d := nd - 1; d >= 0; d-- {
		shape[nd-1-d] = t.shape[d]
		stride[nd-1-d] = s
		s *= t.shape[d]
	}
	return newOp(node{op: opTranspose, sizes: stride}, shape, t)
}

// Reshape returns t's elements, in the same order, under another shape of
// the same size, as PyTorch's view: one dimension may be −1, to be worked
// out from the others. The result shares t's storage.
func (t *Tensor) Reshape(shape ...int) (*Tensor, error) {
	fail := func(why string) error {
		return errorf("reshape", ErrShape, "cannot reshape a tensor of shape %s (%s) into %s%s",
			ShapeString(t.shape), words.Count(len(t.data), "element"), ShapeString(shape), why)
	}
	infer := -1
	known := 1
	for i, d := range shape {
		switch {
		case d == -1 && infer >= 0:
			return nil, fail(": only one dimension can be -1")
		case d == -1:
			infer = i
		case d < 0:
			return nil, fail(": a dimension is negative")
		case d > 0 && known > MaxSize/d:
			return nil, fail("")
		default:
			known *= d
		}
	}
	out := append([]int(nil), shape...)
	if infer >= 0 {
		if known == 0 || len(t.data)%known != 0 {
			return nil, fail(": " + strconv.Itoa(len(t.data)) + " is not a multiple of " + strconv.Itoa(known))
		}
		out[infer] = len(t.data) / known
	} else if known != len(t.data) {
		return nil, fail(" (" + words.Count(known, "element") + ")")
	}
	if _, err := sizeOf("reshape", out); err != nil {
		return nil, err // an empty tensor's other dimensions (view(0, 1 << 40))
	}
	return run(&node{op: opReshape, in: []*Tensor{t}}, &Tensor{shape: out, data: t.data}), nil
}

// View is Reshape, by PyTorch's name.
func (t *Tensor) View(shape ...int) (*Tensor, error) { return t.Reshape(shape...) }

// Index is one entry of a basic index, t[i] or t[start:stop:step]: At
// picks one position along its axis, which the result drops; a slice
// keeps the axis.
type Index struct {
	slice             bool
	i                 int
	start, stop, step int
}

// Omit stands for a missing start or stop of a slice: t[:3] is
// t.Index(Slice(Omit, 3)).
const Omit = math.MinInt

// At returns the index t[i]; a negative i counts from the end.
func At(i int) Index { return Index{i: i} }

// Slice returns the index t[start:stop], with Python's rules: negative
// bounds count from the end, bounds past the ends are clamped, Omit is a
// missing bound.
func Slice(start, stop int) Index { return SliceStep(start, stop, 1) }

// SliceStep returns the index t[start:stop:step], with Python's rules; a
// negative step walks backwards, and step must not be 0.
func SliceStep(start, stop, step int) Index {
	return Index{slice: true, start: start, stop: stop, step: step}
}

// All returns the index t[:], every position.
func All() Index { return Slice(Omit, Omit) }

// positions returns the positions ix picks along an axis of size n.
func (ix Index) positions(d, n int) ([]int, error) {
	if !ix.slice {
		j, err := wrapIndex("index", ix.i, d, n)
		return []int{j}, err
	}
	step := ix.step
	if step == 0 {
		return nil, errorf("index", ErrIndex, "the slice for axis %d has step 0", d)
	}
	// As Python's slice.indices: bounds count from the end when negative
	// and are clamped to [lower, upper]; missing ones are the ends.
	lower, upper, first, last := 0, n, 0, n
	if step < 0 {
		lower, upper, first, last = -1, n-1, n-1, -1
	}
	bound := func(b, omitted int) int {
		switch {
		case b == Omit:
			return omitted
		case b < 0:
			return max(b+n, lower)
		}
		return min(b, upper)
	}
	start, stop := bound(ix.start, first), bound(ix.stop, last)
	count := 0
	switch { // step's size may be anything: count without overflowing
	case step > 0 && start < stop:
		count = 1 + (stop-start-1)/min(step, n+1)
	case step < 0 && start > stop:
		count = 1 + (start-stop-1)/min(-max(step, -n-1), n+1)
	}
	ps := make([]int, count)
	for i := range ps {
		ps[i] = start + i*max(min(step, n+1), -n-1)
	}
	return ps, nil
}

// Index returns t[ix…], NumPy's basic indexing of t's leading axes: an At
// drops its axis, a slice keeps what it selects, and axes without an
// index are kept whole. t.Index(At(0)) is t[0], t.Index(All(), At(1)) is
// t[:, 1].
func (t *Tensor) Index(ix ...Index) (*Tensor, error) {
	if len(ix) > len(t.shape) {
		return nil, errorf("index", ErrIndex, "%s for a tensor of shape %s", indices(len(ix)), ShapeString(t.shape))
	}
	pos := make([][]int, len(ix))
	var shape []int
	for d, x := range ix {
		ps, err := x.positions(d, t.shape[d])
		if err != nil {
			return nil, err
		}
		pos[d] = ps
		if x.slice {
			shape = append(shape, len(ps))
		}
	}
	rest := t.shape[len(ix):]
	shape = append(shape, rest...)
	inner := numel(rest)
	src := make([]int32, 0, numel(shape))
	// Walk every combination of positions, the last axis fastest.
	var rec func(d, off int)
	rec = func(d, off int) {
		if d == len(ix) {
			for j := range inner {
				src = append(src, int32(off*inner+j))
			}
			return
		}
		for _, p := range pos[d] {
			rec(d+1, off*t.shape[d]+p)
		}
	}
	rec(0, 0)
	return newOp(node{op: opIndex, src: src}, shape, t), nil
}

// Take returns t[idx[0], idx[1], …], NumPy's integer-array indexing of t's
// leading axes: the index tensors hold whole numbers (negative ones count
// from the end) and have one shape, and element p of the result is
// t[idx[0][p], idx[1][p], …]. So C.Take(Xb), an embedding lookup, has the
// shape of Xb followed by a row of C; logprobs.Take(rows, Yb) picks one
// element of each row. The gradient of an element picked twice is the
// sum of both.
func (t *Tensor) Take(idx ...*Tensor) (*Tensor, error) {
	if len(idx) == 0 || len(idx) > len(t.shape) {
		return nil, errorf("take", ErrIndex, "%s for a tensor of shape %s: give 1 to %d", words.Count(len(idx), "index tensor"), ShapeString(t.shape), len(t.shape))
	}
	ishape := idx[0].shape
	for i, x := range idx[1:] {
		if !sameShape(x.shape, ishape) {
			return nil, errorf("take", ErrShape, "index tensors 1 and %d have shapes %s and %s; they must have one shape", i+2, ShapeString(ishape), ShapeString(x.shape))
		}
	}
	rest := t.shape[len(idx):]
	shape := append(append([]int(nil), ishape...), rest...)
	if _, err := sizeOf("take", shape); err != nil {
		return nil, err
	}
	inner := numel(rest)
	rows := make([]int, len(idx[0].data))
	for d, x := range idx {
		for p, v := range x.data {
			j := wholeIndex(v, t.shape[d], true)
			if j < 0 {
				return nil, badIndex("take", v, x.shape, p, axisText(d, t.shape[d]))
			}
			rows[p] = rows[p]*t.shape[d] + j
		}
	}
	src := make([]int32, 0, len(rows)*inner)
	for _, r := range rows {
		for j := range inner {
			src = append(src, int32(r*inner+j))
		}
	}
	return newOp(node{op: opTake, src: src}, shape, t), nil
}

// wholeIndex resolves v as an index into n things, negative ones
// counting from the end when negative is set, or returns -1 if it is not
// one (badIndex says why).
func wholeIndex(v float64, n int, negative bool) int {
	if v != math.Trunc(v) || v >= float64(n) || v < -float64(n) || !negative && v < 0 {
		return -1
	}
	j := int(v)
	if j < 0 {
		j += n
	}
	return j
}

// badIndex is the error of v, element p of an index tensor of shape shape,
// that wholeIndex refused; what names the things it indexes.
func badIndex(op string, v float64, shape []int, p int, what string) error {
	why := "is out of range for " + what
	if v != math.Trunc(v) || math.IsInf(v, 0) {
		why = "is not a whole number"
	}
	return errorf(op, ErrIndex, "index %s at %s of the index tensor %s", words.Number(v), position(shape, p), why)
}

func axisText(d, n int) string { return "axis " + strconv.Itoa(d) + " of size " + strconv.Itoa(n) }

func classesText(n int) string {
	return strconv.Itoa(n) + " classes (0 to " + strconv.Itoa(n-1) + ")"
}

// position formats the multi-index of element p of a tensor of shape
// shape: (3, 1).
func position(shape []int, p int) string {
	idx := make([]int, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		if shape[d] > 0 {
			idx[d] = p % shape[d]
			p /= shape[d]
		}
	}
	return ShapeString(idx)
}

// Cat returns the tensors joined along axis, as torch.cat: they must have
// the same number of dimensions, at least one, and the same shape except
// along axis.
func Cat(axis int, ts ...*Tensor) (*Tensor, error) {
	if len(ts) == 0 {
		return nil, errorf("cat", ErrShape, "no tensors to join")
	}
	first := ts[0]
	if len(first.shape) == 0 {
		return nil, errorf("cat", ErrShape, "scalars have no axis to join along; reshape them to (1,) first")
	}
	d, err := first.axis("cat", axis)
	if err != nil {
		return nil, err
	}
	shape := append([]int(nil), first.shape...)
	shape[d] = 0
	sizes := make([]int, len(ts))
	inner := numel(first.shape[d+1:])
	for i, t := range ts {
		ok := len(t.shape) == len(first.shape)
		for e := 0; ok && e < len(t.shape); e++ {
			ok = e == d || t.shape[e] == first.shape[e]
		}
		if !ok {
			return nil, errorf("cat", ErrShape, "shapes %s and %s (tensors 1 and %d) differ outside axis %d", ShapeString(first.shape), ShapeString(t.shape), i+1, d)
		}
		shape[d] += t.shape[d]
		sizes[i] = t.shape[d] * inner
	}
	if _, err := sizeOf("cat", shape); err != nil {
		return nil, err
	}
	n := &node{op: opCat, in: ts, dim: [3]int{numel(first.shape[:d])}, sizes: sizes}
	return run(n, newTensor(shape)), nil
}

// OneHot returns the one-hot encoding of an index tensor, as PyTorch's
// F.one_hot but in float64: the shape of indices followed by classes,
// with 1 at each index and 0 elsewhere. It is a constant: no gradient
// flows through whole numbers.
func OneHot(indices *Tensor, classes int) (*Tensor, error) {
	if classes < 1 {
		return nil, errorf("one_hot", ErrValue, "the number of classes must be at least 1, got %d", classes)
	}
	shape := append(append([]int(nil), indices.shape...), classes)
	if _, err := sizeOf("one_hot", shape); err != nil {
		return nil, err
	}
	y := newTensor(shape)
	for p, v := range indices.data {
		j := wholeIndex(v, classes, false)
		if j < 0 {
			return nil, badIndex("one_hot", v, indices.shape, p, classesText(classes))
		}
		y.data[p*classes+j] = 1
	}
	return y, nil
}

// CrossEntropy returns the cross-entropy loss of logits (n, c) for targets
// (n,), whole numbers from 0 to c−1, as PyTorch's F.cross_entropy: the
// mean over the rows of −log softmax(row)[target]. It is fused and stable:
// it subtracts each row's max before exp, and its gradient is
// (softmax − onehot)/n.
func CrossEntropy(logits, targets *Tensor) (*Tensor, error) {
	if len(logits.shape) != 2 || logits.shape[0] == 0 || logits.shape[1] == 0 {
		return nil, errorf("cross_entropy", ErrShape, "the logits must be (rows, classes), at least (1, 1), got %s", ShapeString(logits.shape))
	}
	rows, c := logits.shape[0], logits.shape[1]
	if !sameShape(targets.shape, logits.shape[:1]) {
		return nil, errorf("cross_entropy", ErrShape, "logits of shape %s need targets of shape (%d,), got %s", ShapeString(logits.shape), rows, ShapeString(targets.shape))
	}
	tgt := make([]int32, rows)
	for p, v := range targets.data {
		j := wholeIndex(v, c, false)
		if j < 0 {
			return nil, badIndex("cross_entropy", v, targets.shape, p, classesText(c))
		}
		tgt[p] = int32(j)
	}
	return newOp(node{op: opCrossEntropy, dim: [3]int{rows, c}, aux: make([]float64, rows*c), tgt: tgt}, []int{}, logits), nil
}

// Op returns the name of the op that made t ("matmul", "add", …), or ""
// for a leaf or a tensor made without recording (no input required a
// gradient).
func (t *Tensor) Op() string {
	if t.node == nil {
		return ""
	}
	return ops[t.node.op].name
}

// Inputs returns the tensors the op that made t was applied to, or none
// for a leaf. Index tensors are parameters, not inputs.
func (t *Tensor) Inputs() []*Tensor {
	if t.node == nil {
		return nil
	}
	return append([]*Tensor(nil), t.node.in...)
}
