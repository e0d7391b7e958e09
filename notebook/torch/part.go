package torch

import (
	"errors"
	"math"
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
	data         []float64 // nil for a tensor checked by its sum instead
	sum          uint64
	grad         *tensor.Tensor // the gradient tensor, whose numbers are in gdata
	gdata        []float64
	requiresGrad bool
}

// fingerprint is a checksum of numbers: a kept state checks by it that the
// numbers of a tensor it did not copy are as they were.
func fingerprint(data []float64) uint64 {
	h := uint64(14695981039346656037)
	for _, x := range data {
		h = (h ^ math.Float64bits(x)) * 1099511628211
	}
	return h
}

// Keep records the numbers and gradient of every tensor the held ones
// were made from, and torch's generator. It copies the numbers of the
// held tensors, which a later cell can change in place (p.data += …,
// t[k] = v), and of the leaves (parameters) of their graphs. The numbers
// of a tensor inside a graph (an op's output) only a cell's tensor could
// change, and no later cell reaches one that the held ones do not: those
// it checks by a checksum instead, so that a state which keeps the graph
// of a large computation (a BatchNorm estimate over a data set) is not
// counted, nor copied, whole; should one have changed all the same (a
// run from an earlier state, with other code, changed a tensor that was
// a global there), restoring says so and the cells run again.
func (p *torchPart) Keep(held []kernel.Changeable) (restore func() error, cost int) {
	trng := kernel.KeepGenerator(p.trng)
	var roots []*tensor.Tensor
	for _, h := range held {
		switch x := h.(type) {
		case *Tensor:
			roots = append(roots, x.t)
		case *maxPair:
			roots = append(roots, x.values.t, x.indices.t)
		}
	}
	isRoot := make(map[*tensor.Tensor]bool, len(roots))
	for _, r := range roots {
		isRoot[r] = true
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
			sv := savedTensor{t: t, grad: t.Grad, requiresGrad: t.RequiresGrad()}
			if isRoot[t] || t.IsLeaf() {
				sv.data = keep(t)
			} else {
				sv.sum = fingerprint(t.Data())
			}
			if t.Grad != nil {
				sv.gdata = keep(t.Grad)
			}
			tensors = append(tensors, sv)
		}
	}
	p.saved = saved
	return func() error {
		for _, st := range tensors {
			if st.data == nil && fingerprint(st.t.Data()) != st.sum {
				return errChangedSince
			}
		}
		for _, st := range tensors {
			if st.data != nil {
				copy(st.t.Data(), st.data)
			}
			st.t.Grad = st.grad
			if st.grad != nil {
				copy(st.grad.Data(), st.gdata)
			}
			if st.t.IsLeaf() {
				st.t.SetRequiresGrad(st.requiresGrad)
			}
		}
		p.trng = trng()
		return nil
	}, cost
}

// errChangedSince is why a kept state cannot be used: a tensor inside a
// graph it keeps has changed since.
var errChangedSince = errors.New("a run from a state above them changed a tensor their state keeps")
