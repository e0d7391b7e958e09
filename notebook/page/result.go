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
	s := Shown{Text: r.Output, State: Passed}
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
// word; a table is a run of two or more rows.
func Pieces(output string) []Piece {
	lines := strings.SplitAfter(output, "\n")
	row := make([]bool, len(lines))
	for i, l := range lines {
		t := strings.TrimSpace(l)
		row[i] = strings.Contains(t, "  ")
	}
	var ps []Piece
	for i := 0; i < len(lines); {
		j := i + 1
		for row[i] && j < len(lines) && row[j] {
			j++
		}
		table := j-i >= 2
		text := strings.Join(lines[i:j], "")
		switch n := len(ps); {
		case text == "":
		case !table && n > 0 && !ps[n-1].Table:
			ps[n-1].Text += text
		default:
			ps = append(ps, Piece{Text: text, Table: table})
		}
		i = j
	}
	return ps
}
