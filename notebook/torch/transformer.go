package torch

// This file is what a transformer's PyTorch code asks of tensors beyond
// an MLP's: transposes of a stack of matrices, masks, torch.tril,
// torch.stack, F.embedding and F.dropout. Subscripts of several axes,
// x[:, -1], are in tensor.go's index.

import (
	"fmt"

	"go.starlark.net/starlark"

	"gradbook/notebook/values"
	"gradbook/tensor"
)

// transposed is t.T: a matrix's transpose, and for a stack of matrices
// (3 dimensions or more) each matrix's, as t.mT. PyTorch's own .T
// reverses every axis there, and is deprecated for it: (B, T, C).T would
// be (C, T, B), which a transformer's code never wants.
func (x *Tensor) transposed() (starlark.Value, error) {
	if x.t.NDim() > 2 {
		return x.matrixTransposed()
	}
	return x.p.wrap(x.t.T()), nil
}

// matrixTransposed is t.mT: the last two dimensions swapped.
func (x *Tensor) matrixTransposed() (starlark.Value, error) {
	if x.t.NDim() < 2 {
		return nil, fmt.Errorf("mT: a tensor of shape %s is no matrix: mT needs at least 2 dimensions", tensor.ShapeString(x.t.Shape()))
	}
	return x.wrapErr(x.t.Transpose(-2, -1))
}

// transpose is t.transpose(dim0, dim1): the two dimensions swapped.
func (x *Tensor) transpose(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var d0, d1 int
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "dim0", &d0, "dim1", &d1); err != nil {
		return nil, err
	}
	return x.wrapErr(x.t.Transpose(d0, d1))
}

// maskedFill is t.masked_fill(mask, value): value where the mask is not
// 0 (True), the tensor's own elements elsewhere.
func (x *Tensor) maskedFill(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var mask, value starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "mask", &mask, "value", &value); err != nil {
		return nil, err
	}
	m, ok := mask.(*Tensor)
	if !ok {
		if _, isBool := mask.(starlark.Bool); isBool {
			return nil, fmt.Errorf("%s: the mask is %s, not a tensor: == compares whole values here, so tril == 0 is one True or False; write tril.eq(0) for the tensor of where tril is 0", b.Name(), mask)
		}
		return nil, fmt.Errorf("%s: the mask must be a tensor, got %s", b.Name(), mask.Type())
	}
	v, ok := values.AsFloat(value)
	if !ok {
		return nil, fmt.Errorf("%s: the value must be a number (float('-inf') for attention's mask), got %s", b.Name(), value.Type())
	}
	return x.wrapErr(x.t.MaskedFill(m.t, v))
}

// eq is t.eq(other): 1 where t equals other (a number, or a tensor that
// broadcasts with t), 0 elsewhere, as PyTorch's elementwise ==, which
// Starlark's == is not. The result is a constant: no gradient flows
// through a comparison.
func (x *Tensor) eq(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 || len(kwargs) != 0 {
		return nil, fmt.Errorf("%s: give one number or tensor to compare with", b.Name())
	}
	u, err := asTensor(b.Name(), args[0])
	if err != nil {
		return nil, err
	}
	d, err := x.t.Detach().Sub(u.Detach())
	if err != nil {
		return nil, err
	}
	out := tensor.ZerosLike(d)
	for i, v := range d.Data() {
		if v == 0 {
			out.Data()[i] = 1
		}
	}
	return x.p.wrap(out), nil
}

// torchTril is torch.tril(t, diagonal=0).
func torchTril(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x *Tensor
	diagonal := 0
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "input", &x, "diagonal?", &diagonal); err != nil {
		return nil, err
	}
	return x.wrapErr(x.t.Tril(diagonal))
}

// functionalEmbedding is F.embedding(input, weight): the rows of weight
// that input's whole numbers pick, weight[input], of input's shape
// followed by a row's.
func functionalEmbedding(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var input, weight *Tensor
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "input", &input, "weight", &weight); err != nil {
		return nil, err
	}
	if weight.t.NDim() != 2 {
		return nil, fmt.Errorf("%s: the weight must be a table of rows (num_embeddings, embedding_dim), got shape %s", b.Name(), tensor.ShapeString(weight.t.Shape()))
	}
	return weight.wrapErr(weight.t.Take(input.t))
}

// functionalDropout is F.dropout(input, p=0.5, training=False): the
// input as it is unless training=True, and then each element zeroed with
// probability p and the others scaled by 1/(1 − p), the mask drawn from
// torch's seeded generator. PyTorch's F.dropout trains by default; here
// it does not, so that a model's forward pass evaluates unless told.
func functionalDropout(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x *Tensor
	p, training := 0.5, false
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "input", &x, "p?", &p, "training?", &training); err != nil {
		return nil, err
	}
	if !(p >= 0 && p <= 1) {
		return nil, fmt.Errorf("%s: p is the probability of zeroing an element, from 0 to 1, got %v", b.Name(), p)
	}
	if !training {
		return x, nil
	}
	g, err := generatorOf(thread, b.Name())
	if err != nil {
		return nil, err
	}
	return x.wrapErr(g.Dropout(x.t, p))
}

// tensorsOf reads a list of tensors.
func tensorsOf(name string, list starlark.Iterable) ([]*tensor.Tensor, error) {
	var ts []*tensor.Tensor
	it := list.Iterate()
	defer it.Done()
	var v starlark.Value
	for it.Next(&v) {
		t, err := tensorOf(name, v)
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
	}
	return ts, nil
}
