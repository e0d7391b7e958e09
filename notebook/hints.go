package notebook

import (
	"regexp"
	"strings"
)

// habits are Python habits that Starlark lacks, each with how to say it in
// Starlark. A habit matches a line of code (and, if msg is set, an error
// message containing it).
var habits = []struct {
	code *regexp.Regexp
	msg  string
	hint string
}{
	{regexp.MustCompile(`\*\*`), "", "Starlark has no ** operator: write v.pow(2) for a Value, x*x or math.pow(x, 2) for a number."},
	{regexp.MustCompile(`(^|[^\w])[fF]["']`), "", `Starlark has no f-strings: build the text with str(x) and +, or "%s" % x.`},
	{regexp.MustCompile(`^\s*class\s`), "", "Starlark has no classes: use functions and dicts, and the built-in Value for scalars with gradients."},
	{regexp.MustCompile(`^\s*(import|from)\s`), "", "Starlark has no import: math, Value and the other built-ins are already there."},
	{regexp.MustCompile(`^\s*assert\b`), "", "Starlark has no assert: use check(actual, expected), which prints whether they match."},
	{regexp.MustCompile(`%[-+ #0]*\d*\.\d+[a-zA-Z]`), "", "Starlark's % formatting has no precision like %.2f: use round(x, 2), then %s or str()."},
	{regexp.MustCompile(`^\s*(try|except|finally)\b`), "", "Starlark has no try/except: check a value with if before using it."},
	{regexp.MustCompile(`^\s*(global|nonlocal)\s`), "", "Starlark has no global statement: return the new value from the function and assign it outside."},
	{regexp.MustCompile(`^\s*with\s`), "", "Starlark has no with statement."},
	{regexp.MustCompile(`\bis\s+(not\s+)?None\b|\bis\s`), "", "Starlark has no is operator: compare with == (x == None)."},
	{regexp.MustCompile(`\+=|-=`), "cannot reassign", "A function cannot change a global: return the new value and assign it outside the function."},
}

// hint returns the Starlark way for a Python habit on line code, or "".
func hint(code, msg string) string {
	for _, h := range habits {
		if h.msg != "" && !strings.Contains(msg, h.msg) {
			continue
		}
		if h.code.MatchString(code) {
			return h.hint
		}
	}
	return ""
}
