package kernel

import (
	"fmt"
	"strings"

	"gradbook/notebook/draw"
	"gradbook/notebook/plot"
)

// CellResult is what running one cell produced.
type CellResult struct {
	Ran      bool   // false if the cell did not run (an error above it)
	Output   string // what it printed, check lines included
	Checks   []CheckResult
	Drawings []*draw.Drawing
	Plots    []*plot.Plot
	Err      *CellError // nil if it ran clean
	// MoreChecks counts the checks of a run beyond MaxChecks, and
	// MoreFailed those of them that failed: they are not in Checks.
	MoreChecks, MoreFailed int
	// MS is how long the cell's own code ran, in milliseconds (0 for a
	// cell whose kept state was used).
	MS float64
	// Above says, for a cell run alone, which cells above it ran first
	// and why their kept state was not used ("cells 1–11 ran first: …"),
	// or is empty when it ran from the kept state of the cells above.
	Above string
}

// Passed reports whether the cell ran clean and every check passed.
func (r *CellResult) Passed() bool {
	if !r.Ran || r.Err != nil || r.MoreFailed > 0 {
		return false
	}
	for _, c := range r.Checks {
		if !c.Passed {
			return false
		}
	}
	return true
}

// CheckResult is one check a cell made: a call of check(), or of cmp().
type CheckResult struct {
	Label  string
	Passed bool
	Text   string // the line the check printed
	Line   int    // the line of the check in its cell, from 1; 0 if unknown
	// Expected and Actual are the two values, as check shows them.
	Expected, Actual string
}

// CellError is an error in a cell, placed the way Python places one.
type CellError struct {
	Cell int    // the cell that failed (0-based)
	Line int    // line within the cell (1-based), 0 if unknown
	Code string // the text of that line
	Msg  string // what went wrong, one line
	Hint string // for a Python habit Starlark lacks: the Starlark way
	// Where names the place inside a function defined elsewhere, when the
	// failing line is not in the cell that ran.
	Where string
	// Above is set when the cell did not run because cell Cell above it
	// failed.
	Above bool
	// Stop is why the run was stopped, when a limit stopped it; 0 when
	// its code failed by itself.
	Stop Reason
}

// Brief is the error on one line, for an author's code that is not a
// cell on the page (a quiz's given code): "line 3: undefined: x".
func (e *CellError) Brief() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// Unwrap returns why the run was stopped, if a limit stopped it, for
// errors.Is.
func (e *CellError) Unwrap() error {
	if e.Stop == 0 {
		return nil
	}
	return e.Stop
}

// Error formats e like a Python traceback's last lines.
func (e *CellError) Error() string {
	if e.Above {
		return fmt.Sprintf("not run: cell %d above has an error; fix it first", e.Cell+1)
	}
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "cell %d, line %d", e.Cell+1, e.Line)
	} else {
		fmt.Fprintf(&b, "cell %d", e.Cell+1)
	}
	if e.Where != "" {
		fmt.Fprintf(&b, " (%s)", e.Where)
	}
	b.WriteString("\n")
	if e.Code != "" {
		fmt.Fprintf(&b, "    %s\n", strings.TrimSpace(e.Code))
	}
	fmt.Fprintf(&b, "Error: %s", e.Msg)
	if e.Hint != "" {
		fmt.Fprintf(&b, "\nHint: %s", e.Hint)
	}
	return b.String()
}
