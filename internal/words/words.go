// Package words writes numbers and counts for people: "1 input",
// "2 inputs", "0.5", "-inf".
package words

import (
	"math"
	"strconv"
)

// Number formats a number for people: an integer without a decimal point,
// otherwise up to 8 significant digits.
func Number(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	case x == math.Trunc(x) && math.Abs(x) < 1e15:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', 8, 64)
}

// Count returns n and word, with an s unless n is 1.
func Count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
