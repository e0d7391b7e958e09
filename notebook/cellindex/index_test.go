package cellindex

import (
	"strings"
	"testing"
)

func TestIndexRoundTrip(t *testing.T) {
	sc := &Index{Lessons: map[string]Lesson{
		"01-a": {Title: "A <b>", Cells: map[string]string{"x": "x = 1", "y": "print(\"y\")"}, Order: []string{"x", "y"}, Moved: map[string]string{"k": "02-b"}},
		"02-b": {Title: "B", Cells: map[string]string{"j": "j = 1", "k": "k = j"}, Order: []string{"j", "k"}},
	}, Renamed: map[string]string{"00-a": "01-a"}}
	back, err := Parse(sc.JSON())
	if err != nil {
		t.Fatal(err)
	}
	src, above, err := back.Cell("01-a", "y")
	if err != nil || src != `print("y")` || strings.Join(above, "|") != "x = 1" || back.Lessons["01-a"].Title != "A <b>" {
		t.Errorf("Cell = %q %q %v; lesson %+v", src, above, err, back.Lessons["01-a"])
	}
	if _, _, err := back.Cell("01-a", "z"); err == nil || !strings.Contains(err.Error(), `has no cell "z"`) {
		t.Errorf("missing cell: %v", err)
	}
	// A cell that moved to another lesson is found by its old lesson.
	if src, above, err := back.Cell("01-a", "k"); err != nil || src != "k = j" || strings.Join(above, "|") != "j = 1" {
		t.Errorf("moved cell = %q %q %v", src, above, err)
	}
	// A lesson is found by a name it had before, moved cells and all.
	if src, _, err := back.Cell("00-a", "y"); err != nil || src != `print("y")` {
		t.Errorf("by an earlier name: %q %v", src, err)
	}
	if src, _, err := back.Cell("00-a", "k"); err != nil || src != "k = j" {
		t.Errorf("a moved cell by its lesson's earlier name: %q %v", src, err)
	}
	if back.Resolve("00-a") != "01-a" || back.Resolve("02-b") != "02-b" || back.Resolve("nope") != "nope" {
		t.Errorf("Resolve: %q %q %q", back.Resolve("00-a"), back.Resolve("02-b"), back.Resolve("nope"))
	}
	if _, _, err := back.Cell("nope", "x"); err == nil || !strings.Contains(err.Error(), `no lesson "nope"`) {
		t.Errorf("missing lesson: %v", err)
	}
}
