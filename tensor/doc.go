// Package tensor is Gradbook's tensors: n-dimensional arrays of float64
// with reverse-mode and forward-mode automatic differentiation, for the
// lessons that go from Values to tensors and on to "Becoming a backprop
// ninja" (makemore part 4). Names and semantics are NumPy's and PyTorch's
// (broadcasting, keepdims, @, .T, view, C[Xb], logprobs[range(n), Yb]),
// so that a learner's habits carry over. It is pure Go: the cell language
// reaches it through a binding.
//
//	W := tensor.Must(tensor.Randn(1, 3, 2)).SetRequiresGrad(true)
//	x := tensor.Must(tensor.FromNested([]any{[]float64{1, 2, 3}}))
//	h, err := x.Matmul(W) // (1, 3) @ (3, 2): (1, 2)
//	if err != nil {
//		return err // "matmul: shapes (1, 3) and (4, 2) do not fit: 3 ≠ 4"
//	}
//	loss := h.Tanh().SumAll()
//	err = loss.Backward() // W.Grad is d loss / d W, of W's shape
//
// # Tensors
//
// A Tensor holds its elements in one flat slice in row-major order, and a
// shape: [] for a scalar, [n] for a vector, [rows, cols] for a matrix.
// Make one from nested lists (FromNested), from a flat slice (New), with
// Zeros, Ones, Full, ZerosLike, OnesLike, Scalar, Arange, or at random
// from a seeded Generator (Randn, Rand, RandInt), whose numbers are the
// same on every platform, natively and in WebAssembly.
//
// # Ops
//
// Each op is one entry of the table in ops.go, the way engine/ops.go
// writes a scalar one: its forward rule, its vector-Jacobian product
// (reverse mode), its Jacobian-vector product (forward mode) and its
// expansion into the scalar engine, side by side. The elementwise ops are
// the scalar engine's, by name: the table's helpers apply its forward
// rules and local derivatives (engine.Rule) element by element, so that
// each rule is written once, in engine/ops.go:
//
//	add sub mul div      a∘b, broadcasting NumPy's way
//	neg exp log tanh     elementwise
//	relu                 derivative 0 at exactly 0
//	sigmoid
//	pow                  by a constant exponent, negative or fractional too
//	matmul               @, NumPy's matmul: of 1-d and 2-d tensors, and
//	                     stacks of matrices with batch dimensions broadcast
//	sum                  over an axis or all, keepdims or not
//	max                  over an axis or all: values and indices; the
//	                     gradient goes to the first of equal maxima
//	transpose            .T: the axes reversed; Transpose: two of them swapped
//	reshape              view, with one −1 worked out; shares storage
//	index                basic indexing of the leading axes: t[1], t[:, 2], t[1:3, ::-1]
//	take                 integer-array indexing: C[Xb], logprobs[range(n), Yb]
//	cat                  joined along an axis
//	cross_entropy        fused and stable, the mean over rows
//	softmax              along a dim, stable
//	masked_fill          a value where a mask is not 0 (attention's causal mask)
//	layer_norm           over the last dim, with weight and bias
//	linear               x·Wᵀ + b, PyTorch's F.linear, one op
//
// Mean (sum divided by the count) is built from them, and so are Tril (a
// masked fill), Stack (reshapes and a cat) and a Generator's Dropout (a
// product with a drawn mask), in compose.go; OneHot makes a constant.
//
// Broadcasting: shapes are aligned at their last dimension, and a
// dimension of 1, or a missing one, is stretched to match. The gradient of
// a stretched input is the sum over the dimensions it was stretched along;
// the elementwise ops share that one rule.
//
// Index tensors (for Take, OneHot, CrossEntropy's targets) are ordinary
// tensors holding whole numbers, as the cell language has one kind of
// tensor; each element is checked (whole, in range) and a bad one is an
// error that says which. Max's indices are such a tensor.
//
// # Gradients
//
// An op records itself in its output when one of its inputs requires a
// gradient: a leaf marked with SetRequiresGrad, or a tensor made from
// one. Backward on a one-element tensor (a loss), or BackwardWith a
// gradient of the output's shape, runs the chain rule back through the
// recorded graph and adds the gradient to the Grad of every leaf that
// requires one. Gradients accumulate across Backward calls, as in
// PyTorch: ZeroGrad each parameter between training steps. An
// intermediate keeps its gradient when asked with RetainGrad (RetainGrads
// asks for every tensor of a graph, for comparing each step with a
// gradient worked out by hand). Detach cuts a graph. The graph is kept
// after Backward, so Backward may run again.
//
// BackwardWith takes an engine.Mode: engine.OverwriteBug is the teaching
// mode of the scalar engine, here too, in which each contribution
// replaces a gradient instead of adding to it.
//
// Forward mode needs no graph: SetTangent seeds a direction on a tensor,
// every op made from it applies its jvp rule as it runs, and Tangent
// returns the directional derivative of a result.
//
// # The scalar engine
//
// Scalars expands a computation into the scalar engine's Values, one per
// element of every tensor, each built by its op's scalar rule: a small
// tensor computation can be drawn as its scalar graph, and the scalar
// engine is the oracle for every tensor rule. The tests check every op, on
// random inputs and shapes (broadcasting included), against it to 1e-12,
// and the tangents against the reverse gradients and central differences.
// Compare compares a gradient worked out by hand with autograd's, as the
// ninja notebook's cmp does.
//
// # Matrix products
//
// Every matrix product, matmul's forward product, its two backward
// products dA = dC·Bᵀ and dB = Aᵀ·dC and its tangent, is one Product: a
// batch of C += A·B with each operand given by its storage and strides,
// so that transposes are read in place. Product.Plain computes it with
// plain Go loops; a program may install a faster Kernel with SetKernel
// (gradbook.wasm installs WebAssembly SIMD kernels, package wasm/kernels),
// which must give Plain's numbers to the last bit: every element of C is
// added up in one order, defined by Product. A product runs as a loop of
// calls over panels of at most PanelWork multiply-adds, so that a long
// one can be stopped between them: a Budget's Matmul, Linear and Backward
// ask it before each panel, and stop when it says so (a notebook's run
// keeps its time limit that way, without the package knowing of it).
//
// # Errors
//
// Bad input (shapes that do not fit, an axis or an index out of range, an
// index that is not a whole number, a reshape of the wrong size) is
// reported, never a panic: each error is an *Error that names the op and
// both shapes or the bad value, and wraps one of the Err variables for
// errors.Is. Panics are internal bugs; Must panics, for Go code whose
// shapes are known to fit.
//
// # Speed
//
// Elements live in flat []float64 slices and the loops over them allocate
// nothing: an op allocates its output (with its node, in one allocation)
// and a little bookkeeping. Backward takes each intermediate's gradient
// when its first contribution comes and gives it back, for a later one of
// the same size, once passed on, so that the gradients alive at once are
// a cut through the graph. The elementwise ops a step makes most of run
// plain loops, the op chosen outside them (fast.go), transposes read
// their input by strides, softmax and cross-entropy call exp (math.Exp to
// the bit, without its Ldexp under WebAssembly), and matrix products go
// to the installed Kernel. A training step of the ninja notebook's MLP at
// batch 32 (BenchmarkMLPStep: forward in its small steps, backward, SGD)
// allocates 145 times (335 KB) and takes about 0.5 ms as wasm in Node;
// the lecture-sized GPT step (BenchmarkGPTStep) about 10 ms in Chromium
// with the SIMD kernels.
package tensor
