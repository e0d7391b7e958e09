package tensor

// This file holds the functions of a transformer's code that the op table
// already computes, each made of its ops, so that each is differentiable
// with their rules: Tril (a masked fill), Stack (reshapes and a cat),
// Dropout (a product with a constant mask).

import "gradbook/internal/words"

// Tril returns the lower triangle of the matrices in t's last two
// dimensions, as torch.tril(t, diagonal): the elements on and below the
// diagonal-th diagonal (0 the main one, 1 the one above it, -1 the one
// below), zeros above it. Its gradient flows back to the triangle kept.
// torch.tril(torch.ones(T, T)) is attention's causal pattern.
func (t *Tensor) Tril(diagonal int) (*Tensor, error) {
	if len(t.shape) < 2 {
		return nil, errorf("tril", ErrShape, "a tensor of shape %s has no matrix in its last two dimensions: tril needs at least 2", ShapeString(t.shape))
	}
	rows, cols := t.shape[len(t.shape)-2], t.shape[len(t.shape)-1]
	mask := newTensor([]int{rows, cols})
	for i := range rows {
		for j := range cols {
			if j-i > diagonal {
				mask.data[i*cols+j] = 1
			}
		}
	}
	return t.MaskedFill(mask, 0)
}

// Stack returns the tensors, which must have one shape, joined along a
// new axis, as torch.stack: of n tensors of shape (a, b), Stack(0, …) is
// (n, a, b) and Stack(-1, …) is (a, b, n).
func Stack(axis int, ts ...*Tensor) (*Tensor, error) {
	if len(ts) == 0 {
		return nil, errorf("stack", ErrShape, "no tensors to stack")
	}
	first := ts[0].shape
	nd := len(first) + 1
	if axis < -nd || axis >= nd {
		return nil, errorf("stack", ErrAxis, "axis %d is out of range for tensors of shape %s: stacking them gives %d dimensions", axis, ShapeString(first), nd)
	}
	if axis < 0 {
		axis += nd
	}
	shape := append(append(append([]int(nil), first[:axis]...), 1), first[axis:]...)
	parts := make([]*Tensor, len(ts))
	for i, t := range ts {
		if !sameShape(t.shape, first) {
			return nil, errorf("stack", ErrShape, "tensors 1 and %d have shapes %s and %s: stack needs one shape", i+1, ShapeString(first), ShapeString(t.shape))
		}
		p, err := t.Reshape(shape...)
		if err != nil {
			return nil, err
		}
		parts[i] = p
	}
	out, err := Cat(axis, parts...)
	if err != nil {
		return nil, errorf("stack", ErrTooLarge, "%d tensors of shape %s: the result would have more than %s elements", len(ts), ShapeString(first), words.Int(MaxSize))
	}
	return out, nil
}

// Dropout returns t with each element zeroed with probability p and the
// others divided by 1 − p, as F.dropout in training, with a mask drawn
// from g: so its expected value is t. p = 1 zeroes everything. The mask
// is a constant: the gradient flows through the elements kept, scaled
// alike.
func (g *Generator) Dropout(t *Tensor, p float64) (*Tensor, error) {
	if !(p >= 0 && p <= 1) {
		return nil, errorf("dropout", ErrValue, "the probability p must be from 0 to 1, got %s", words.Number(p))
	}
	mask := newTensor(t.shape)
	keep := 1 / (1 - p) // never used when p = 1
	for i := range mask.data {
		if g.uniform() >= p {
			mask.data[i] = keep
		}
	}
	return t.Mul(mask)
}
