package block

import (
	"fmt"
	"strings"

	"gradbook/internal/words"
	"gradbook/notebook"
	"gradbook/notebook/kernel"
	"gradbook/notebook/library"
)

// Test is one hidden test of an exercise, written in the cell language: it
// runs after the learner's code, sees what that code defines, and fails
// when it raises an error (fail("why") says why in the learner's terms) or
// when one of its check() calls fails. Its name says what it tries.
type Test struct {
	Name string
	Code string
	Line int // the --- test line in the block, from 1; 0 if unknown
}

// CheckTests runs the learner's code, then every test after it on a
// fresh run, and reports them all: a report lists each test passed or
// failed, and its Why leads with the most specific failure, a test's own
// fail() message (written for the mistake it recognises) before a check
// that came out wrong.
func CheckTests(source string, tests []Test) Report {
	if why := stopsBefore(source); why != "" {
		return Report{Why: why}
	}
	if names := library.Shadows(source); len(names) > 0 {
		return Report{Why: fmt.Sprintf("Your code defines %s, which %s Gradbook's own: the tests call %s. Give yours %s.",
			words.List(names), words.Plural(len(names), "is", "are"), words.Plural(len(names), "it", "them"), words.Plural(len(names), "another name", "other names"))}
	}
	rep := Report{Passed: true}
	lead, leadAuthored, failed := -1, false, 0
	var whys []string
	for _, t := range tests {
		why, authored := runTest(source, t)
		if why == "" {
			rep.Lines = append(rep.Lines, "✓ "+t.Name)
			continue
		}
		rep.Passed = false
		failed++
		rep.Lines = append(rep.Lines, "✗ "+t.Name)
		whys = append(whys, why)
		if lead < 0 || authored && !leadAuthored {
			lead, leadAuthored = len(whys)-1, authored
			rep.Line = t.Line
		}
	}
	if rep.Passed {
		return rep
	}
	rep.Why = whys[lead]
	if failed > 1 {
		rep.Why += fmt.Sprintf("\n(%d of %d tests fail; this one says most about why.)", failed, len(tests))
	}
	return rep
}

// runTest runs one test after the learner's code and says why it failed,
// or "" if it passed; authored is whether the why is the test's own
// fail() message.
func runTest(source string, t Test) (why string, authored bool) {
	r := notebook.NewSession().Run(kernel.Request{Cells: []string{source, t.Code}, Fresh: true, Limits: kernel.Limits{Time: kernel.CheckBudget}}).Cells[1]
	switch e := r.Err; {
	case e == nil:
	case e.Where != "" || e.Cell == 0:
		// The learner's function failed while the test called it.
		var b strings.Builder
		fmt.Fprintf(&b, "On %s, your code stopped with an error", t.Name)
		if e.Where != "" {
			fmt.Fprintf(&b, " (%s)", e.Where)
		}
		b.WriteString(":\n")
		if e.Code != "" {
			fmt.Fprintf(&b, "    %s\n", strings.TrimSpace(e.Code))
		}
		b.WriteString(e.Msg)
		if e.Hint != "" {
			b.WriteString("\nHint: " + e.Hint)
		}
		return b.String(), false
	default:
		if msg, authored := strings.CutPrefix(e.Msg, "fail: "); authored {
			return msg, true
		}
		return fmt.Sprintf("On %s: %s", t.Name, e.Msg), false
	}
	for _, c := range r.Checks {
		if !c.Passed {
			return fmt.Sprintf("On %s: %s", t.Name, strings.TrimPrefix(c.Text, "✗ ")), false
		}
	}
	return "", false
}
