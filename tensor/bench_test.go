package tensor_test

import (
	"math"
	"testing"

	. "gradbook/tensor"
)

// ninjaParams returns makemore part 4's parameters, initialized as in the
// notebook, each requiring a gradient: C, W1, b1, bngain, bnbias, W2, b2.
func ninjaParams(g *Generator) []*Tensor {
	param := func(scale, shift float64, shape ...int) *Tensor {
		t := Must(g.Randn(shape...))
		for i, v := range t.Data() {
			t.Data()[i] = v*scale + shift
		}
		return t.SetRequiresGrad(true)
	}
	return []*Tensor{
		param(1, 0, 27, 10),
		param((5.0/3)/math.Sqrt(30), 0, 30, 64),
		param(0.1, 0, 64),
		param(0.1, 1, 1, 64),
		param(0.1, 0, 1, 64),
		param(0.1, 0, 64, 27),
		param(0.1, 0, 27),
	}
}

// BenchmarkMLPStep is one training step of the ninja notebook's MLP at
// batch 32: forward in its small steps, backward, and an SGD update.
func BenchmarkMLPStep(b *testing.B) {
	benchStep(b, func(p []*Tensor, Xb, Yb *Tensor) *Tensor {
		loss, _ := mlp(p, Xb, Yb)
		return loss
	})
}

// BenchmarkMLPStepFused is the same step with the loss fused into
// CrossEntropy.
func BenchmarkMLPStepFused(b *testing.B) {
	benchStep(b, func(p []*Tensor, Xb, Yb *Tensor) *Tensor {
		_, s := mlp(p, Xb, Yb)
		return Must(CrossEntropy(s["logits"], Yb))
	})
}

// benchStep measures a training step of the ninja notebook's MLP at batch
// 32 whose loss lossOf computes: backward, and an SGD update.
func benchStep(b *testing.B, lossOf func(p []*Tensor, Xb, Yb *Tensor) *Tensor) {
	g := NewGenerator(2147483647)
	p := ninjaParams(g)
	Xb := Must(g.RandInt(0, 27, 32, 3))
	Yb := Must(g.RandInt(0, 27, 32))
	b.ReportAllocs()
	for b.Loop() {
		if err := lossOf(p, Xb, Yb).Backward(); err != nil {
			b.Fatal(err)
		}
		for _, t := range p {
			for i, gr := range t.Grad.Data() {
				t.Data()[i] -= 0.1 * gr
			}
			t.ZeroGrad()
		}
	}
}
