package main

import (
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// jsImports are the import paths that exist only in the browser:
// syscall/js, and the families of the js bindings (the DOM's,
// honnef.co/go/js/dom/v2) and of IndexedDB's (hack-pad's go-indexeddb and
// the safejs it is built on).
func jsImport(p string) bool {
	return p == "syscall/js" || strings.HasPrefix(p, "honnef.co/go/js/") || strings.HasPrefix(p, "github.com/hack-pad/")
}

// jsPlaces are where they may be imported besides the programs compiled
// to WebAssembly (wasm/): the page's js implementation, and the converter
// of Go data to JavaScript values that the page and wasm/gradbook's
// worker share. A folder ends in a slash and is js-only as a whole.
var jsPlaces = []string{"notebook/web/", "internal/jsvalue/"}

// wasmPlaces may import them in their js && wasm files, beside files that
// run natively: what the WebAssembly programs are built from (the
// matrix-product kernels' installer, whose module check runs anywhere),
// and tensor's test that runs its tests again over the kernels.
var wasmPlaces = []string{"wasm/", "tensor/kernels_js_test.go"}

// TestJSOnlyImports guards the split between pure Go and the browser: only
// the programs compiled to WebAssembly (a package main whose files are all
// built for js && wasm) and jsPlaces import the js-only packages, every
// file that does is built for js && wasm only, and so is every file of a
// js-only folder, so that everything else builds and is tested natively.
func TestJSOnlyImports(t *testing.T) {
	type file struct {
		path, pkg       string
		tagged, imports bool
	}
	var files []file
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != "." && (d.Name() == "node_modules" || d.Name() == "build" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		// js && wasm, alone or narrowed further (web/lms.go: && lms).
		tagged := strings.HasPrefix(string(src), "//go:build js && wasm\n") || strings.HasPrefix(string(src), "//go:build js && wasm && ")
		fl := file{path: filepath.ToSlash(p), pkg: f.Name.Name, tagged: tagged}
		for _, im := range f.Imports {
			fl.imports = fl.imports || jsImport(strings.Trim(im.Path.Value, `"`))
		}
		files = append(files, fl)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A program compiled to WebAssembly: a package main whose files
	// (tests aside) are all built for js && wasm.
	programs := map[string]bool{}
	for _, f := range files {
		if f.pkg == "main" && !strings.HasSuffix(f.path, "_test.go") {
			dir := path.Dir(f.path) + "/"
			if _, seen := programs[dir]; !seen {
				programs[dir] = true
			}
			programs[dir] = programs[dir] && f.tagged
		}
	}
	placed := func(p string) bool {
		return programs[path.Dir(p)+"/"] || slices.ContainsFunc(append(jsPlaces, wasmPlaces...), func(place string) bool {
			return p == place || strings.HasSuffix(place, "/") && strings.HasPrefix(p, place)
		})
	}
	importers := 0
	for _, f := range files {
		if f.imports {
			importers++
			if !f.tagged {
				t.Errorf("%s imports a js-only package but does not start with //go:build js && wasm", f.path)
			}
			if !placed(f.path) {
				t.Errorf("%s imports a js-only package: only the WebAssembly programs and %s may", f.path, strings.Join(append(jsPlaces, wasmPlaces...), ", "))
			}
		}
		for _, place := range jsPlaces {
			// A test that only reads the package's sources runs natively.
			if strings.HasSuffix(place, "/") && strings.HasPrefix(f.path, place) && !f.tagged && !(strings.HasSuffix(f.path, "_test.go") && !f.imports) {
				t.Errorf("%s is in a js-only package but is not tagged //go:build js && wasm", f.path)
			}
		}
	}
	wasm := 0
	for _, js := range programs {
		if js {
			wasm++
		}
	}
	if importers == 0 || wasm == 0 {
		t.Errorf("found %d files importing a js-only package and %d WebAssembly programs: the walk no longer sees them", importers, wasm)
	}
}
