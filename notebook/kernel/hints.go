package kernel

import (
	"strings"
	"unicode"
)

// habits are Python habits that Starlark lacks, each with how to say it in
// Starlark. match reports whether an error shows the habit: code is the
// line the error names, msg its message, col the column the parser
// stopped at (from 1; 0 if unknown), which is just after the token it
// could not take. Each looks at that token or at
// the line's first word, never at text elsewhere on the line, so that
// `def f(*a, **k)` does not call up the ** hint.
var habits = []struct {
	match func(code, msg string, col int) bool
	hint  string
	// statement marks a statement Starlark lacks: a line that starts
	// with one is to blame even when the parser trips on a later line.
	statement bool
}{
	{doubleStar, "Starlark has no ** operator: write v.pow(2) for a Value, x*x or math.pow(x, 2) for a number.", false},
	{fString, `Starlark has no f-strings: build the text with str(x) and +, or "%s" % x.`, false},
	{startsWith("class"), "Starlark has no classes: use functions and dicts, and the built-in Value for scalars with gradients.", true},
	{startsWith("import", "from"), "Starlark has no import: math, Value and the other built-ins are already there.", true},
	{startsWith("assert"), "Starlark has no assert: use check(actual, expected), which prints whether they match.", true},
	{precision, "Starlark's % formatting has no precision like %.2f: use round(x, 2), then %s or str().", false},
	{startsWith("try", "except", "finally"), "Starlark has no try/except: check a value with if before using it.", true},
	{startsWith("global", "nonlocal"), "Starlark has no global statement: return the new value from the function and assign it outside.", true},
	{startsWith("with"), "Starlark has no with statement. For torch.no_grad(), change a parameter's numbers through .data, which autograd does not record: W.data -= lr * W.grad (for a Value, p.value -= lr * p.grad).", true},
	{tokenIs("is"), "Starlark has no is operator: compare with == (x == None).", false},
}

// hint returns the Starlark way for a Python habit the error shows, or "".
func hint(code, msg string, col int) string {
	for _, h := range habits {
		if h.match(code, msg, col) {
			return h.hint
		}
	}
	return ""
}

// lineHint is hint for a line above the error, which only a statement
// Starlark lacks (class, import, try, …) can be blamed for.
func lineHint(code string) string {
	for _, h := range habits {
		if h.statement && h.match(code, "", 0) {
			return h.hint
		}
	}
	return ""
}

// before returns the code before the error's column: the token the
// parser could not take is at its end.
func before(code string, col int) string {
	if col < 2 || col-1 > len(code) {
		return ""
	}
	return code[:col-1]
}

// doubleStar matches the parser stopping at a ** (Starlark reads
// 2 ** 3 as far as 2, then trips on the **).
func doubleStar(_, msg string, _ int) bool {
	return strings.Contains(msg, "got '**'")
}

// fString matches the parser stopping at a string literal that comes
// right after an f or F, not the end of a longer word: f"..." or f'...'.
func fString(code, msg string, col int) bool {
	lit := before(code, col)
	if !strings.Contains(msg, "got string literal") || len(lit) < 3 {
		return false
	}
	q := lit[len(lit)-1]
	if q != '"' && q != '\'' {
		return false
	}
	open := strings.LastIndexByte(lit[:len(lit)-1], q)
	if open < 1 || (lit[open-1] != 'f' && lit[open-1] != 'F') {
		return false
	}
	return open < 2 || !isWord(lit[open-2])
}

// tokenIs matches the parser stopping at one of words.
func tokenIs(words ...string) func(code, msg string, col int) bool {
	return func(code, _ string, col int) bool {
		b := before(code, col)
		for _, w := range words {
			if strings.HasSuffix(b, w) && (len(b) == len(w) || !isWord(b[len(b)-len(w)-1])) {
				return true
			}
		}
		return false
	}
}

// startsWith matches a line whose first word is one of words.
func startsWith(words ...string) func(code, msg string, col int) bool {
	return func(code, _ string, _ int) bool {
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

// precision matches Starlark's refusal of a % conversion with a
// precision, like %.2f.
func precision(code, msg string, _ int) bool {
	if !strings.Contains(msg, "conversion") && !strings.Contains(msg, "%") {
		return false
	}
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
