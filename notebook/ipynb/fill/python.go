package fill

import "strings"

// Python returns a cell's Starlark as Python that does the same. Gradbook's
// cell language is Python's syntax but for what Starlark adds: a string's
// .elems() (its characters; Python iterates a string itself) becomes
// list(…). Everything else a lesson writes is Python already (`@` and
// subscripts of several axes are Python's own).
func Python(src string) string {
	const elems = ".elems()"
	var b strings.Builder
	for {
		i := indexOutsideStrings(src, elems)
		if i < 0 {
			b.WriteString(src)
			return b.String()
		}
		start := operandStart(src, i)
		b.WriteString(src[:start])
		b.WriteString("list(" + src[start:i] + ")")
		src = src[i+len(elems):]
	}
}

// indexOutsideStrings is strings.Index of sub in src, skipping string
// literals and comments.
func indexOutsideStrings(src, sub string) int {
	var quote byte
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case strings.HasPrefix(src[i:], sub):
			return i
		}
	}
	return -1
}

// operandStart returns where the primary expression that ends at end
// starts: names, dots, calls, subscripts, parentheses and string literals
// read backwards (w, doc.text, (w + "."), xs[0], "ab").
func operandStart(src string, end int) int {
	i := end
	for i > 0 {
		c := src[i-1]
		switch {
		case c == ')' || c == ']' || c == '}':
			open := map[byte]byte{')': '(', ']': '[', '}': '{'}[c]
			depth := 0
			j := i - 1
			for ; j >= 0; j-- {
				if src[j] == c {
					depth++
				} else if src[j] == open {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if j < 0 {
				return i
			}
			i = j
		case c == '"' || c == '\'':
			j := strings.LastIndexByte(src[:i-1], c)
			if j < 0 {
				return i
			}
			i = j
		case c == '.' || c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9':
			i--
		default:
			return i
		}
	}
	return i
}
