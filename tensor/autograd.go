package tensor

// This file holds reverse mode (Backward and the gradients it leaves),
// forward mode (tangents) and the graph's walk.

import (
	"sync/atomic"

	"gradbook/engine"
)

// RequiresGrad reports whether t records the ops made from it: a leaf set
// with SetRequiresGrad, or a tensor made from one.
func (t *Tensor) RequiresGrad() bool { return t.requiresGrad }

// SetRequiresGrad sets whether the leaf t is a parameter whose gradient
// Backward computes, as PyTorch's requires_grad_, and returns t. On a
// tensor made by an op it does nothing: use Detach to cut a graph.
func (t *Tensor) SetRequiresGrad(on bool) *Tensor {
	if t.node == nil {
		t.requiresGrad = on
	}
	return t
}

// IsLeaf reports whether t was not made by a recorded op: a parameter, or
// data.
func (t *Tensor) IsLeaf() bool { return t.node == nil }

// RetainGrad asks Backward to keep t's gradient in t.Grad although t is
// not a leaf, as PyTorch's retain_grad; on a leaf it does nothing.
func (t *Tensor) RetainGrad() {
	if t.node != nil {
		t.retainGrad = true
	}
}

// RetainGrads calls RetainGrad on every tensor of the graph behind t, t
// included, so that after Backward every intermediate's Grad can be read.
func RetainGrads(t *Tensor) {
	for _, u := range Topo(t) {
		u.RetainGrad()
	}
}

// ZeroGrad sets every element of t.Grad to 0, keeping its storage, so that
// the next Backward's gradient is not added to the last one's.
func (t *Tensor) ZeroGrad() {
	if t.Grad != nil {
		clear(t.Grad.data)
	}
}

// Detach returns a leaf that shares t's storage but has no graph and
// requires no gradient: a stop-gradient, as PyTorch's detach.
func (t *Tensor) Detach() *Tensor { return &Tensor{shape: t.shape, data: t.data, Label: t.Label} }

// Topo returns every tensor of the graph behind t, t last, each once and
// inputs before the tensors made from them: the leaves, parameters and
// constants, and every recorded op's output. It uses an explicit stack.
func Topo(t *Tensor) []*Tensor {
	order, _ := topo(t)
	return order
}

// topo is Topo, and the position of each tensor in the order.
func topo(t *Tensor) (order []*Tensor, pos map[*Tensor]int) {
	type frame struct {
		t    *Tensor
		next int
	}
	pos = map[*Tensor]int{t: -1} // -1 until placed
	stack := []frame{{t, 0}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if n := f.t.node; n != nil && f.next < len(n.in) {
			u := n.in[f.next]
			f.next++
			if _, seen := pos[u]; !seen {
				pos[u] = -1
				stack = append(stack, frame{u, 0})
			}
			continue
		}
		pos[f.t] = len(order)
		order = append(order, f.t)
		stack = stack[:len(stack)-1]
	}
	return order, pos
}

// Backward computes the gradient of t, which must have one element (a
// loss), with respect to every tensor of its graph, and adds it to the
// Grad of each leaf that requires a gradient and of each tensor marked
// with RetainGrad. Gradients accumulate across calls, as in PyTorch: call
// ZeroGrad between training steps. Unlike PyTorch, the graph is kept, so
// Backward may be called again.
func (t *Tensor) Backward() error { return t.BackwardWith(nil, engine.Accumulate) }

// BackwardWith is Backward from a given gradient of t, of t's shape (nil
// for 1, when t has one element), in the given mode. engine.OverwriteBug
// is a teaching mode that reproduces the classic bug: each contribution
// replaces the gradient instead of adding to it, so a tensor used twice
// keeps only the last one, and so does each Grad. The other modes run as
// engine.Accumulate.
func (t *Tensor) BackwardWith(grad *Tensor, mode engine.Mode) error {
	return Budget(nil).Backward(t, grad, mode)
}

func (t *Tensor) backward(grad *Tensor, mode engine.Mode, budget Budget) error {
	if !t.requiresGrad {
		return errorf("backward", ErrGrad, "the tensor does not require a gradient and has no graph: call SetRequiresGrad(true) on the parameters before the ops that use them")
	}
	if grad == nil && len(t.data) != 1 {
		return errorf("backward", ErrGrad, "a tensor of shape %s is not a single number: reduce it to a loss first (sum, mean), or give its gradient", ShapeString(t.shape))
	}
	if grad != nil && !sameShape(grad.shape, t.shape) {
		return errorf("backward", ErrShape, "the gradient has shape %s but the tensor %s", ShapeString(grad.shape), ShapeString(t.shape))
	}
	order, pos := topo(t)

	// grads[i] is the gradient of order[i], nil for one that needs none.
	// Each is taken from free when its first contribution comes, and an
	// intermediate's goes back to free once its own rule has passed it
	// on, for a later one of the same size: the gradients alive at once
	// are those of a cut through the graph, not of all of it, and stay
	// in the caches. A gradient that becomes a Grad is a slice of its
	// own, so that it keeps no pool's memory alive; every other one goes
	// back to free by the end, and free is kept for the next pass
	// (takePool), which then makes no new gradients of the sizes this one
	// had.
	grads := make([][]float64, len(order))
	free := takePool()
	need := func(i int) []float64 {
		if u := order[i]; grads[i] == nil && u.requiresGrad {
			if u.becomesGrad(mode) {
				grads[i] = make([]float64, len(u.data))
			} else {
				grads[i] = free.get(len(u.data))
			}
		}
		return grads[i]
	}
	if grad == nil {
		need(len(order) - 1)[0] = 1
	} else {
		copy(need(len(order)-1), grad.data)
	}

	var gx [][]float64
	for i := len(order) - 1; i >= 0; i-- {
		u := order[i]
		n := u.node
		if n == nil {
			continue
		}
		gx = gx[:0]
		for _, x := range n.in {
			g := need(pos[x])
			if g != nil && mode == engine.OverwriteBug {
				g = make([]float64, len(g)) // this contribution alone
			}
			gx = append(gx, g)
		}
		gy := need(i)
		if !fastVJP(n, u, gy, gx) {
			vjp(n, u, gy, gx, budget)
		}
		if mode == engine.OverwriteBug { // the bug: '=' where '+=' belongs
			for j, x := range n.in {
				copy(grads[pos[x]], gx[j])
			}
		}
		if !u.retainGrad {
			free.put(gy)
			grads[i] = nil
		}
	}

	for i, u := range order {
		if !u.requiresGrad || u.node != nil && !u.retainGrad {
			continue
		}
		if u.becomesGrad(mode) {
			u.Grad = &Tensor{shape: u.shape, data: grads[i]}
		} else {
			addTo(u.Grad.data, grads[i])
			free.put(grads[i])
		}
	}
	keepPool(free)
	return nil
}

// becomesGrad reports whether the gradient that a backward pass in mode
// computes for u becomes u.Grad as it is (rather than being added to the
// Grad u has).
func (u *Tensor) becomesGrad(mode engine.Mode) bool {
	return (u.node == nil || u.retainGrad) && (u.Grad == nil || mode == engine.OverwriteBug || !sameShape(u.Grad.shape, u.shape))
}

// A gradPool hands out the gradients of a backward pass: those no
// longer needed, for the tensors of the same size that come later, and
// new ones carved from chunks that double in size, so that a pass makes
// few allocations. None of its gradients is ever seen outside the
// package: a gradient that becomes a Grad is made apart from the pool,
// and one added into a Grad goes back to it.
type gradPool struct {
	kept  [][]float64
	chunk []float64 // zeros not handed out yet
	made  int       // the size of the last chunk
	held  int       // the float64s of the chunks carved so far
}

// lastPool is the pool of the last backward pass that finished, for the
// next one: a training step's gradients have the sizes of the last
// step's, and are then taken from it rather than made. A pass owns the
// pool it takes; passes that run at once take one each (one of them a
// new one), and the first to finish leaves its own.
var lastPool atomic.Pointer[gradPool]

// maxPoolSize is the most float64s a pool may hold to be kept for the
// next pass (32 MiB), and maxPoolKept the most gradients: a larger pool
// is left to the garbage collector.
const (
	maxPoolSize = 1 << 22
	maxPoolKept = 256
)

// takePool returns the pool that the last pass left, or a new one.
func takePool() *gradPool {
	if p := lastPool.Swap(nil); p != nil {
		return p
	}
	return new(gradPool)
}

// keepPool keeps p, whose gradients are all back in it, for the next
// pass, unless it is too large or a pool is kept already.
func keepPool(p *gradPool) {
	if p.held <= maxPoolSize && len(p.kept) <= maxPoolKept {
		lastPool.CompareAndSwap(nil, p)
	}
}

// get returns a gradient of n zeros: one kept, cleared, or a new one.
func (p *gradPool) get(n int) []float64 {
	for i, g := range p.kept {
		if len(g) == n {
			last := len(p.kept) - 1
			p.kept[i] = p.kept[last]
			p.kept = p.kept[:last]
			clear(g)
			return g
		}
	}
	if len(p.chunk) < n {
		p.made = max(n, 2*p.made, 1024)
		p.chunk = make([]float64, p.made)
		p.held += p.made
	}
	g := p.chunk[:n:n]
	p.chunk = p.chunk[n:]
	return g
}

// put keeps g for a later get.
func (p *gradPool) put(g []float64) { p.kept = append(p.kept, g) }

// vjp runs n's reverse rule within budget, which n holds only meanwhile,
// even when budget stops it.
func vjp(n *node, y *Tensor, gy []float64, gx [][]float64, budget Budget) {
	n.budget = budget
	defer func() { n.budget = nil }()
	ops[n.op].vjp(n, y, gy, gx)
}

// SetTangent seeds forward mode: the ops made from t from now on carry
// the derivative of their output in the direction tangent (of t's shape),
// which Tangent returns. nil clears it. Forward mode needs no graph and no
// SetRequiresGrad: each op applies its jvp rule as it runs.
func (t *Tensor) SetTangent(tangent *Tensor) error {
	if tangent != nil && !sameShape(tangent.shape, t.shape) {
		return errorf("set_tangent", ErrShape, "the tangent has shape %s but the tensor %s", ShapeString(tangent.shape), ShapeString(t.shape))
	}
	t.tangent = tangent
	return nil
}

// Tangent returns the directional derivative of t along the tangents set
// with SetTangent on the tensors it was made from, or nil when none was.
func (t *Tensor) Tangent() *Tensor { return t.tangent }
