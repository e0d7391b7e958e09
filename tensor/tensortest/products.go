// Package tensortest holds what the tests of tensor's matrix products and
// of the kernels that compute them share: random products of every layout
// and awkward size, their definition, and a comparison to the bit.
package tensortest

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gradbook/tensor"
)

// RandomProduct returns a random Valid product with its operands laid out
// in one of the four ways (A and B each as they are or transposed), batch
// strides of 0 or a whole matrix, and padding between rows, for shapes up
// to size in each dimension (1 and odd sizes included). Its elements are
// whole numbers, halves and zeros, and a few signed zeros, so that a sum
// in another order, or a fused multiply-add, would often differ.
func RandomProduct(r *rand.Rand, size int) tensor.Product {
	d := func() int { return 1 + r.IntN(size) }
	p := tensor.Product{Batch: 1 + r.IntN(3), M: d(), N: d(), K: d()}
	pad := func() int { return r.IntN(2) * r.IntN(3) }
	// layout returns strides for rows×cols stored as they are or transposed.
	layout := func(rows, cols int) (batch, rs, cs, size int) {
		if r.IntN(2) == 0 {
			rs, cs = cols+pad(), 1
			size = rows * rs
		} else {
			rs, cs = 1, rows+pad()
			size = cols * cs
		}
		if r.IntN(3) > 0 {
			batch = size
		}
		return batch, rs, cs, max(size, (p.Batch-1)*batch+size)
	}
	fill := func(n int) []float64 {
		x := make([]float64, n)
		for i := range x {
			switch r.IntN(8) {
			case 0:
			case 1:
				x[i] = math.Copysign(0, -1)
			default:
				x[i] = float64(r.IntN(2001)-1000) / 64 * math.Pow(2, float64(r.IntN(40)-20))
			}
		}
		return x
	}
	var na, nb int
	p.AB, p.AR, p.AC, na = layout(p.M, p.K)
	p.BB, p.BR, p.BC, nb = layout(p.K, p.N)
	if p.BC != 1 && p.BR != 1 {
		panic("layout")
	}
	p.CR = p.N + pad()
	if r.IntN(4) > 0 {
		p.CB = p.M * p.CR
	}
	p.A, p.B, p.C = fill(na), fill(nb), fill((p.Batch-1)*p.CB+p.M*p.CR)
	return p
}

// Reference returns what p.C becomes, by Product's definition, literally:
// every element's terms in order, one at a time.
func Reference(p tensor.Product) []float64 {
	c := append([]float64(nil), p.C...)
	for t := range p.Batch {
		for i := range p.M {
			for j := range p.N {
				s := c[t*p.CB+i*p.CR+j]
				for q := range p.K {
					s += p.A[t*p.AB+i*p.AR+q*p.AC] * p.B[t*p.BB+q*p.BR+j*p.BC]
				}
				c[t*p.CB+i*p.CR+j] = s
			}
		}
	}
	return c
}

// FirstDifference returns the first index at which a and b differ in
// their bits (0 when their lengths differ), or -1 when they are the same.
func FirstDifference(a, b []float64) int {
	if len(a) != len(b) {
		return 0
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i
		}
	}
	return -1
}

// Describe names a product's shape and strides, for a test's message.
func Describe(p tensor.Product) string {
	return fmt.Sprintf("batch %d, %d×%d by %d×%d, A strides (%d, %d, %d), B (%d, %d, %d), C (%d, %d)",
		p.Batch, p.M, p.K, p.K, p.N, p.AB, p.AR, p.AC, p.BB, p.BR, p.BC, p.CB, p.CR)
}
