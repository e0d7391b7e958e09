package page

import (
	"errors"
	"fmt"
	"strings"

	"gradbook/notebook/kernel"
	"gradbook/notebook/runner"
)

// Shown is a cell's result as the page shows it: the output's text, the
// cell's state (passed, failed or error) and the line of its own code to
// mark in the editor (0: none).
type Shown struct {
	Text  string
	State string
	Mark  int
}

// The states a cell shows after a run (its data-state).
const (
	Passed  = "passed"  // it ran clean and every check passed
	Failed  = "failed"  // it ran, with failed checks
	Error   = "error"   // it stopped with an error
	Changed = "changed" // the learner changed a lesson's cell, and its checks no longer hold
)

// Show is how a lesson cell, a scratch cell or an exercise shows r; cell
// is the cell's index in its run, so that an error in another cell's
// code (a function defined above) marks no line here.
func Show(r *kernel.CellResult, cell int) Shown {
	return show(r, cell, false)
}

// ShowEdited is Show for a lesson's cell whose code the learner changed:
// its checks are the lesson's, about the lesson's code, so one that no
// longer holds is an experiment's result, not a mistake: "the lesson
// expects −8; yours gives −2".
func ShowEdited(r *kernel.CellResult, cell int) Shown {
	return show(r, cell, true)
}

func show(r *kernel.CellResult, cell int, edited bool) Shown {
	s := Shown{Text: kernel.ClipOutput(r.Output, kernel.MaxOutput), State: Passed}
	switch {
	case r.Err != nil:
		if s.Text != "" && !strings.HasSuffix(s.Text, "\n") {
			s.Text += "\n"
		}
		s.Text += r.Err.Error()
		s.State = Error
		if e := r.Err; !e.Above && e.Where == "" && e.Cell == cell {
			s.Mark = e.Line
		}
	case !r.Passed() && edited:
		s.State = Changed
		for _, c := range r.Checks {
			if !c.Passed && c.Expected != "" {
				s.Text = strings.Replace(s.Text, c.Text, fmt.Sprintf("• %s: the lesson expects %s; yours gives %s", c.Label, c.Expected, c.Actual), 1)
			}
		}
	case !r.Passed():
		s.State = Failed
	}
	if s.Text == "" {
		s.Text = "(ran; nothing printed)"
	}
	return s
}

// Verdict says how a run went, for the page's status line.
func Verdict(r *kernel.CellResult) string {
	switch {
	case r.Err != nil:
		return "stopped with an error"
	case !r.Passed():
		return "ran, with failed checks"
	}
	return "ran"
}

// Outcome is the result of cell k of a job (cell is its index among the
// job's cells), or what to show if the job ended without one: what it
// printed (streamed) and why it ended, after ms.
func Outcome(res runner.Result, k, cell int, err error, streamed string, ms float64) *kernel.CellResult {
	if err == nil && k < len(res.Cells) {
		return &res.Cells[k]
	}
	return &kernel.CellResult{Ran: true, Output: streamed, Err: &kernel.CellError{Cell: cell, Msg: Why(err, ms)}}
}

// Why says why a job that ran for ms gave no result: the learner stopped
// it, or its runner died.
func Why(err error, ms float64) string {
	var died *runner.DiedError
	switch {
	case errors.Is(err, runner.ErrStopped):
		return fmt.Sprintf("stopped after %s, as you asked", Duration(ms))
	case errors.As(err, &died):
		return fmt.Sprintf("the runner stopped (%s) and was started again. Your code is kept: change it, then run it again", died.Why)
	case err != nil:
		return err.Error()
	}
	return "the run gave no result (please report it)"
}

// Duration writes milliseconds for a learner: "42 ms", "3.2 s".
func Duration(ms float64) string {
	if ms < 1000 {
		return fmt.Sprintf("%.0f ms", ms)
	}
	return fmt.Sprintf("%.1f s", ms/1000)
}

// printed is what a running cell or exercise printed so far, as the page
// holds and shows it: never more than a run may print
// (kernel.ClipOutput), whatever the runner sends, and each line costs
// the page the line's own length, not all the text before it. Lines go
// into blocks of at most chunkSize bytes, so that a browser lays out
// only the last block as lines come, not all the text before them.
type printed struct {
	out   Node
	doc   Document
	text  strings.Builder
	full  bool // it ends with the line that says the rest was cut
	chunk Node // the block lines go into now
	in    int  // its bytes
}

// chunkSize is how many bytes of streamed lines a block holds.
const chunkSize = 16 << 10

// reset empties out, to show what a run prints from now on.
func (o *printed) reset() {
	o.text.Reset()
	o.full = false
	o.chunk, o.in = nil, 0
	o.out.SetText("")
}

// add shows a line printed, after those before it. The line that takes
// the text past kernel.MaxOutput is cut on a character and followed by
// the line that says so (a run's own output comes out as it is: its
// runner cut it at the same place); nothing after it is kept.
func (o *printed) add(line string) {
	if o.full {
		return
	}
	s := line + "\n"
	if n := o.text.Len(); n+len(s) > kernel.MaxOutput {
		s = kernel.Truncated(kernel.MaxOutput) + "\n"
		if room := kernel.MaxOutput - 1 - n; room >= 0 {
			s = strings.ToValidUTF8(line[:min(room, len(line))], "") + "\n" + s
		}
		o.full = true
	}
	o.text.WriteString(s)
	if o.chunk == nil || o.in+len(s) > chunkSize {
		o.chunk, o.in = o.doc.Create("span"), 0
		o.chunk.AddClass(classChunk)
		o.out.Append(o.chunk)
	}
	o.in += len(s)
	o.chunk.Append(o.doc.CreateText(s))
}

// String is the text shown.
func (o *printed) String() string { return o.text.String() }

// Piece is a run of a cell's output as the page lays it out: prose
// wraps at the column's edge; a table (lines whose words line up in
// columns, as grad_check prints) keeps its lines whole and scrolls
// sideways instead, so that its columns stay columns on a phone.
type Piece struct {
	Text  string // its lines, each ending in a newline but perhaps the last
	Table bool
}

// Pieces splits output into prose and tables. A line is a table row when
// it has a gap of two or more spaces between its first and its last
// word; a table is a run of two or more rows. Each piece is a stretch of
// output itself, so splitting costs time in proportion to the output's
// length.
func Pieces(output string) []Piece {
	var ps []Piece
	start := 0          // the piece being gathered begins there
	table := false      // and is a table
	rows, first := 0, 0 // rows in a row just before, outside a table, from first
	for at := 0; at < len(output); {
		end := len(output)
		if i := strings.IndexByte(output[at:], '\n'); i >= 0 {
			end = at + i + 1
		}
		row := strings.Contains(strings.TrimSpace(output[at:end]), "  ")
		switch {
		case row && table:
		case row:
			if rows++; rows == 1 {
				first = at
			}
			if rows == 2 { // a second row: a table begins at the first
				if first > start {
					ps = append(ps, Piece{Text: output[start:first]})
				}
				start, table = first, true
			}
		case table:
			ps = append(ps, Piece{Text: output[start:at], Table: true})
			start, table, rows = at, false, 0
		default:
			rows = 0
		}
		at = end
	}
	if len(output) > start {
		ps = append(ps, Piece{Text: output[start:], Table: table})
	}
	return ps
}
