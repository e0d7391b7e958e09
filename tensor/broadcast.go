package tensor

import "strconv"

// This file holds NumPy's broadcasting: which shapes combine, and where
// each element of the result comes from. The backward rule that goes with
// it, summing a gradient over the dimensions an input was stretched along,
// is the scatter-add through those same offsets in binary's vjp (ops.go).

// broadcastShapes returns the shape of an elementwise op on shapes a and
// b, NumPy's way: align the shapes at their last dimension; each pair of
// dimensions must be equal or one of them 1, which is stretched.
func broadcastShapes(op string, a, b []int) ([]int, error) {
	n := max(len(a), len(b))
	out := make([]int, n)
	for i := 1; i <= n; i++ {
		da, db := 1, 1
		if i <= len(a) {
			da = a[len(a)-i]
		}
		if i <= len(b) {
			db = b[len(b)-i]
		}
		switch {
		case da == db, db == 1:
			out[n-i] = da
		case da == 1:
			out[n-i] = db
		default:
			return nil, errorf(op, ErrShape, "shapes %s and %s do not broadcast: %d ≠ %d in the %s dimension from the end",
				ShapeString(a), ShapeString(b), da, db, ordinal(i))
		}
	}
	if _, err := sizeOf(op, out); err != nil {
		return nil, err
	}
	return out, nil
}

func ordinal(i int) string {
	switch i {
	case 1:
		return "last"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return strconv.Itoa(i) + "th"
}

// offsets returns, for each element of a tensor of shape out in row-major
// order, the offset of the element of a tensor of shape in (broadcast to
// out) that it comes from; nil when in is out, where the offset is the
// index itself.
func offsets(in, out []int) []int32 {
	if sameShape(in, out) {
		return nil
	}
	// stride[d]: how far one step along out's dimension d moves in in:
	// 0 along a stretched or missing dimension.
	nd := len(out)
	stride := make([]int, nd)
	s := 1
	for d := nd - 1; d >= 0; d-- {
		if k := d - (nd - len(in)); k >= 0 {
			if in[k] != 1 {
				stride[d] = s
			}
			s *= in[k]
		}
	}
	return walk(out, stride)
}

// walk returns the offset of each element of a row-major walk over shape
// that moves stride[d] for a step along dimension d.
func walk(shape, stride []int) []int32 {
	res := make([]int32, numel(shape))
	if len(res) == 0 {
		return res
	}
	nd := len(shape)
	idx := make([]int, nd)
	off := 0
	for i := range res {
		res[i] = int32(off)
		for d := nd - 1; d >= 0; d-- { // step the counter idx and carry
			idx[d]++
			off += stride[d]
			if idx[d] < shape[d] {
				break
			}
			off -= stride[d] * idx[d]
			idx[d] = 0
		}
	}
	return res
}

// pick returns the offset of element i through offs (from offsets).
func pick(offs []int32, i int) int {
	if offs == nil {
		return i
	}
	return int(offs[i])
}
