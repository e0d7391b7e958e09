package lesson

import (
	"strings"
	"testing"
)

func TestCheckGood(t *testing.T) {
	n, errs := CheckDirs("testdata/check/good")
	if n != 1 || len(errs) != 0 {
		t.Errorf("checked %d lessons, errors %v", n, errs)
	}
}

// Each mistake is reported at its file and line, and checking goes on
// past it.
func TestCheckBad(t *testing.T) {
	_, errs := CheckDirs("testdata/check/bad")
	want := []string{
		"testdata/check/bad/broken.md:11: cell wrong-number: ✗ x.grad: got 6, expected 5",
		"testdata/check/bad/broken.md:15: cell crash: floating-point division by zero",
		"testdata/check/bad/broken.md:24: explore never: task below can never be met: no setting of the sliders",
		"testdata/check/bad/broken.md:28: exercise too-easy: the starter code already passes the check",
		"testdata/check/bad/broken.md:41: exercise bad-solution: the solution does not pass its own check: On two: double(2): got 8, expected 4",
	}
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	if len(got) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("error %d:\n got %s\nwant %s…", i, got[i], want[i])
		}
	}
}

func TestCheckMalformed(t *testing.T) {
	n, errs := CheckDirs("testdata/check/malformed")
	want := []string{
		"testdata/check/malformed/dup.md:7: id \"a\" is used twice (first at line 3)",
		"testdata/check/malformed/front.md:3: front matter: minutes must be a whole number, got \"ten\"",
		"testdata/check/malformed/kind.md:5: unknown block kind \"quizz\": did you mean quiz?",
		"testdata/check/malformed/noanswer.md:7: quiz n: --- wrong: --- wrong must follow the --- answer",
	}
	if n != 0 || len(errs) != len(want) {
		t.Fatalf("checked %d lessons; errors %v", n, errs)
	}
	for i := range want {
		if !strings.HasPrefix(errs[i].Error(), want[i]) {
			t.Errorf("error %d:\n got %s\nwant %s…", i, errs[i], want[i])
		}
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
	kinds := map[string]bool{}
	for _, c := range l.Cells {
		kinds[c.Kind] = true
	}
	for k := range kinds {
		if !kinds[k] {
			t.Errorf("the starter has no %s block", k)
		}
	}
}
