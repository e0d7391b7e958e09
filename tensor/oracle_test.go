package tensor_test

// The oracle: every op's tensor rules are checked against the scalar
// engine. For each case, on random inputs, the gradient that Backward
// computes from a random upstream gradient must equal the one the scalar
// engine computes on Scalars' expansion of the same computation, input by
// input and element by element, to 1e-12; the forward values must agree
// too. Forward mode is checked twice: the tangent's dot product with the
// upstream gradient must equal the reverse gradient's with the tangent,
// and the tangent must match central differences.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gradbook/engine"
	. "gradbook/tensor"
)

// A domain is where an input's elements are drawn from.
type domain int

const (
	normal   domain = iota // standard normal
	positive               // uniform on [0.5, 2]: log, fractional and negative powers
	away                   // ±[0.2, 2]: relu, a divisor
	huge                   // normal × 300: logits that overflow exp unless the max is taken out
)

type input struct {
	shape []int
	dom   domain
}

type gradCase struct {
	name   string
	inputs []input
	f      func(x []*Tensor) (*Tensor, error)
}

func in(dom domain, shape ...int) input { return input{shape, dom} }

func draw(r *rand.Rand, in input) *Tensor {
	t := Must(Zeros(in.shape...))
	for i := range t.Data() {
		x := r.NormFloat64()
		switch in.dom {
		case positive:
			x = 0.5 + 1.5*r.Float64()
		case away:
			x = 0.2 + 1.8*r.Float64()
			if r.IntN(2) == 0 {
				x = -x
			}
		case huge:
			x *= 300
		}
		t.Data()[i] = x
	}
	return t
}

func ints(shape []int, xs ...float64) *Tensor { return Must(New(xs, shape...)) }

// copyOps make outputs whose elements are their inputs' own Values in
// Scalars, so their gradients are not theirs alone to compare.
var copyOps = map[string]bool{"reshape": true, "transpose": true, "index": true, "take": true, "max": true, "cat": true, "masked_fill": true}

// closeTo reports whether a and b agree to tol relative to their size
// (absolute below 1).
func closeTo(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// checkCase runs one case on inputs drawn from r and returns the ops its
// graph used.
func checkCase(t *testing.T, r *rand.Rand, c gradCase) []string {
	t.Helper()
	xs := make([]*Tensor, len(c.inputs))
	for i, in := range c.inputs {
		xs[i] = draw(r, in).SetRequiresGrad(true)
		xs[i].Label = fmt.Sprintf("x%d", i)
	}
	y, err := c.f(xs)
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	up := draw(r, in(normal, y.Shape()...))
	RetainGrads(y)
	if err := y.BackwardWith(up, engine.Accumulate); err != nil {
		t.Fatalf("%s: backward: %v", c.name, err)
	}

	// The scalar engine, on the same computation: Σ y·up.
	m := Scalars(y)
	var root *engine.Value
	for i, v := range m[y] {
		if !closeTo(v.Data, y.Data()[i], 1e-12) {
			t.Errorf("%s: element %d: tensor forward %v, scalar engine %v", c.name, i, y.Data()[i], v.Data)
		}
		term := v.Mul(engine.NewValue(up.Data()[i], "up"))
		if root == nil {
			root = term
		} else {
			root = root.Add(term)
		}
	}
	var used []string
	if root != nil {
		root.Backward()
		for _, u := range Topo(y) {
			if op := u.Op(); op != "" {
				used = append(used, op)
			}
			if !u.RequiresGrad() || copyOps[u.Op()] {
				continue
			}
			if u.Grad == nil {
				t.Errorf("%s: %s (%s, shape %s) has no gradient", c.name, u.Label, u.Op(), ShapeString(u.Shape()))
				continue
			}
			for j, v := range m[u] {
				if got := u.Grad.Data()[j]; !closeTo(got, v.Grad, 1e-12) {
					t.Errorf("%s: d/d %s%s element %d: tensor %v, scalar engine %v", c.name, u.Label, u.Op(), j, got, v.Grad)
				}
			}
		}
	}

	// Forward mode on fresh copies of the inputs, along random tangents.
	tangents := make([]*Tensor, len(xs))
	fresh := make([]*Tensor, len(xs))
	dot := 0.0 // Σ ⟨x.Grad, tangent⟩
	for i, x := range xs {
		tangents[i] = draw(r, in(normal, x.Shape()...))
		fresh[i] = Must(New(x.Data(), x.Shape()...))
		if err := fresh[i].SetTangent(tangents[i]); err != nil {
			t.Fatal(err)
		}
		for j, g := range x.Grad.Data() {
			dot += g * tangents[i].Data()[j]
		}
	}
	y2, err := c.f(fresh)
	if err != nil {
		t.Fatalf("%s: forward mode: %v", c.name, err)
	}
	ty := y2.Tangent()
	if ty == nil || !slices.Equal(ty.Shape(), y.Shape()) {
		t.Fatalf("%s: forward mode: tangent %v for an output of shape %s", c.name, ty, ShapeString(y.Shape()))
	}
	dot2 := 0.0 // ⟨up, tangent of y⟩
	for i, v := range ty.Data() {
		dot2 += up.Data()[i] * v
	}
	if !closeTo(dot, dot2, 1e-10) {
		t.Errorf("%s: ⟨grad, tangent⟩ = %v by reverse mode, %v by forward mode", c.name, dot, dot2)
	}

	// Central differences along the tangents.
	const h = 1e-5
	shifted := func(sign float64) *Tensor {
		moved := make([]*Tensor, len(xs))
		for i, x := range xs {
			moved[i] = Must(New(x.Data(), x.Shape()...))
			for j := range moved[i].Data() {
				moved[i].Data()[j] += sign * h * tangents[i].Data()[j]
			}
		}
		z, err := c.f(moved)
		if err != nil {
			t.Fatalf("%s: shifted: %v", c.name, err)
		}
		return z
	}
	hi, lo := shifted(1), shifted(-1)
	for i, v := range ty.Data() {
		fd := (hi.Data()[i] - lo.Data()[i]) / (2 * h)
		if !closeTo(fd, v, 1e-6) {
			t.Errorf("%s: element %d: tangent %v, central difference %v", c.name, i, v, fd)
		}
	}
	return used
}

// randShape returns a shape of rank dimensions of 1 to 4.
func randShape(r *rand.Rand, rank int) []int {
	s := make([]int, rank)
	for i := range s {
		s[i] = 1 + r.IntN(4)
	}
	return s
}

// broadcastPair returns two shapes that broadcast: b is a, with leading
// dimensions dropped and others set to 1, or the other way round.
func broadcastPair(r *rand.Rand) ([]int, []int) {
	a := randShape(r, r.IntN(4))
	b := append([]int(nil), a[r.IntN(len(a)+1):]...)
	for i := range b {
		if r.IntN(3) == 0 {
			b[i] = 1
		}
	}
	for i := range a {
		if r.IntN(4) == 0 {
			a[i] = 1
		}
	}
	if r.IntN(2) == 0 {
		return b, a
	}
	return a, b
}

func binaryCases(r *rand.Rand) []gradCase {
	type binop struct {
		name string
		f    func(a, b *Tensor) (*Tensor, error)
		dom  domain // of the second input
	}
	binops := []binop{
		{"add", (*Tensor).Add, normal},
		{"sub", (*Tensor).Sub, normal},
		{"mul", (*Tensor).Mul, normal},
		{"div", (*Tensor).Div, away},
	}
	pairs := [][2][]int{
		{{3, 1}, {1, 4}}, {{2, 3}, {3}}, {{}, {2, 3}}, {{2, 3}, {}}, {{2, 3}, {2, 3}},
		{{4}, {3, 1}}, {{2, 1, 3}, {4, 1}}, {{1}, {5}}, {{}, {}}, {{2, 3, 4}, {3, 1}}, {{2, 3}, {2, 1}},
	}
	for range 8 {
		a, b := broadcastPair(r)
		pairs = append(pairs, [2][]int{a, b})
	}
	var cases []gradCase
	for _, o := range binops {
		for _, p := range pairs {
			cases = append(cases, gradCase{
				fmt.Sprintf("%s %s %s", o.name, ShapeString(p[0]), ShapeString(p[1])),
				[]input{in(normal, p[0]...), in(o.dom, p[1]...)},
				func(x []*Tensor) (*Tensor, error) { return o.f(x[0], x[1]) }})
		}
		cases = append(cases, gradCase{o.name + " x x", []input{in(away, 2, 3)},
			func(x []*Tensor) (*Tensor, error) { return o.f(x[0], x[0]) }})
	}
	return cases
}

func unaryCases(r *rand.Rand) []gradCase {
	type unop struct {
		name string
		f    func(*Tensor) *Tensor
		dom  domain
	}
	unops := []unop{
		{"neg", (*Tensor).Neg, normal},
		{"exp", (*Tensor).Exp, normal},
		{"log", (*Tensor).Log, positive},
		{"tanh", (*Tensor).Tanh, normal},
		{"relu", (*Tensor).Relu, away},
		{"sigmoid", (*Tensor).Sigmoid, normal},
	}
	for _, k := range []float64{2, 3, 1, 0, -1, -2, -0.5, 0.5, 1.5} {
		dom := positive
		if k == math.Trunc(k) && k >= 0 {
			dom = normal
		}
		unops = append(unops, unop{fmt.Sprintf("pow %v", k), func(t *Tensor) *Tensor { return t.Pow(k) }, dom})
	}
	var cases []gradCase
	for _, o := range unops {
		shapes := [][]int{{}, {5}, {2, 3}, randShape(r, 3)}
		for _, s := range shapes {
			cases = append(cases, gradCase{o.name + " " + ShapeString(s), []input{in(o.dom, s...)},
				func(x []*Tensor) (*Tensor, error) { return o.f(x[0]), nil }})
		}
	}
	return cases
}

func matmulCases(r *rand.Rand) []gradCase {
	pairs := [][2][]int{
		{{3, 4}, {4, 5}}, {{4}, {4, 5}}, {{3, 4}, {4}}, {{4}, {4}}, {{1, 1}, {1, 1}}, {{2, 0}, {0, 3}}, {{32, 30}, {30, 8}},
		// batched: a stack against a matrix (a linear layer on (B, T, C)),
		// stack against stack (attention's heads), and broadcast batches
		{{2, 3, 4}, {4, 5}}, {{2, 3, 4}, {2, 4, 5}}, {{4}, {2, 4, 3}}, {{2, 3, 4}, {4}}, {{2, 1, 3, 4}, {3, 4, 2}},
		{{1, 3, 4}, {2, 4, 5}}, {{2, 3, 4}, {1, 4, 5}}, {{3, 4}, {2, 4, 2}}, {{2, 2, 2, 3}, {2, 2, 3, 2}}, {{2, 0, 3}, {3, 2}},
	}
	for range 4 {
		m, k, n := 1+r.IntN(6), 1+r.IntN(6), 1+r.IntN(6)
		pairs = append(pairs, [2][]int{{m, k}, {k, n}})
	}
	var cases []gradCase
	for _, p := range pairs {
		cases = append(cases, gradCase{"matmul " + ShapeString(p[0]) + " " + ShapeString(p[1]),
			[]input{in(normal, p[0]...), in(normal, p[1]...)},
			func(x []*Tensor) (*Tensor, error) { return x[0].Matmul(x[1]) }})
	}
	cases = append(cases, gradCase{"matmul x x", []input{in(normal, 3, 3)},
		func(x []*Tensor) (*Tensor, error) { return x[0].Matmul(x[0]) }})
	return cases
}

func reduceCases(r *rand.Rand) []gradCase {
	var cases []gradCase
	shapes := [][]int{{2, 3, 4}, {5}, {3, 1}, {3, 0}, randShape(r, 3), randShape(r, 2)}
	for _, s := range shapes {
		axes := []int{AllAxes}
		for axis := -1; axis < len(s); axis++ {
			axes = append(axes, axis)
		}
		for _, axis := range axes {
			for _, keep := range []bool{false, true} {
				name := fmt.Sprintf("%s axis %d keepdims %v", ShapeString(s), axis, keep)
				size := numel(s)
				if axis == AllAxes {
					name = fmt.Sprintf("%s all axes keepdims %v", ShapeString(s), keep)
				} else {
					size = s[(axis+len(s))%len(s)]
				}
				cases = append(cases, gradCase{"sum " + name, []input{in(normal, s...)},
					func(x []*Tensor) (*Tensor, error) { return x[0].Sum(axis, keep) }})
				if size > 0 { // the mean and max of nothing are not numbers
					cases = append(cases, gradCase{"mean " + name, []input{in(normal, s...)},
						func(x []*Tensor) (*Tensor, error) { return x[0].Mean(axis, keep) }})
					cases = append(cases, gradCase{"max " + name, []input{in(normal, s...)},
						func(x []*Tensor) (*Tensor, error) {
							v, _, err := x[0].Max(axis, keep)
							return v, err
						}})
				}
			}
		}
		cases = append(cases,
			gradCase{"sum all " + ShapeString(s), []input{in(normal, s...)},
				func(x []*Tensor) (*Tensor, error) { return x[0].SumAll(), nil }},
			gradCase{"mean all " + ShapeString(s), []input{in(normal, s...)},
				func(x []*Tensor) (*Tensor, error) {
					if x[0].Size() == 0 {
						return x[0].SumAll(), nil // the mean of nothing is NaN
					}
					return x[0].MeanAll(), nil
				}})
		if numel(s) > 0 {
			cases = append(cases, gradCase{"max all " + ShapeString(s), []input{in(normal, s...)},
				func(x []*Tensor) (*Tensor, error) {
					v, _, err := x[0].MaxAll()
					return v, err
				}})
		}
	}
	cases = append(cases, gradCase{"sum all ()", []input{in(normal)},
		func(x []*Tensor) (*Tensor, error) { return x[0].SumAll(), nil }})
	return cases
}

func numel(s []int) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

func shapeCases(r *rand.Rand) []gradCase {
	var cases []gradCase
	for _, s := range [][]int{{3, 4}, {2, 3, 4}, {5}, {}, randShape(r, 2)} {
		cases = append(cases, gradCase{"T " + ShapeString(s), []input{in(normal, s...)},
			func(x []*Tensor) (*Tensor, error) { return x[0].T().Mul(Scalar(1)) }})
	}
	reshapes := []struct{ from, to []int }{
		{[]int{2, 3, 4}, []int{6, -1}}, {[]int{2, 3, 4}, []int{-1}}, {[]int{2, 3, 4}, []int{4, 3, 2}},
		{[]int{}, []int{1, 1}}, {[]int{1}, []int{}}, {[]int{32, 3, 10}, []int{32, -1}}, {[]int{0, 3}, []int{3, -1, 2}},
	}
	for _, rs := range reshapes {
		cases = append(cases, gradCase{"reshape " + ShapeString(rs.from) + " " + ShapeString(rs.to), []input{in(normal, rs.from...)},
			func(x []*Tensor) (*Tensor, error) { return x[0].Reshape(rs.to...) }})
	}
	indexes := []struct {
		shape []int
		ix    []Index
		name  string
	}{
		{[]int{4, 5}, []Index{At(1)}, "[1]"},
		{[]int{4, 5}, []Index{At(-1)}, "[-1]"},
		{[]int{4, 5}, []Index{Slice(1, 3)}, "[1:3]"},
		{[]int{4, 5}, []Index{SliceStep(Omit, Omit, -1)}, "[::-1]"},
		{[]int{4, 5}, []Index{All(), At(2)}, "[:, 2]"},
		{[]int{4, 5}, []Index{SliceStep(3, 0, -2), Slice(-3, 100)}, "[3:0:-2, -3:100]"},
		{[]int{2, 3, 4}, []Index{At(1), Slice(0, 2)}, "[1, 0:2]"},
		{[]int{2, 3, 4}, []Index{At(0), At(2), At(3)}, "[0, 2, 3]"},
		{[]int{2, 3, 4}, nil, "[()]"},
		{[]int{6}, []Index{SliceStep(Omit, Omit, 2)}, "[::2]"},
		{[]int{6}, []Index{Slice(4, 2)}, "[4:2]"},
	}
	for _, ix := range indexes {
		cases = append(cases, gradCase{"index " + ShapeString(ix.shape) + ix.name, []input{in(normal, ix.shape...)},
			func(x []*Tensor) (*Tensor, error) { return x[0].Index(ix.ix...) }})
	}
	takes := []struct {
		shape []int
		idx   []*Tensor
		name  string
	}{
		{[]int{7, 3}, []*Tensor{ints([]int{4, 3}, 1, 1, 2, 0, 6, 1, 1, 1, 1, 5, 3, 2)}, "embedding, repeated rows"},
		{[]int{5}, []*Tensor{ints([]int{6}, 0, 4, 4, -1, 2, 0)}, "1-d, negative"},
		{[]int{4, 5}, []*Tensor{ints([]int{4}, 0, 1, 2, 3), ints([]int{4}, 4, 0, 4, 2)}, "rows and cols"},
		{[]int{4, 5}, []*Tensor{ints([]int{2}, 3, 3), ints([]int{2}, 1, 1)}, "one element twice"},
		{[]int{4, 3}, []*Tensor{ints([]int{}, 2)}, "0-d index"},
		{[]int{3, 4, 2}, []*Tensor{ints([]int{2, 2}, 0, 2, 2, 1), ints([]int{2, 2}, 3, 0, 0, 1)}, "two of three axes"},
		{[]int{4, 2}, []*Tensor{ints([]int{0})}, "no index"},
	}
	for _, tk := range takes {
		cases = append(cases, gradCase{"take " + tk.name, []input{in(normal, tk.shape...)},
			func(x []*Tensor) (*Tensor, error) { return x[0].Take(tk.idx...) }})
	}
	cats := []struct {
		axis   int
		shapes [][]int
	}{
		{0, [][]int{{2, 3}, {4, 3}}}, {1, [][]int{{2, 3}, {2, 1}, {2, 2}}}, {-1, [][]int{{2, 2, 3}, {2, 2, 1}}},
		{1, [][]int{{2, 3, 2}, {2, 1, 2}}}, {0, [][]int{{3}, {0}, {2}}},
	}
	for _, ct := range cats {
		var ins []input
		for _, s := range ct.shapes {
			ins = append(ins, in(normal, s...))
		}
		cases = append(cases, gradCase{fmt.Sprintf("cat axis %d %v", ct.axis, ct.shapes), ins,
			func(x []*Tensor) (*Tensor, error) { return Cat(ct.axis, x...) }})
	}
	cases = append(cases, gradCase{"cat x x", []input{in(normal, 2, 3)},
		func(x []*Tensor) (*Tensor, error) { return Cat(0, x[0], x[0]) }})
	return cases
}

func lossCases() []gradCase {
	ces := []struct {
		shape   []int
		targets *Tensor
		dom     domain
	}{
		{[]int{4, 5}, ints([]int{4}, 0, 4, 2, 2), normal},
		{[]int{1, 1}, ints([]int{1}, 0), normal},
		{[]int{6, 3}, ints([]int{6}, 2, 1, 0, 0, 1, 2), huge},
		{[]int{32, 27}, Must(NewGenerator(1).RandInt(0, 27, 32)), normal},
	}
	var cases []gradCase
	for _, ce := range ces {
		cases = append(cases, gradCase{"cross_entropy " + ShapeString(ce.shape), []input{in(ce.dom, ce.shape...)},
			func(x []*Tensor) (*Tensor, error) { return CrossEntropy(x[0], ce.targets) }})
	}
	return cases
}

// tril returns the (n, n) mask of a causal attention: 1 above the
// diagonal, where a position would see the future, 0 elsewhere.
func tril(n int) *Tensor {
	m := Must(Zeros(n, n))
	for i := range n {
		for j := i + 1; j < n; j++ {
			m.Data()[i*n+j] = 1
		}
	}
	return m
}

// transformerCases are the ops a transformer adds: softmax, masked fill,
// layer norm and transpose of two axes, alone and as attention chains
// them.
func transformerCases(r *rand.Rand) []gradCase {
	var cases []gradCase
	for _, s := range []struct {
		shape []int
		axis  int
		dom   domain
	}{{[]int{5}, 0, normal}, {[]int{2, 3}, 0, normal}, {[]int{2, 3}, 1, normal}, {[]int{2, 3}, -1, huge},
		{[]int{2, 3, 4}, 1, normal}, {[]int{1, 1}, -1, normal}, {[]int{2, 0}, 1, normal}, {randShape(r, 3), -1, normal}} {
		cases = append(cases, gradCase{fmt.Sprintf("softmax %s axis %d", ShapeString(s.shape), s.axis), []input{in(s.dom, s.shape...)},
			func(x []*Tensor) (*Tensor, error) { return x[0].Softmax(s.axis) }})
	}
	for _, s := range []struct {
		shape []int
		mask  *Tensor
	}{{[]int{4, 4}, tril(4)}, {[]int{2, 3, 4, 4}, tril(4)}, {[]int{2, 3}, ints([]int{3}, 0, 1, 0)}, {[]int{2, 3}, ints([]int{}, 1)}, {[]int{3}, ints([]int{3}, 0, 0, 0)}} {
		cases = append(cases, gradCase{fmt.Sprintf("masked_fill %s by %s", ShapeString(s.shape), ShapeString(s.mask.Shape())), []input{in(normal, s.shape...)},
			func(x []*Tensor) (*Tensor, error) { return x[0].MaskedFill(s.mask, -7.5) }})
	}
	for _, s := range [][]int{{5}, {3, 4}, {2, 3, 4}, {2, 1}, {randShape(r, 1)[0], 6}} {
		c := s[len(s)-1]
		cases = append(cases, gradCase{"layer_norm " + ShapeString(s), []input{in(normal, s...), in(normal, c), in(normal, c)},
			func(x []*Tensor) (*Tensor, error) { return LayerNorm(x[0], x[1], x[2], 1e-5) }})
	}
	cases = append(cases, gradCase{"layer_norm without weight and bias", []input{in(huge, 3, 4)},
		func(x []*Tensor) (*Tensor, error) { return LayerNorm(x[0], nil, nil, 0.1) }})
	for _, s := range []struct {
		shape []int
		a, b  int
	}{{[]int{2, 3, 4}, 1, 2}, {[]int{2, 3, 4}, 0, 2}, {[]int{2, 3, 4}, -1, -2}, {[]int{3}, 0, 0}, {[]int{2, 3, 4, 5}, 1, 2}} {
		cases = append(cases, gradCase{fmt.Sprintf("transpose %s %d %d", ShapeString(s.shape), s.a, s.b), []input{in(normal, s.shape...)},
			func(x []*Tensor) (*Tensor, error) {
				y, err := x[0].Transpose(s.a, s.b)
				if err != nil {
					return nil, err
				}
				return y.Mul(Scalar(1))
			}})
	}
	for _, s := range [][2][]int{{{3, 4}, {5, 4}}, {{2, 3, 4}, {2, 4}}, {{4}, {3, 4}}, {{2, 0}, {3, 0}}, {{0, 4}, {3, 4}}} {
		out := s[1][0]
		cases = append(cases, gradCase{"linear " + ShapeString(s[0]) + " " + ShapeString(s[1]), []input{in(normal, s[0]...), in(normal, s[1]...), in(normal, out)},
			func(x []*Tensor) (*Tensor, error) { return Linear(x[0], x[1], x[2]) }})
	}
	cases = append(cases, gradCase{"linear without bias", []input{in(normal, 3, 4), in(normal, 2, 4)},
		func(x []*Tensor) (*Tensor, error) { return Linear(x[0], x[1], nil) }})
	// One head of causal attention on (B, T, C): q @ kᵀ, scaled, masked,
	// softmax, @ v, after a layer norm.
	cases = append(cases, gradCase{"attention", []input{in(normal, 2, 3, 4), in(normal, 4, 4), in(normal, 4, 4), in(normal, 4, 4), in(normal, 4), in(normal, 4)},
		func(x []*Tensor) (*Tensor, error) {
			h, err := LayerNorm(x[0], x[4], x[5], 1e-5)
			if err != nil {
				return nil, err
			}
			q, k, v := Must(h.Matmul(x[1])), Must(h.Matmul(x[2])), Must(h.Matmul(x[3]))
			kt := Must(k.Transpose(-2, -1))
			wei := Must(Must(q.Matmul(kt)).Mul(Scalar(0.5)))
			wei = Must(wei.MaskedFill(tril(3), math.Inf(-1)))
			return Must(wei.Softmax(-1)).Matmul(v)
		}})
	return cases
}

// TestOpsAgainstScalarEngine is the oracle for every op of the table.
func TestOpsAgainstScalarEngine(t *testing.T) {
	seen := map[string]int{} // the cases that use each op
	shapes := map[string]bool{}
	total := 0
	for seed := range uint64(3) { // new random shapes and values each time
		r := rand.New(rand.NewPCG(3, 5+seed))
		var cases []gradCase
		cases = append(cases, binaryCases(r)...)
		cases = append(cases, unaryCases(r)...)
		cases = append(cases, matmulCases(r)...)
		cases = append(cases, reduceCases(r)...)
		cases = append(cases, shapeCases(r)...)
		cases = append(cases, lossCases()...)
		cases = append(cases, transformerCases(r)...)
		for _, c := range cases {
			ops := map[string]bool{}
			for _, op := range checkCase(t, r, c) {
				ops[op] = true
			}
			for op := range ops {
				seen[op]++
			}
			shapes[c.name] = true
		}
		total += len(cases)
	}
	for _, op := range OpNames() {
		if seen[op] == 0 {
			t.Errorf("no case uses op %s", op)
		}
	}
	t.Logf("%d cases (%d distinct ops and shapes) over %d ops; cases per op: %v", total, len(shapes), len(seen), seen)
}

// TestMLPAgainstScalarEngine checks a small makemore MLP, every op of the
// ninja notebook chained, intermediates included.
func TestMLPAgainstScalarEngine(t *testing.T) {
	g := NewGenerator(9)
	n := 5
	Xb := Must(g.RandInt(0, 6, n, 3))
	Xb.Data()[1] = Xb.Data()[0] // a repeated index, for sure
	Yb := Must(g.RandInt(0, 6, n))
	c := gradCase{"mlp", []input{in(normal, 6, 2), in(normal, 6, 4), in(normal, 4), in(normal, 1, 4), in(normal, 1, 4), in(normal, 4, 6), in(normal, 6)},
		func(p []*Tensor) (*Tensor, error) {
			l, _ := mlp(p, Xb, Yb)
			return l, nil
		}}
	r := rand.New(rand.NewPCG(1, 2))
	used := checkCase(t, r, c)
	t.Logf("ops: %v", used)
}
