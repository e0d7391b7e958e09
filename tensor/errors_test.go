package tensor_test

import (
	"errors"
	"math"
	"testing"

	"gradbook/engine"
	. "gradbook/tensor"
)

// TestBadInput: what a learner can get wrong is an error that names the op
// and both shapes or the bad value, never a panic.
func TestBadInput(t *testing.T) {
	zeros := func(shape ...int) *Tensor { return Must(Zeros(shape...)) }
	a, b := zeros(32, 30), zeros(64, 27)
	idx := ints([]int{3}, 0, 2, 27)
	tests := []struct {
		name string
		f    func() error
		kind error
		says string // the whole message
	}{
		{"matmul", func() error { _, err := a.Matmul(b); return err }, ErrShape,
			"matmul: shapes (32, 30) and (64, 27) do not fit: 30 ≠ 64"},
		{"matmul 1-d", func() error { _, err := zeros(3).Matmul(zeros(4)); return err }, ErrShape,
			"matmul: shapes (3,) and (4,) do not fit: 3 ≠ 4"},
		{"matmul scalar", func() error { _, err := zeros().Matmul(zeros(4)); return err }, ErrShape,
			"matmul: shapes () and (4,): a scalar has no matrix product; use mul"},
		{"matmul batched", func() error { _, err := zeros(2, 3, 4).Matmul(zeros(3, 4, 5)); return err }, ErrShape,
			"matmul: shapes (2, 3, 4) and (3, 4, 5): their batch dimensions (2,) and (3,) do not broadcast"},
		{"matmul batched, too large", func() error { _, err := zeros(1<<13, 1, 1, 1).Matmul(zeros(1<<13, 1, 1)); return err }, ErrTooLarge,
			"matmul: shapes (8192, 1, 1, 1) and (8192, 1, 1): the result would have more than 33,554,432 elements"},
		{"add", func() error { _, err := zeros(32, 27).Add(zeros(32)); return err }, ErrShape,
			"add: shapes (32, 27) and (32,) do not broadcast: 27 ≠ 32 in the last dimension from the end"},
		{"mul", func() error { _, err := zeros(2, 3, 4).Mul(zeros(5, 4)); return err }, ErrShape,
			"mul: shapes (2, 3, 4) and (5, 4) do not broadcast: 3 ≠ 5 in the 2nd dimension from the end"},
		{"broadcast too large", func() error { _, err := zeros(100000, 1).Sub(zeros(1, 100000)); return err }, ErrTooLarge,
			"sub: shape (100000, 100000) has more than 33,554,432 elements"},
		{"sum axis", func() error { _, err := zeros(3, 4).Sum(2, false); return err }, ErrAxis,
			"sum: axis 2 is out of range for shape (3, 4): use 0 to 1, or -2 to -1"},
		{"mean axis", func() error { _, err := zeros(3, 4).Mean(-3, true); return err }, ErrAxis,
			"mean: axis -3 is out of range for shape (3, 4): use 0 to 1, or -2 to -1"},
		{"sum of a scalar", func() error { _, err := zeros().Sum(0, false); return err }, ErrAxis,
			"sum: axis 0 is out of range: a scalar has no axes"},
		{"max empty", func() error { _, _, err := zeros(3, 0).Max(1, false); return err }, ErrShape,
			"max: axis 1 of shape (3, 0) is empty: an empty axis has no max"},
		{"max all empty", func() error { _, _, err := zeros(0).MaxAll(); return err }, ErrShape,
			"max: a tensor of shape (0,) is empty: it has no max"},
		{"reshape", func() error { _, err := zeros(32, 3, 10).Reshape(32, 31); return err }, ErrShape,
			"reshape: cannot reshape a tensor of shape (32, 3, 10) (960 elements) into (32, 31) (992 elements)"},
		{"reshape -1", func() error { _, err := zeros(32, 3, 10).View(7, -1); return err }, ErrShape,
			"reshape: cannot reshape a tensor of shape (32, 3, 10) (960 elements) into (7, -1): 960 is not a multiple of 7"},
		{"reshape two -1", func() error { _, err := zeros(4).Reshape(-1, -1); return err }, ErrShape,
			"reshape: cannot reshape a tensor of shape (4,) (4 elements) into (-1, -1): only one dimension can be -1"},
		{"reshape negative", func() error { _, err := zeros(4).Reshape(-2, -2); return err }, ErrShape,
			"reshape: cannot reshape a tensor of shape (4,) (4 elements) into (-2, -2): a dimension is negative"},
		{"index range", func() error { _, err := zeros(3, 4).Index(At(3)); return err }, ErrIndex,
			"index: index 3 is out of range for axis 0 of size 3"},
		{"index negative", func() error { _, err := zeros(3, 4).Index(All(), At(-5)); return err }, ErrIndex,
			"index: index -5 is out of range for axis 1 of size 4"},
		{"index too many", func() error { _, err := zeros(3).Index(At(0), At(0)); return err }, ErrIndex,
			"index: 2 indices for a tensor of shape (3,)"},
		{"slice step 0", func() error { _, err := zeros(3).Index(SliceStep(0, 3, 0)); return err }, ErrIndex,
			"index: the slice for axis 0 has step 0"},
		{"take range", func() error { _, err := zeros(27, 10).Take(idx); return err }, ErrIndex,
			"take: index 27 at (2,) of the index tensor is out of range for axis 0 of size 27"},
		{"take not whole", func() error { _, err := zeros(27, 10).Take(ints([]int{2, 2}, 0, 1, 2.5, 3)); return err }, ErrIndex,
			"take: index 2.5 at (1, 0) of the index tensor is not a whole number"},
		{"take NaN", func() error { _, err := zeros(27).Take(ints([]int{1}, math.NaN())); return err }, ErrIndex,
			"take: index nan at (0,) of the index tensor is not a whole number"},
		{"take shapes", func() error {
			_, err := zeros(4, 5).Take(ints([]int{4}, 0, 1, 2, 3), ints([]int{3}, 0, 1, 2))
			return err
		}, ErrShape,
			"take: index tensors 1 and 2 have shapes (4,) and (3,); they must have one shape"},
		{"take too many", func() error { _, err := zeros(4).Take(idx, idx); return err }, ErrIndex,
			"take: 2 index tensors for a tensor of shape (4,): give 1 to 1"},
		{"one_hot range", func() error { _, err := OneHot(idx, 27); return err }, ErrIndex,
			"one_hot: index 27 at (2,) of the index tensor is out of range for 27 classes (0 to 26)"},
		{"one_hot negative", func() error { _, err := OneHot(ints([]int{1}, -1), 27); return err }, ErrIndex,
			"one_hot: index -1 at (0,) of the index tensor is out of range for 27 classes (0 to 26)"},
		{"one_hot classes", func() error { _, err := OneHot(idx, 0); return err }, ErrValue,
			"one_hot: the number of classes must be at least 1, got 0"},
		{"cross_entropy targets", func() error { _, err := CrossEntropy(zeros(32, 27), zeros(27)); return err }, ErrShape,
			"cross_entropy: logits of shape (32, 27) need targets of shape (32,), got (27,)"},
		{"cross_entropy logits", func() error { _, err := CrossEntropy(zeros(27), zeros(27)); return err }, ErrShape,
			"cross_entropy: the logits must be (rows, classes), at least (1, 1), got (27,)"},
		{"cross_entropy range", func() error { _, err := CrossEntropy(zeros(3, 27), idx); return err }, ErrIndex,
			"cross_entropy: index 27 at (2,) of the index tensor is out of range for 27 classes (0 to 26)"},
		{"cat shapes", func() error { _, err := Cat(0, zeros(2, 3), zeros(2, 4)); return err }, ErrShape,
			"cat: shapes (2, 3) and (2, 4) (tensors 1 and 2) differ outside axis 0"},
		{"cat ranks", func() error { _, err := Cat(0, zeros(2, 3), zeros(3)); return err }, ErrShape,
			"cat: shapes (2, 3) and (3,) (tensors 1 and 2) differ outside axis 0"},
		{"cat axis", func() error { _, err := Cat(1, zeros(2), zeros(3)); return err }, ErrAxis,
			"cat: axis 1 is out of range for shape (2,): use 0 to 0, or -1 to -1"},
		{"cat scalars", func() error { _, err := Cat(0, zeros(), zeros()); return err }, ErrShape,
			"cat: scalars have no axis to join along; reshape them to (1,) first"},
		{"cat nothing", func() error { _, err := Cat(0); return err }, ErrShape,
			"cat: no tensors to join"},
		{"zeros negative", func() error { _, err := Zeros(3, -1); return err }, ErrValue,
			"full: negative dimension -1 in shape (3, -1)"},
		{"zeros huge", func() error { _, err := Zeros(1<<20, 1<<20, 1<<20); return err }, ErrTooLarge,
			"full: shape (1048576, 1048576, 1048576) has more than 33,554,432 elements"},
		{"new", func() error { _, err := New([]float64{1, 2, 3}, 2, 2); return err }, ErrShape,
			"new: 3 values do not fill shape (2, 2) (4 elements)"},
		{"arange", func() error { _, err := Arange(0, 10, 0); return err }, ErrValue,
			"arange: start, stop and step must be finite and step not 0, got 0, 10, 0"},
		{"randint", func() error { _, err := NewGenerator(1).RandInt(5, 5, 3); return err }, ErrValue,
			"randint: high (5) must be more than low (5)"},
		{"randn negative", func() error { _, err := Randn(1, -3); return err }, ErrValue,
			"full: negative dimension -3 in shape (-3,)"},
		{"ragged", func() error { _, err := FromNested([]any{[]any{1.0, 2.0}, []any{3.0}}); return err }, ErrShape,
			"from_nested: ragged list: element [1] has 1 element where the first has 2 (every row must have the same shape)"},
		{"ragged deeper", func() error {
			_, err := FromNested([]any{[]any{[]float64{1, 2}, []float64{3, 4}}, []any{[]float64{1, 2}, []float64{3}}})
			return err
		}, ErrShape, "from_nested: ragged list: element [1][1] has 1 element where the first has 2 (every row must have the same shape)"},
		{"ragged number", func() error { _, err := FromNested([]any{[]any{1.0}, 2.0}); return err }, ErrShape,
			"from_nested: ragged list: element [1] is a number where the others are lists of 1 (every row must have the same shape)"},
		{"ragged list", func() error { _, err := FromNested([]any{1.0, []any{2.0}}); return err }, ErrShape,
			"from_nested: ragged list: element [1] is a list where the others hold numbers (every row must have the same shape)"},
		{"not a number", func() error { _, err := FromNested([]any{1.0, "2"}); return err }, ErrValue,
			"from_nested: element [1] is a string, not a number or a list"},
		{"item", func() error { _, err := zeros(2).Item(); return err }, ErrShape,
			"item: a tensor of shape (2,) has 2 elements, not 1"},
		{"at", func() error { _, err := zeros(2, 3).At(1, 3); return err }, ErrIndex,
			"at: index 3 is out of range for axis 1 of size 3"},
		{"backward no graph", func() error { return zeros(1).Backward() }, ErrGrad,
			"backward: the tensor does not require a gradient and has no graph: call SetRequiresGrad(true) on the parameters before the ops that use them"},
		{"backward not scalar", func() error { return zeros(2, 3).SetRequiresGrad(true).Exp().Backward() }, ErrGrad,
			"backward: a tensor of shape (2, 3) is not a single number: reduce it to a loss first (sum, mean), or give its gradient"},
		{"backward gradient shape", func() error {
			return zeros(2, 3).SetRequiresGrad(true).Exp().BackwardWith(zeros(3, 2), engine.Accumulate)
		}, ErrShape, "backward: the gradient has shape (3, 2) but the tensor (2, 3)"},
		{"tangent shape", func() error { return zeros(2).SetTangent(zeros(3)) }, ErrShape,
			"set_tangent: the tangent has shape (3,) but the tensor (2,)"},
		{"softmax axis", func() error { _, err := zeros(2, 3).Softmax(2); return err }, ErrAxis,
			"softmax: axis 2 is out of range for shape (2, 3): use 0 to 1, or -2 to -1"},
		{"masked_fill mask", func() error { _, err := zeros(2, 4).MaskedFill(zeros(3), 0); return err }, ErrShape,
			"masked_fill: a mask of shape (3,) does not broadcast to the tensor's shape (2, 4)"},
		{"masked_fill mask larger", func() error { _, err := zeros(4).MaskedFill(zeros(2, 4), 0); return err }, ErrShape,
			"masked_fill: a mask of shape (2, 4) does not broadcast to the tensor's shape (4,)"},
		{"layer_norm weight", func() error { _, err := LayerNorm(zeros(2, 4), zeros(2), nil, 1e-5); return err }, ErrShape,
			"layer_norm: the weight has shape (2,); for a tensor of shape (2, 4) it must be (4,)"},
		{"layer_norm scalar", func() error { _, err := LayerNorm(zeros(), nil, nil, 1e-5); return err }, ErrShape,
			"layer_norm: a tensor of shape () has no last dimension to normalize over"},
		{"layer_norm eps", func() error { _, err := LayerNorm(zeros(3), nil, nil, math.NaN()); return err }, ErrValue,
			"layer_norm: eps must be a number ≥ 0, got nan"},
		{"transpose axis", func() error { _, err := zeros(2, 3).Transpose(0, -3); return err }, ErrAxis,
			"transpose: axis -3 is out of range for shape (2, 3): use 0 to 1, or -2 to -1"},
		{"linear weight", func() error { _, err := Linear(zeros(2, 4), zeros(3, 5), nil); return err }, ErrShape,
			"linear: an input of shape (2, 4) and a weight of shape (3, 5) do not fit: the weight must be (out, 4)"},
		{"linear bias", func() error { _, err := Linear(zeros(2, 4), zeros(3, 4), zeros(4)); return err }, ErrShape,
			"linear: the bias has shape (4,); for a weight of shape (3, 4) it must be (3,)"},
		{"compare shapes", func() error { _, _, _, err := Compare(zeros(64), zeros(1, 64)); return err }, ErrShape,
			"compare: shapes (64,) and (1, 64) differ"},
		{"compare nil", func() error { _, _, _, err := Compare(zeros(64), zeros(64).Grad); return err }, ErrValue,
			"compare: nothing to compare: a tensor is nil (no gradient yet?)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.f()
			if err == nil {
				t.Fatalf("no error; want %q", tc.says)
			}
			if err.Error() != tc.says {
				t.Errorf("error\n %s\nwant\n %s", err, tc.says)
			}
			if !errors.Is(err, tc.kind) {
				t.Errorf("error %q is not %v", err, tc.kind)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("error %q is not an *Error", err)
			}
		})
	}
}
