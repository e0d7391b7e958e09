package torch

// This file is cmp, the backprop ninja's check of a gradient by hand.

import (
	"errors"
	"fmt"
	"strings"

	"go.starlark.net/starlark"

	"gradbook/internal/words"
	"gradbook/notebook/kernel"
	"gradbook/tensor"
)

// cmpBuiltin is cmp(name, mine, t) of "Becoming a backprop ninja": it
// compares a gradient worked out by hand with the one autograd left in
// t.grad, prints whether they are exactly equal, close (as
// torch.allclose), and their largest difference, and returns whether they
// are close. A wrong shape says which of the usual mistakes it looks like.
func cmpBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name string
	var mine, t *Tensor
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 3, &name, &mine, &t); err != nil {
		return nil, err
	}
	run := kernel.RunOf(thread)
	cell, _, line := run.Caller(thread)
	name = kernel.Clip(name)
	if t.t.Grad == nil {
		who := nameOfTensor(run.Globals(), t.t)
		if who == "" {
			who = "it"
		}
		if t.t.IsLeaf() {
			return nil, fmt.Errorf("cmp: %s has no gradient to compare with yet: run loss.backward() first (and make %s with requires_grad=True)", who, who)
		}
		return nil, fmt.Errorf("cmp: %s has no gradient to compare with: call %s.retain_grad() before loss.backward() (autograd keeps an intermediate's gradient only when asked)", who, who)
	}
	r := kernel.CheckResult{Label: name, Line: line}
	exact, approx, diff, err := tensor.Compare(mine.t, t.t.Grad)
	if errors.Is(err, tensor.ErrShape) {
		r.Text = fmt.Sprintf("✗ %-15s | shape %s, but the gradient has its tensor's shape %s%s", name, tensor.ShapeString(mine.t.Shape()), tensor.ShapeString(t.t.Shape()), shapeMistake(mine.t.Shape(), t.t.Shape()))
	} else if err != nil {
		return nil, err
	} else {
		r.Passed = approx
		mark := "✓"
		if !approx {
			mark = "✗"
		}
		r.Text = fmt.Sprintf("%s %-15s | exact: %-5s | approximate: %-5s | maxdiff: %s", mark, name, pyBool(exact), pyBool(approx), words.Number(diff))
	}
	r.Text = kernel.CapMessage(r.Text)
	run.Check(cell, r)
	return starlark.Bool(r.Passed), nil
}

// nameOfTensor returns the name of a global that holds t, or "".
func nameOfTensor(globals starlark.StringDict, t *tensor.Tensor) string {
	for _, name := range globals.Keys() {
		if x, ok := globals[name].(*Tensor); ok && x.t == t {
			return name
		}
	}
	return ""
}

// stretchedSums says which sums take a gradient of shape got back to its
// tensor's shape want, where want broadcasts to got: " (.sum(1,
// keepdim=True))" for a column stretched along dim 1, " (.sum(0))" for a
// row given a leading dimension, or "" where want does not broadcast.
func stretchedSums(got, want []int) string {
	extra := len(got) - len(want)
	if extra < 0 {
		return ""
	}
	var sums []string
	for i, d := range got {
		switch {
		case i < extra:
			sums = append(sums, fmt.Sprintf(".sum(%d)", i-len(sums)))
		case want[i-extra] == d:
		case want[i-extra] == 1:
			// A dimension kept as 1: numbered once the leading ones are summed away.
			sums = append(sums, fmt.Sprintf(".sum(%d, keepdim=True)", i-extra))
		default:
			return ""
		}
	}
	if len(sums) == 0 {
		return ""
	}
	return " (" + strings.Join(sums, "") + ")"
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// shapeMistake names the usual mistake a gradient of shape got, where the
// tensor's is want, looks like.
func shapeMistake(got, want []int) string {
	if len(got) == 2 && len(want) == 2 && got[0] == want[1] && got[1] == want[0] {
		return ": transposed — is a .T on the wrong side of the matmul?"
	}
	n, m := 1, 1
	for _, d := range got {
		n *= d
	}
	for _, d := range want {
		m *= d
	}
	if n > m {
		return ": larger — the tensor was broadcast in the forward pass, so its gradient sums over the dimensions it was stretched along" + stretchedSums(got, want)
	}
	if n < m {
		return ": smaller — a sum too many, or keepdim left out?"
	}
	return ": the same elements in another shape — .view it to the tensor's shape"
}
