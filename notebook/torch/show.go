package torch

// This file draws a tensor computation as the scalar Values it stands
// for, for show(loss).

import (
	"fmt"

	"go.starlark.net/starlark"

	"gradbook/internal/words"
	"gradbook/notebook/kernel"
	"gradbook/notebook/values"
	"gradbook/tensor"
)

// tensorCount is the number of elements a drawing of a tensor computation
// expands to, roughly: a matmul's every product and sum.
func tensorCount(t *tensor.Tensor) int {
	n := 0
	for _, u := range tensor.Topo(t) {
		in := u.Inputs()
		switch {
		case u.Op() == "matmul":
			k := in[0].Shape()[in[0].NDim()-1]
			n += 2 * u.Size() * k
		case len(in) > 0:
			for _, x := range in {
				n += x.Size()
			}
			n += u.Size()
		default:
			n += u.Size()
		}
		if n > 1<<20 {
			break
		}
	}
	return n
}

// maxShownScalars is the largest tensor computation show expands into
// scalar Values.
const maxShownScalars = 2000

// Graph returns the drawing of a one-element tensor's computation as the
// graph of scalar Values it stands for, each leaf element named after its
// tensor's variable ("W[0,1]"): what show(loss) draws.
func Graph(thread *starlark.Thread, t *tensor.Tensor) (kernel.Drawable, error) {
	if t.Size() != 1 {
		return nil, fmt.Errorf("show: a tensor of shape %s; show draws the computation of one number, such as a loss (show(t.sum()))", tensor.ShapeString(t.Shape()))
	}
	if n := tensorCount(t); n > maxShownScalars {
		return nil, fmt.Errorf("show: this computation stands for about %s scalar operations, more than the %s a drawing shows: draw it on smaller tensors (a 2×3 case)", words.Int(n), words.Int(maxShownScalars))
	}
	// Name the tensors after the variables that hold them.
	globals := kernel.RunOf(thread).Globals()
	for _, name := range globals.Keys() {
		if x, ok := globals[name].(*Tensor); ok && x.t.Label == "" {
			x.t.Label = name
		}
	}
	m := tensor.Scalars(t)
	root := m[t][0]
	if name := nameOfTensor(globals, t); name != "" && root.Label == "" {
		root.Label = name
	}
	return values.Graph(thread, root), nil
}
