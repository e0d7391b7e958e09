// Package words writes numbers and counts for people: "1 input",
// "2 inputs", "0.5", "-inf", "1.8151e-4".
package words

import (
	"math"
	"strconv"
	"strings"
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

// Rounded formats a number rounded for a figure, where room is short (a
// drawing, its tables and its step text): to five significant digits, an
// integer as Number writes it, and in scientific form with a short
// exponent when it is small or huge (0.00018151 is 1.8151e-4, 1234567.8
// is 1.2346e6). -0 is 0.
func Rounded(x float64) string {
	a := math.Abs(x)
	switch {
	case x == 0:
		return "0"
	case math.IsNaN(x) || math.IsInf(x, 0) || x == math.Trunc(x) && a < 1e9:
		return Number(x)
	case a < 1e-3:
		return trimmed(strconv.FormatFloat(x, 'e', 4, 64))
	}
	return trimmed(strconv.FormatFloat(x, 'g', 5, 64))
}

// trimmed drops the trailing zeros of a mantissa and writes an exponent
// without its plus sign and leading zeros: 1.8150e-04 is 1.815e-4.
func trimmed(s string) string {
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

// Count returns n (as Int writes it) and word, with an s unless n is 1.
func Count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return Int(n) + " " + word + "s"
}

// Int writes an integer with its thousands grouped by commas from 10,000
// up ("9999", "10,000", "2,000,000"), as English prose writes them.
func Int(n int) string {
	s := strconv.Itoa(n)
	if n > -10000 && n < 10000 {
		return s
	}
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	head := len(s) % 3
	if head == 0 {
		head = 3
	}
	out := s[:head]
	for i := head; i < len(s); i += 3 {
		out += "," + s[i:i+3]
	}
	return sign + out
}

// List joins names for a sentence, each in code quotes: "`a`", "`a` and
// `b`", "`a`, `b` and `c`".
func List(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return And(q)
}

// And joins words for a sentence: "a", "a and b", "a, b and c".
func And(list []string) string {
	if len(list) < 2 {
		return strings.Join(list, "")
	}
	return strings.Join(list[:len(list)-1], ", ") + " and " + list[len(list)-1]
}

// Plural is one if n is 1, else many: Plural(2, "is", "are") is "are".
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Bytes writes a size in the decimal units browsers and operating
// systems show, as every limit is set: "512 bytes", "42 kB", "1.5 MB",
// "2.1 GB" (1 MB is 1,000,000 bytes).
func Bytes[N int | int64 | uint64 | float64](size N) string {
	n := float64(size)
	switch {
	case n >= 1e9:
		return strconv.FormatFloat(n/1e9, 'f', 1, 64) + " GB"
	case n >= 1e6:
		return strings.TrimSuffix(strconv.FormatFloat(n/1e6, 'f', 1, 64), ".0") + " MB"
	case n >= 1e3:
		return strconv.FormatFloat(n/1e3, 'f', 0, 64) + " kB"
	case n == 1:
		return "1 byte"
	}
	return strconv.FormatFloat(n, 'f', 0, 64) + " bytes"
}
