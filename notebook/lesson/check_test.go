package lesson

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gradbook/notebook/block"
)

// Each lesson folder is checked whole: each mistake is reported at its
// file and line, and checking goes on past it.
func TestCheckDirs(t *testing.T) {
	for _, tc := range []struct {
		dir     string
		checked int // lessons, -1 for any number
		errs    []string
	}{
		{"testdata/check/good", 1, nil},
		{"testdata/check/bad", -1, []string{
			"testdata/check/bad/broken.md:11: cell wrong-number: ✗ x.grad: got 6, expected 5",
			"testdata/check/bad/broken.md:15: cell crash: floating-point division by zero",
			"testdata/check/bad/broken.md:24: explore never: task below can never be met: no setting of the sliders",
			"testdata/check/bad/broken.md:28: exercise too-easy: the starter code already passes the check",
			"testdata/check/bad/broken.md:41: exercise bad-solution: the solution does not pass its own check: On two: double(2): got 8, expected 4",
		}},
		{"testdata/check/malformed", 0, []string{
			"testdata/check/malformed/dup.md:7: id \"a\" is used twice (first at line 3)",
			"testdata/check/malformed/front.md:3: front matter: minutes must be a whole number, got \"ten\"",
			"testdata/check/malformed/kind.md:5: unknown block kind \"quizz\": did you mean quiz?",
			"testdata/check/malformed/noanswer.md:7: quiz n: --- wrong: --- wrong must follow the --- answer",
		}},
	} {
		t.Run(filepath.Base(tc.dir), func(t *testing.T) {
			n, errs := CheckDirs(tc.dir)
			if tc.checked >= 0 && n != tc.checked {
				t.Errorf("checked %d lessons, want %d", n, tc.checked)
			}
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if len(got) != len(tc.errs) {
				t.Fatalf("got %d errors, want %d:\n%s", len(got), len(tc.errs), strings.Join(got, "\n"))
			}
			for i := range tc.errs {
				if !strings.HasPrefix(got[i], tc.errs[i]) {
					t.Errorf("error %d:\n got %s\nwant %s…", i, got[i], tc.errs[i])
				}
			}
		})
	}
	if _, errs := CheckDirs("testdata/check/nowhere"); len(errs) != 1 || errs[0].Error() != "testdata/check/nowhere: no such lessons folder" {
		t.Errorf("a missing folder: %v", errs)
	}
}

// The starter lesson shows every block kind, and passes its own check.
func TestStarter(t *testing.T) {
	dir := t.TempDir()
	file, err := WriteStarter(dir + "/my-first-lesson")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WriteStarter(file); err == nil {
		t.Error("the starter overwrote a file")
	}
	n, errs := CheckDirs(dir)
	if n != 1 || len(errs) != 0 {
		t.Fatalf("checked %d lessons: %v", n, errs)
	}
	l, err := LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if l.Title != "My first lesson" {
		t.Errorf("title %q", l.Title)
	}
	seen := map[string]bool{}
	for _, c := range l.Cells {
		seen[c.Kind] = true
	}
	for k := range kinds { // the package's table of block kinds
		if !seen[k] {
			t.Errorf("the starter has no %s block", k)
		}
	}
}

// The format's one-page reference lists every front-matter key, block kind
// and section the parser accepts, and its example lesson passes -check.
func TestFormatReference(t *testing.T) {
	b, err := os.ReadFile("../../docs/lesson-format.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, k := range frontMatterKeys {
		if !strings.Contains(doc, "`"+k+":`") {
			t.Errorf("the reference does not describe the front-matter key %s", k)
		}
	}
	for kind := range kinds {
		if !strings.Contains(doc, "### `"+kind+"`") {
			t.Errorf("the reference has no heading for the block kind %s", kind)
		}
	}
	for kind, names := range block.Sections {
		for _, n := range names {
			if !strings.Contains(doc, "`--- "+n) {
				t.Errorf("the reference does not describe the %s section --- %s", kind, n)
			}
		}
	}
	_, example, ok := strings.Cut(doc, "````markdown\n")
	example, _, ok2 := strings.Cut(example, "````")
	if !ok || !ok2 {
		t.Fatal("the reference has no example lesson")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "example.md"), []byte(example), 0o644); err != nil {
		t.Fatal(err)
	}
	n, errs := CheckDirs(dir)
	if n != 1 || len(errs) > 0 {
		t.Fatalf("the example lesson: %v", errs)
	}
	l, _ := LoadFile(filepath.Join(dir, "example.md"))
	seen := map[string]bool{}
	for _, c := range l.Cells {
		seen[c.Kind] = true
	}
	for kind := range kinds {
		if !seen[kind] {
			t.Errorf("the example lesson has no %s block", kind)
		}
	}
}
