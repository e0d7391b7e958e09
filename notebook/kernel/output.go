package kernel

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"

	"gradbook/internal/words"
)

// This file is a run's output: the lines each cell prints and the checks
// it makes, within the run's cap on what it sends to the page (cap.go),
// and the quiet stretches in which code runs on the learner's behalf and
// records nothing.

// output is what the cells of a run printed and checked.
type output struct {
	lines   []strings.Builder // per cell
	printed int               // bytes printed by the run
	checks  int               // checks made by the run
	quiet   int               // >0 while built-ins evaluate on the learner's behalf
	line    func(cell int, line string)
}

func (o *output) init(cells int) { o.lines = make([]strings.Builder, cells) }

// print writes a line of the cell running now to its output, within the
// run's cap on what it sends to the page, and hands it to Hooks.Line.
// The lines of print() and of check() come here.
func (r *Run) print(msg string) {
	o := &r.out
	if r.current < 0 || o.quiet > 0 {
		return
	}
	o.printed += len(msg) + 1
	switch over := o.printed - r.limits.Output; {
	case over <= 0:
	case over <= len(msg)+1: // the line that crosses the limit
		msg = cutUTF8(msg, len(msg)-over) + "\n" + Truncated(r.limits.Output)
	default:
		return
	}
	o.lines[r.current].WriteString(msg)
	o.lines[r.current].WriteString("\n")
	if o.line != nil {
		o.line(r.current, msg)
	}
}

// Truncated is the last line of a run's output cut at limit bytes.
func Truncated(limit int) string {
	return fmt.Sprintf("… output truncated: a run may print at most %s.", words.Bytes(limit))
}

// OutputBound is the most bytes a run's output can come to when it may
// print limit bytes: the limit, and the line that says it was cut there.
// The page holds no more than that of a run's output, whatever its
// runner sends.
func OutputBound(limit int) int { return limit + len(Truncated(limit)) + 1 }

// ClipOutput is a run's output text as the page shows it when the run
// may print limit bytes: the text itself if it is within OutputBound (a
// run's own output always is), else its first limit bytes, cut on a
// character and ending as a capped run's output does.
func ClipOutput(text string, limit int) string {
	if len(text) <= OutputBound(limit) {
		return text
	}
	return cutUTF8(text, limit-1) + "\n" + Truncated(limit) + "\n"
}

// printAt prints a line in cell, which is running now or called the
// built-in that prints.
func (r *Run) printAt(cell int, line string) {
	cur := r.current
	r.current = cell
	r.print(line)
	r.current = cur
}

// Check records a check of cell (the cell Caller names): its line goes
// out with the printed ones; beyond MaxChecks in a run, only whether it
// passed is kept. A quiet run records none.
func (r *Run) Check(cell int, c CheckResult) {
	if r == nil || r.out.quiet > 0 || cell < 0 || cell >= len(r.res) {
		return
	}
	res := &r.res[cell]
	if r.out.checks++; r.out.checks > MaxChecks {
		res.MoreChecks++
		if !c.Passed {
			res.MoreFailed++
		}
		if r.out.checks == MaxChecks+1 {
			r.printAt(cell, fmt.Sprintf("(More than %d checks in one run: the rest are counted, not shown.)", MaxChecks))
		}
		return
	}
	res.Checks = append(res.Checks, c)
	r.printAt(cell, c.Text)
}

// Quiet reports whether the run records nothing now: code runs on the
// learner's behalf (CallQuietly, Request.Quiet), or no cell is running.
func (r *Run) Quiet() bool { return r == nil || r.out.quiet > 0 || r.current < 0 }

// CallQuietly calls f with args on the learner's behalf: what it prints,
// checks, draws and plots is not the cell's (a function jvp or grad_check
// evaluates).
func (r *Run) CallQuietly(thread *starlark.Thread, f starlark.Callable, args starlark.Tuple) (starlark.Value, error) {
	if r != nil {
		r.out.quiet++
		defer func() { r.out.quiet-- }()
	}
	return starlark.Call(thread, f, args, nil)
}
