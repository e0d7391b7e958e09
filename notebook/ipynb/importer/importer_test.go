package importer

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gradbook/notebook/ipynb"
	"gradbook/notebook/ipynb/fill"
	"gradbook/notebook/lesson"
)

// A teacher's notebook (testdata/teacher.ipynb: tags, an import, a
// magic, an f-string, a class, a quiz as a task list, an exercise with its
// solution and tests, an output) becomes testdata/teacher.md, with the
// problems of testdata/teacher.problems at their lines.
func TestTeacherNotebook(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "teacher.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := Convert(data, Options{Name: "teacher.ipynb", Order: 1})
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "teacher.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(l.Markdown, want) {
		t.Errorf("the lesson is\n%s\nwant\n%s", l.Markdown, want)
	}
	var got strings.Builder
	for _, p := range l.Problems {
		fmt.Fprintf(&got, "teacher.md:%d: %s\n", p.Line, p.Msg)
	}
	wantProblems, err := os.ReadFile(filepath.Join("testdata", "teacher.problems"))
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(wantProblems) {
		t.Errorf("the problems are\n%s\nwant\n%s", got.String(), wantProblems)
	}
	// Each problem's line is the line it names.
	lines := strings.Split(string(l.Markdown), "\n")
	for _, p := range l.Problems {
		if _, code, ok := strings.Cut(p.Msg, "`"); ok && strings.TrimSpace(lines[p.Line-1]) != strings.Split(code, "`")[0] {
			t.Errorf("line %d is %q, but the problem names %q", p.Line, lines[p.Line-1], code)
		}
	}
}

// File writes the lesson after the folder's others, checks it as -check
// does, and overwrites a lesson only when asked.
func TestFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "first.md"), []byte("---\ntitle: First\norder: 7\n---\n\n# First\n\nProse.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	nb := filepath.Join("testdata", "teacher.ipynb")
	file, problems, err := File(nb, dir, false)
	if err != nil {
		t.Fatal(err)
	}
	l, err := lesson.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if l.Order != 8 || l.Title != "Gradients by hand" || l.Summary != "Compute a gradient with the chain rule, then check it." || l.Minutes == 0 {
		t.Errorf("front matter: order %d, title %q, summary %q, minutes %d", l.Order, l.Title, l.Summary, l.Minutes)
	}
	if len(problems) != 6 {
		t.Errorf("%d problems, want the import's 6 (the check blames the same lines): %v", len(problems), problems)
	}
	if _, _, err := File(nb, dir, false); err == nil || !strings.Contains(err.Error(), "already there") {
		t.Errorf("a second import: %v", err)
	}
	if _, _, err := File(nb, dir, true); err != nil {
		t.Errorf("-overwrite: %v", err)
	}
}

// A notebook the export wrote and a learner worked in comes back with
// their code, and its quizzes and exercises whole.
func TestFilledNotebook(t *testing.T) {
	l, err := lesson.LoadFile(filepath.Join("..", "..", "..", "site", "lessons", "chain-rule.md"))
	if err != nil {
		t.Fatal(err)
	}
	nb, err := lesson.NotebookOf(l, ipynb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := ipynb.Write(&b, nb); err != nil {
		t.Fatal(err)
	}
	first := l.Cells[0]
	filled, err := fill.Notebook(b.Bytes(), fill.Work{Code: map[string]string{first.ID: "x = 1\ncheck(x, 1)"}})
	if err != nil {
		t.Fatal(err)
	}
	back, err := Convert(filled, Options{Name: "chain-rule.ipynb"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := lesson.Parse("chain-rule", back.Markdown)
	if err != nil {
		t.Fatal(err)
	}
	if got.Cells[0].ID != first.ID || got.Cells[0].Source != "x = 1\ncheck(x, 1)" {
		t.Errorf("the learner's cell came back as %s: %q", got.Cells[0].ID, got.Cells[0].Source)
	}
	if len(got.Cells) != len(l.Cells) {
		t.Errorf("%d cells back, want %d", len(got.Cells), len(l.Cells))
	}
}

// What is not a notebook the import can read is refused with what is
// wrong and where, never a panic.
func TestBadNotebooks(t *testing.T) {
	cell := func(typ, src, tag string) string {
		tags := ""
		if tag != "" {
			tags = `"tags": ["` + tag + `"]`
		}
		return fmt.Sprintf(`{"cell_type": %q, "metadata": {%s}, "source": %s}`, typ, tags, src)
	}
	nb := func(cells ...string) string {
		return `{"cells": [` + strings.Join(cells, ",") + `], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`
	}
	many := make([]string, MaxCells+1)
	for i := range many {
		many[i] = cell("markdown", `"x"`, "")
	}
	for _, tc := range []struct{ name, data, want string }{
		{"not JSON", "# A title\n", "c.ipynb: not a Jupyter notebook: invalid JSON at line 1, column 1"},
		{"broken JSON", "{\n \"cells\": [\n  {]\n}", "invalid JSON at line 3, column 4"},
		{"no cells", `{"nbformat": 4}`, "c.ipynb: not a Jupyter notebook: it has no list of cells"},
		{"cells not a list", `{"cells": {}, "nbformat": 4}`, "cells is a JSON object, not what nbformat 4 has there"},
		{"nbformat 3", `{"cells": [], "nbformat": 3}`, "c.ipynb: nbformat 3, not 4"},
		{"no nbformat", `{"cells": []}`, "c.ipynb: nbformat none, not 4"},
		{"source a number", nb(cell("markdown", "42", "")), "c.ipynb: cell 1: its source is neither a string nor a list of strings"},
		{"source a list of numbers", nb(cell("code", `["a", 1]`, "")), "c.ipynb: cell 1: its source is neither a string nor a list of strings"},
		{"no source", nb(`{"cell_type": "code", "metadata": {}}`), "c.ipynb: cell 1: it has no source"},
		{"a cell not an object", nb(`"x"`), "c.ipynb: cell 1: the notebook is a JSON string"},
		{"an unknown cell type", nb(cell("heading", `"x"`, "")), `c.ipynb: cell 1: cell_type "heading"`},
		{"tests first", nb(cell("markdown", `"# T"`, ""), cell("code", `"check(1, 1)"`, "tests")), "c.ipynb: cell 2 is tagged tests, but no cell tagged exercise comes before it"},
		{"solution first", nb(cell("code", `"x = 1"`, "solution")), "c.ipynb: cell 1 is tagged solution, but no cell tagged exercise comes before it"},
		{"two solutions", nb(cell("code", `"x = 0"`, "exercise"), cell("code", `"x = 1"`, "solution"), cell("code", `"x = 2"`, "solution")), "c.ipynb: cell 3 is a second solution of the exercise in cell 1"},
		{"too many cells", nb(many...), "c.ipynb: 10,001 cells, more than the 10,000 a notebook may have"},
		{"too big", strings.Repeat(" ", MaxBytes+1), "c.ipynb: 20 MB is more than the 20 MB a notebook may have"},
		{"bad gradbook metadata", nb(`{"cell_type": "markdown", "metadata": {"gradbook": {"kind": "quiz", "id": "q"}}, "source": "x"}`), "c.ipynb: cell 1: metadata.gradbook: a quiz has its block's text as source"},
	} {
		_, err := Convert([]byte(tc.data), Options{Name: "c.ipynb"})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, _, err := File(filepath.Join(t.TempDir(), "none.ipynb"), t.TempDir(), false); err == nil {
		t.Errorf("a notebook that is not there: no error")
	}
}

// FuzzConvert: whatever the file, the import returns a lesson or an
// error, never a panic, and a lesson it returns is one file of text.
func FuzzConvert(f *testing.F) {
	teacher, err := os.ReadFile(filepath.Join("testdata", "teacher.ipynb"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(teacher)
	f.Add([]byte(`{"cells": [{"cell_type": "code", "metadata": {"gradbook": {"kind": "exercise", "id": "x", "source": "--- test"}}, "source": "x"}], "nbformat": 4}`))
	f.Add([]byte(`{"cells": [{"cell_type": "markdown", "metadata": {"tags": ["quiz"]}, "source": "- [x] a\n- [x] b"}], "nbformat": 4}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Convert(data, Options{Name: "f.ipynb"})
		if err == nil && (l == nil || l.Slug == "") {
			t.Fatalf("no lesson and no error")
		}
	})
}

// An nbgrader notebook, marked in metadata.nbgrader rather than by tags:
// its autograded answer, with its solution region, is an exercise whose
// starter fails its tests (the region becomes a fail()) and whose
// solution passes them; its autograder tests, hidden ones included, are
// the exercise's test.
func TestNBGrader(t *testing.T) {
	data := `{"cells": [
 {"cell_type": "markdown", "metadata": {}, "source": "# Doubling\n\nWrite double."},
 {"cell_type": "code", "metadata": {"nbgrader": {"grade": false, "solution": true, "grade_id": "a"}}, "outputs": [], "source": ["def double(x):\n", "    ### BEGIN SOLUTION\n", "    return 2 * x\n", "    ### END SOLUTION"]},
 {"cell_type": "code", "metadata": {"nbgrader": {"grade": true, "solution": false, "points": 1}}, "outputs": [], "source": ["check(double(3), 6)\n", "### BEGIN HIDDEN TESTS\n", "check(double(-1), -2)\n", "### END HIDDEN TESTS"]}
], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`
	back, err := Convert([]byte(data), Options{Name: "doubling.ipynb", Order: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := "```exercise id=doubling\ndef double(x):\n    fail(\"Write your code here.\")\n--- test the tests of cell 3\ncheck(double(3), 6)\ncheck(double(-1), -2)\n--- solution\ndef double(x):\n    return 2 * x\n```\n"
	if !strings.HasSuffix(string(back.Markdown), want) || len(back.Problems) > 0 {
		t.Fatalf("the lesson is\n%s\nwant it to end\n%s\nproblems %v", back.Markdown, want, back.Problems)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "doubling.md")
	if err := os.WriteFile(file, back.Markdown, 0o644); err != nil {
		t.Fatal(err)
	}
	if errs := Check(file, nil); len(errs) > 0 {
		t.Errorf("the lesson does not pass -check: %v", errs)
	}
}
