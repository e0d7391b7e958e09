package runner

import (
	"slices"
	"strings"
	"testing"

	"gradbook/notebook/kernel"
)

func TestCells(t *testing.T) {
	var lines []string
	r := New().Do(Job{Cells: []string{"x = 6", "print(x * 7)"}}, kernel.Hooks{Line: func(cell int, line string) {
		lines = append(lines, line)
	}})
	if len(r.Cells) != 1 || r.Cells[0].Output != "42\n" || r.Cells[0].Err != nil {
		t.Fatalf("result %+v", r.Cells)
	}
	if len(lines) != 1 || lines[0] != "42" {
		t.Errorf("streamed %q", lines)
	}
	if r := New().Do(Job{Cells: []string{"x = 6", "print(x * 7)"}, All: true}, kernel.Hooks{}); len(r.Cells) != 2 {
		t.Errorf("Run all gave %d results", len(r.Cells))
	}
}

// A cell that prints, then computes without printing: flush is called
// all along the computation, so that the line can be sent on meanwhile.
func TestFlushWhileComputing(t *testing.T) {
	var events []string
	New().Do(Job{Cells: []string{"print('started')\nn = 0\nfor i in range(100000):\n    n += 1\nprint('done')"}}, kernel.Hooks{
		Line:  func(_ int, line string) { events = append(events, line) },
		Flush: func() { events = append(events, "flush") },
	})
	flushes := 0
	for i, e := range events {
		switch e {
		case "flush":
			flushes++
		case "done":
			if flushes < 100 {
				t.Errorf("%d flushes between the two lines, want one every 1,000 steps", flushes)
			}
		case "started":
			if i != 0 || flushes != 0 {
				t.Errorf("started came after %d flushes", flushes)
			}
		}
	}
	if !slices.Contains(events, "done") {
		t.Errorf("no line done among %d events", len(events))
	}
}

func TestCheck(t *testing.T) {
	r := New().Do(Job{Check: "backward", Source: "def backward(graph, values, out):\n    return {}"}, kernel.Hooks{})
	if r.Report == nil || r.Report.Passed || r.Report.Why == "" {
		t.Fatalf("report %+v", r.Report)
	}
	r = New().Do(Job{Check: "nope"}, kernel.Hooks{})
	if r.Report == nil || !strings.Contains(r.Report.Why, `no checker called "nope"`) {
		t.Errorf("report %+v", r.Report)
	}
}
