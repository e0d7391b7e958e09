package tensor

// This file holds the elementwise ops' loops without a function call per
// element, for the ops a training step makes most of: add, sub, mul and
// div (a bias, a residual, a scale) and relu. The op table's rules stay
// the definition: each loop here does exactly the arithmetic of its
// rule, so that it gives the same numbers to the bit
// (fast_internal_test.go checks it against the table on random inputs,
// zeros, infinities and NaNs included). They are worth it in
// WebAssembly, where a call through a func value costs tens of
// instructions and the arithmetic one.

// fastForward computes y for an op this file has a loop for, and reports
// whether it did.
func fastForward(n *node, y *Tensor) bool {
	switch n.op {
	case opAdd, opSub, opMul, opDiv:
		a, b, c := n.in[0].data, n.in[1].data, &n.bc
		op, da, db := n.op, c.da, c.db
		c.rows(func(i, ja, jb int) {
			yr := y.data[i : i+c.n]
			switch op {
			case opAdd:
				for k := range yr {
					yr[k] = a[ja+k*da] + b[jb+k*db]
				}
			case opSub:
				for k := range yr {
					yr[k] = a[ja+k*da] - b[jb+k*db]
				}
			case opMul:
				for k := range yr {
					yr[k] = a[ja+k*da] * b[jb+k*db]
				}
			case opDiv:
				for k := range yr {
					yr[k] = a[ja+k*da] / b[jb+k*db]
				}
			}
		})
	case opRelu:
		x := n.in[0].data
		x = x[:len(y.data)]
		for i, v := range x {
			if v > 0 {
				y.data[i] = v
			} else {
				y.data[i] = 0
			}
		}
	default:
		return false
	}
	return true
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
		c.rows(func(i, ja, jb int) {
			g := gy[i : i+c.n]
			for k, gk := range g {
				ka, kb := ja+k*da, jb+k*db
				var ta, tb float64 // gk times each local derivative
				switch op {
				case opAdd:
					ta, tb = gk, gk
				case opSub:
					ta, tb = gk, gk*-1
				case opMul:
					ta, tb = gk*b[kb], gk*a[ka]
				case opDiv:
					ta, tb = gk*(1/b[kb]), gk*(-a[ka]/(b[kb]*b[kb]))
				}
				if ga != nil {
					ga[ka] += ta
				}
				if gb != nil {
					gb[kb] += tb
				}
			}
		})
	case opRelu:
		x, g := n.in[0].data, gx[0]
		for i, v := range x {
			if v > 0 {
				g[i] += gy[i]
			} else {
				g[i] += gy[i] * 0 // the rule's 0: a NaN or an infinity stays one
			}
		}
	default:
		return false
	}
	return true
}
