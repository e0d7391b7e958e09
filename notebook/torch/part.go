package torch

import (
	"slices"

	"gradbook/notebook/kernel"
	"gradbook/tensor"
)

// torchPart is what the tensors of one chain of cells share, its
// kernel.Part: torch's generator, and the numbers of each tensor as the
// last kept state saved them.
type torchPart struct {
	trng *tensor.Generator // nil until drawn from
	// saved holds the numbers of each tensor as the last kept state saved
	// them: a tensor that has not changed since (a data set) shares them
	// instead of being copied again.
	saved map[*tensor.Tensor][]float64
	made  int // tensors made, for yielding (wrap)
}

// SetRun does nothing: tensors need nothing of the run.
func (p *torchPart) SetRun(*kernel.Run) {}

// CellDone does nothing.
func (p *torchPart) CellDone(int, []string) {}

type savedTensor struct {
	t            *tensor.Tensor
	data         []float64
	grad         *tensor.Tensor // the gradient tensor, whose numbers are in gdata
	gdata        []float64
	requiresGrad bool
}

// Keep records the numbers and gradient of every tensor the held ones
// were made from, and torch's generator.
func (p *torchPart) Keep(held []kernel.Changeable) (restore func(), cost int) {
	var trng []byte // the generator's state, if it was used
	if p.trng != nil {
		trng, _ = p.trng.MarshalBinary() // never fails
	}
	var roots []*tensor.Tensor
	for _, h := range held {
		switch x := h.(type) {
		case *Tensor:
			roots = append(roots, x.t)
		case *maxPair:
			roots = append(roots, x.values.t, x.indices.t)
		}
	}
	seen := map[*tensor.Tensor]bool{}
	saved := make(map[*tensor.Tensor][]float64, len(p.saved))
	keep := func(t *tensor.Tensor) []float64 {
		if prev, ok := p.saved[t]; ok && slices.Equal(prev, t.Data()) {
			saved[t] = prev
			return prev
		}
		c := slices.Clone(t.Data())
		cost += len(c)
		saved[t] = c
		return c
	}
	var tensors []savedTensor
	for _, r := range roots {
		if seen[r] {
			continue
		}
		for _, t := range tensor.Topo(r) {
			if seen[t] {
				continue
			}
			seen[t] = true
			sv := savedTensor{t: t, data: keep(t), grad: t.Grad, requiresGrad: t.RequiresGrad()}
			if t.Grad != nil {
				sv.gdata = keep(t.Grad)
			}
			tensors = append(tensors, sv)
		}
	}
	p.saved = saved
	return func() {
		for _, st := range tensors {
			copy(st.t.Data(), st.data)
			st.t.Grad = st.grad
			if st.grad != nil {
				copy(st.grad.Data(), st.gdata)
			}
			if st.t.IsLeaf() {
				st.t.SetRequiresGrad(st.requiresGrad)
			}
		}
		p.trng = nil
		if trng != nil {
			p.trng = new(tensor.Generator)
			if err := p.trng.UnmarshalBinary(trng); err != nil {
				panic(err) // what MarshalBinary wrote
			}
		}
	}, cost
}
