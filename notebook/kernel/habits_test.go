package kernel

import (
	"strings"
	"testing"
)

// Habits lists every Python habit of a cell, not only the first its run
// stops at, each at its own line with the hint of TestPythonHabits.
func TestHabits(t *testing.T) {
	src := "import math\nfrom torch import nn\nx = 1\nprint(f\"{x}\")\nclass A:\n    def f(self):\n        return 1\nwith torch.no_grad():\n    y = x ** 2\nassert x == 1\nif x is None:\n    pass\nwhile x < 3:\n    x += 1"
	want := map[int]string{1: "no import", 2: "no import", 4: "no f-strings", 5: "no classes", 8: "no with", 9: "no ** operator", 10: "no assert", 11: "no is operator"}
	got := Habits(src)
	if len(got) != len(want) {
		t.Errorf("%d habits, want %d: %+v", len(got), len(want), got)
	}
	for _, h := range got {
		if w, ok := want[h.Line]; !ok || !strings.Contains(h.Hint, w) || h.Code != strings.Split(src, "\n")[h.Line-1] {
			t.Errorf("line %d %q: %s; want %q", h.Line, h.Code, h.Hint, w)
		}
	}
	if h := Habits("x = 1\nwhile x < 3:\n    x += 1\nprint(\"%s\" % x)"); len(h) != 0 {
		t.Errorf("Starlark code: %+v", h)
	}
}
