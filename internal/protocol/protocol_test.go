package protocol

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// scripts are the site's own scripts, relative to this package: the
// editor bundle and Go's wasm_exec.js are not Gradbook's to check.
func scripts(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	files, err := filepath.Glob("../../site/*.js")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "../../notebook/lesson/templates/sw.js", "../../notebook/lesson/templates/fetch-wasm.js", "../../internal/preview/live.js")
	for _, f := range files {
		switch filepath.Base(f) {
		case "editor.js", "wasm_exec.js":
			continue
		}
		if strings.HasPrefix(f, "../../site/") && filepath.Base(f) == "sw.js" {
			continue // the build's copy of the template
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = stripComments(string(b))
	}
	return out
}

var (
	lineComment  = regexp.MustCompile(`(?m)^\s*//.*$|\s//\s.*$`)
	literal      = regexp.MustCompile(`\{\s*gradbook:\s*"([\w-]+)"([^{}]*)\}`)
	compared     = regexp.MustCompile(`gradbook\s*[!=]==\s*"([\w-]+)"`)
	setsGlobal   = regexp.MustCompile(`(?:globalThis|self|window|global)\.((?:gradbook|autodiff)\w*)\s*=[^=]`)
	bareMessage  = regexp.MustCompile(`postMessage\(\s*["'\x60]`)
	readsGlobal  = regexp.MustCompile(`(?:globalThis|self|window|global)\.((?:gradbook|autodiff)\w*)`)
	goSetsGlobal = regexp.MustCompile(`(?:Global\(\)\.(?:Get|Set)|global)\("((?:gradbook|autodiff)\w*)"`)
)

func stripComments(s string) string { return lineComment.ReplaceAllString(s, "") }

func declared(kind string) (Message, bool) {
	for _, m := range Messages {
		if m.Kind == kind {
			return m, true
		}
	}
	return Message{}, false
}

// keys returns the keys of an object literal's body (after its gradbook
// key): shorthand, key: value, and spreads, which are skipped.
func keys(body string) []string {
	var out []string
	depth := 0
	start := 0
	part := func(p string) {
		p = strings.TrimSpace(p)
		if p == "" || strings.HasPrefix(p, "...") {
			return
		}
		if k, _, ok := strings.Cut(p, ":"); ok {
			p = k
		}
		out = append(out, strings.TrimSpace(p))
	}
	for i, r := range body {
		switch r {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case ',':
			if depth == 0 {
				part(body[start:i])
				start = i + 1
			}
		}
	}
	part(body[start:])
	return out
}

// Every message a script writes or reads is declared, with its fields,
// and every declared message is used.
func TestScriptsSpeakTheProtocol(t *testing.T) {
	used := map[string]bool{}
	for file, src := range scripts(t) {
		for _, m := range literal.FindAllStringSubmatch(src, -1) {
			kind := m[1]
			d, ok := declared(kind)
			if !ok {
				t.Errorf("%s writes a message %q that internal/protocol does not declare", file, kind)
				continue
			}
			used[kind] = true
			for _, k := range keys(m[2]) {
				if !slices.Contains(d.Fields, k) {
					t.Errorf("%s writes a %q message with a field %q; it has %q", file, kind, k, d.Fields)
				}
			}
		}
		for _, m := range compared.FindAllStringSubmatch(src, -1) {
			if _, ok := declared(m[1]); !ok {
				t.Errorf("%s reads a message %q that internal/protocol does not declare", file, m[1])
			}
			used[m[1]] = true
		}
		if bareMessage.MatchString(src) {
			t.Errorf("%s uses a bare-string message: messages are objects with a gradbook key", file)
		}
	}
	// The Go side writes or reads the rest (the runner's job, lines,
	// result and error).
	for _, k := range []string{Job, Lines, Started, Result, Error} {
		used[k] = true
	}
	for _, m := range Messages {
		if !used[m.Kind] {
			t.Errorf("the message %q is declared but no script uses it", m.Kind)
		}
	}
}

// Every global a script or Go sets or reads is declared, and every
// declared global is set by the script the table names.
func TestGlobalsAreDeclared(t *testing.T) {
	names := map[string]Global{}
	for _, g := range Globals {
		names[g.Name] = g
	}
	set := map[string]string{}
	check := func(file, name string) {
		if _, ok := names[name]; !ok {
			t.Errorf("%s uses the global %s, which internal/protocol does not declare", file, name)
		}
	}
	for file, src := range scripts(t) {
		for _, m := range setsGlobal.FindAllStringSubmatch(src, -1) {
			set[m[1]] = filepath.Base(file)
		}
		for _, m := range readsGlobal.FindAllStringSubmatch(src, -1) {
			check(file, m[1])
		}
	}
	err := filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && d.Name() != "..") {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range goSetsGlobal.FindAllStringSubmatch(string(b), -1) {
			check(path, m[1])
			if strings.Contains(m[0], "Set") {
				set[m[1]] = "a Go program"
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range Globals {
		by, ok := set[g.Name]
		switch {
		case !ok:
			t.Errorf("no script sets the global %s", g.Name)
		case g.SetBy != by && !(by == "a Go program" && strings.HasSuffix(g.SetBy, ".wasm")):
			t.Errorf("the global %s is set by %s, not %s as declared", g.Name, by, g.SetBy)
		}
	}
}
