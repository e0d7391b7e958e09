package notebook

import (
	"strings"
	"unicode"
)

// habits are Python habits that Starlark lacks, each with how to say it in
// Starlark: match reports whether a line of code shows the habit (msg is
// the error message).
var habits = []struct {
	match func(code, msg string) bool
	hint  string
}{
	{contains("**"), "Starlark has no ** operator: write v.pow(2) for a Value, x*x or math.pow(x, 2) for a number."},
	{fString, `Starlark has no f-strings: build the text with str(x) and +, or "%s" % x.`},
	{startsWith("class"), "Starlark has no classes: use functions and dicts, and the built-in Value for scalars with gradients."},
	{startsWith("import", "from"), "Starlark has no import: math, Value and the other built-ins are already there."},
	{startsWith("assert"), "Starlark has no assert: use check(actual, expected), which prints whether they match."},
	{precision, "Starlark's % formatting has no precision like %.2f: use round(x, 2), then %s or str()."},
	{startsWith("try", "except", "finally"), "Starlark has no try/except: check a value with if before using it."},
	{startsWith("global", "nonlocal"), "Starlark has no global statement: return the new value from the function and assign it outside."},
	{startsWith("with"), "Starlark has no with statement."},
	{contains(" is "), "Starlark has no is operator: compare with == (x == None)."},
}

// hint returns the Starlark way for a Python habit on line code, or "".
func hint(code, msg string) string {
	for _, h := range habits {
		if h.match(code, msg) {
			return h.hint
		}
	}
	return ""
}

func contains(s string) func(code, msg string) bool {
	return func(code, _ string) bool { return strings.Contains(code, s) }
}

// startsWith matches a line whose first word is one of words.
func startsWith(words ...string) func(code, msg string) bool {
	return func(code, _ string) bool {
		f := strings.FieldsFunc(code, func(r rune) bool { return !unicode.IsLetter(r) && r != '_' })
		if len(f) == 0 || !strings.HasPrefix(strings.TrimSpace(code), f[0]) {
			return false
		}
		for _, w := range words {
			if f[0] == w {
				return true
			}
		}
		return false
	}
}

// fString matches f"..." or f'...' outside a longer word.
func fString(code, _ string) bool {
	for i := 0; i+1 < len(code); i++ {
		if (code[i] == 'f' || code[i] == 'F') && (code[i+1] == '"' || code[i+1] == '\'') {
			if i == 0 || !isWord(code[i-1]) {
				return true
			}
		}
	}
	return false
}

// precision matches a % conversion with a precision, like %.2f.
func precision(code, _ string) bool {
	for i := strings.IndexByte(code, '%'); i >= 0 && i+1 < len(code); {
		j := i + 1
		for j < len(code) && strings.IndexByte("-+ #0123456789", code[j]) >= 0 {
			j++
		}
		if j+1 < len(code) && code[j] == '.' && code[j+1] >= '0' && code[j+1] <= '9' {
			return true
		}
		next := strings.IndexByte(code[i+1:], '%')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

func isWord(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
