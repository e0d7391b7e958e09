package tensor_test

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gradbook/engine"
	. "gradbook/tensor"
)

func TestFromNested(t *testing.T) {
	tests := []struct {
		in    any
		shape []int
		data  []float64
	}{
		{2.5, []int{}, []float64{2.5}},
		{3, []int{}, []float64{3}},
		{[]float64{1, 2}, []int{2}, []float64{1, 2}},
		{[]int{1, 2, 3}, []int{3}, []float64{1, 2, 3}},
		{[]any{1, 2.5}, []int{2}, []float64{1, 2.5}},
		{[]any{[]any{1.0, 2.0}, []any{3.0, 4.0}}, []int{2, 2}, []float64{1, 2, 3, 4}},
		{[]any{[]float64{1, 2, 3}, []int{4, 5, 6}}, []int{2, 3}, []float64{1, 2, 3, 4, 5, 6}},
		{[]any{}, []int{0}, []float64{}},
		{[]any{[]any{}, []any{}}, []int{2, 0}, []float64{}},
		{[]any{[]any{[]any{1.0}}, []any{[]any{2.0}}}, []int{2, 1, 1}, []float64{1, 2}},
	}
	for _, tc := range tests {
		got, err := FromNested(tc.in)
		if err != nil {
			t.Errorf("FromNested(%v): %v", tc.in, err)
			continue
		}
		if !slices.Equal(got.Shape(), tc.shape) || !slices.Equal(got.Data(), tc.data) {
			t.Errorf("FromNested(%v) = %s %v, want %s %v", tc.in, ShapeString(got.Shape()), got.Data(), ShapeString(tc.shape), tc.data)
		}
	}
}

func TestConstructors(t *testing.T) {
	for _, tc := range []struct {
		start, stop, step float64
		want              []float64
	}{
		{0, 5, 1, []float64{0, 1, 2, 3, 4}},
		{5, 0, -2, []float64{5, 3, 1}},
		{0, 1, 0.3, []float64{0, 0.3, 0.6, 0.8999999999999999}},
		{3, 3, 1, []float64{}},
		{3, 1, 1, []float64{}},
	} {
		got := Must(Arange(tc.start, tc.stop, tc.step))
		if !slices.Equal(got.Data(), tc.want) {
			t.Errorf("Arange(%v, %v, %v) = %v, want %v", tc.start, tc.stop, tc.step, got.Data(), tc.want)
		}
	}
	if f := Must(Full(7, 2, 3)); !slices.Equal(f.Shape(), []int{2, 3}) || f.Data()[5] != 7 {
		t.Errorf("Full(7, 2, 3) = %v", f)
	}
	if o := OnesLike(Must(Zeros(2))); !slices.Equal(o.Data(), []float64{1, 1}) {
		t.Errorf("OnesLike = %v", o)
	}
	if s := Scalar(4); s.NDim() != 0 || s.Size() != 1 {
		t.Errorf("Scalar(4) has shape %s", ShapeString(s.Shape()))
	}
	m := Must(FromNested([]any{[]float64{1, 2, 3}, []float64{4, 5, 6}}))
	if got := m.String(); got != "[[1, 2, 3], [4, 5, 6]]" {
		t.Errorf("String = %s", got)
	}
	if x, err := m.At(-1, 0); x != 4 || err != nil {
		t.Errorf("At(-1, 0) = %v, %v", x, err)
	}
	if got := Must(Zeros(300)).String(); got != "tensor of shape (300,)" {
		t.Errorf("String = %s", got)
	}
}

// hash is FNV-1a over the bits of every element.
func hash(t *Tensor) uint64 {
	h := fnv.New64a()
	for _, v := range t.Data() {
		u := math.Float64bits(v)
		h.Write([]byte{byte(u), byte(u >> 8), byte(u >> 16), byte(u >> 24), byte(u >> 32), byte(u >> 40), byte(u >> 48), byte(u >> 56)})
	}
	return h.Sum64()
}

// TestRandomIsStable pins the random sequences: they must not change
// between platforms (this test also runs in WebAssembly) or releases.
func TestRandomIsStable(t *testing.T) {
	g := NewGenerator(42)
	normal := Must(g.Randn(10000))
	uniform := Must(g.Rand(10000))
	ints := Must(g.RandInt(-3, 1000, 10000))
	for _, tc := range []struct {
		name  string
		t     *Tensor
		first []float64
		hash  uint64
	}{
		{"Randn", normal, []float64{0.05135626883997506, 0.26611819681377197, -0.8186663083420661, 1.823470306975814}, 0xc8798f3e73ce8758},
		{"Rand", uniform, []float64{0.9739188386146285, 0.19674269959641488, 0.303763069896708, 0.9149262398282906}, 0x759fcbd1b19532c9},
		{"RandInt", ints, []float64{384, 850, 263, 265}, 0xfeb9556f727ab6ae},
	} {
		if got := tc.t.Data()[:4]; !slices.Equal(got, tc.first) || hash(tc.t) != tc.hash {
			t.Errorf("%s starts %v (hash %#x), want %v (hash %#x)", tc.name, got, hash(tc.t), tc.first, tc.hash)
		}
	}
	if a, b := Must(Randn(7, 3)), Must(NewGenerator(7).Randn(3)); !slices.Equal(a.Data(), b.Data()) {
		t.Errorf("Randn(7, 3) = %v, NewGenerator(7).Randn(3) = %v", a, b)
	}
	g = NewGenerator(7)
	if a, b := Must(g.Randn(3)), Must(g.Randn(3)); slices.Equal(a.Data(), b.Data()) {
		t.Errorf("two calls gave the same numbers: %v", a)
	}
	mean, sq := 0.0, 0.0
	for _, v := range normal.Data() {
		mean += v
		sq += v * v
	}
	mean /= 10000
	if sd := math.Sqrt(sq/10000 - mean*mean); math.Abs(mean) > 0.05 || math.Abs(sd-1) > 0.05 {
		t.Errorf("Randn: mean %v, standard deviation %v", mean, sd)
	}
	for _, v := range ints.Data() {
		if v < -3 || v >= 1000 || v != math.Trunc(v) {
			t.Fatalf("RandInt(-3, 1000) gave %v", v)
		}
	}
}

func TestIndexing(t *testing.T) {
	x := Must(Arange(0, 20, 1))
	m := Must(x.Reshape(4, 5))
	tests := []struct {
		name  string
		got   *Tensor
		shape []int
		want  []float64
	}{
		{"m[1]", Must(m.Index(At(1))), []int{5}, []float64{5, 6, 7, 8, 9}},
		{"m[-1, 2]", Must(m.Index(At(-1), At(2))), []int{}, []float64{17}},
		{"m[:, 2]", Must(m.Index(All(), At(2))), []int{4}, []float64{2, 7, 12, 17}},
		{"m[1:3, ::2]", Must(m.Index(Slice(1, 3), SliceStep(Omit, Omit, 2))), []int{2, 3}, []float64{5, 7, 9, 10, 12, 14}},
		{"x[::-1][:3]", Must(Must(x.Index(SliceStep(Omit, Omit, -1))).Index(Slice(Omit, 3))), []int{3}, []float64{19, 18, 17}},
		{"x[3:0:-2]", Must(x.Index(SliceStep(3, 0, -2))), []int{2}, []float64{3, 1}},
		{"x[-3:100]", Must(x.Index(Slice(-3, 100))), []int{3}, []float64{17, 18, 19}},
		{"x[-100:2]", Must(x.Index(Slice(-100, 2))), []int{2}, []float64{0, 1}},
		{"x[5:2]", Must(x.Index(Slice(5, 2))), []int{0}, []float64{}},
		{"x[:-100:-9]", Must(x.Index(SliceStep(Omit, -100, -9))), []int{3}, []float64{19, 10, 1}},
		{"x[2::huge]", Must(x.Index(SliceStep(2, Omit, math.MaxInt))), []int{1}, []float64{2}},
		{"x[::-huge]", Must(x.Index(SliceStep(Omit, Omit, math.MinInt))), []int{1}, []float64{19}},
		{"x[18::19]", Must(x.Index(SliceStep(18, Omit, 19))), []int{1}, []float64{18}},
		{"x[::7]", Must(x.Index(SliceStep(Omit, Omit, 7))), []int{3}, []float64{0, 7, 14}},
		{"x[::-7]", Must(x.Index(SliceStep(Omit, Omit, -7))), []int{3}, []float64{19, 12, 5}},
		{"m[[3, 0, 3]]", Must(m.Take(ints([]int{3}, 3, 0, -1))), []int{3, 5}, []float64{15, 16, 17, 18, 19, 0, 1, 2, 3, 4, 15, 16, 17, 18, 19}},
		{"m[range(4), [4, 0, 1, 2]]", Must(m.Take(Must(Arange(0, 4, 1)), ints([]int{4}, 4, 0, 1, 2))), []int{4}, []float64{4, 5, 11, 17}},
		{"m.T", m.T(), []int{5, 4}, []float64{0, 5, 10, 15, 1, 6, 11, 16, 2, 7, 12, 17, 3, 8, 13, 18, 4, 9, 14, 19}},
		{"m.sum(keepdims=True)", Must(m.Sum(AllAxes, true)), []int{1, 1}, []float64{190}},
		{"m.mean(axis=None, keepdims=True)", Must(m.Mean(AllAxes, true)), []int{1, 1}, []float64{9.5}},
		{"m.sum(0)", Must(m.Sum(0, false)), []int{5}, []float64{30, 34, 38, 42, 46}},
		{"m.mean(-1, keepdims=True)", Must(m.Mean(-1, true)), []int{4, 1}, []float64{2, 7, 12, 17}},
		{"one_hot", Must(OneHot(ints([]int{2}, 2, 0), 3)), []int{2, 3}, []float64{0, 0, 1, 1, 0, 0}},
		{"cat", Must(Cat(1, m.T(), Must(Zeros(5, 1)))), []int{5, 5}, []float64{0, 5, 10, 15, 0, 1, 6, 11, 16, 0, 2, 7, 12, 17, 0, 3, 8, 13, 18, 0, 4, 9, 14, 19, 0}},
	}
	for _, tc := range tests {
		if !slices.Equal(tc.got.Shape(), tc.shape) || !slices.Equal(tc.got.Data(), tc.want) {
			t.Errorf("%s = %s %v, want %s %v", tc.name, ShapeString(tc.got.Shape()), tc.got.Data(), ShapeString(tc.shape), tc.want)
		}
	}
}

func TestMaxTiesAndRelu(t *testing.T) {
	x := Must(FromNested([]any{[]float64{1, 3, 3}, []float64{2, 2, 0}})).SetRequiresGrad(true)
	v, i, err := x.Max(1, false)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(v.Data(), []float64{3, 2}) || !slices.Equal(i.Data(), []float64{1, 0}) {
		t.Errorf("max = %v at %v, want [3 2] at [1 0]", v, i)
	}
	if err := v.SumAll().Backward(); err != nil {
		t.Fatal(err)
	}
	if want := []float64{0, 1, 0, 1, 0, 0}; !slices.Equal(x.Grad.Data(), want) {
		t.Errorf("the gradient of max went to %v, want the first of ties: %v", x.Grad.Data(), want)
	}
	_, flat, _ := x.MaxAll()
	if flat.Data()[0] != 1 {
		t.Errorf("MaxAll's index is %v, want 1", flat)
	}

	z := Must(FromNested([]float64{-1, 0, 2})).SetRequiresGrad(true)
	if err := z.Relu().SumAll().Backward(); err != nil {
		t.Fatal(err)
	}
	if want := []float64{0, 0, 1}; !slices.Equal(z.Grad.Data(), want) {
		t.Errorf("relu's gradient at -1, 0, 2 is %v, want %v", z.Grad.Data(), want)
	}
}

func TestAutograd(t *testing.T) {
	x := Must(FromNested([]float64{3})).SetRequiresGrad(true)
	w := Must(FromNested([]float64{2}))
	y := Must(x.Mul(x))
	yw := Must(y.Mul(w))
	loss := yw.SumAll()
	if err := loss.Backward(); err != nil {
		t.Fatal(err)
	}
	if x.Grad.Data()[0] != 12 {
		t.Errorf("d(2x²)/dx at 3 = %v, want 12", x.Grad)
	}
	if w.Grad != nil || y.Grad != nil {
		t.Errorf("gradients where none were asked for: w %v, y %v", w.Grad, y.Grad)
	}

	// Gradients accumulate; ZeroGrad resets them in place.
	grad := x.Grad
	if err := loss.Backward(); err != nil {
		t.Fatal(err)
	}
	if x.Grad != grad || x.Grad.Data()[0] != 24 {
		t.Errorf("after a second backward, x.Grad = %v, want 24 in the same tensor", x.Grad)
	}
	x.ZeroGrad()
	if x.Grad != grad || x.Grad.Data()[0] != 0 {
		t.Errorf("after ZeroGrad, x.Grad = %v", x.Grad)
	}

	// RetainGrad keeps an intermediate's.
	y.RetainGrad()
	if err := loss.Backward(); err != nil {
		t.Fatal(err)
	}
	if y.Grad == nil || y.Grad.Data()[0] != 2 || x.Grad.Data()[0] != 12 {
		t.Errorf("y.Grad = %v (want 2), x.Grad = %v (want 12)", y.Grad, x.Grad)
	}

	// The teaching mode: x·x keeps one of its two contributions.
	x.ZeroGrad()
	if err := Must(x.Mul(x)).SumAll().BackwardWith(nil, engine.OverwriteBug); err != nil {
		t.Fatal(err)
	}
	if x.Grad.Data()[0] != 3 {
		t.Errorf("with the overwrite bug, d(x·x)/dx at 3 = %v, want 3", x.Grad)
	}

	// Detach shares the numbers but cuts the graph.
	x.ZeroGrad()
	d := x.Detach()
	if err := Must(x.Mul(d)).SumAll().Backward(); err != nil {
		t.Fatal(err)
	}
	if x.Grad.Data()[0] != 3 || d.Grad != nil || d.RequiresGrad() || &d.Data()[0] != &x.Data()[0] {
		t.Errorf("x·detach(x): x.Grad = %v (want 3), detached grad %v", x.Grad, d.Grad)
	}

	// Reshape shares storage; the graph records ops and inputs.
	r := Must(x.Reshape())
	if &r.Data()[0] != &x.Data()[0] || r.Op() != "reshape" || r.Inputs()[0] != x || !x.IsLeaf() || r.IsLeaf() {
		t.Errorf("reshape: op %q, inputs %v", r.Op(), r.Inputs())
	}
	if got := Topo(loss); len(got) != 5 || got[len(got)-1] != loss {
		t.Errorf("Topo(loss) has %d tensors", len(got))
	}

	// No graph without a tensor that requires a gradient.
	c := Must(w.Mul(w))
	if c.RequiresGrad() || c.Op() != "" || c.Inputs() != nil {
		t.Errorf("w·w records %q", c.Op())
	}
}

func TestForwardModeWithoutGraph(t *testing.T) {
	x := Must(FromNested([]float64{1, 2}))
	if err := x.SetTangent(Must(FromNested([]float64{1, 0}))); err != nil {
		t.Fatal(err)
	}
	y := Must(x.Mul(x)).SumAll() // x₀² + x₁²
	if y.RequiresGrad() || y.Tangent() == nil || y.Tangent().Data()[0] != 2 {
		t.Errorf("d(x·x)/dx₀ at 1 by forward mode = %v, want 2", y.Tangent())
	}
	if u := Must(Zeros(2)).Exp(); u.Tangent() != nil {
		t.Errorf("a tangent from nowhere: %v", u.Tangent())
	}
}

func TestCrossEntropy(t *testing.T) {
	g := NewGenerator(5)
	logits := Must(g.Randn(32, 27))
	Yb := Must(g.RandInt(0, 27, 32))
	_, s := mlpTail(logits, Yb)
	fused := Must(CrossEntropy(logits, Yb))
	a, _ := fused.Item()
	b, _ := s.Item()
	if math.Abs(a-b) > 1e-12 {
		t.Errorf("cross_entropy %v, the chain of steps %v", a, b)
	}
	big := Must(FromNested([]any{[]float64{1000, -1000, 0}}))
	l := Must(CrossEntropy(big, ints([]int{1}, 1)))
	if v, _ := l.Item(); v != 2000 {
		t.Errorf("cross_entropy of logits ±1000 = %v, want 2000", v)
	}
}

// mlpTail is the notebook's loss from the logits, step by step.
func mlpTail(logits, Yb *Tensor) (*Tensor, *Tensor) {
	maxes, _, _ := logits.Max(1, true)
	counts := Must(logits.Sub(maxes)).Exp()
	probs := Must(counts.Mul(Must(counts.Sum(1, true)).Pow(-1)))
	n := float64(logits.Shape()[0])
	return probs, Must(probs.Log().Take(Must(Arange(0, n, 1)), Yb)).MeanAll().Neg()
}

func TestCompare(t *testing.T) {
	a := Must(FromNested([]float64{1, 2, 3}))
	tiny, small := 3+1e-9, 2.001 // variables: rounded as at run time
	tests := []struct {
		b             []float64
		exact, approx bool
		maxDiff       float64
	}{
		{[]float64{1, 2, 3}, true, true, 0},
		{[]float64{1, 2, tiny}, false, true, tiny - 3},
		{[]float64{1, small, 3}, false, false, small - 2},
		{[]float64{1, 2, math.NaN()}, false, false, math.NaN()},
	}
	for _, tc := range tests {
		exact, approx, d, err := Compare(a, Must(New(tc.b, 3)))
		if err != nil || exact != tc.exact || approx != tc.approx || !(d == tc.maxDiff || d != d && tc.maxDiff != tc.maxDiff) {
			t.Errorf("Compare(%v, %v) = %v, %v, %v, %v; want %v, %v, %v", a, tc.b, exact, approx, d, err, tc.exact, tc.approx, tc.maxDiff)
		}
	}
	inf := Must(FromNested([]float64{math.Inf(1)}))
	if exact, approx, d, _ := Compare(inf, inf); !exact || !approx || d != 0 {
		t.Errorf("Compare(inf, inf) = %v, %v, %v", exact, approx, d)
	}
}

func TestScalarsLabels(t *testing.T) {
	W := Must(Zeros(2, 3)).SetRequiresGrad(true)
	W.Label = "W"
	b := Scalar(1)
	b.Label = "b"
	m := Scalars(Must(W.Add(b)))
	if got := m[W][5].Label; got != "W[1,2]" {
		t.Errorf("element 5 of W is labelled %q", got)
	}
	if got := m[b][0].Label; got != "b" {
		t.Errorf("the scalar is labelled %q", got)
	}
	v := Must(Zeros(3))
	if m := Scalars(v); len(m) != 1 || len(m[v]) != 3 || m[v][0].Label != "" {
		t.Errorf("Scalars of a leaf: %v", m)
	}
}

// TestNoPanics throws random shapes, axes and indices at every op: each
// must return a result or an error, never panic.
func TestNoPanics(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	shape := func() []int {
		s := make([]int, r.IntN(4))
		for i := range s {
			s[i] = r.IntN(4)
		}
		return s
	}
	tensor := func() *Tensor { return Must(Zeros(shape()...)).SetRequiresGrad(r.IntN(2) == 0) }
	index := func() *Tensor {
		t := Must(Zeros(shape()...))
		for i := range t.Data() {
			t.Data()[i] = float64(r.IntN(9)-4) + float64(r.IntN(4))/4
		}
		return t
	}
	small := func() int { return r.IntN(9) - 4 }
	bounds := func() int {
		if r.IntN(4) == 0 {
			return Omit
		}
		return small()
	}
	ops := []func() (*Tensor, error){
		func() (*Tensor, error) { return tensor().Add(tensor()) },
		func() (*Tensor, error) { return tensor().Div(tensor()) },
		func() (*Tensor, error) { return tensor().Matmul(tensor()) },
		func() (*Tensor, error) { return tensor().Sum(small(), r.IntN(2) == 0) },
		func() (*Tensor, error) { return tensor().Mean(small(), r.IntN(2) == 0) },
		func() (*Tensor, error) { v, _, err := tensor().Max(small(), r.IntN(2) == 0); return v, err },
		func() (*Tensor, error) { v, _, err := tensor().MaxAll(); return v, err },
		func() (*Tensor, error) { return tensor().Reshape(shape()...) },
		func() (*Tensor, error) { return tensor().Reshape(small(), small()) },
		func() (*Tensor, error) {
			return tensor().Index(SliceStep(bounds(), bounds(), small()), At(small()))
		},
		func() (*Tensor, error) { return tensor().Index(At(small())) },
		func() (*Tensor, error) { return tensor().Index(SliceStep(bounds(), bounds(), math.MaxInt)) },
		func() (*Tensor, error) { return tensor().Index(SliceStep(bounds(), bounds(), math.MinInt)) },
		func() (*Tensor, error) { return tensor().Index(At(math.MinInt)) },
		func() (*Tensor, error) { return tensor().Take(Scalar(math.Inf(-1))) },
		func() (*Tensor, error) { return tensor().Take(Scalar(1e300)) },
		func() (*Tensor, error) { return tensor().Take(index()) },
		func() (*Tensor, error) { return tensor().Take(index(), index()) },
		func() (*Tensor, error) { return OneHot(index(), small()) },
		func() (*Tensor, error) { return CrossEntropy(tensor(), index()) },
		func() (*Tensor, error) { return Cat(small(), tensor(), tensor()) },
		func() (*Tensor, error) { return tensor().T(), nil },
		func() (*Tensor, error) { return Zeros(small(), small()) },
		func() (*Tensor, error) { return FromNested([]any{[]any{1.0}, []any{}}) },
	}
	results := 0
	for i := range 20000 {
		y, err := ops[i%len(ops)]()
		if err != nil {
			continue
		}
		results++
		if y.RequiresGrad() {
			up := Must(Zeros(y.Shape()...))
			if err := y.BackwardWith(up, engine.Accumulate); err != nil {
				t.Fatal(err)
			}
			_ = Scalars(y)
		}
	}
	if results < 2000 {
		t.Errorf("only %d calls of 20000 succeeded", results)
	}
	t.Log(fmt.Sprint(results, " of 20000 calls succeeded"))
}

// A generator's state, saved and restored, continues with the same
// numbers: a kept state of the cells keeps where torch's generator was.
func TestGeneratorState(t *testing.T) {
	g := NewGenerator(7)
	g.Randn(3) // an odd count leaves a spare normal
	state, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	want := Must(g.Randn(5)).Data()
	var h Generator
	if err := h.UnmarshalBinary(state); err != nil {
		t.Fatal(err)
	}
	if got := Must(h.Randn(5)).Data(); !slices.Equal(got, want) {
		t.Errorf("restored: %v, want %v", got, want)
	}
	counts := make([]int, 3)
	for range 3000 {
		i, err := g.Choice([]float64{0.2, 0, 0.8})
		if err != nil {
			t.Fatal(err)
		}
		counts[i]++
	}
	if counts[1] != 0 || counts[0] < 500 || counts[0] > 700 {
		t.Errorf("draws with weights 0.2, 0, 0.8: %v", counts)
	}
	if _, err := g.Choice([]float64{0, 0}); err == nil {
		t.Error("weights of 0: no error")
	}
}
