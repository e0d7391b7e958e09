package notebook_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gradbook/notebook"

	"go.starlark.net/starlark"

	"gradbook/engine"
	"gradbook/notebook/kernel"
)

func isBuiltin(x starlark.Value) bool {
	_, ok := x.(*starlark.Builtin)
	return ok
}

// The README's table of built-ins and its list of the engine's ops say
// what the code has, as docs/lesson-format.md says what the parser takes.
func TestREADMEListsTheBuiltins(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	_, lang, ok := strings.Cut(readme, "## The cell language")
	if !ok {
		t.Fatal("the README has no section on the cell language")
	}
	lang, _, _ = strings.Cut(lang, "\n## ")
	// The first column of each row of the table names built-ins: `name(…)`
	// or `name`, or a Value method `.name(…)`.
	name := regexp.MustCompile("`(\\.?[A-Za-z_][A-Za-z_0-9]*)")
	listed := map[string]bool{}
	for _, line := range strings.Split(lang, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		first := strings.SplitN(line, "|", 3)[1]
		for _, m := range name.FindAllStringSubmatch(first, -1) {
			if !strings.HasPrefix(m[1], ".") {
				listed[m[1]] = true
			}
		}
	}
	have := map[string]bool{}
	for n := range notebook.Builtins() {
		have[n] = true
		if !listed[n] {
			t.Errorf("the README's table of built-ins has no row for %s", n)
		}
	}
	for n := range listed {
		if !have[n] {
			t.Errorf("the README's table of built-ins lists %s, which cells do not have", n)
		}
	}
	// Value's methods, in the Value row.
	row := regexp.MustCompile("(?m)^\\| `Value\\(x\\)`.*$").FindString(lang)
	v := notebook.NewSession().Run(kernel.Request{Cells: []string{"v = Value(1.0)"}}).Globals["v"].(starlark.HasAttrs)
	for _, m := range v.AttrNames() {
		if method, _ := v.Attr(m); m != "detach" && isBuiltin(method) && !strings.Contains(row, "."+m+"(") {
			t.Errorf("the README's Value row does not list .%s()", m)
		}
	}
	// The ops of the engine's list format.
	ops := regexp.MustCompile("Ops: `([a-z ]+)`").FindStringSubmatch(readme)
	if ops == nil {
		t.Fatal("the README lists no ops")
	}
	got := strings.Fields(ops[1])
	slices.Sort(got)
	if want := engine.OpNames(); !slices.Equal(got, want) {
		t.Errorf("the README lists the ops %q; the engine has %q", got, want)
	}
}
