package tensor_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"gradbook/engine"
	. "gradbook/tensor"
	"gradbook/tensor/tensortest"
)

// TestPlainIsTheDefinition checks that Plain's loops, whichever the
// layout picks, add up each element of C in Product's order, to the bit.
func TestPlainIsTheDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 36))
	for i := range 2000 {
		p := tensortest.RandomProduct(r, []int{5, 13, 40}[i%3])
		if !p.Valid() {
			t.Fatalf("not valid: %s", tensortest.Describe(p))
		}
		want := tensortest.Reference(p)
		p.Plain()
		if j := tensortest.FirstDifference(p.C, want); j >= 0 {
			t.Fatalf("%s: element %d is %v, the definition's %v", tensortest.Describe(p), j, p.C[j], want[j])
		}
	}
}

// TestValid checks Valid against products that reach past their slices.
func TestValid(t *testing.T) {
	ok := Product{Batch: 2, M: 2, N: 3, K: 4, A: make([]float64, 16), AB: 8, AR: 4, AC: 1,
		B: make([]float64, 12), BB: 0, BR: 3, BC: 1, C: make([]float64, 12), CB: 6, CR: 3}
	if !ok.Valid() {
		t.Fatal("a fitting product is not valid")
	}
	for name, change := range map[string]func(*Product){
		"A short":         func(p *Product) { p.A = p.A[:15] },
		"B short":         func(p *Product) { p.BB = 1 },
		"C short":         func(p *Product) { p.C = p.C[:11] },
		"negative stride": func(p *Product) { p.AR = -4 },
		"negative size":   func(p *Product) { p.K = -1 },
	} {
		p := ok
		change(&p)
		if p.Valid() {
			t.Errorf("%s: valid", name)
		}
	}
}

// countingKernel is a Kernel that computes with Plain and records each
// call, declining the products smaller than min multiply-adds.
type countingKernel struct {
	t     *testing.T
	min   int
	calls int
}

func (k *countingKernel) Product(p Product) bool {
	if !p.Valid() {
		k.t.Errorf("the kernel got a product that is not valid: %s", tensortest.Describe(p))
		return false
	}
	if work := p.Batch * p.M * p.N * p.K; work > PanelWork && p.M > 1 {
		k.t.Errorf("the kernel got %d multiply-adds at once, more than a panel: %s", work, tensortest.Describe(p))
	}
	if p.Batch*p.M*p.N*p.K < k.min {
		return false
	}
	k.calls++
	p.Plain()
	return true
}

// TestKernelGetsPanels checks that an installed kernel computes products
// panel by panel, and that a declined product is computed anyway: the
// results are the plain loops', to the bit.
func TestKernelGetsPanels(t *testing.T) {
	g := NewGenerator(5)
	installed := SetKernel(nil) // the kernels, when the tests run with them
	defer SetKernel(installed)
	for _, min := range []int{0, 1 << 40} {
		k := &countingKernel{t: t, min: min}
		SetKernel(k)
		for _, s := range [][2][]int{{{300, 200}, {200, 150}}, {{2, 3, 500, 60}, {60, 40}}, {{6, 150, 80}, {6, 80, 100}}, {{64, 3, 5}, {64, 5, 7}}} {
			x, w := Must(g.Randn(s[0]...)).SetRequiresGrad(true), Must(g.Randn(s[1]...)).SetRequiresGrad(true)
			up := Must(g.Randn(append(append([]int(nil), s[0][:len(s[0])-1]...), s[1][len(s[1])-1])...))
			y := Must(x.Matmul(w))
			if err := y.BackwardWith(up, engine.Accumulate); err != nil {
				t.Fatal(err)
			}
			SetKernel(nil)
			x2, w2 := Must(New(x.Data(), x.Shape()...)).SetRequiresGrad(true), Must(New(w.Data(), w.Shape()...)).SetRequiresGrad(true)
			y2 := Must(x2.Matmul(w2))
			if err := y2.BackwardWith(up, engine.Accumulate); err != nil {
				t.Fatal(err)
			}
			SetKernel(k)
			for name, pair := range map[string][2]*Tensor{"y": {y, y2}, "dx": {x.Grad, x2.Grad}, "dw": {w.Grad, w2.Grad}} {
				if i := tensortest.FirstDifference(pair[0].Data(), pair[1].Data()); i >= 0 {
					t.Errorf("%v @ %v, kernel declining below %d: %s element %d is %v with the kernel, %v without", s[0], s[1], min, name, i, pair[0].Data()[i], pair[1].Data()[i])
				}
			}
		}
		SetKernel(nil)
		if min == 0 && k.calls < 3*8 {
			t.Errorf("the kernel computed %d panels; the big products need more", k.calls)
		}
		if min > 0 && k.calls > 0 {
			t.Errorf("the kernel computed %d products it declined", k.calls)
		}
	}
}

// TestLinearIsMatmulAndAdd checks that Linear gives x @ Wᵀ + b's numbers
// and gradients to the bit: one op, the same arithmetic.
func TestLinearIsMatmulAndAdd(t *testing.T) {
	g := NewGenerator(7)
	x, w, b := Must(g.Randn(3, 5, 7)), Must(g.Randn(6, 7)), Must(g.Randn(6))
	up := Must(g.Randn(3, 5, 6))
	type result struct{ y, dx, dw, db []float64 }
	both := make([]result, 2)
	for i := range both {
		xs := []*Tensor{Must(New(x.Data(), x.Shape()...)), Must(New(w.Data(), w.Shape()...)), Must(New(b.Data(), b.Shape()...))}
		for _, p := range xs {
			p.SetRequiresGrad(true)
		}
		var y *Tensor
		if i == 0 {
			y = Must(Linear(xs[0], xs[1], xs[2]))
		} else {
			y = Must(Must(xs[0].Matmul(xs[1].T())).Add(xs[2]))
		}
		if err := y.BackwardWith(up, engine.Accumulate); err != nil {
			t.Fatal(err)
		}
		both[i] = result{y.Data(), xs[0].Grad.Data(), xs[1].Grad.Data(), xs[2].Grad.Data()}
	}
	for name, pair := range map[string][2][]float64{"y": {both[0].y, both[1].y}, "dx": {both[0].dx, both[1].dx}, "dW": {both[0].dw, both[1].dw}, "db": {both[0].db, both[1].db}} {
		if i := tensortest.FirstDifference(pair[0], pair[1]); i >= 0 {
			t.Errorf("%s element %d: %v by Linear, %v by matmul and add", name, i, pair[0][i], pair[1][i])
		}
	}
}

// TestBudgetStopsLongProducts counts a Budget's checks: a long product
// asks it before each panel, the whole product's multiply-adds first,
// and stops at its first error, which Matmul, Linear and Backward
// return, leaving no gradient; with the kernels installed too (under
// wasm/kernels' go_js_wasm_exec). A small product never asks.
func TestBudgetStopsLongProducts(t *testing.T) {
	g := NewGenerator(2)
	a, b := Must(g.Randn(600, 600)).SetRequiresGrad(true), Must(g.Randn(600, 600))
	errOut := errors.New("out of time")
	var works []int
	stopAt := 3
	budget := Budget(func(work int) error {
		works = append(works, work)
		if len(works) == stopAt {
			return errOut
		}
		return nil
	})
	if y, err := budget.Matmul(a, b); y != nil || err != errOut {
		t.Fatalf("Matmul within a budget that stops: %v, %v", y, err)
	}
	if len(works) != 3 || works[0] != 600*600*600 || works[1] >= works[0] || works[2] >= works[1] {
		t.Errorf("the budget was asked about %v multiply-adds; want the whole product's, then less at each panel", works)
	}
	if _, err := budget.Linear(a, b, nil); err != nil {
		t.Fatalf("Linear: %v (the budget stops only at its 3rd check)", err)
	}
	works, stopAt = nil, 1
	if _, err := budget.Linear(a, b, nil); err != errOut || len(works) != 1 {
		t.Errorf("Linear within a budget that stops: %v after %d checks", err, len(works))
	}
	// Allowed to the end, the numbers are Matmul's; then a backward
	// stopped leaves the gradient as it was.
	works, stopAt = nil, -1
	y, err := budget.Matmul(a, b)
	if err != nil || tensortest.FirstDifference(y.Data(), Must(a.Matmul(b)).Data()) >= 0 {
		t.Fatalf("Matmul within a budget that allows it: %v", err)
	}
	panels := len(works)
	loss := y.SumAll()
	works, stopAt = nil, 2
	if err := budget.Backward(loss, nil, engine.Accumulate); err != errOut || a.Grad != nil {
		t.Errorf("Backward within a budget that stops: %v, gradient %v", err, a.Grad)
	}
	works, stopAt = nil, -1
	if err := budget.Backward(loss, nil, engine.Accumulate); err != nil || a.Grad == nil || len(works) != panels {
		t.Errorf("Backward within a budget that allows it: %v after %d checks (the forward product took %d)", err, len(works), panels)
	}
	works = nil
	small := Must(g.Randn(30, 30))
	if _, err := budget.Matmul(small, small); err != nil || len(works) != 0 {
		t.Errorf("a small product asked the budget %d times", len(works))
	}
}
