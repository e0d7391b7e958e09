package notebook_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path"
	"path/filepath"
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
// defined there: the function (or members, or value) its entry in a table
// of built-ins ([]kernel.Builtin) names is declared in that file, read
// from the package's source. Every built-in of a cell is in the README's
// table, and nothing else is.
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
	definedIn := map[string][]string{} // built-in: the files that declare one of that name
	read := map[string]bool{}
	for file := range maps.Values(named) {
		dir := path.Dir(file)
		if read[dir] {
			continue
		}
		read[dir] = true
		for n, f := range builtinFiles(t, dir) {
			definedIn[n] = append(definedIn[n], f...)
		}
	}
	for n, file := range named {
		if !slices.Contains(definedIn[n], file) {
			t.Errorf("the README says %s is in %s; it is declared in %q", n, file, definedIn[n])
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

// builtinFiles reads the Go files of dir, a package, and returns the files
// that declare each name of its tables of built-ins (a module's members
// are tables too): the file of the top-level function or variable an
// entry names as Fn, Members or Value, or the table's own file for
// anything else.
func builtinFiles(t *testing.T, dir string) map[string][]string {
	t.Helper()
	sources, err := filepath.Glob("../" + dir + "/*.go")
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]string{} // top-level name: its file
	var tables []*ast.CompositeLit
	tableFile := map[*ast.CompositeLit]string{}
	for _, src := range sources {
		if strings.HasSuffix(src, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), src, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		file := dir + "/" + filepath.Base(src)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					declared[d.Name.Name] = file
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					v, ok := spec.(*ast.ValueSpec)
					if !ok {
						continue
					}
					for _, n := range v.Names {
						declared[n.Name] = file
					}
					for _, x := range v.Values {
						if lit, ok := x.(*ast.CompositeLit); ok && isBuiltinTable(lit.Type) {
							tables = append(tables, lit)
							tableFile[lit] = file
						}
					}
				}
			}
		}
	}
	files := map[string][]string{}
	for _, lit := range tables {
		for _, e := range lit.Elts {
			n, impl := builtinEntry(t, tableFile[lit], e)
			f, ok := declared[impl]
			if !ok {
				f = tableFile[lit]
			}
			files[n] = append(files[n], f)
		}
	}
	return files
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

// builtinEntry returns the Name of an entry of a table of built-ins, and
// the identifier it gives as Fn, Members or Value ("" if none).
func builtinEntry(t *testing.T, file string, e ast.Expr) (name, impl string) {
	if lit, ok := e.(*ast.CompositeLit); ok {
		for _, kv := range lit.Elts {
			kv, ok := kv.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			switch fmt.Sprint(kv.Key) {
			case "Name":
				if s, ok := kv.Value.(*ast.BasicLit); ok {
					name, _ = strconv.Unquote(s.Value)
				}
			case "Fn", "Members", "Value":
				if id, ok := kv.Value.(*ast.Ident); ok {
					impl = id.Name
				}
			}
		}
	}
	if name == "" {
		t.Errorf("%s: a table of built-ins has an entry without a Name: %s", file, fmt.Sprint(e))
	}
	return name, impl
}
