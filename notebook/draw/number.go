package draw

import (
	"math"
	"strconv"
	"strings"
)

// Number formats a number the way drawings, their tables and their step
// text show it: to five significant digits, an integer as an integer, and
// in scientific form when it is small or huge (0.00018151 is 1.8151e-4,
// 1234567.8 is 1.2346e6). -0 shows as 0.
func Number(x float64) string {
	a := math.Abs(x)
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	case x == 0:
		return "0"
	case x == math.Trunc(x) && a < 1e9:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case a < 1e-3:
		return short(strconv.FormatFloat(x, 'e', 4, 64))
	}
	return short(strconv.FormatFloat(x, 'g', 5, 64))
}

// short drops the trailing zeros of a mantissa and writes an exponent
// without its plus sign and leading zeros: 1.8150e-04 is 1.815e-4.
func short(s string) string {
	mant, exp, sci := strings.Cut(s, "e")
	if strings.Contains(mant, ".") {
		mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
	}
	if !sci {
		return mant
	}
	sign := ""
	if exp[0] == '-' {
		sign = "-"
	}
	exp = strings.TrimLeft(exp[1:], "0")
	return mant + "e" + sign + exp
}
