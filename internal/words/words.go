// Package words writes numbers and counts for people: "1 input",
// "2 inputs", "0.5", "-inf".
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
// systems show: "512 bytes", "42 kB", "1.5 MB", "2.1 GB" (1 MB is
// 1,000,000 bytes).
func Bytes(n float64) string {
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
