package runner

import (
	"strings"
	"testing"
)

func TestCells(t *testing.T) {
	var lines []string
	r := Do(Job{Cells: []string{"x = 6", "print(x * 7)"}}, func(cell int, line string) {
		lines = append(lines, line)
	})
	if len(r.Cells) != 1 || r.Cells[0].Output != "42\n" || r.Cells[0].Err != nil {
		t.Fatalf("result %+v", r.Cells)
	}
	if len(lines) != 1 || lines[0] != "42" {
		t.Errorf("streamed %q", lines)
	}
	if r := Do(Job{Cells: []string{"x = 6", "print(x * 7)"}, All: true}, nil); len(r.Cells) != 2 {
		t.Errorf("Run all gave %d results", len(r.Cells))
	}
}

func TestCheck(t *testing.T) {
	r := Do(Job{Check: "backward", Source: "def backward(graph, values, out):\n    return {}"}, nil)
	if r.Report == nil || r.Report.Passed || r.Report.Why == "" {
		t.Fatalf("report %+v", r.Report)
	}
	r = Do(Job{Check: "nope"}, nil)
	if r.Report == nil || !strings.Contains(r.Report.Why, `no checker called "nope"`) {
		t.Errorf("report %+v", r.Report)
	}
}
