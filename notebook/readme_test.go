package notebook_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.starlark.net/starlark"

	"gradbook/engine"
	"gradbook/notebook"
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

// README's "Where things go" names the file of each built-in, and each is
// defined there: in the file's table of built-ins ([]kernel.Builtin), read
// from its source. Every built-in of a cell is in the README's table, and
// nothing else is.
func TestREADMESaysWhereEachBuiltinIs(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, where, ok := strings.Cut(string(b), "### Where things go")
	if !ok {
		t.Fatal(`the README has no "Where things go"`)
	}
	where, _, _ = strings.Cut(where, "\n## ")
	row := regexp.MustCompile("(?m)^ *\\| (`.*`) \\| `(notebook/[a-z/]+\\.go)` \\|$")
	name := regexp.MustCompile("`([A-Za-z_][A-Za-z_0-9]*)`")
	named := map[string]string{} // built-in: the file the README names
	for _, m := range row.FindAllStringSubmatch(where, -1) {
		for _, n := range name.FindAllStringSubmatch(m[1], -1) {
			named[n[1]] = m[2]
		}
	}
	if len(named) == 0 {
		t.Fatal(`"Where things go" has no table of the built-ins' files`)
	}
	defined := map[string][]string{} // file: the built-ins its tables define
	for file := range maps.Values(named) {
		if _, ok := defined[file]; ok {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), "../"+file, nil, 0)
		if err != nil {
			t.Fatalf("the README names %s: %v", file, err)
		}
		defined[file] = []string{}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				for _, v := range spec.(*ast.ValueSpec).Values {
					lit, ok := v.(*ast.CompositeLit)
					if !ok || !isBuiltinTable(lit.Type) {
						continue
					}
					for _, e := range lit.Elts {
						defined[file] = append(defined[file], builtinName(t, file, e))
					}
				}
			}
		}
	}
	for n, file := range named {
		if !slices.Contains(defined[file], n) {
			t.Errorf("the README says %s is in %s, whose tables define %q", n, file, defined[file])
		}
	}
	for n := range notebook.Builtins() {
		if _, ok := named[n]; !ok {
			t.Errorf(`"Where things go" does not say which file defines %s`, n)
		}
	}
	for n := range named {
		if _, ok := notebook.Builtins()[n]; !ok {
			t.Errorf(`"Where things go" names %s, which cells do not have`, n)
		}
	}
}

// isBuiltinTable reports whether x is the type []kernel.Builtin.
func isBuiltinTable(x ast.Expr) bool {
	a, ok := x.(*ast.ArrayType)
	if !ok || a.Len != nil {
		return false
	}
	sel, ok := a.Elt.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Builtin" && fmt.Sprint(sel.X) == "kernel"
}

// builtinName returns the Name of an entry of a table of built-ins.
func builtinName(t *testing.T, file string, e ast.Expr) string {
	if lit, ok := e.(*ast.CompositeLit); ok {
		for _, kv := range lit.Elts {
			if kv, ok := kv.(*ast.KeyValueExpr); ok && fmt.Sprint(kv.Key) == "Name" {
				if s, ok := kv.Value.(*ast.BasicLit); ok {
					if n, err := strconv.Unquote(s.Value); err == nil {
						return n
					}
				}
			}
		}
	}
	t.Errorf("%s: a table of built-ins has an entry without a Name: %s", file, fmt.Sprint(e))
	return ""
}
