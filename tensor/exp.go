package tensor

import (
	"math"
	"runtime"
)

// This file holds exp, which softmax, cross-entropy and the exp op call
// for every element.

// exp returns math.Exp(x), to the bit. Where math.Exp is Go's own code
// (WebAssembly: on amd64, arm64, loong64 and s390x it is assembly, and
// called as it is), its last step, Ldexp, costs as much as the rest; expGo
// is the same code with that step a multiplication by 2ᵏ where the result
// is a normal number, which is exact.
func exp(x float64) float64 {
	if runtime.GOARCH == "wasm" {
		return expGo(x)
	}
	return math.Exp(x)
}

// expGo is the Go library's exp (math/exp.go, from FreeBSD's
// e_exp.c): the same special cases, reduction and polynomial, in the same
// order, so that every rounding is the same. Its result is y·2ᵏ with y in
// [½√2, √2]: for -1021 ≤ k ≤ 1022 that is a normal number, and the
// multiplication by 2ᵏ is exact, as Ldexp is; beyond, Ldexp itself.
func expGo(x float64) float64 {
	const (
		Overflow  = 7.09782712893383973096e+02
		Underflow = -7.45133219101941108420e+02
		NearZero  = 1.0 / (1 << 28) // 2**-28
	)
	switch {
	case x != x: // NaN
		return x
	case x > Overflow: // +∞ too
		return math.Inf(1)
	case x < Underflow: // -∞ too
		return 0
	case -NearZero < x && x < NearZero:
		return 1 + x
	}
	k := expK(x)
	y := expPoly(x, k)
	if k < -1021 || k > 1022 {
		return math.Ldexp(y, k)
	}
	return y * math.Float64frombits(uint64(k+1023)<<52)
}

// expK and expPoly are expGo's reduction and polynomial, for x not NaN,
// not near 0 (so not 0) and within its range, in two parts small enough
// to be inlined: exp(x) = expPoly(x, k)·2ᵏ with k = expK(x).

// expK is exp's k for x ≠ 0: the nearest whole number to x/ln 2.
func expK(x float64) int {
	const Log2e = 1.44269504088896338700e+00
	return int(Log2e*x + math.Copysign(0.5, x)) // Log2e·x ∓ ½ by x's sign, as a − ½ is a + (−½)
}

// expPoly is exp(x)/2ᵏ, from x − k·ln 2 and the polynomial.
func expPoly(x float64, k int) float64 {
	const (
		Ln2Hi = 6.93147180369123816490e-01
		Ln2Lo = 1.90821492927058770002e-10

		P1 = 1.66666666666666657415e-01  /* 0x3FC55555; 0x55555555 */
		P2 = -2.77777777770155933842e-03 /* 0xBF66C16C; 0x16BEBD93 */
		P3 = 6.61375632143793436117e-05  /* 0x3F11566A; 0xAF25DE2C */
		P4 = -1.65339022054652515390e-06 /* 0xBEBBBD41; 0xC5D26BF1 */
		P5 = 4.13813679705723846039e-08  /* 0x3E663769; 0x72BEA4D0 */
	)
	hi := x - float64(k)*Ln2Hi
	lo := float64(k) * Ln2Lo
	r := hi - lo
	t := r * r
	c := r - t*(P1+t*(P2+t*(P3+t*(P4+t*P5))))
	return 1 - ((lo - (r*c)/(2-c)) - hi)
}

// expShifted fills each of the len(ms) rows of count elements of y with
// exp(x − m), x being the row of x and m its element of ms, and ss with
// each row's sum, added in order: softmax's numerators and denominators.
// Under WebAssembly it is expGo with its reduction and polynomial in the
// loop, not a call for each element, where x − m lies within ±708 (2ᵏ
// then a normal number) and is not near 0, and with expGo's own values
// below its range (−∞ too) and near 0; expGo itself elsewhere.
func expShifted(y, x []float64, count int, ms, ss []float64) {
	y, x = y[:len(ms)*count], x[:len(ms)*count]
	if runtime.GOARCH != "wasm" {
		for r, m := range ms {
			s := 0.0
			for p, v := range x[r*count : (r+1)*count] {
				e := math.Exp(v - m)
				y[r*count+p] = e
				s += e
			}
			ss[r] = s
		}
		return
	}
	const (
		Underflow = -7.45133219101941108420e+02
		NearZero  = 1.0 / (1 << 28)
	)
	for r, m := range ms {
		yr, s := y[r*count:(r+1)*count], 0.0
		for p, v := range x[r*count : (r+1)*count] {
			x := v - m
			var e float64
			switch {
			case -708 <= x && x <= 708 && !(-NearZero < x && x < NearZero):
				k := expK(x)
				e = expPoly(x, k) * math.Float64frombits(uint64(k+1023)<<52)
			case x < Underflow: // expGo's 0: a masked score's −∞ − m
				e = 0
			case -NearZero < x && x < NearZero: // expGo's 1 + x: the max's x − x
				e = 1 + x
			default:
				e = expGo(x)
			}
			yr[p] = e
			s += e
		}
		ss[r] = s
	}
}
