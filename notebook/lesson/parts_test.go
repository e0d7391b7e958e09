package lesson

import (
	"strings"
	"testing"
)

// TestParts splits a lesson into its prose and its cells, in order, with
// nothing lost or repeated: an unclosed block at the end and a cell with
// no code included.
func TestParts(t *testing.T) {
	src := "---\ntitle: T\n---\n# T\n\nFirst *prose*.\n\n```python id=a\nx = 1\n```\nBetween.\n```quiz id=q\nWhy?\n--- choice correct\nYes\n--- feedback\nRight.\n```\n\n```python id=empty\n```\n\nLast.\n\n```python id=open\ny = 2\n"
	l, err := Parse("t", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range l.Parts() {
		if p.Cell != nil {
			got = append(got, "cell "+p.Cell.ID+": "+p.Cell.Source)
		} else {
			got = append(got, "prose: "+p.Prose)
		}
	}
	want := []string{
		"prose: # T\n\nFirst *prose*.",
		"cell a: x = 1",
		"prose: Between.",
		"cell q: Why?\n--- choice correct\nYes\n--- feedback\nRight.",
		"cell empty: ",
		"prose: Last.",
		"cell open: y = 2",
	}
	if strings.Join(got, "\n|") != strings.Join(want, "\n|") {
		t.Errorf("parts:\n%q\nwant\n%q", got, want)
	}
}

// TestPartsOfEveryLesson: every lesson's prose holds no fence of a cell,
// and its cells are all there, in order.
func TestPartsOfEveryLesson(t *testing.T) {
	lessons, err := LoadDir("../../site/lessons")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lessons {
		n := 0
		for _, p := range l.Parts() {
			if p.Cell != nil {
				if p.Cell != l.Cells[n] {
					t.Errorf("%s: part %s is not cell %d", l.Slug, p.Cell.ID, n)
				}
				n++
				continue
			}
			for _, k := range []string{"```python", "```quiz", "```exercise", "```explore"} {
				if strings.Contains(p.Prose, k) {
					t.Errorf("%s: prose holds a cell's fence %s: %.80q", l.Slug, k, p.Prose)
				}
			}
			if strings.HasPrefix(strings.TrimSpace(p.Prose), "```") {
				t.Errorf("%s: prose starts with a closing fence: %.80q", l.Slug, p.Prose)
			}
		}
		if n != len(l.Cells) {
			t.Errorf("%s: %d cells in its parts, %d in the lesson", l.Slug, n, len(l.Cells))
		}
	}
}
