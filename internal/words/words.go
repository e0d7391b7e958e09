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

// Bytes writes a size for people, a kB being 1,024 bytes and an MB
// 1,024 kB, as the limits are set: "1 MB", "1.5 MB", "512 kB",
// "300 bytes".
func Bytes(n int64) string {
	unit := func(size int64, name string) string {
		return strconv.FormatFloat(math.Round(float64(n)*10/float64(size))/10, 'f', -1, 64) + " " + name
	}
	switch {
	case n >= 1<<20:
		return unit(1<<20, "MB")
	case n >= 1<<10:
		return unit(1<<10, "kB")
	}
	return Count(int(n), "byte")
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
	switch len(q) {
	case 0:
		return ""
	case 1:
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// Plural is one if n is 1, else many: Plural(2, "is", "are") is "are".
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
