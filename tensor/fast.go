package tensor

import "math"

// This file holds the elementwise ops' loops without a function call per
// element: add, sub, mul and div (a bias, a residual, a scale), relu,
// neg, exp, log, tanh and pow; and transpose's, which reads its input by
// strides where the table's gather reads a list of offsets. The op table's rules stay the definition:
// each loop here does exactly the arithmetic of its rule, so that it
// gives the same numbers to the bit (fast_internal_test.go checks every
// op that has a loop here against the table on random inputs, zeros,
// infinities and NaNs included). They are worth it in WebAssembly, where
// a call through a func value costs tens of instructions and the
// arithmetic one. The op is chosen once per row, outside the loops, and
// each row is one of three plain loops: both inputs along the row, or one
// of them a single element stretched along it (a bias's column, a
// scale).
//
// The loops over whole rows take four or eight elements a turn, the rest
// one at a time: Go's WebAssembly jumps back to the top of a loop
// through the dispatch on the function's blocks (a br_table) that lets a
// goroutine resume, which costs more than an addition, so a turn that does
// four runs twice as fast a row. Each element's arithmetic, and the order
// of the terms of any sum, is the rule's.

// fastForward computes y for an op this file has a loop for, and reports
// whether it did.
func fastForward(n *node, y *Tensor) bool {
	switch n.op {
	case opAdd, opSub, opMul, opDiv:
		a, b, c := n.in[0].data, n.in[1].data, &n.bc
		op, da, db := n.op, c.da, c.db
		c.rows(func(i, ja, jb int) {
			binaryRow(op, y.data[i:i+c.n], a[ja:], b[jb:], da, db)
		})
	case opRelu, opNeg, opExp, opLog, opTanh, opPow:
		unaryForward(n.op, y.data, n.in[0].data[:len(y.data)], n.k)
	case opTranspose: // a gather whose sources lie a stride apart along each row
		x := n.in[0].data
		rows, last, rs, step := plane(y.shape, n.sizes)
		walkPlanes(y.shape, n.sizes, func(i, off int) {
			gatherPlane(y.data[i:i+rows*last], x[off:], last, rs, step)
		})
	default:
		return false
	}
	return true
}

// binaryRow fills y with a op b, a and b moving da and db (1 or 0) a step.
func binaryRow(op opcode, y, a, b []float64, da, db int) {
	k := 0 // the elements done four at a time
	switch {
	case da == 1 && db == 1:
		k = binary4(op, y, a[:len(y)], b[:len(y)])
	case da == 1 && db == 0:
		k = binaryBy4(op, y, a[:len(y)], b[0])
	case da == 0 && db == 1:
		k = binaryOf4(op, y, a[0], b[:len(y)])
	}
	y, a, b = y[k:], a[k*da:], b[k*db:]
	for k := range y { // the rest, or a row stretched
		x, v := a[k*da], b[k*db]
		switch op {
		case opAdd:
			y[k] = x + v
		case opSub:
			y[k] = x - v
		case opMul:
			y[k] = x * v
		case opDiv:
			y[k] = x / v
		}
	}
}

// binary4 fills y with a op b, elementwise, four at a time, as far as a
// multiple of four goes, and returns how far that is.
func binary4(op opcode, y, a, b []float64) int {
	n := len(y) &^ 3
	for k := 0; k < n; k += 4 {
		y, a, b := y[k:k+4:k+4], a[k:k+4:k+4], b[k:k+4:k+4]
		switch op {
		case opAdd:
			y[0], y[1], y[2], y[3] = a[0]+b[0], a[1]+b[1], a[2]+b[2], a[3]+b[3]
		case opSub:
			y[0], y[1], y[2], y[3] = a[0]-b[0], a[1]-b[1], a[2]-b[2], a[3]-b[3]
		case opMul:
			y[0], y[1], y[2], y[3] = a[0]*b[0], a[1]*b[1], a[2]*b[2], a[3]*b[3]
		case opDiv:
			y[0], y[1], y[2], y[3] = a[0]/b[0], a[1]/b[1], a[2]/b[2], a[3]/b[3]
		}
	}
	return n
}

// binaryBy4 is binary4 for b one element s stretched along the row.
func binaryBy4(op opcode, y, a []float64, s float64) int {
	n := len(y) &^ 3
	for k := 0; k < n; k += 4 {
		y, a := y[k:k+4:k+4], a[k:k+4:k+4]
		switch op {
		case opAdd:
			y[0], y[1], y[2], y[3] = a[0]+s, a[1]+s, a[2]+s, a[3]+s
		case opSub:
			y[0], y[1], y[2], y[3] = a[0]-s, a[1]-s, a[2]-s, a[3]-s
		case opMul:
			y[0], y[1], y[2], y[3] = a[0]*s, a[1]*s, a[2]*s, a[3]*s
		case opDiv:
			y[0], y[1], y[2], y[3] = a[0]/s, a[1]/s, a[2]/s, a[3]/s
		}
	}
	return n
}

// unaryForward fills y with op applied to each element of x, with the
// constant k (pow's exponent).
func unaryForward(op opcode, y, x []float64, k float64) {
	switch op {
	case opRelu:
		n := len(x) &^ 7
		for i := 0; i < n; i += 8 {
			y, x := y[i:i+8:i+8], x[i:i+8:i+8]
			y[0], y[1], y[2], y[3] = relu(x[0]), relu(x[1]), relu(x[2]), relu(x[3])
			y[4], y[5], y[6], y[7] = relu(x[4]), relu(x[5]), relu(x[6]), relu(x[7])
		}
		for i := n; i < len(x); i++ {
			y[i] = relu(x[i])
		}
	case opNeg:
		for i, v := range x {
			y[i] = -v
		}
	case opExp:
		for i, v := range x {
			y[i] = exp(v)
		}
	case opLog:
		for i, v := range x {
			y[i] = math.Log(v)
		}
	case opTanh:
		for i, v := range x {
			y[i] = math.Tanh(v)
		}
	case opPow:
		if k == 2 {
			for i, v := range x {
				y[i] = v * v
			}
			return
		}
		for i, v := range x {
			y[i] = math.Pow(v, k)
		}
	}
}

// relu returns the bits of v above 0, else those of +0, without a branch
// on the element's sign, which is random in a network: a NaN gives 0, as
// the rule's v > 0 does.
func relu(v float64) float64 {
	u := math.Float64bits(v)
	if !(v > 0) {
		u = 0
	}
	return math.Float64frombits(u)
}

// reluSlope returns 1 for v above 0, else 0 (a NaN too), without a
// branch: relu's local derivative.
func reluSlope(v float64) float64 {
	u := math.Float64bits(1)
	if !(v > 0) {
		u = 0
	}
	return math.Float64frombits(u)
}

// binaryOf4 is binary4 for a one element s stretched along the row.
func binaryOf4(op opcode, y []float64, s float64, b []float64) int {
	n := len(y) &^ 3
	for k := 0; k < n; k += 4 {
		y, b := y[k:k+4:k+4], b[k:k+4:k+4]
		switch op {
		case opAdd:
			y[0], y[1], y[2], y[3] = s+b[0], s+b[1], s+b[2], s+b[3]
		case opSub:
			y[0], y[1], y[2], y[3] = s-b[0], s-b[1], s-b[2], s-b[3]
		case opMul:
			y[0], y[1], y[2], y[3] = s*b[0], s*b[1], s*b[2], s*b[3]
		case opDiv:
			y[0], y[1], y[2], y[3] = s/b[0], s/b[1], s/b[2], s/b[3]
		}
	}
	return n
}

// fastVJP adds the gradients of an op this file has a loop for, and
// reports whether it did. Each term is the rule's gy·(local derivative),
// in the rule's order: for a binary op, input a's term then b's at each
// element (they may be one tensor: x·x).
func fastVJP(n *node, y *Tensor, gy []float64, gx [][]float64) bool {
	switch n.op {
	case opAdd, opSub, opMul, opDiv:
		a, b, c := n.in[0].data, n.in[1].data, &n.bc
		ga, gb := gx[0], gx[1]
		op, da, db := n.op, c.da, c.db
		if n.in[0] == n.in[1] { // x∘x: each element's two terms in turn, into one gradient
			c.rows(func(i, ja, jb int) {
				g := gy[i : i+c.n]
				for k, gk := range g {
					ka, kb := ja+k*da, jb+k*db
					ta, tb := binaryTerms(op, gk, a[ka], b[kb])
					if ga != nil {
						ga[ka] += ta
						gb[kb] += tb
					}
				}
			})
			return true
		}
		c.rows(func(i, ja, jb int) {
			g := gy[i : i+c.n]
			if ga != nil {
				gradRow(op, 0, g, ga[ja:], a[ja:], b[jb:], da, db)
			}
			if gb != nil {
				gradRow(op, 1, g, gb[jb:], a[ja:], b[jb:], db, da)
			}
		})
	case opRelu, opNeg, opExp, opLog, opTanh, opPow:
		x, g := n.in[0].data, gx[0]
		unaryVJP(n.op, g[:len(gy)], gy, x[:len(gy)], y.data[:len(gy)], n.k)
	case opTranspose: // each element of g gets one term: the order is moot
		g := gx[0]
		rows, last, rs, step := plane(y.shape, n.sizes)
		walkPlanes(y.shape, n.sizes, func(i, off int) {
			scatterPlane(g[off:], gy[i:i+rows*last], last, rs, step)
		})
	default:
		return false
	}
	return true
}

// gatherPlane fills y, rows of last elements, with the elements of x
// that lie rs apart from one row to the next and step apart along a row.
func gatherPlane(y, x []float64, last, rs, step int) {
	n8, n4 := last&^7, last&^3
	for i, o := 0, 0; i < len(y); i, o = i+last, o+rs {
		yr := y[i : i+last]
		if step == 1 && last >= 16 {
			copy(yr, x[o:o+last])
			continue
		}
		for j := 0; j < n8; j += 8 { // eight a turn: a head's row is 8 long
			y := yr[j : j+8 : j+8]
			p := o + j*step
			y[0], y[1], y[2], y[3] = x[p], x[p+step], x[p+2*step], x[p+3*step]
			y[4], y[5], y[6], y[7] = x[p+4*step], x[p+5*step], x[p+6*step], x[p+7*step]
		}
		for j := n8; j < n4; j += 4 {
			y := yr[j : j+4 : j+4]
			p := o + j*step
			y[0], y[1], y[2], y[3] = x[p], x[p+step], x[p+2*step], x[p+3*step]
		}
		for j := n4; j < last; j++ {
			yr[j] = x[o+j*step]
		}
	}
}

// scatterPlane adds each element of gy, rows of last elements, to the
// element of g that gatherPlane would have taken it from.
func scatterPlane(g, gy []float64, last, rs, step int) {
	n8, n4 := last&^7, last&^3
	for i, o := 0, 0; i < len(gy); i, o = i+last, o+rs {
		for j := 0; j < n8; j += 8 {
			v := gy[i+j : i+j+8 : i+j+8]
			p := o + j*step
			g[p] += v[0]
			g[p+step] += v[1]
			g[p+2*step] += v[2]
			g[p+3*step] += v[3]
			g[p+4*step] += v[4]
			g[p+5*step] += v[5]
			g[p+6*step] += v[6]
			g[p+7*step] += v[7]
		}
		for j := n8; j < n4; j += 4 {
			v := gy[i+j : i+j+4 : i+j+4]
			p := o + j*step
			g[p] += v[0]
			g[p+step] += v[1]
			g[p+2*step] += v[2]
			g[p+3*step] += v[3]
		}
		for j := n4; j < last; j++ {
			g[o+j*step] += gy[i+j]
		}
	}
}

// binaryTerms returns gk times each local derivative of op at a and b, as
// the rule computes them.
func binaryTerms(op opcode, gk, a, b float64) (ta, tb float64) {
	switch op {
	case opAdd:
		return gk, gk
	case opSub:
		return gk, gk * -1
	case opMul:
		return gk * b, gk * a
	default: // opDiv
		return gk * (1 / b), gk * (-a / (b * b))
	}
}

// gradRow adds the terms of one input of a binary op along a row: which
// is 0 for a, 1 for b; the input's gradient g moves ds a step (0: one
// element stretched along the row, which gets the terms' sum, added in
// the order they come), and the other input do (0 or 1).
func gradRow(op opcode, which int, gy, g, a, b []float64, ds, do int) {
	da, db := ds, do
	if which == 1 {
		da, db = do, ds
	}
	if ds == 0 {
		s := g[0]
		for k, gk := range gy {
			ta, tb := binaryTerms(op, gk, a[k*da], b[k*db])
			if which == 0 {
				s += ta
			} else {
				s += tb
			}
		}
		g[0] = s
		return
	}
	g = g[:len(gy)]
	switch {
	case op == opAdd || op == opSub && which == 0:
		addTo(g, gy)
	case op == opSub:
		for k, gk := range gy {
			g[k] += gk * -1
		}
	case op == opMul && do == 1: // gk times the other input
		o := a
		if which == 0 {
			o = b
		}
		addProducts(g, gy, o)
	case op == opMul: // the other input stretched
		o := a[0]
		if which == 0 {
			o = b[0]
		}
		n := len(gy) &^ 3
		for k := 0; k < n; k += 4 {
			g, gy := g[k:k+4:k+4], gy[k:k+4:k+4]
			g[0] += gy[0] * o
			g[1] += gy[1] * o
			g[2] += gy[2] * o
			g[3] += gy[3] * o
		}
		for k := n; k < len(gy); k++ {
			g[k] += gy[k] * o
		}
	case op == opDiv && which == 0 && do == 0: // by one element stretched
		s := b[0]
		for k, gk := range gy {
			g[k] += gk * (1 / s)
		}
	default:
		for k, gk := range gy {
			ta, tb := binaryTerms(op, gk, a[k*da], b[k*db])
			if which == 0 {
				g[k] += ta
			} else {
				g[k] += tb
			}
		}
	}
}

// unaryVJP adds gy times op's local derivative at each element of x (y
// being op's output) to g.
func unaryVJP(op opcode, g, gy, x, y []float64, k float64) {
	switch op {
	case opRelu: // gy times 1 above 0, else 0 (a NaN or an infinity stays one)
		n := len(x) &^ 7
		for i := 0; i < n; i += 8 {
			g, gy, x := g[i:i+8:i+8], gy[i:i+8:i+8], x[i:i+8:i+8]
			g[0] += gy[0] * reluSlope(x[0])
			g[1] += gy[1] * reluSlope(x[1])
			g[2] += gy[2] * reluSlope(x[2])
			g[3] += gy[3] * reluSlope(x[3])
			g[4] += gy[4] * reluSlope(x[4])
			g[5] += gy[5] * reluSlope(x[5])
			g[6] += gy[6] * reluSlope(x[6])
			g[7] += gy[7] * reluSlope(x[7])
		}
		for i := n; i < len(x); i++ {
			g[i] += gy[i] * reluSlope(x[i])
		}
	case opNeg:
		for i := range x {
			g[i] += gy[i] * -1
		}
	case opExp:
		for i := range x {
			g[i] += gy[i] * y[i]
		}
	case opLog:
		for i, v := range x {
			g[i] += gy[i] * (1 / v)
		}
	case opTanh:
		for i := range x {
			g[i] += gy[i] * (1 - y[i]*y[i])
		}
	case opPow:
		if k == 0 {
			for i := range x {
				g[i] += gy[i] * 0
			}
			return
		}
		for i, v := range x {
			g[i] += gy[i] * (k * math.Pow(v, k-1))
		}
	}
}
