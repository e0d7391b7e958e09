package tensor

import "math"

// The tolerances of Compare's approx, torch.allclose's defaults.
const (
	// RTol is the relative tolerance.
	RTol = 1e-5
	// ATol is the absolute tolerance.
	ATol = 1e-8
)

// Compare compares a gradient worked out by hand, mine, with want (the
// autograd one), as the cmp helper of "Becoming a backprop ninja" does:
// exact when every element is equal, approx when every element is within
// ATol + RTol·|want| as torch.allclose says, and maxDiff the largest
// |mine − want|. Shapes must be the same: a gradient of the wrong shape is
// an error, not a broadcast.
func Compare(mine, want *Tensor) (exact, approx bool, maxDiff float64, err error) {
	if mine == nil || want == nil {
		return false, false, 0, errorf("compare", ErrValue, "nothing to compare: a tensor is nil (no gradient yet?)")
	}
	if !sameShape(mine.shape, want.shape) {
		return false, false, 0, errorf("compare", ErrShape, "shapes %s and %s differ", ShapeString(mine.shape), ShapeString(want.shape))
	}
	exact, approx = true, true
	for i, a := range mine.data {
		b := want.data[i]
		d := 0.0 // equal infinities are equal, and close
		if a != b {
			exact = false
			d = math.Abs(a - b)
		}
		if !(d <= ATol+RTol*math.Abs(b)) {
			approx = false
		}
		if d > maxDiff || d != d {
			maxDiff = d
		}
	}
	return exact, approx, maxDiff, nil
}
