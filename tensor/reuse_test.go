package tensor_test

import (
	"slices"
	"sync"
	"testing"

	"gradbook/engine"
	. "gradbook/tensor"
)

// reuseGraph builds a small network's loss from x, w and b (a linear
// layer, tanh, a residual product and a reduction), marking the hidden
// layer h to keep its gradient; every gradient of the backward pass has
// one of a few sizes, so that the next pass finds the last one's
// buffers.
func reuseGraph(x, w, b *Tensor) (loss, h *Tensor) {
	h = Must(Linear(x, w, b)).Tanh()
	h.RetainGrad()
	y := Must(Must(h.Mul(h)).Add(Must(Linear(h, w, b))))
	return Must(y.Sum(1, false)).Pow(2).MeanAll(), h
}

// TestGradientsAreNotReused checks that no gradient a backward pass hands
// out (a leaf's Grad, a retained intermediate's) shares storage with the
// buffers that later passes reuse: gradients kept from one pass keep their
// values through the passes that follow, on the same graph and on new
// ones, in every way a Grad can be had (new, accumulated into, dropped and
// made again, in the overwrite bug's mode); and that the buffers a pass
// takes from the last one's come back zeroed (the same pass again gives
// the same numbers).
func TestGradientsAreNotReused(t *testing.T) {
	g := NewGenerator(7)
	x := Must(g.Randn(6, 5))
	w := Must(g.Randn(5, 5)).SetRequiresGrad(true)
	b := Must(g.Randn(5)).SetRequiresGrad(true)
	type kept struct {
		name string
		t    *Tensor
		data []float64
	}
	var all []kept
	keep := func(name string, ts ...*Tensor) {
		for _, u := range ts {
			if u == nil {
				t.Fatalf("%s: no gradient", name)
			}
			all = append(all, kept{name, u, slices.Clone(u.Data())})
		}
	}
	check := func(when string) {
		t.Helper()
		for _, k := range all {
			if !slices.Equal(k.t.Data(), k.data) {
				t.Fatalf("after %s, the gradient kept from %s changed: %v, was %v", when, k.name, k.t.Data(), k.data)
			}
		}
	}

	loss, h := reuseGraph(x, w, b)
	if err := loss.Backward(); err != nil {
		t.Fatal(err)
	}
	first := []*Tensor{w.Grad, b.Grad, h.Grad}
	keep("the first pass", first...)
	for i := range 3 { // new graphs, the Grads dropped and made again
		w.Grad, b.Grad = nil, nil
		loss, h := reuseGraph(x, w, b)
		if err := loss.Backward(); err != nil {
			t.Fatal(err)
		}
		for j, u := range []*Tensor{w.Grad, b.Grad, h.Grad} {
			if !slices.Equal(u.Data(), first[j].Data()) {
				t.Fatalf("pass %d on a new graph: gradient %d is %v, the first pass's %v", i+2, j, u.Data(), first[j].Data())
			}
		}
		keep("a pass on a new graph", w.Grad, b.Grad, h.Grad)
		check("a pass on a new graph")
	}
	// Into the Grads that are there: each pass after the first adds the
	// same again, in place, the intermediate's too.
	w.Grad, b.Grad = nil, nil
	loss, h = reuseGraph(x, w, b)
	for pass := 1; pass <= 3; pass++ {
		if err := loss.Backward(); err != nil {
			t.Fatal(err)
		}
		check("a pass that accumulates")
	}
	for j, u := range []*Tensor{w.Grad, b.Grad} {
		for i, v := range u.Data() {
			if want := 3 * first[j].Data()[i]; v != want && (v-want)*(v-want) > 1e-20*want*want {
				t.Fatalf("after 3 passes, gradient %d [%d] is %v, want about 3 × %v", j, i, v, first[j].Data()[i])
			}
		}
	}
	keep("passes that accumulate", w.Grad, b.Grad, h.Grad)
	if err := loss.BackwardWith(nil, engine.OverwriteBug); err != nil {
		t.Fatal(err)
	}
	keep("the overwrite bug", w.Grad, b.Grad, h.Grad)
	w.Grad, b.Grad = nil, nil
	loss, _ = reuseGraph(x, w, b)
	if err := loss.Backward(); err != nil {
		t.Fatal(err)
	}
	check("the last pass")
}

// TestBackwardAtOnce runs backward passes on graphs of their own in
// several goroutines at once: each gives the gradients one pass alone
// gives, whichever buffers it was handed.
func TestBackwardAtOnce(t *testing.T) {
	g := NewGenerator(8)
	x := Must(g.Randn(6, 5))
	w0, b0 := Must(g.Randn(5, 5)), Must(g.Randn(5))
	params := func() (w, b *Tensor) {
		w, b = Must(Zeros(5, 5)), Must(Zeros(5))
		copy(w.Data(), w0.Data())
		copy(b.Data(), b0.Data())
		return w.SetRequiresGrad(true), b.SetRequiresGrad(true)
	}
	w, b := params()
	loss, _ := reuseGraph(x, w, b)
	if err := loss.Backward(); err != nil {
		t.Fatal(err)
	}
	want := [][]float64{w.Grad.Data(), b.Grad.Data()}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				w, b := params()
				loss, _ := reuseGraph(x, w, b)
				if err := loss.Backward(); err != nil {
					errs <- err.Error()
					return
				}
				if !slices.Equal(w.Grad.Data(), want[0]) || !slices.Equal(b.Grad.Data(), want[1]) {
					errs <- "a pass among others gave other gradients"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}
