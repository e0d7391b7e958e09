package celltest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gradbook/notebook"
	"gradbook/notebook/kernel"
)

// Run runs cells in a Session of their own, drawing every cell, as Run
// all does.
func Run(cells ...string) []kernel.CellResult {
	return RunWith(kernel.Limits{}, cells...)
}

// RunWith runs cells as Run does, within limits (zero fields: the
// defaults).
func RunWith(limits kernel.Limits, cells ...string) []kernel.CellResult {
	return notebook.NewSession().Run(kernel.Request{Cells: cells, All: true, Limits: limits}).Cells
}

// One runs one cell in a Session of its own.
func One(tb testing.TB, src string) kernel.CellResult {
	tb.Helper()
	return Run(src)[0]
}

// Prints runs the cell src in a Session of its own, which must end
// without an error and print every line of want, and returns its result.
func Prints(tb testing.TB, src string, want ...string) kernel.CellResult {
	tb.Helper()
	r := One(tb, src)
	if r.Err != nil {
		tb.Fatalf("error: %v", r.Err)
	}
	for _, w := range want {
		if !strings.Contains(r.Output, w) {
			tb.Errorf("output %q lacks %q", r.Output, w)
		}
	}
	return r
}

// Fails runs each cell of cases, a source and what its error must say,
// in a Session of its own: each must stop with an error whose message
// contains that text and names the cell's line.
func Fails(t *testing.T, cases map[string]string) {
	t.Helper()
	for src, says := range cases {
		r := One(t, src)
		if r.Err == nil || !strings.Contains(r.Err.Msg, says) {
			t.Errorf("%q: error %v, want it to say %q", src, r.Err, says)
			continue
		}
		if !strings.Contains(r.Err.Error(), "line") {
			t.Errorf("%q: %q names no line", src, r.Err.Error())
		}
	}
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

// Case is a cell, as a learner would write one, and what it must give:
// every line of Want in its output, or, if Err is set, an error that
// contains it.
type Case struct {
	Name, Src string
	Want      []string
	Err       string
}

// Cases runs each case in a Session of its own, as a subtest of t.
func Cases(t *testing.T, cases []Case) {
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			if tc.Err != "" {
				r := One(t, tc.Src)
				if r.Err == nil || !strings.Contains(r.Err.Error(), tc.Err) {
					t.Fatalf("error %v, want one containing %q (output %q)", r.Err, tc.Err, r.Output)
				}
				return
			}
			Prints(t, tc.Src, tc.Want...)
		})
	}
}
