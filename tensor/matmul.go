package tensor

// This file holds the matrix products: Product, the one form that the
// matmul op's forward product, its two backward products and its tangent
// all take; its plain Go loops; the Kernel hook through which a program
// installs faster ones; and the loop over panels that runs a product
// through either.

import (
	"sync/atomic"

	"gradbook/engine"
)

// Product is a batch of matrix products to add into C: for each t from 0
// to Batch−1, C_t += A_t·B_t, where A_t is M×K, B_t is K×N and C_t is
// M×N, their elements at
//
//	A_t(i, p) = A[t·AB + i·AR + p·AC]
//	B_t(p, j) = B[t·BB + p·BR + j·BC]
//	C_t(i, j) = C[t·CB + i·CR + j]
//
// Strides let every product read its operands where they lie: the
// gradient dA = dC·Bᵀ of a row-major B (K×N) reads B with BR = 1 and
// BC = N, the gradient dB = Aᵀ·dC reads A with AR = 1 and AC = K, and
// nothing is transposed first. A batch stride of 0 reuses one matrix for
// every t; for C, it adds all the products into one matrix, in turn (the
// gradient of a matrix that a batch shares). Strides are not negative,
// and C shares no storage with A or B.
//
// Every element of C is added up in one order, which Plain and every
// Kernel keep, so that all give the same numbers to the last bit:
// C(i, j) + A(i, 0)·B(0, j) + A(i, 1)·B(1, j) + … + A(i, K−1)·B(K−1, j),
// from left to right, each product and each sum rounded on its own (no
// fused multiply-add), and over a shared C the products t in turn.
type Product struct {
	Batch, M, N, K int
	A              []float64
	AB, AR, AC     int
	B              []float64
	BB, BR, BC     int
	C              []float64
	CB, CR         int
}

// Valid reports whether every element the product reads or writes lies
// within its slices, its sizes and strides not negative. Kernels that
// work on the slices' memory directly check it first.
func (p Product) Valid() bool {
	if p.Batch < 0 || p.M < 0 || p.N < 0 || p.K < 0 ||
		min(p.AB, p.AR, p.AC, p.BB, p.BR, p.BC, p.CB, p.CR) < 0 {
		return false
	}
	if p.Batch == 0 || p.M == 0 || p.N == 0 {
		return true // nothing is read or written
	}
	// last returns the offset of the last element of a batch of matrices,
	// or -1 when it has none.
	last := func(batch, rows, cols, bs, rs, cs int) int {
		if rows == 0 || cols == 0 {
			return -1
		}
		return (batch-1)*bs + (rows-1)*rs + (cols-1)*cs
	}
	return last(p.Batch, p.M, p.K, p.AB, p.AR, p.AC) < len(p.A) &&
		last(p.Batch, p.K, p.N, p.BB, p.BR, p.BC) < len(p.B) &&
		last(p.Batch, p.M, p.N, p.CB, p.CR, 1) < len(p.C)
}

// Plain adds the product into C with plain Go loops, in the order
// Product describes: the reference that every Kernel matches. The loops
// differ by the operands' layout, each reading memory in order where it
// can, and each keeps several sums going at once where one alone would
// wait on its last addition; every element's terms still come in order.
func (p Product) Plain() {
	for t := range p.Batch {
		a, b, c := p.A[t*p.AB:], p.B[t*p.BB:], p.C[t*p.CB:]
		switch {
		case p.BC != 1: // B's rows are columns in memory: dot products
			p.dots(a, b, c)
		case p.AR == 1 && p.AC != 1: // A's columns are rows in memory
			for q := range p.K {
				bq := b[q*p.BR : q*p.BR+p.N]
				for i := range p.M {
					axpy(c[i*p.CR:i*p.CR+p.N], a[i+q*p.AC], bq)
				}
			}
		default:
			for i := range p.M {
				ci := c[i*p.CR : i*p.CR+p.N]
				for q := range p.K {
					axpy(ci, a[i*p.AR+q*p.AC], b[q*p.BR:q*p.BR+p.N])
				}
			}
		}
	}
}

// axpy adds x·y to c, elementwise.
func axpy(c []float64, x float64, y []float64) {
	y = y[:len(c)]
	for j := range c {
		c[j] += x * y[j]
	}
}

// dots is Plain for one product whose B has its columns along memory
// (BC ≠ 1): C(i, j) for four j at a time, the sums over p side by side.
func (p Product) dots(a, b, c []float64) {
	for i := range p.M {
		ci := c[i*p.CR : i*p.CR+p.N]
		j := 0
		for ; j+4 <= p.N; j += 4 {
			s0, s1, s2, s3 := ci[j], ci[j+1], ci[j+2], ci[j+3]
			for q := range p.K {
				x, o := a[i*p.AR+q*p.AC], q*p.BR+j*p.BC
				s0 += x * b[o]
				s1 += x * b[o+p.BC]
				s2 += x * b[o+2*p.BC]
				s3 += x * b[o+3*p.BC]
			}
			ci[j], ci[j+1], ci[j+2], ci[j+3] = s0, s1, s2, s3
		}
		for ; j < p.N; j++ {
			s := ci[j]
			for q := range p.K {
				s += a[i*p.AR+q*p.AC] * b[q*p.BR+j*p.BC]
			}
			ci[j] = s
		}
	}
}

// Kernel computes matrix products faster than Product.Plain. A program
// installs one at start-up with SetKernel: gradbook.wasm's runner
// installs the WebAssembly SIMD kernels of package wasm/kernels.
type Kernel interface {
	// Product adds p into p.C, to the last bit as p.Plain would, and
	// reports true; or it touches nothing and reports false, for a
	// product it does not take (one too small to pay for the call), which
	// Plain then computes. p is Valid, and smaller than a panel: a long
	// product comes as a loop of calls (see SetKernel).
	Product(p Product) bool
}

// kernel holds the installed Kernel, nil for none.
var kernel atomic.Pointer[Kernel]

// SetKernel installs k for every matrix product from now on (nil
// uninstalls it: the plain loops run), and returns the kernel installed
// until now, as debug.SetGCPercent returns the last setting. Call it
// once, as the program starts, before tensors are used.
//
// Whichever computes it, a product runs as a loop of calls of at most
// about four million multiply-adds each (PanelWork): panels of a
// matrix's rows, or of whole matrices of a batch. Each call returns
// within milliseconds even from the plain loops, so that the run's
// deadline can be checked between them.
func SetKernel(k Kernel) (previous Kernel) {
	var kp *Kernel
	if k != nil {
		kp = &k
	}
	if old := kernel.Swap(kp); old != nil {
		previous = *old
	}
	return previous
}

// PanelWork is the most multiply-adds one call to a Kernel or to the
// plain loops computes (one row of a product may exceed it: a row is the
// smallest panel).
const PanelWork = 1 << 22

// addProduct adds p into p.C, panel by panel, with the installed kernel
// or, where it declines, the plain loops. A product of more than one
// panel asks budget (when not nil) before each panel whether the
// multiply-adds left can be done, and stops if not (Budget).
func addProduct(p Product, budget Budget) {
	if p.Batch == 0 || p.M == 0 || p.N == 0 || p.K == 0 {
		return
	}
	var k Kernel
	if kp := kernel.Load(); kp != nil {
		k = *kp
	}
	left := p.Batch * p.M * p.N * p.K // at most 2⁵⁰: every shape fits MaxSize
	if left <= PanelWork {
		budget = nil // milliseconds: not worth reading the clock
	}
	run := func(q Product) {
		if budget != nil {
			budget.spend(left)
			left -= q.Batch * q.M * q.N * q.K
		}
		if k == nil || !k.Product(q) {
			q.Plain()
		}
	}
	row := p.N * p.K
	if p.M*row <= PanelWork { // whole matrices per call
		per := max(1, PanelWork/(p.M*row))
		for t := 0; t < p.Batch; t += per {
			q := p
			q.Batch = min(per, p.Batch-t)
			q.A, q.B, q.C = p.A[t*p.AB:], p.B[t*p.BB:], p.C[t*p.CB:]
			run(q)
		}
		return
	}
	rows := max(1, PanelWork/row)
	for t := range p.Batch {
		for i := 0; i < p.M; i += rows {
			q := p
			q.Batch, q.M = 1, min(rows, p.M-i)
			q.A, q.B, q.C = p.A[t*p.AB+i*p.AR:], p.B[t*p.BB:], p.C[t*p.CB+i*p.CR:]
			run(q)
		}
	}
}

// The matmul op's products. n.dim is (m, k, n): each product multiplies
// an m×k matrix of a by a k×n one of b. n.bc walks the batch dimensions,
// broadcast NumPy's way: a run of c.n products whose matrices of a and b
// are c.da and c.db matrices apart (0 or 1), and consecutive in y. A run
// that shares b (c.db = 0) over consecutive matrices of a is one product
// of all their rows.

// matmulProducts calls fn for each run of the products of y = a @ b, in
// order: run products, the first of them of a's matrix ja, b's matrix jb
// and y's matrix i; shared is whether the run shares b's matrix over
// consecutive matrices of a, which makes it one product of all their
// rows.
func matmulProducts(n *node, fn func(run, ja, jb, i int, shared bool)) {
	c := &n.bc
	c.rows(func(i, ja, jb int) {
		fn(c.n, ja, jb, i, c.db == 0 && c.da == 1)
	})
}

// matmulForward adds a @ b to y.
func matmulForward(n *node, y, a, b []float64) {
	m, k, nn := n.dim[0], n.dim[1], n.dim[2]
	c := &n.bc
	matmulProducts(n, func(run, ja, jb, i int, shared bool) {
		p := Product{Batch: run, M: m, N: nn, K: k,
			A: a[ja*m*k:], AB: c.da * m * k, AR: k, AC: 1,
			B: b[jb*k*nn:], BB: c.db * k * nn, BR: nn, BC: 1,
			C: y[i*m*nn:], CB: m * nn, CR: nn}
		if shared {
			p.Batch, p.M = 1, run*m
		}
		addProduct(p, n.budget)
	})
}

// matmulBackward adds gy·bᵀ to ga and aᵀ·gy to gb (each when not nil).
func matmulBackward(n *node, gy, a, b, ga, gb []float64) {
	m, k, nn := n.dim[0], n.dim[1], n.dim[2]
	c := &n.bc
	matmulProducts(n, func(run, ja, jb, i int, shared bool) {
		if ga != nil { // ga += gy @ bᵀ
			p := Product{Batch: run, M: m, N: k, K: nn,
				A: gy[i*m*nn:], AB: m * nn, AR: nn, AC: 1,
				B: b[jb*k*nn:], BB: c.db * k * nn, BR: 1, BC: nn,
				C: ga[ja*m*k:], CB: c.da * m * k, CR: k}
			if shared {
				p.Batch, p.M = 1, run*m
			}
			addProduct(p, n.budget)
		}
		if gb != nil { // gb += aᵀ @ gy
			p := Product{Batch: run, M: k, N: nn, K: m,
				A: a[ja*m*k:], AB: c.da * m * k, AR: 1, AC: k,
				B: gy[i*m*nn:], BB: m * nn, BR: nn, BC: 1,
				C: gb[jb*k*nn:], CB: c.db * k * nn, CR: nn}
			if shared {
				p.Batch, p.K = 1, run*m
			}
			addProduct(p, n.budget)
		}
	})
}

// matmulScalars expands y = a @ b into Values, product by product.
func matmulScalars(n *node, y *Tensor, xs [][]*engine.Value) []*engine.Value {
	m, k, nn := n.dim[0], n.dim[1], n.dim[2]
	c := &n.bc
	out := make([]*engine.Value, len(y.data))
	matmulProducts(n, func(run, ja, jb, i int, _ bool) {
		for t := range run {
			a := xs[0][(ja+t*c.da)*m*k:]
			b := xs[1][(jb+t*c.db)*k*nn:]
			o := out[(i+t)*m*nn:]
			for r := range m {
				for j := range nn {
					var s *engine.Value
					for q := range k {
						s = plus(s, a[r*k+q].Mul(b[q*nn+j]))
					}
					o[r*nn+j] = orZero(s)
				}
			}
		}
	})
	return out
}
