package tensor_test

import (
	"fmt"
	"testing"

	"gradbook/engine"
	. "gradbook/tensor"
)

// productSizes are the products the figures give GFLOP/s for: (m, k, n).
var productSizes = [][3]int{{64, 64, 64}, {256, 256, 256}, {512, 64, 256}}

// BenchmarkMatmul is the matrix product (m, k) @ (k, n) alone, in
// GFLOP/s (2·m·k·n floating-point operations a product).
func BenchmarkMatmul(b *testing.B) {
	for _, s := range productSizes {
		m, k, n := s[0], s[1], s[2]
		b.Run(fmt.Sprintf("%dx%dx%d", m, k, n), func(b *testing.B) {
			g := NewGenerator(1)
			x, w := Must(g.Randn(m, k)), Must(g.Randn(k, n))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := x.Matmul(w); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(2*float64(m*k*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// BenchmarkMatmulBackward is the product with its two backward products,
// dA = dC·Bᵀ and dB = Aᵀ·dC, in GFLOP/s over the three.
func BenchmarkMatmulBackward(b *testing.B) {
	for _, s := range productSizes {
		m, k, n := s[0], s[1], s[2]
		b.Run(fmt.Sprintf("%dx%dx%d", m, k, n), func(b *testing.B) {
			g := NewGenerator(1)
			x, w := Must(g.Randn(m, k)).SetRequiresGrad(true), Must(g.Randn(k, n)).SetRequiresGrad(true)
			up := Must(g.Randn(m, n))
			b.ReportAllocs()
			for b.Loop() {
				y := Must(x.Matmul(w))
				if err := y.BackwardWith(up, engine.Accumulate); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(6*float64(m*k*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
