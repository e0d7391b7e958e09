package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSOnlyFilesAreTagged guards the split between pure Go and the
// browser: only the programs compiled to WebAssembly (wasm/), the page's
// js implementation (notebook/web) and the conversion of their messages
// (internal/jsvalue) import syscall/js, dom/v2 or go-indexeddb, and each
// such file is built for js/wasm only, so that everything else builds and
// tests natively.
func TestJSOnlyFilesAreTagged(t *testing.T) {
	jsOnly := []string{`"syscall/js"`, `"honnef.co/go/js/dom/v2"`, `"github.com/hack-pad/go-indexeddb/idb"`}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		imports := false
		for _, im := range f.Imports {
			for _, j := range jsOnly {
				if im.Path.Value == j {
					imports = true
				}
			}
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		// js && wasm, alone or narrowed further (web/lms.go: && lms).
		tagged := strings.HasPrefix(string(src), "//go:build js && wasm\n") || strings.HasPrefix(string(src), "//go:build js && wasm && ")
		if imports && !tagged {
			t.Errorf("%s imports a js-only package but does not start with //go:build js && wasm", path)
		}
		allowed := path == "tags_test.go"
		for _, dir := range []string{"wasm/", "notebook/web/", "internal/jsvalue/"} {
			allowed = allowed || strings.HasPrefix(filepath.ToSlash(path), dir)
		}
		if imports && !allowed {
			t.Errorf("%s imports a js-only package: only wasm/, notebook/web/ and internal/jsvalue/ may", path)
		}
		for _, dir := range []string{"notebook/web/", "wasm/engine/", "wasm/gradbook/"} {
			// A test that only reads the package's sources runs natively.
			if strings.HasPrefix(filepath.ToSlash(path), dir) && !tagged && !(strings.HasSuffix(path, "_test.go") && !imports) {
				t.Errorf("%s is in a js-only package but is not tagged //go:build js && wasm", path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
