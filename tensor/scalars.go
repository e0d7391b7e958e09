package tensor

import (
	"strings"

	"gradbook/engine"
)

// Scalars expands the graph behind t into the scalar engine: one
// *engine.Value for every element of every tensor of the graph, row-major,
// keyed by tensor. Each element of a leaf (or constant) is a leaf Value,
// labelled after the tensor's Label ("W[0,2]"); each element of an op's
// output is built by the op's scalar rule from its inputs' Values, and an
// element that merely copies an input element (reshape, transpose,
// indexing, max) is that very Value.
//
// So m := Scalars(loss); m[loss][0].Backward() computes, one scalar at a
// time, the gradients Backward computes by tensors: m[W][i].Grad is
// element i of W.Grad. And m[loss][0] is a root that can be drawn. Only
// recorded ops are expanded: without a tensor that requires a gradient
// there is no graph, and t's own elements are leaves.
//
// The expansion is as large as the computation is long, a Value for every
// addition and product: a matmul (m, k) @ (k, n) makes about 2·m·k·n.
// Keep it to small tensors, or count first with Topo.
func Scalars(t *Tensor) map[*Tensor][]*engine.Value {
	m := make(map[*Tensor][]*engine.Value)
	for _, u := range Topo(t) {
		n := u.node
		if n == nil {
			vs := make([]*engine.Value, len(u.data))
			for i, x := range u.data {
				vs[i] = engine.NewValue(x, elementLabel(u, i))
			}
			m[u] = vs
			continue
		}
		xs := make([][]*engine.Value, len(n.in))
		for i, x := range n.in {
			xs[i] = m[x]
		}
		m[u] = ops[n.op].scalars(n, u, xs)
	}
	return m
}

// elementLabel names element i of a leaf: "W[0,2]", or "W" for a scalar,
// or "" when the tensor has no label.
func elementLabel(t *Tensor, i int) string {
	if t.Label == "" || len(t.shape) == 0 {
		return t.Label
	}
	p := position(t.shape, i)
	p = strings.ReplaceAll(strings.TrimSuffix(p[1:len(p)-1], ","), ", ", ",")
	return t.Label + "[" + p + "]"
}
