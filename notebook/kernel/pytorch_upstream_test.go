package kernel_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.starlark.net/syntax"

	"gradbook/notebook/kernel"
	"gradbook/notebook/lesson"
)

// sameParse checks that Parse reads src as Starlark's parser alone does:
// the same tree, or the same error, unless src uses @ or ..., which
// Starlark refuses and the cells' dialect reads.
func sameParse(t *testing.T, where, src string) (extended bool) {
	t.Helper()
	want, wantErr := kernel.ParseAsStarlark("cell 1", src)
	got, err := kernel.Parse("cell 1", src)
	switch {
	case wantErr == nil && err == nil:
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: parsed otherwise than by Starlark:\n%s", where, src)
		}
	case wantErr != nil && err == nil && rewritten(got):
		return true // the dialect's own; TestParsePyTorch checks those
	case wantErr == nil || err == nil || err.Error() != wantErr.Error():
		t.Errorf("%s: error %v, Starlark's %v:\n%s", where, err, wantErr, src)
	}
	return false
}

// rewritten reports whether f holds what the dialect's rewrite makes: a
// call of __matmul__ or __slice__, or __ellipsis__ (pytorch.go).
func rewritten(f *syntax.File) bool {
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if id, ok := n.(*syntax.Ident); ok && slices.Contains([]string{"__matmul__", "__slice__", "__ellipsis__"}, id.Name) {
			found = true
		}
		return !found
	})
	return found
}

// TestParseLessonsAsStarlark parses every cell of every lesson both ways.
func TestParseLessonsAsStarlark(t *testing.T) {
	lessons, err := lesson.LoadDir(filepath.Join("..", "..", "site", "lessons"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, l := range lessons {
		for i, src := range l.Code("") {
			sameParse(t, fmt.Sprintf("%s cell %d", l.Slug, i+1), src)
			n++
		}
	}
	if n < 50 {
		t.Fatalf("only %d cells in %d lessons", n, len(lessons))
	}
	t.Logf("%d cells of %d lessons", n, len(lessons))
}

// TestParseStarlarkTestdataAsStarlark parses Starlark's own test inputs,
// of the version go.mod pins, both ways: its syntax tests' every chunk
// (errors.star, scan.star) and its interpreter's test programs.
func TestParseStarlarkTestdataAsStarlark(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "go.starlark.net").Output()
	if err != nil {
		t.Skipf("no go command to find go.starlark.net: %v", err)
	}
	dir := strings.TrimSpace(string(out))
	files, _ := filepath.Glob(filepath.Join(dir, "syntax", "testdata", "*.star"))
	more, _ := filepath.Glob(filepath.Join(dir, "starlark", "testdata", "*.star"))
	files = append(files, more...)
	if len(files) < 10 {
		t.Fatalf("only %d test files in %s", len(files), dir)
	}
	// The one form Starlark parses that the dialect reads otherwise, on
	// purpose: a slice after an unparenthesized tuple, x[1, 2:], which
	// Starlark reads as the slice from the tuple (1, 2), which no value
	// takes, and PyTorch as row 1, from column 2. Its chunks are told
	// apart by these lines.
	deliberate := []string{"x[1, 2:] # ok", "x[1, 2,:] ###"}
	chunks, extended, differ := 0, 0, 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, src := range strings.Split(string(b), "\n---\n") {
			chunks++
			if slices.ContainsFunc(deliberate, func(d string) bool { return strings.Contains(src, d) }) {
				differ++
				continue
			}
			if sameParse(t, fmt.Sprintf("%s chunk %d", filepath.Base(f), i+1), src) {
				extended++
			}
		}
	}
	if differ != len(deliberate) {
		t.Errorf("%d chunks with x[1, 2:], want %d", differ, len(deliberate))
	}
	t.Logf("%d chunks of %d files; %d use @ or ... and are read by the dialect, %d are x[1, 2:]", chunks, len(files), extended, differ)
}

// BenchmarkParseLessons parses every cell of every lesson, by the dialect
// (the scan for @ and subscripts, then Starlark's parser) and by
// Starlark's parser alone: what the scan costs.
func BenchmarkParseLessons(b *testing.B) {
	lessons, err := lesson.LoadDir(filepath.Join("..", "..", "site", "lessons"))
	if err != nil {
		b.Fatal(err)
	}
	var cells []string
	for _, l := range lessons {
		cells = append(cells, l.Code("")...)
	}
	attention := strings.Repeat("wei = (q @ k.mT) * C\nwei = wei.masked_fill(tril[:T, :T].eq(0), float('-inf'))\nout = F.softmax(wei, dim=-1) @ v\nlast = logits[:, -1, :]\n", 8)
	for _, c := range []struct {
		name  string
		parse func(name, src string) (*syntax.File, error)
		cells []string
	}{
		{"lessons/dialect", kernel.Parse, cells},
		{"lessons/starlark", kernel.ParseAsStarlark, cells},
		{"attention/dialect", kernel.Parse, []string{attention}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				for _, src := range c.cells {
					c.parse("cell 1", src)
				}
			}
		})
	}
}
