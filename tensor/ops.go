package tensor

import (
	"math"
	"strconv"

	"gradbook/engine"
)

// opcode identifies an operation: its index in ops.
type opcode uint8

const (
	opAdd opcode = iota
	opSub
	opMul
	opDiv
	opNeg
	opPow
	opExp
	opLog
	opTanh
	opRelu
	opSigmoid
	opMatmul
	opSum
	opMax
	opTranspose
	opReshape
	opIndex
	opTake
	opCat
	opCrossEntropy
	opSoftmax
	opMaskedFill
	opLayerNorm
	opLinear
	numOps
)

// A node is the record of one op applied to its inputs. The op's
// constructor (api.go) checks the inputs, works out the output's shape and
// fills in the parameters here; the rules in ops do the arithmetic.
type node struct {
	op    opcode
	in    []*Tensor
	k     float64   // pow: the exponent; masked_fill: the value; layer_norm: eps
	bc    bcast     // binary ops: where each output element comes from; matmul: each product's matrices; masked_fill: the mask's elements
	src   []int32   // gathers (max, transpose, index, take): the input offset of each output element; a transpose's only once needed (source)
	dim   [3]int    // sum, softmax: outer, n, inner; matmul: m, k, n; cat: outer; cross_entropy: rows, classes; layer_norm: rows, columns; linear: rows, in, out; masked_fill: the period of a repeated mask, or 0
	sizes []int     // cat: the size of each input's block, its length along the axis times the inner size; transpose: the input's stride along each dim of the output
	aux   []float64 // cross_entropy: the softmax of the logits; masked_fill: the mask; layer_norm: each row's μ, then each row's r
	tgt   []int32   // cross_entropy: the targets
	// budget bounds the products of matmul and linear while the node is
	// computed (forward, tangent or gradient), nil otherwise.
	budget Budget
}

// An op is one tensor operation, written as engine/ops.go writes a scalar
// one: its forward rule, its reverse rule and its forward-mode rule side
// by side, and its expansion into the scalar engine.
type op struct {
	name  string
	arity int // 0: any number of inputs (cat)
	// forward computes y.data (zeroed, of the output's shape) from the
	// inputs n.in.
	forward func(n *node, y *Tensor)
	// vjp is the vector-Jacobian product: it adds gy·∂y/∂xᵢ, gy being the
	// gradient of the output, to gx[i], the gradient of input i, which is
	// nil when input i needs no gradient.
	vjp func(n *node, y *Tensor, gy []float64, gx [][]float64)
	// jvp is the Jacobian-vector product: it adds Σᵢ ∂y/∂xᵢ·tx[i] to ty
	// (zeroed), tx[i] being the tangent of input i (zeros if it has none).
	jvp func(n *node, y *Tensor, tx [][]float64, ty []float64)
	// scalars builds every output element as an *engine.Value from xs[i],
	// the Values of input i's elements in row-major order; an element that
	// is a copy of an input element is that very Value.
	scalars func(n *node, y *Tensor, xs [][]*engine.Value) []*engine.Value
}

// The ops, one entry each. The elementwise ones are the scalar engine's
// own, by name: binary and unary apply its forward rules and local
// derivatives (engine.Rule) element by element, so that each is written
// once, in engine/ops.go.
var ops = [numOps]op{
	opAdd:     binary("add"),
	opSub:     binary("sub"),
	opMul:     binary("mul"),
	opDiv:     binary("div"),
	opNeg:     unary("neg"),
	opPow:     unary("pow"), // by a constant k: BatchNorm's (var+eps)^-0.5, softmax's sum^-1
	opExp:     unary("exp"),
	opLog:     unary("log"),
	opTanh:    unary("tanh"),
	opRelu:    unary("relu"), // derivative 0 at exactly 0
	opSigmoid: unary("sigmoid"),

	// matmul: y = a @ b for a (…, m, k) and b (…, k, n), the leading
	// (batch) dimensions broadcast; a 1-d a is a row (1, k), a 1-d b a
	// column (k, 1), and their 1 is dropped from y. Each product is a
	// Product (matmul.go), which a Kernel may compute.
	opMatmul: {"matmul", 2,
		func(n *node, y *Tensor) { matmulForward(n, y.data, n.in[0].data, n.in[1].data) },
		func(n *node, _ *Tensor, gy []float64, gx [][]float64) {
			matmulBackward(n, gy, n.in[0].data, n.in[1].data, gx[0], gx[1]) // ga += gy @ bᵀ, gb += aᵀ @ gy
		},
		func(n *node, y *Tensor, tx [][]float64, ty []float64) {
			matmulForward(n, ty, tx[0], n.in[1].data) // ty = ta @ b + a @ tb
			matmulForward(n, ty, n.in[0].data, tx[1])
		},
		matmulScalars},

	// sum over one axis or all of them: the input is read as (outer, n,
	// inner) and summed over its n; the gradient goes back to each of the n.
	opSum: {"sum", 1,
		func(n *node, y *Tensor) { sum(y.data, n.in[0].data, n.dim) },
		func(n *node, _ *Tensor, gy []float64, gx [][]float64) {
			outer, k, inner := n.dim[0], n.dim[1], n.dim[2]
			g := gx[0]
			for o := range outer {
				row := gy[o*inner : (o+1)*inner]
				for p := range k {
					addTo(g[(o*k+p)*inner:(o*k+p+1)*inner], row)
				}
			}
		},
		func(n *node, _ *Tensor, tx [][]float64, ty []float64) { sum(ty, tx[0], n.dim) },
		func(n *node, _ *Tensor, xs [][]*engine.Value) []*engine.Value {
			outer, k, inner := n.dim[0], n.dim[1], n.dim[2]
			out := make([]*engine.Value, outer*inner)
			for o := range outer {
				for j := range inner {
					var s *engine.Value
					for p := range k {
						s = plus(s, xs[0][(o*k+p)*inner+j])
					}
					out[o*inner+j] = orZero(s)
				}
			}
			return out
		}},

	// The gathers, y[i] = x[src[i]], differ only in how their constructor
	// works out src: max's is the argmax (first of ties) along the axis,
	// transpose's the axes reversed, index's a basic index of the leading
	// axes, take's an integer-array index, C[Xb] or logprobs[rows, cols].
	opMax:       gather("max"),
	opTranspose: gather("transpose"),
	opIndex:     gather("index"),
	opTake:      gather("take"),

	// reshape: the same elements in the same order under another shape;
	// y shares x's storage, so there is nothing to compute.
	opReshape: {"reshape", 1,
		func(*node, *Tensor) {},
		func(_ *node, _ *Tensor, gy []float64, gx [][]float64) { addTo(gx[0], gy) },
		func(_ *node, _ *Tensor, tx [][]float64, ty []float64) { copy(ty, tx[0]) },
		func(_ *node, _ *Tensor, xs [][]*engine.Value) []*engine.Value { return xs[0] }},

	// cat along an axis: each of the outer rows of y holds one block of
	// every input in turn (sizes[i] elements of input i).
	opCat: {"cat", 0,
		func(n *node, y *Tensor) {
			xs := make([][]float64, len(n.in))
			for i, x := range n.in {
				xs[i] = x.data
			}
			catBlocks(y.data, xs, n.dim[0], n.sizes)
		},
		func(n *node, _ *Tensor, gy []float64, gx [][]float64) {
			off := 0
			for o := range n.dim[0] {
				for i, s := range n.sizes {
					if gx[i] != nil {
						addTo(gx[i][o*s:(o+1)*s], gy[off:off+s])
					}
					off += s
				}
			}
		},
		func(n *node, _ *Tensor, tx [][]float64, ty []float64) { catBlocks(ty, tx, n.dim[0], n.sizes) },
		func(n *node, y *Tensor, xs [][]*engine.Value) []*engine.Value {
			out := make([]*engine.Value, len(y.data))
			catBlocks(out, xs, n.dim[0], n.sizes)
			return out
		}},

	// cross_entropy(logits, targets): the mean over the rows of
	// log Σⱼ exp(xⱼ) − x[target], computed as m + log Σⱼ exp(xⱼ − m) with m
	// the row's max so that exp cannot overflow (m cancels out of the
	// value and the gradient). The gradient of a row is (softmax − onehot)
	// divided by the number of rows.
	opCrossEntropy: {"cross_entropy", 1,
		func(n *node, y *Tensor) {
			rows, c := n.dim[0], n.dim[1]
			x, p := n.in[0].data, n.aux
			total := 0.0
			for r := range rows {
				row := x[r*c : (r+1)*c]
				m, s := softmaxRow(p[r*c:(r+1)*c], row)
				total += math.Log(s) + m - row[n.tgt[r]]
			}
			y.data[0] = total / float64(rows)
		},
		func(n *node, _ *Tensor, gy []float64, gx [][]float64) {
			rows, c := n.dim[0], n.dim[1]
			g, gl, p := gy[0]/float64(rows), gx[0][:len(n.aux)], n.aux
			n4 := len(p) &^ 3 // four elements a turn (fast.go)
			for i := 0; i < n4; i += 4 {
				gl, p := gl[i:i+4:i+4], p[i:i+4:i+4]
				gl[0] += g * p[0]
				gl[1] += g * p[1]
				gl[2] += g * p[2]
				gl[3] += g * p[3]
			}
			for i := n4; i < len(p); i++ {
				gl[i] += g * p[i]
			}
			for r, t := range n.tgt {
				gx[0][r*c+int(t)] -= g
			}
		},
		func(n *node, y *Tensor, tx [][]float64, ty []float64) {
			rows, c := n.dim[0], n.dim[1]
			t := tx[0]
			total := 0.0
			for r := range rows {
				for j := range c {
					total += n.aux[r*c+j] * t[r*c+j]
				}
				total -= t[r*c+int(n.tgt[r])]
			}
			ty[0] = total / float64(rows)
		},
		func(n *node, _ *Tensor, xs [][]*engine.Value) []*engine.Value {
			rows, c := n.dim[0], n.dim[1]
			x := n.in[0].data
			var total *engine.Value
			for r := range rows {
				row := xs[0][r*c : (r+1)*c]
				m := row[argmax(x[r*c:(r+1)*c])].Detach()
				var s *engine.Value
				for _, v := range row {
					s = plus(s, v.Sub(m).Exp())
				}
				total = plus(total, s.Log().Add(m).Sub(row[n.tgt[r]]))
			}
			return []*engine.Value{total.Div(engine.NewValue(float64(rows), strconv.Itoa(rows)))}
		}},

	// A transformer's ops (nn.go).
	opSoftmax:    softmaxOp,
	opMaskedFill: maskedFillOp,
	opLayerNorm:  layerNormOp,
	opLinear:     linearOp,
}

// binary makes the elementwise op of the scalar engine's two-input op
// name, broadcasting its inputs NumPy's way. Its vjp is where
// broadcasting's backward rule lives, once for every elementwise op: the
// gradient of an input that was stretched along a dimension is the sum of
// the contributions along it, which is what adding each contribution in
// at the input's offset does.
//
// binary, unary and gather are not inlined, so that the closures they
// return are compiled once each, not once for every op (code size counts
// in WebAssembly).
//
//go:noinline
func binary(name string) op {
	f, d := engineRule(name, 2)
	return op{name, 2,
		func(n *node, y *Tensor) {
			a, b, c := n.in[0].data, n.in[1].data, &n.bc
			c.rows(func(i, ja, jb int) {
				for k, yk := 0, y.data[i:i+c.n]; k < len(yk); k++ {
					yk[k] = f(a[ja+k*c.da], b[jb+k*c.db], 0)
				}
			})
		},
		func(n *node, y *Tensor, gy []float64, gx [][]float64) {
			a, b, c := n.in[0].data, n.in[1].data, &n.bc
			ga, gb := gx[0], gx[1]
			c.rows(func(i, ja, jb int) {
				for k := range c.n {
					ka, kb := ja+k*c.da, jb+k*c.db
					da, db := d(a[ka], b[kb], 0, y.data[i+k])
					if ga != nil {
						ga[ka] += gy[i+k] * da
					}
					if gb != nil {
						gb[kb] += gy[i+k] * db
					}
				}
			})
		},
		func(n *node, y *Tensor, tx [][]float64, ty []float64) {
			a, b, c := n.in[0].data, n.in[1].data, &n.bc
			c.rows(func(i, ja, jb int) {
				for k := range c.n {
					ka, kb := ja+k*c.da, jb+k*c.db
					da, db := d(a[ka], b[kb], 0, y.data[i+k])
					ty[i+k] = tx[0][ka]*da + tx[1][kb]*db
				}
			})
		},
		func(n *node, y *Tensor, xs [][]*engine.Value) []*engine.Value {
			out := make([]*engine.Value, len(y.data))
			c := &n.bc
			c.rows(func(i, ja, jb int) {
				for k := range c.n {
					out[i+k] = scalar(name, xs[0][ja+k*c.da], xs[1][jb+k*c.db], 0)
				}
			})
			return out
		}}
}

// unary makes the elementwise op of the scalar engine's one-input op
// name, with the constant n.k (pow's exponent, else 0).
//
//go:noinline
func unary(name string) op {
	f, d := engineRule(name, 1)
	return op{name, 1,
		func(n *node, y *Tensor) {
			for i, a := range n.in[0].data {
				y.data[i] = f(a, a, n.k)
			}
		},
		func(n *node, y *Tensor, gy []float64, gx [][]float64) {
			for i, a := range n.in[0].data {
				da, _ := d(a, a, n.k, y.data[i])
				gx[0][i] += gy[i] * da
			}
		},
		func(n *node, y *Tensor, tx [][]float64, ty []float64) {
			for i, a := range n.in[0].data {
				da, _ := d(a, a, n.k, y.data[i])
				ty[i] = tx[0][i] * da
			}
		},
		func(n *node, _ *Tensor, xs [][]*engine.Value) []*engine.Value {
			out := make([]*engine.Value, len(xs[0]))
			for i, x := range xs[0] {
				out[i] = scalar(name, x, nil, n.k)
			}
			return out
		}}
}

// engineRule returns the forward rule and the local derivatives of the
// scalar engine's op name, which takes arity inputs.
func engineRule(name string, arity int) (func(a, b, k float64) float64, func(a, b, k, y float64) (float64, float64)) {
	f, d, ok := engine.Rule(name)
	if n, _ := engine.Arity(name); !ok || n != arity {
		panic("tensor: the engine has no op " + name + " of " + strconv.Itoa(arity) + " inputs")
	}
	return f, d
}

// scalar returns the Value of the scalar engine's op name applied to a
// (and b, for a two-input op) with the constant k.
func scalar(name string, a, b *engine.Value, k float64) *engine.Value {
	v := new(engine.Value)
	if !v.Make(name, a, b, k) {
		panic("tensor: the engine cannot make " + name)
	}
	return v
}

// gather makes an op y[i] = x[src[i]]. It is linear: its tangent is the
// same gather of the input's tangent, and its vjp adds each gradient back
// where the element came from, so that an element used twice (a row of an
// embedding picked by two indices) gets the sum.
//
//go:noinline
func gather(name string) op {
	return op{name, 1,
		func(n *node, y *Tensor) {
			x, src := n.in[0].data, n.source(y)
			yd := y.data[:len(src)]
			n4 := len(src) &^ 3 // four elements a turn (fast.go)
			for i := 0; i < n4; i += 4 {
				y, s := yd[i:i+4:i+4], src[i:i+4:i+4]
				y[0], y[1], y[2], y[3] = x[s[0]], x[s[1]], x[s[2]], x[s[3]]
			}
			for i := n4; i < len(src); i++ {
				yd[i] = x[src[i]]
			}
		},
		func(n *node, y *Tensor, gy []float64, gx [][]float64) {
			g, src := gx[0], n.source(y)
			gy = gy[:len(src)]
			n4 := len(src) &^ 3 // in order: an element taken twice gets its terms as they come
			for i := 0; i < n4; i += 4 {
				v, s := gy[i:i+4:i+4], src[i:i+4:i+4]
				g[s[0]] += v[0]
				g[s[1]] += v[1]
				g[s[2]] += v[2]
				g[s[3]] += v[3]
			}
			for i := n4; i < len(src); i++ {
				g[src[i]] += gy[i]
			}
		},
		func(n *node, y *Tensor, tx [][]float64, ty []float64) {
			t := tx[0]
			for i, s := range n.source(y) {
				ty[i] = t[s]
			}
		},
		func(n *node, y *Tensor, xs [][]*engine.Value) []*engine.Value {
			src := n.source(y)
			out := make([]*engine.Value, len(src))
			for i, s := range src {
				out[i] = xs[0][s]
			}
			return out
		}}
}

// source returns a gather's src. A transpose's is worked out from y's
// shape and n.sizes the first time it is needed: fast.go's loops walk
// the input by its strides without it.
func (n *node) source(y *Tensor) []int32 {
	if n.src == nil && n.op == opTranspose {
		n.src = walk(y.shape, n.sizes)
	}
	return n.src
}

// sum adds x, read as (outer, n, inner), summed over n, to y.
func sum(y, x []float64, dim [3]int) {
	outer, n, inner := dim[0], dim[1], dim[2]
	if inner == 1 {
		for o := range outer {
			s := y[o]
			for _, v := range x[o*n : (o+1)*n] {
				s += v
			}
			y[o] = s
		}
		return
	}
	for o := range outer {
		row := y[o*inner : (o+1)*inner]
		for p := range n {
			addTo(row, x[(o*n+p)*inner:(o*n+p+1)*inner])
		}
	}
}

// catBlocks fills dst with outer rows, each holding the next sizes[i]
// elements of every srcs[i] in turn.
func catBlocks[E any](dst []E, srcs [][]E, outer int, sizes []int) {
	off := 0
	for o := range outer {
		for i, s := range sizes {
			off += copy(dst[off:off+s], srcs[i][o*s:(o+1)*s])
		}
	}
}

// addTo adds src to dst, elementwise.
func addTo(dst, src []float64) {
	dst = dst[:len(src)]
	i := 0
	for ; i+8 <= len(src); i += 8 { // eight a turn: see fast.go
		d, s := dst[i:i+8:i+8], src[i:i+8:i+8]
		d[0] += s[0]
		d[1] += s[1]
		d[2] += s[2]
		d[3] += s[3]
		d[4] += s[4]
		d[5] += s[5]
		d[6] += s[6]
		d[7] += s[7]
	}
	for ; i < len(src); i++ {
		dst[i] += src[i]
	}
}

// addProducts adds a[i]·b[i] to dst[i] for each element of a, b at
// least as long: the gradient of a product, four a turn (fast.go).
func addProducts(dst, a, b []float64) {
	dst, b = dst[:len(a)], b[:len(a)]
	n := len(a) &^ 3
	for k := 0; k < n; k += 4 {
		d, a, b := dst[k:k+4:k+4], a[k:k+4:k+4], b[k:k+4:k+4]
		d[0] += a[0] * b[0]
		d[1] += a[1] * b[1]
		d[2] += a[2] * b[2]
		d[3] += a[3] * b[3]
	}
	for k := n; k < len(a); k++ {
		dst[k] += a[k] * b[k]
	}
}

// argmax returns the index of the largest element of a non-empty row, the
// first of equals; a NaN counts as the largest, as in NumPy.
func argmax(row []float64) int {
	best := 0
	for j, v := range row {
		if v > row[best] || v != v && row[best] == row[best] {
			best = j
		}
	}
	return best
}

// plus returns s + v, or v when s is nil: sums of Values that start from
// their first term, as the tensor loops, which start from 0, do in effect.
func plus(s, v *engine.Value) *engine.Value {
	if s == nil {
		return v
	}
	return s.Add(v)
}

// orZero returns s, or a constant 0 for an empty sum.
func orZero(s *engine.Value) *engine.Value {
	if s == nil {
		return engine.NewValue(0, "0")
	}
	return s
}
