package tensor

// This file holds the ops a transformer needs beyond the ninja's MLP:
// softmax over a dim, masked fill (attention's causal mask), layer norm,
// and transpose of two dims (a head's keys, kᵀ). Their entries in the op
// table (ops.go) are the op values here: forward rule, vector-Jacobian
// product, Jacobian-vector product and expansion into the scalar engine,
// side by side, as for every op.

import (
	"math"
	"strconv"

	"gradbook/engine"
	"gradbook/internal/words"
)

// softmaxOp: y = exp(x − m) / Σ exp(x − m) along one dim of x, read as
// (outer, n, inner) (n.dim, as sum's), m being the slice's max so that
// exp cannot overflow (it cancels out of the value and the gradient). The
// gradient of a slice is y·(gy − Σ gy·y), its tangent y·(tx − Σ y·tx).
var softmaxOp = op{"softmax", 1,
	func(n *node, y *Tensor) {
		x := n.in[0].data
		if n.dim[2] == 1 { // along the last dim: each slice a row of memory
			count := n.dim[1]
			if count == 0 {
				return
			}
			var ms, ss [64]float64 // the rows' maxes and sums, 64 rows at a time
			for base, rows := 0, len(y.data)/count; rows > 0; base, rows = base+64*count, rows-64 {
				k := min(rows, 64)
				softmaxRows(y.data[base:base+k*count], x[base:base+k*count], count, ms[:k], ss[:k])
			}
			return
		}
		alongAxis(n.dim, func(base, step, count int) {
			m := math.Inf(-1)
			for p := range count {
				if v := x[base+p*step]; v > m || v != v {
					m = v // the max, or a NaN, as math.Max gives
				}
			}
			s := 0.0
			for p := range count {
				e := exp(x[base+p*step] - m)
				y.data[base+p*step] = e
				s += e
			}
			for p := range count {
				y.data[base+p*step] /= s
			}
		})
	},
	func(n *node, y *Tensor, gy []float64, gx [][]float64) {
		if n.dim[2] == 1 { // along the last dim
			count := n.dim[1]
			n4 := count &^ 3 // four elements a turn (fast.go), in order
			for base := 0; base < len(y.data); base += count {
				yr, gr, g := y.data[base:base+count], gy[base:base+count], gx[0][base:base+count]
				dot := 0.0
				for p := 0; p < n4; p += 4 {
					y, gy := yr[p:p+4:p+4], gr[p:p+4:p+4]
					dot += gy[0] * y[0]
					dot += gy[1] * y[1]
					dot += gy[2] * y[2]
					dot += gy[3] * y[3]
				}
				for p := n4; p < count; p++ {
					dot += gr[p] * yr[p]
				}
				for p := 0; p < n4; p += 4 {
					y, gy, g := yr[p:p+4:p+4], gr[p:p+4:p+4], g[p:p+4:p+4]
					g[0] += y[0] * (gy[0] - dot)
					g[1] += y[1] * (gy[1] - dot)
					g[2] += y[2] * (gy[2] - dot)
					g[3] += y[3] * (gy[3] - dot)
				}
				for p := n4; p < count; p++ {
					g[p] += yr[p] * (gr[p] - dot)
				}
			}
			return
		}
		alongAxis(n.dim, func(base, step, count int) {
			dot := 0.0
			for p := range count {
				dot += gy[base+p*step] * y.data[base+p*step]
			}
			for p := range count {
				i := base + p*step
				gx[0][i] += y.data[i] * (gy[i] - dot)
			}
		})
	},
	func(n *node, y *Tensor, tx [][]float64, ty []float64) {
		alongAxis(n.dim, func(base, step, count int) {
			dot := 0.0
			for p := range count {
				dot += y.data[base+p*step] * tx[0][base+p*step]
			}
			for p := range count {
				i := base + p*step
				ty[i] = y.data[i] * (tx[0][i] - dot)
			}
		})
	},
	func(n *node, y *Tensor, xs [][]*engine.Value) []*engine.Value {
		x := n.in[0].data
		out := make([]*engine.Value, len(y.data))
		alongAxis(n.dim, func(base, step, count int) {
			if count == 0 {
				return
			}
			top := base
			for p := range count {
				if x[base+p*step] > x[top] {
					top = base + p*step
				}
			}
			m := xs[0][top].Detach()
			var s *engine.Value
			for p := range count {
				e := xs[0][base+p*step].Sub(m).Exp()
				out[base+p*step] = e
				s = plus(s, e)
			}
			for p := range count {
				out[base+p*step] = out[base+p*step].Div(s)
			}
		})
		return out
	}}

// softmaxRow fills y with the softmax of x, a slice along the axis that
// lies in a row of memory: the loop of softmaxOp's forward rule without
// its strides. It returns the max m taken out (a NaN if x has one) and
// s = Σ exp(x − m), for cross-entropy's log Σ exp(x) = m + log s.
func softmaxRow(y, x []float64) (m, s float64) {
	var ms, ss [1]float64
	softmaxRows(y, x, len(x), ms[:], ss[:])
	return ms[0], ss[0]
}

// softmaxRows is softmaxRow for each of the len(ms) rows of count
// elements of x and y (count > 0), in one call: it fills ms and ss with
// each row's m and s.
func softmaxRows(y, x []float64, count int, ms, ss []float64) {
	y, x = y[:len(ms)*count], x[:len(ms)*count]
	for r := range ms {
		m := math.Inf(-1)
		for _, v := range x[r*count : (r+1)*count] {
			if v > m || v != v {
				m = v
			}
		}
		ms[r] = m
	}
	expShifted(y, x, count, ms, ss)
	n4 := count &^ 3 // four elements a turn (fast.go)
	for r, s := range ss {
		yr := y[r*count : (r+1)*count]
		for p := 0; p < n4; p += 4 {
			y := yr[p : p+4 : p+4]
			y[0], y[1], y[2], y[3] = y[0]/s, y[1]/s, y[2]/s, y[3]/s
		}
		for p := n4; p < count; p++ {
			yr[p] /= s
		}
	}
}

// alongAxis calls fn for each slice of a tensor read as (outer, n, inner)
// along its n: the slice's first element, the step between its elements
// and their count.
func alongAxis(dim [3]int, fn func(base, step, count int)) {
	outer, count, inner := dim[0], dim[1], dim[2]
	for o := range outer {
		for j := range inner {
			fn(o*count*inner+j, inner, count)
		}
	}
}

// maskedFillOp: y = value (n.k) where the mask is not 0, x elsewhere. The
// mask is a constant: its elements are n.aux, broadcast to x's shape as
// n.bc walks them (x's own stride is 1: y has x's shape), or repeated
// every n.dim[0] elements when that is not 0. No gradient goes back
// where the value was put.
var maskedFillOp = op{"masked_fill", 1,
	func(n *node, y *Tensor) {
		x, c := n.in[0].data, &n.bc
		if p := n.dim[0]; p > 0 { // the mask repeated along the leading dims
			for base := 0; base < len(y.data); base += p {
				maskRow(y.data[base:base+p], x[base:base+p], n.aux[:p], n.k)
			}
			return
		}
		c.rows(func(i, _, jb int) {
			for k := range c.n {
				if n.aux[jb+k*c.db] != 0 {
					y.data[i+k] = n.k
				} else {
					y.data[i+k] = x[i+k]
				}
			}
		})
	},
	func(n *node, _ *Tensor, gy []float64, gx [][]float64) {
		c := &n.bc
		if p := n.dim[0]; p > 0 {
			m, g := n.aux[:p], gx[0]
			for base := 0; base < len(gy); base += p {
				g, gy := g[base:base+p], gy[base:base+p]
				for k, mk := range m {
					if mk == 0 {
						g[k] += gy[k]
					}
				}
			}
			return
		}
		c.rows(func(i, _, jb int) {
			for k := range c.n {
				if n.aux[jb+k*c.db] == 0 {
					gx[0][i+k] += gy[i+k]
				}
			}
		})
	},
	func(n *node, _ *Tensor, tx [][]float64, ty []float64) {
		c := &n.bc
		c.rows(func(i, _, jb int) {
			for k := range c.n {
				if n.aux[jb+k*c.db] == 0 {
					ty[i+k] = tx[0][i+k]
				}
			}
		})
	},
	func(n *node, y *Tensor, xs [][]*engine.Value) []*engine.Value {
		out := make([]*engine.Value, len(y.data))
		c := &n.bc
		c.rows(func(i, _, jb int) {
			for k := range c.n {
				if n.aux[jb+k*c.db] != 0 {
					out[i+k] = engine.NewValue(n.k, strconv.FormatFloat(n.k, 'g', -1, 64))
				} else {
					out[i+k] = xs[0][i+k]
				}
			}
		})
		return out
	}}

// maskRow fills y with v where m is not 0 and x elsewhere.
func maskRow(y, x, m []float64, v float64) {
	y, x = y[:len(m)], x[:len(m)]
	for k, mk := range m {
		u := x[k]
		if mk != 0 {
			u = v
		}
		y[k] = u
	}
}

// layerNormOp: y = x̂·w + b over the last dim of x, x̂ = (x − μ)·r with μ
// the row's mean, σ² its variance (divided by the row's length, not one
// less, as PyTorch's layer_norm) and r = (σ² + eps)^−½, eps being n.k.
// n.dim is (rows, columns); the forward pass keeps each row's μ in n.aux,
// followed by each row's r, from which the other rules work out x̂ again,
// to the bit (layerNormHat). With g = gy·w, the gradient of a row of x is
// r·(g − mean(g) − x̂·mean(g·x̂)), and its tangent
// w·r·(tx − mean(tx) − x̂·mean(x̂·tx)) + tw·x̂ + tb.
var layerNormOp = op{"layer_norm", 3,
	func(n *node, y *Tensor) {
		x, w, b := n.in[0].data, n.in[1].data, n.in[2].data
		rows, cols := n.dim[0], n.dim[1]
		mus, rs := n.aux[:rows], n.aux[rows:]
		n4 := cols &^ 3 // four elements a turn (fast.go), in order
		for r := range rows {
			row := x[r*cols : (r+1)*cols]
			mu := 0.0
			for j := 0; j < n4; j += 4 {
				v := row[j : j+4 : j+4]
				mu += v[0]
				mu += v[1]
				mu += v[2]
				mu += v[3]
			}
			for _, v := range row[n4:] {
				mu += v
			}
			mu /= float64(cols)
			variance := 0.0
			for j := 0; j < n4; j += 4 {
				v := row[j : j+4 : j+4]
				variance += (v[0] - mu) * (v[0] - mu)
				variance += (v[1] - mu) * (v[1] - mu)
				variance += (v[2] - mu) * (v[2] - mu)
				variance += (v[3] - mu) * (v[3] - mu)
			}
			for _, v := range row[n4:] {
				variance += (v - mu) * (v - mu)
			}
			variance /= float64(cols)
			rr := 1 / math.Sqrt(variance+n.k)
			mus[r], rs[r] = mu, rr
			yr := y.data[r*cols : (r+1)*cols]
			w, b := w[:len(row)], b[:len(row)]
			for j := 0; j < n4; j += 4 {
				v, y, w, b := row[j:j+4:j+4], yr[j:j+4:j+4], w[j:j+4:j+4], b[j:j+4:j+4]
				y[0], y[1], y[2], y[3] = (v[0]-mu)*rr*w[0]+b[0], (v[1]-mu)*rr*w[1]+b[1], (v[2]-mu)*rr*w[2]+b[2], (v[3]-mu)*rr*w[3]+b[3]
			}
			for j := n4; j < len(row); j++ {
				yr[j] = (row[j]-mu)*rr*w[j] + b[j]
			}
		}
	},
	func(n *node, _ *Tensor, gy []float64, gx [][]float64) {
		w := n.in[1].data
		rows, cols := n.dim[0], n.dim[1]
		rs := n.aux[rows:]
		n4 := cols &^ 3 // four elements a turn (fast.go), in order
		h := make([]float64, cols)
		for r := range rows {
			g := gy[r*cols : (r+1)*cols]
			n.layerNormHat(r, h)
			if gx[1] != nil {
				addProducts(gx[1], g, h)
			}
			if gx[2] != nil {
				addTo(gx[2], g)
			}
			if gx[0] != nil {
				w, h, gr := w[:len(g)], h[:len(g)], gx[0][r*cols:(r+1)*cols]
				m1, m2 := 0.0, 0.0
				for j := 0; j < n4; j += 4 {
					g, w, h := g[j:j+4:j+4], w[j:j+4:j+4], h[j:j+4:j+4]
					m1 += g[0] * w[0]
					m2 += g[0] * w[0] * h[0]
					m1 += g[1] * w[1]
					m2 += g[1] * w[1] * h[1]
					m1 += g[2] * w[2]
					m2 += g[2] * w[2] * h[2]
					m1 += g[3] * w[3]
					m2 += g[3] * w[3] * h[3]
				}
				for j := n4; j < len(g); j++ {
					m1 += g[j] * w[j]
					m2 += g[j] * w[j] * h[j]
				}
				m1, m2 = m1/float64(cols), m2/float64(cols)
				rr := rs[r]
				gr = gr[:len(g)]
				for j := 0; j < n4; j += 4 {
					gr, g, w, h := gr[j:j+4:j+4], g[j:j+4:j+4], w[j:j+4:j+4], h[j:j+4:j+4]
					gr[0] += rr * (g[0]*w[0] - m1 - h[0]*m2)
					gr[1] += rr * (g[1]*w[1] - m1 - h[1]*m2)
					gr[2] += rr * (g[2]*w[2] - m1 - h[2]*m2)
					gr[3] += rr * (g[3]*w[3] - m1 - h[3]*m2)
				}
				for j := n4; j < len(g); j++ {
					gr[j] += rr * (g[j]*w[j] - m1 - h[j]*m2)
				}
			}
		}
	},
	func(n *node, _ *Tensor, tx [][]float64, ty []float64) {
		w := n.in[1].data
		rows, cols := n.dim[0], n.dim[1]
		rs := n.aux[rows:]
		h := make([]float64, cols)
		for r := range rows {
			t := tx[0][r*cols : (r+1)*cols]
			n.layerNormHat(r, h)
			m1, m2 := 0.0, 0.0
			for j := range t {
				m1 += t[j]
				m2 += h[j] * t[j]
			}
			m1, m2 = m1/float64(cols), m2/float64(cols)
			for j := range t {
				ty[r*cols+j] = w[j]*rs[r]*(t[j]-m1-h[j]*m2) + tx[1][j]*h[j] + tx[2][j]
			}
		}
	},
	func(n *node, y *Tensor, xs [][]*engine.Value) []*engine.Value {
		rows, cols := n.dim[0], n.dim[1]
		count := engine.NewValue(float64(cols), strconv.Itoa(cols))
		eps := engine.NewValue(n.k, strconv.FormatFloat(n.k, 'g', -1, 64))
		out := make([]*engine.Value, len(y.data))
		for r := range rows {
			row := xs[0][r*cols : (r+1)*cols]
			var s *engine.Value
			for _, v := range row {
				s = plus(s, v)
			}
			mu := s.Div(count)
			var ss *engine.Value
			for _, v := range row {
				ss = plus(ss, v.Sub(mu).Sq())
			}
			rs := ss.Div(count).Add(eps).Pow(-0.5)
			for j, v := range row {
				out[r*cols+j] = v.Sub(mu).Mul(rs).Mul(xs[1][j]).Add(xs[2][j])
			}
		}
		return out
	}}

// layerNormHat fills h with x̂ of row r of a layer norm's input, as its
// forward rule computed it: (x − μ)·r, from the row's μ and r it kept.
func (n *node) layerNormHat(r int, h []float64) {
	rows, cols := n.dim[0], n.dim[1]
	mu, rr := n.aux[r], n.aux[rows+r]
	row := n.in[0].data[r*cols : (r+1)*cols]
	h = h[:len(row)]
	n4 := cols &^ 3
	for j := 0; j < n4; j += 4 {
		h, v := h[j:j+4:j+4], row[j:j+4:j+4]
		h[0], h[1], h[2], h[3] = (v[0]-mu)*rr, (v[1]-mu)*rr, (v[2]-mu)*rr, (v[3]-mu)*rr
	}
	for j := n4; j < len(row); j++ {
		h[j] = (row[j] - mu) * rr
	}
}

// Softmax returns exp(t) / Σ exp(t) along axis (negative counts from the
// end), as PyTorch's t.softmax(dim): every slice along the axis is
// positive and sums to 1. It is stable: each slice's max is taken out
// before exp, so that large logits do not overflow.
func (t *Tensor) Softmax(axis int) (*Tensor, error) {
	d, err := t.axis("softmax", axis)
	if err != nil {
		return nil, err
	}
	dim := [3]int{numel(t.shape[:d]), t.shape[d], numel(t.shape[d+1:])}
	return newOp(node{op: opSoftmax, dim: dim}, t.shape, t), nil
}

// MaskedFill returns t with value wherever mask is not 0, as PyTorch's
// t.masked_fill(mask, value): mask's shape must broadcast to t's (a
// (T, T) mask over attention's (B, heads, T, T) scores), and the result
// has t's shape. The mask is a constant, taken as it is now; no gradient
// flows where value was put. Attention's causal mask is
// wei.MaskedFill(future, math.Inf(-1)) before Softmax.
func (t *Tensor) MaskedFill(mask *Tensor, value float64) (*Tensor, error) {
	shape, err := broadcastShapes("masked_fill", t.shape, mask.shape)
	if err != nil || !sameShape(shape, t.shape) {
		return nil, errorf("masked_fill", ErrShape, "a mask of shape %s does not broadcast to the tensor's shape %s", ShapeString(mask.shape), ShapeString(t.shape))
	}
	// A mask that is t's last dims (a (T, T) mask of (B, heads, T, T)
	// scores) repeats every len(mask) elements: n.dim[0] is that period,
	// which the rules walk without the broadcast's rows.
	period, ms := 0, mask.shape
	for len(ms) > 0 && ms[0] == 1 {
		ms = ms[1:]
	}
	if len(ms) > 0 && sameShape(ms, t.shape[len(t.shape)-len(ms):]) {
		period = len(mask.data)
	}
	return newOp(node{op: opMaskedFill, k: value, aux: append([]float64(nil), mask.data...), bc: newBcast(t.shape, mask.shape, t.shape), dim: [3]int{period}}, t.shape, t), nil
}

// LayerNorm returns layer normalization over the last dim of x, as
// PyTorch's F.layer_norm(x, (C,), weight, bias, eps): each row of C
// elements less its mean, divided by √(variance + eps) (the variance
// divided by C), times weight and plus bias, both of shape (C,). A nil
// weight is ones and a nil bias zeros, as PyTorch's None.
func LayerNorm(x, weight, bias *Tensor, eps float64) (*Tensor, error) {
	if len(x.shape) == 0 || x.shape[len(x.shape)-1] == 0 {
		return nil, errorf("layer_norm", ErrShape, "a tensor of shape %s has no last dimension to normalize over", ShapeString(x.shape))
	}
	cols := x.shape[len(x.shape)-1]
	if weight == nil {
		weight = Must(Ones(cols))
	}
	if bias == nil {
		bias = Must(Zeros(cols))
	}
	for _, p := range [...]struct {
		name string
		t    *Tensor
	}{{"weight", weight}, {"bias", bias}} {
		if !sameShape(p.t.shape, []int{cols}) {
			return nil, errorf("layer_norm", ErrShape, "the %s has shape %s; for a tensor of shape %s it must be (%d,)", p.name, ShapeString(p.t.shape), ShapeString(x.shape), cols)
		}
	}
	if !(eps >= 0) || math.IsInf(eps, 0) {
		return nil, errorf("layer_norm", ErrValue, "eps must be a number ≥ 0, got %s", words.Number(eps))
	}
	rows := len(x.data) / cols
	return newOp(node{op: opLayerNorm, k: eps, dim: [3]int{rows, cols}, aux: make([]float64, 2*rows)}, x.shape, x, weight, bias), nil
}

// Transpose returns t with axes a and b swapped (negative ones count from
// the end), as PyTorch's t.transpose(a, b): k.Transpose(-2, -1) is a
// stack of keys transposed, for q @ kᵀ. The result is a copy.
func (t *Tensor) Transpose(a, b int) (*Tensor, error) {
	da, err := t.axis("transpose", a)
	if err != nil {
		return nil, err
	}
	db, err := t.axis("transpose", b)
	if err != nil {
		return nil, err
	}
	nd := len(t.shape)
	shape, stride := append([]int(nil), t.shape...), make([]int, nd)
	s := 1
	for d := nd - 1; d >= 0; d-- {
		stride[d] = s
		s *= t.shape[d]
	}
	shape[da], shape[db] = shape[db], shape[da]
	stride[da], stride[db] = stride[db], stride[da]
	return newOp(node{op: opTranspose, sizes: stride}, shape, t), nil
}

// linearOp: y = x·Wᵀ + b, PyTorch's F.linear, for x (…, in), W (out, in)
// and b (out,): n.dim is (rows, in, out). The product is a Product that
// reads W transposed where it lies, and b is added to each row after it,
// so y is what x.Matmul(W.T()).Add(b) gives, to the bit. Its gradients
// are dx = gy·W, dW = gyᵀ·x and db = Σ gy over the rows; its tangent
// tx·Wᵀ + x·tWᵀ + tb.
var linearOp = op{"linear", 3,
	func(n *node, y *Tensor) {
		linearForward(n, y.data, n.in[0].data, n.in[1].data)
		addRows(y.data, n.in[2].data)
	},
	func(n *node, _ *Tensor, gy []float64, gx [][]float64) {
		rows, in, out := n.dim[0], n.dim[1], n.dim[2]
		if gx[0] != nil { // dx += gy·W
			addProduct(Product{Batch: 1, M: rows, N: in, K: out, A: gy, AR: out, AC: 1, B: n.in[1].data, BR: in, BC: 1, C: gx[0], CR: in}, n.budget)
		}
		if gx[1] != nil { // dW += gyᵀ·x
			addProduct(Product{Batch: 1, M: out, N: in, K: rows, A: gy, AR: 1, AC: out, B: n.in[0].data, BR: in, BC: 1, C: gx[1], CR: in}, n.budget)
		}
		if gx[2] != nil {
			addRowsTo(gx[2], gy[:rows*out])
		}
	},
	func(n *node, _ *Tensor, tx [][]float64, ty []float64) {
		linearForward(n, ty, tx[0], n.in[1].data)
		linearForward(n, ty, n.in[0].data, tx[1])
		addRows(ty, tx[2])
	},
	func(n *node, y *Tensor, xs [][]*engine.Value) []*engine.Value {
		rows, in, out := n.dim[0], n.dim[1], n.dim[2]
		ys := make([]*engine.Value, len(y.data))
		for r := range rows {
			for o := range out {
				var s *engine.Value
				for p := range in {
					s = plus(s, xs[0][r*in+p].Mul(xs[1][o*in+p]))
				}
				ys[r*out+o] = orZero(s).Add(xs[2][o])
			}
		}
		return ys
	}}

// linearForward adds x·wᵀ to y.
func linearForward(n *node, y, x, w []float64) {
	rows, in, out := n.dim[0], n.dim[1], n.dim[2]
	addProduct(Product{Batch: 1, M: rows, N: out, K: in, A: x, AR: in, AC: 1, B: w, BR: 1, BC: in, C: y, CR: out}, n.budget)
}

// addRows adds b to each row of y, whose rows are b's length.
func addRows(y, b []float64) {
	for r := 0; r < len(y); r += len(b) {
		addTo(y[r:r+len(b)], b)
	}
}

// addRowsTo adds each row of x, whose rows are g's length, to g, the rows
// in order: a bias's gradient.
func addRowsTo(g, x []float64) {
	for r := 0; r < len(x); r += len(g) {
		addTo(g, x[r:r+len(g)])
	}
}

// Linear returns x·Wᵀ + b, as PyTorch's F.linear (what nn.Linear
// computes): x is (…, in), weight (out, in) and bias (out,), or nil for
// none, and the result is (…, out). It is one op: the product reads the
// weight transposed where it lies, and its numbers are those of
// x.Matmul(weight.T()).Add(bias).
func Linear(x, weight, bias *Tensor) (*Tensor, error) { return Budget(nil).Linear(x, weight, bias) }

func linear(x, weight, bias *Tensor, budget Budget) (*Tensor, error) {
	if len(x.shape) == 0 || len(weight.shape) != 2 || x.shape[len(x.shape)-1] != weight.shape[1] {
		return nil, errorf("linear", ErrShape, "an input of shape %s and a weight of shape %s do not fit: the weight must be (out, %s)", ShapeString(x.shape), ShapeString(weight.shape), lastDim(x.shape))
	}
	out, in := weight.shape[0], weight.shape[1]
	if bias == nil {
		bias = Must(Zeros(out))
	} else if !sameShape(bias.shape, []int{out}) {
		return nil, errorf("linear", ErrShape, "the bias has shape %s; for a weight of shape %s it must be (%d,)", ShapeString(bias.shape), ShapeString(weight.shape), out)
	}
	shape := append(append(make([]int, 0, len(x.shape)), x.shape[:len(x.shape)-1]...), out)
	if _, err := sizeOf("linear", shape); err != nil {
		return nil, err
	}
	rows := 1
	if in > 0 {
		rows = len(x.data) / in
	} else {
		rows = numel(x.shape[:len(x.shape)-1])
	}
	return withBudget(node{op: opLinear, dim: [3]int{rows, in, out}, budget: budget}, shape, x, weight, bias), nil
}

// lastDim is the last dimension of a shape, for messages: "in" for a
// scalar's.
func lastDim(shape []int) string {
	if len(shape) == 0 {
		return "in"
	}
	return strconv.Itoa(shape[len(shape)-1])
}
