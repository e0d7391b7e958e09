// Package celltest runs cells of the whole cell language, as the page
// runs them, for the tests of the packages that make it up (package
// kernel's own tests run plain Starlark instead).
package celltest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"gradbook/notebook"
	"gradbook/notebook/kernel"
)

// Run runs cells in a Session of their own, drawing every cell, as Run
// all does.
func Run(cells ...string) []kernel.CellResult {
	return notebook.NewSession().Run(kernel.Request{Cells: cells, All: true}).Cells
}

// One runs one cell in a Session of its own.
func One(tb testing.TB, src string) kernel.CellResult {
	tb.Helper()
	return Run(src)[0]
}

// Long are the limits of a test that trains a model: ten minutes, and a
// hundred million Values a cell.
var Long = kernel.Limits{Time: 10 * time.Minute, Values: 100_000_000}

// Program returns a program of notebook/testdata: "moons" is the moons
// network, "bench/gpt" a benchmark program. It is found from the folder
// of any package under notebook/.
func Program(tb testing.TB, name string) string {
	tb.Helper()
	for dir := "testdata"; len(dir) < 40; dir = filepath.Join("..", dir) {
		if src, err := os.ReadFile(filepath.Join(dir, name+".star")); err == nil {
			return string(src)
		}
	}
	tb.Fatalf("no program %s in notebook/testdata", name)
	return ""
}
