package tensor

// This file holds the seeded random numbers. They are the same on every
// platform, natively and in WebAssembly, and across Go releases, because
// every step is integer arithmetic or a single IEEE-754 operation
// (+, −, ×, ÷, √), which every platform rounds the same way:
//
//   - bits: PCG-DXSM with 128 bits of state (math/rand/v2's PCG, whose
//     algorithm is fixed), seeded with (seed, 0x6772616462).
//   - Rand: the top 53 bits of a 64-bit output, times 2⁻⁵³: [0, 1).
//   - Randn: Marsaglia's polar method on pairs of such uniforms scaled to
//     (−1, 1), with ln computed by log below, whose products are rounded
//     one by one (no fused multiply-add), not by math.Log, which is
//     written in assembly on some platforms.
//   - RandInt: Lemire's multiply-and-reject on the 64-bit outputs.

import (
	le "encoding/binary"
	"math"
	"math/bits"
	"math/rand/v2"

	"gradbook/internal/words"
)

// Generator is a seeded source of random tensors, as torch.Generator:
// each call continues the sequence, so two calls give different numbers
// and the same seed gives the same tensors in the same order.
type Generator struct {
	src   *rand.PCG
	spare float64 // the polar method makes normals in pairs
	has   bool
}

// NewGenerator returns a Generator seeded with seed.
func NewGenerator(seed uint64) *Generator {
	return &Generator{src: rand.NewPCG(seed, 0x6772616462)} // "gradb"
}

// Randn returns a tensor of the given shape of independent samples from
// the standard normal distribution, from a fresh Generator seeded with
// seed. Use a Generator for several tensors.
func Randn(seed uint64, shape ...int) (*Tensor, error) { return NewGenerator(seed).Randn(shape...) }

// Rand returns a tensor of the given shape of independent samples from
// the uniform distribution on [0, 1), from a fresh Generator seeded with
// seed.
func Rand(seed uint64, shape ...int) (*Tensor, error) { return NewGenerator(seed).Rand(shape...) }

// Randn returns a tensor of the given shape of standard normal samples.
func (g *Generator) Randn(shape ...int) (*Tensor, error) { return filled(shape, g.normal) }

// Rand returns a tensor of the given shape of samples uniform on [0, 1).
func (g *Generator) Rand(shape ...int) (*Tensor, error) { return filled(shape, g.uniform) }

// filled returns a tensor of the given shape whose elements, in order, are
// what next returns.
func filled(shape []int, next func() float64) (*Tensor, error) {
	t, err := Zeros(shape...)
	if err != nil {
		return nil, err
	}
	for i := range t.data {
		t.data[i] = next()
	}
	return t, nil
}

// RandInt returns a tensor of the given shape of integers drawn uniformly
// from low, low+1, …, high−1, as torch.randint(low, high, shape): batch
// indices, or tokens.
func (g *Generator) RandInt(low, high int, shape ...int) (*Tensor, error) {
	if high <= low {
		return nil, errorf("randint", ErrValue, "high (%d) must be more than low (%d)", high, low)
	}
	t, err := Zeros(shape...)
	if err != nil {
		return nil, err
	}
	n := uint64(high - low)
	for i := range t.data {
		t.data[i] = float64(low + int(g.below(n)))
	}
	return t, nil
}

// uniform returns a number in [0, 1).
func (g *Generator) uniform() float64 { return float64(g.src.Uint64()>>11) * 0x1p-53 }

// below returns a number in [0, n), n > 0, without bias (Lemire, 2019).
func (g *Generator) below(n uint64) uint64 {
	hi, lo := bits.Mul64(g.src.Uint64(), n)
	if lo < n {
		floor := -n % n
		for lo < floor {
			hi, lo = bits.Mul64(g.src.Uint64(), n)
		}
	}
	return hi
}

// normal returns a standard normal sample by Marsaglia's polar method.
func (g *Generator) normal() float64 {
	if g.has {
		g.has = false
		return g.spare
	}
	for {
		u := 2*g.uniform() - 1
		v := 2*g.uniform() - 1
		s := float64(u*u) + float64(v*v)
		if s >= 1 || s == 0 {
			continue
		}
		f := math.Sqrt(-2 * log(s) / s)
		g.spare, g.has = v*f, true
		return u * f
	}
}

// log is ln x for x in (0, 1), the algorithm of math.Log (FreeBSD's
// e_log.c) in pure Go with every product rounded on its own, so that it
// gives the same bits everywhere.
func log(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01
		ln2Lo = 1.90821492927058770002e-10
		L1    = 6.666666666666735130e-01
		L2    = 3.999999999940941908e-01
		L3    = 2.857142874366239149e-01
		L4    = 2.222219843214978396e-01
		L5    = 1.818357216161805012e-01
		L6    = 1.531383769920937332e-01
		L7    = 1.479819860511658591e-01
	)
	f1, ki := math.Frexp(x)
	if f1 < math.Sqrt2/2 {
		f1 *= 2
		ki--
	}
	f := f1 - 1
	k := float64(ki)
	s := f / (2 + f)
	s2 := float64(s * s)
	s4 := float64(s2 * s2)
	t1 := float64(s2 * (L1 + float64(s4*(L3+float64(s4*(L5+float64(s4*L7)))))))
	t2 := float64(s4 * (L2 + float64(s4*(L4+float64(s4*L6)))))
	R := t1 + t2
	hfsq := float64(0.5 * f * f)
	return float64(k*ln2Hi) - ((hfsq - (float64(s*(hfsq+R)) + float64(k*ln2Lo))) - f)
}

// Choice returns an index drawn with probability proportional to the
// non-negative weights w (torch.multinomial of one sample from one row):
// sampling the next token from a softmax.
func (g *Generator) Choice(w []float64) (int, error) {
	total, largest := 0.0, 0.0
	for i, x := range w {
		if !(x >= 0) || math.IsInf(x, 0) {
			return 0, errorf("multinomial", ErrValue, "weight %d is %s; weights must be finite and not negative", i, words.Number(x))
		}
		total += x
		largest = max(largest, x)
	}
	if !(total > 0) {
		return 0, errorf("multinomial", ErrValue, "the weights add up to 0: nothing can be drawn")
	}
	// Weights whose sum overflows ([1e308, 1e308]) are drawn from scaled
	// by a power of 2, exactly, so that the draw stays fair.
	scale := 1.0
	if math.IsInf(total, 1) {
		_, e := math.Frexp(largest)
		scale = math.Ldexp(1, -e)
		total = 0
		for _, x := range w {
			total += x * scale
		}
	}
	u := g.uniform() * total
	for i, x := range w {
		if u < x*scale {
			return i, nil
		}
		u -= x * scale
	}
	for i := len(w) - 1; i >= 0; i-- { // rounding left u past the end
		if w[i] > 0 {
			return i, nil
		}
	}
	panic("tensor: unreachable")
}

// MarshalBinary returns the generator's state, so that a copy taken now
// continues with the same numbers (UnmarshalBinary).
func (g *Generator) MarshalBinary() ([]byte, error) {
	b, err := g.src.MarshalBinary()
	if err != nil {
		return nil, err
	}
	b = le.LittleEndian.AppendUint64(b, math.Float64bits(g.spare))
	if g.has {
		return append(b, 1), nil
	}
	return append(b, 0), nil
}

// UnmarshalBinary sets the generator to a state MarshalBinary returned.
func (g *Generator) UnmarshalBinary(b []byte) error {
	if len(b) < 9 {
		return errorf("generator", ErrValue, "a state of %d bytes is too short", len(b))
	}
	n := len(b) - 9
	src := new(rand.PCG)
	if err := src.UnmarshalBinary(b[:n]); err != nil {
		return err
	}
	g.src, g.spare, g.has = src, math.Float64frombits(le.LittleEndian.Uint64(b[n:])), b[n+8] == 1
	return nil
}
