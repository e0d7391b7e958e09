package block

import (
	"fmt"
	"strings"

	"gradbook/internal/words"
	"gradbook/notebook"
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

// CheckTests runs the learner's code, then each test after it on a fresh
// run, and reports them up to the first failure.
func CheckTests(source string, tests []Test) Report {
	if why := stopsBefore(source); why != "" {
		return Report{Why: why}
	}
	if names := notebook.Shadows(source); len(names) > 0 {
		return Report{Why: fmt.Sprintf("Your code defines %s, which %s Gradbook's own: the tests call %s. Give yours %s.",
			words.List(names), words.Plural(len(names), "is", "are"), words.Plural(len(names), "it", "them"), words.Plural(len(names), "another name", "other names"))}
	}
	rep := judge(tests, func(t Test) (string, string) { return t.Name, runTest(source, t) })
	if !rep.Passed && len(rep.Lines) > 0 {
		rep.Line = tests[len(rep.Lines)-1].Line
	}
	return rep
}

// runTest runs one test after the learner's code and says why it failed,
// or "" if it passed.
func runTest(source string, t Test) string {
	r := notebook.NewSession().Run(notebook.Request{Cells: []string{source, t.Code}, Fresh: true, Limits: notebook.Limits{Time: notebook.CheckBudget}}).Cells[1]
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
		return b.String()
	default:
		msg, authored := strings.CutPrefix(e.Msg, "fail: ")
		if authored {
			return msg
		}
		return fmt.Sprintf("On %s: %s", t.Name, msg)
	}
	for _, c := range r.Checks {
		if !c.Passed {
			return fmt.Sprintf("On %s: %s", t.Name, strings.TrimPrefix(c.Text, "✗ "))
		}
	}
	return ""
}
