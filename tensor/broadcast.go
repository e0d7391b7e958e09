package tensor

import "strconv"

// This file holds NumPy's broadcasting: which shapes combine, and where
// each element of the result comes from. The backward rule that goes with
// it, summing a gradient over the dimensions an input was stretched along,
// is binary's vjp (ops.go): it adds each contribution in where the element
// came from.

// broadcastShapes returns the shape of an elementwise op on shapes a and
// b, NumPy's way: align the shapes at their last dimension; each pair of
// dimensions must be equal or one of them 1, which is stretched.
func broadcastShapes(op string, a, b []int) ([]int, error) {
	// Most often one of the shapes is the result (a bias, a scale, a
	// tensor of the same shape), and it is returned as it is: shapes are
	// never changed once made.
	for _, s := range [2][]int{a, b} {
		if covers(s, a) && covers(s, b) {
			return s, nil
		}
	}
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

// covers reports whether shape s is what t broadcasts to: t is s, or s
// with leading dimensions dropped and others 1.
func covers(s, t []int) bool {
	if len(t) > len(s) {
		return false
	}
	for i := 1; i <= len(t); i++ {
		if d := t[len(t)-i]; d != 1 && d != s[len(s)-i] {
			return false
		}
	}
	return true
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

// A bcast walks the output of an elementwise op on inputs a and b row by
// row, a row being the output's last dimension: for each row, where it
// starts in the output and in each input, and for all rows, how far each
// input moves per element (0 when stretched along the last dimension).
type bcast struct {
	out    []int
	sa, sb []int // strides of a and b along each dimension of out: 0 where stretched or missing
	n      int   // the length of a row
	da, db int   // the strides of a and b along a row
}

func newBcast(a, b, out []int) bcast {
	c := bcast{out: out, n: 1}
	full := func(s []int) int { // the stride of one long row: 1, or 0 for a single element
		if sameShape(s, out) {
			return 1
		}
		if numel(s) == 1 {
			return 0
		}
		return -1
	}
	if fa, fb := full(a), full(b); fa >= 0 && fb >= 0 { // one long row
		c.n, c.da, c.db = numel(out), fa, fb
		c.out = nil
	} else if len(out) > 0 { // the strides, which one long row does without
		c.sa, c.sb = strides(a, out), strides(b, out)
		last := len(out) - 1
		c.n, c.da, c.db = out[last], c.sa[last], c.sb[last]
	}
	return c
}

// strides returns how far one step along each dimension of out moves in a
// tensor of shape in broadcast to out: 0 along a stretched or missing
// dimension.
func strides(in, out []int) []int {
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
	return stride
}

// rows calls fn with the start of each row in the output, a and b.
func (c *bcast) rows(fn func(i, ja, jb int)) {
	if c.out == nil {
		fn(0, 0, 0)
		return
	}
	nd := len(c.out) - 1 // the dimensions that count rows
	size := numel(c.out)
	if size == 0 {
		return
	}
	idx := make([]int, nd)
	ja, jb := 0, 0
	for i := 0; i < size; i += c.n {
		fn(i, ja, jb)
		for d := nd - 1; d >= 0; d-- { // step the counter idx and carry
			idx[d]++
			ja += c.sa[d]
			jb += c.sb[d]
			if idx[d] < c.out[d] {
				break
			}
			ja -= c.sa[d] * idx[d]
			jb -= c.sb[d] * idx[d]
			idx[d] = 0
		}
	}
}

// walk returns the offset of each element of a row-major walk over shape
// that moves stride[d] for a step along dimension d.
func walk(shape, stride []int) []int32 {
	res := make([]int32, numel(shape))
	if len(res) == 0 {
		return res
	}
	last, step := shape[len(shape)-1], stride[len(shape)-1]
	walkRows(shape, stride, func(i, off int) {
		for j, r := 0, res[i:i+last]; j < len(r); j++ { // the last dimension
			r[j] = int32(off + j*step)
		}
	})
	return res
}

// walkRows calls fn for each row (the last dimension) of a row-major walk
// over shape, a non-empty list, that moves stride[d] for a step along
// dimension d: with the row's first element, i, and its offset, off.
func walkRows(shape, stride []int, fn func(i, off int)) { walkBlocks(shape, stride, 1, fn) }

// walkPlanes calls fn for each plane (the last two dimensions; the one
// row of a 1-d walk) of a row-major walk over shape, a non-empty list,
// that moves stride[d] for a step along dimension d: with the plane's
// first element, i, and its offset, off. plane returns its rows, their
// length and the strides along both.
func walkPlanes(shape, stride []int, fn func(i, off int)) {
	if len(shape) < 2 {
		if numel(shape) > 0 {
			fn(0, 0)
		}
		return
	}
	walkBlocks(shape, stride, 2, fn)
}

// walkBlocks calls fn for each block of the last k dimensions of a
// row-major walk over shape (k at most its length), as walkRows does for
// rows: with the block's first element, i, and its offset, off.
func walkBlocks(shape, stride []int, k int, fn func(i, off int)) {
	size := numel(shape)
	if size == 0 {
		return
	}
	outer := len(shape) - k
	block := numel(shape[outer:])
	idx := make([]int, outer)
	off := 0
	for i := 0; i < size; i += block {
		fn(i, off)
		for d := outer - 1; d >= 0; d-- { // step the counter idx and carry
			idx[d]++
			off += stride[d]
			if idx[d] < shape[d] {
				break
			}
			off -= stride[d] * idx[d]
			idx[d] = 0
		}
	}
}

// plane returns the planes of walkPlanes over shape and stride: their
// rows and the rows' length, and the strides along each.
func plane(shape, stride []int) (rows, cols, rowStride, colStride int) {
	nd := len(shape)
	if nd < 2 {
		return 1, shape[0], 0, stride[0]
	}
	return shape[nd-2], shape[nd-1], stride[nd-2], stride[nd-1]
}
