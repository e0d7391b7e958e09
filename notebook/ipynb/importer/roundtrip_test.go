package importer

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"gradbook/notebook/ipynb"
	"gradbook/notebook/lesson"
)

var blankRuns = regexp.MustCompile(`\n\n\n+`)

// shape is what a lesson is made of, as the page and -check see it: its
// front matter, and its parts in order (prose, and each block's kind, id,
// flags and text).
func shape(l *lesson.Lesson) []string {
	out := []string{fmt.Sprintf("title %q summary %q minutes %d order %d", l.Title, l.Summary, l.Minutes, l.Order)}
	for _, p := range l.Parts() {
		if p.Cell == nil {
			out = append(out, "prose "+p.Prose)
			continue
		}
		attrs := maps.Clone(p.Cell.Attrs)
		delete(attrs, "id")
		out = append(out, fmt.Sprintf("%s %s %v\n%s", p.Cell.Kind, p.Cell.ID, attrs, p.Cell.Source))
	}
	return out
}

// Every lesson, exported as a notebook (as the build writes it, and
// solved), comes back from the import as the same lesson, with no
// problems: the same parts, and the same file but for runs of blank
// lines, which become one.
func TestRoundTrip(t *testing.T) {
	lessons, err := lesson.LoadDir(filepath.Join("..", "..", "..", "site", "lessons"))
	if err != nil {
		t.Fatal(err)
	}
	exercises, quizzes := 0, 0
	for _, l := range lessons {
		for _, c := range l.Cells {
			exercises += map[bool]int{true: 1}[c.Kind == "exercise"]
			quizzes += map[bool]int{true: 1}[c.Kind == "quiz"]
		}
		for _, solved := range []bool{false, true} {
			nb, err := lesson.NotebookOf(l, ipynb.Options{Solved: solved})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := ipynb.Write(&b, nb); err != nil {
				t.Fatal(err)
			}
			back, err := Convert(b.Bytes(), Options{Name: l.Slug + ".ipynb", Order: 99})
			if err != nil {
				t.Fatalf("%s: %v", l.Slug, err)
			}
			if back.Slug != l.Slug {
				t.Errorf("%s: the import's lesson is %s", l.Slug, back.Slug)
			}
			for _, p := range back.Problems {
				t.Errorf("%s: problem at line %d: %s", l.Slug, p.Line, p.Msg)
			}
			got, err := lesson.Parse(l.Slug, back.Markdown)
			if err != nil {
				t.Fatalf("%s: the lesson imported does not parse: %v\n%s", l.Slug, err, back.Markdown)
			}
			file, err := os.ReadFile(l.File)
			if err != nil {
				t.Fatal(err)
			}
			if file = blankRuns.ReplaceAll(file, []byte("\n\n")); !bytes.Equal(file, back.Markdown) {
				t.Errorf("%s (solved %v): the file back differs from the lesson's:\n%s", l.Slug, solved, back.Markdown)
			}
			want, have := shape(l), shape(got)
			if len(want) != len(have) {
				t.Errorf("%s (solved %v): %d parts back, want %d", l.Slug, solved, len(have), len(want))
			}
			for i := range min(len(want), len(have)) {
				if want[i] != have[i] {
					t.Errorf("%s (solved %v): part %d is\n%s\nwant\n%s", l.Slug, solved, i, have[i], want[i])
					break
				}
			}
		}
	}
	if len(lessons) < 5 || exercises == 0 || quizzes == 0 {
		t.Errorf("%d lessons, %d exercises, %d quizzes: the round trip should try them all", len(lessons), exercises, quizzes)
	}
}
