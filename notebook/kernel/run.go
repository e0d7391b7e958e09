package kernel

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"gradbook/internal/words"
	"gradbook/notebook/plot"
)

// fileOptions are the Starlark dialect of cells: Python-like, with while
// loops, top-level control flow, global reassignment and recursion.
var fileOptions = &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true, Recursion: true}

// Run is a run going on: the built-ins reach it from their thread with
// RunOf, and use its few methods to print and check (output.go), to
// count Values and say what a cell draws (graphs.go), to add plots
// (plots.go), to stop the run, and to read the learner's line. Its state
// has an owner per concern; the state of other packages that lives from
// run to run is in their Parts (parts.go).
type Run struct {
	cells   []string
	current int // the cell running now, -1 between cells
	res     []CellResult
	limits  Limits
	start   time.Time // when the current cell's code began: Limits.Time counts from here
	thread  *starlark.Thread
	lin     *lineage
	bound   map[string]int // the cell that binds each global first
	stopped stopped
	out     output
	graphs  graphs
	plots   [][]*plot.Plot // per cell
}

// stopped is why the run was stopped, if a limit fired (stop.go), and
// where.
type stopped struct {
	why Reason
	at  starlark.CallStack
}

// localKey is the thread-local name under which a thread carries its Run.
const localKey = "gradbook/notebook/kernel.Run"

// RunOf returns the run that thread runs, or nil outside a run (an
// author's expression on a thread from NewThread). Every method of Run
// does what it can for a nil Run: nothing, mostly.
func RunOf(thread *starlark.Thread) *Run {
	r, _ := thread.Local(localKey).(*Run)
	return r
}

func newRun(cells []string, res []CellResult, l Limits) *Run {
	r := &Run{cells: cells, res: res, current: -1, limits: l, plots: make([][]*plot.Plot, len(cells))}
	r.out.init(len(cells))
	r.graphs.init(len(cells))
	return r
}

// Globals returns the globals of the cells, as they are now: the built-ins
// and every name a cell bound.
func (r *Run) Globals() starlark.StringDict {
	if r == nil {
		return nil
	}
	return r.lin.env
}

// Stop stops the run for why, noting where the learner's code is, and
// returns the error that the built-in calling it returns: a limit that a
// built-in counts fires this way (Limits.Values).
func (r *Run) Stop(why Reason) error {
	if r.stopped.why == 0 {
		r.stopped = stopped{why, r.thread.CallStack()}
	}
	return &stopError{why, stopMessage(why, r.limits)}
}

// Afford is how a built-in's long computation (a matrix product, the
// passes of a Jacobian) keeps to the run's time, which the run cannot
// check while the built-in computes: asked before each piece of the
// computation whether work more steps of it can be done, at about rate
// steps a second (at best), it returns nil while they can; once the run's
// time is up, the error that stops the run for it (ErrTooLong), as if
// the cell's code had run that long; and when the work cannot finish in
// the time left even at that rate, an error saying so (which also
// matches ErrTooLong), so that what cannot finish is refused up front.
// what names the steps for the learner: "multiply-adds".
func (r *Run) Afford(work, rate float64, what string) error {
	if r == nil {
		return nil
	}
	left := r.limits.Time - time.Since(r.start)
	if left <= 0 {
		return r.Stop(ErrTooLong)
	}
	if need := time.Duration(work / rate * float64(time.Second)); need > left {
		return &stopError{ErrTooLong, fmt.Sprintf("too long to compute: this needs about %s %s, which take at least %s, and the cell has %s left of its %s", words.Int(int(work)), what, seconds(need.Round(100*time.Millisecond)), seconds(left.Round(100*time.Millisecond)), seconds(r.limits.Time))}
	}
	return nil
}

// halt stops the run for why, noting where it was: every limit that
// fires while Starlark runs comes here.
func (r *Run) halt(th *starlark.Thread, why Reason) {
	if r.stopped.why == 0 {
		r.stopped = stopped{why, th.CallStack()}
	}
	th.Cancel(stopMessage(why, r.limits))
}

// panicMessage is what a cell shows for a panic under it: the memory
// limit for an allocation larger than the address space, and otherwise a
// bug in Gradbook.
func panicMessage(r any, l Limits) string {
	if tooLarge(r) {
		return stopMessage(ErrTooMuchMemory, l)
	}
	return fmt.Sprintf("internal error in Gradbook: %v (please report it)", r)
}

// cellFile is the file name of cell i in positions and call stacks.
func cellFile(i int) string { return fmt.Sprintf("cell %d", i+1) }

// cellOf returns the cell of a position in learner code.
func cellOf(pos syntax.Position) (int, bool) {
	s, ok := strings.CutPrefix(pos.Filename(), "cell ")
	n, err := strconv.Atoi(s)
	if !ok || err != nil || n < 1 {
		return 0, false
	}
	return n - 1, true
}

// run runs the cells of r, each after the state the cells above it
// leave: from the longest run of cells above that is kept, if any
// (kept.go).
func (s *Session) run(r *Run, req Request, files []*syntax.File) {
	cells, res := r.cells, r.res
	if req.Quiet {
		r.out.quiet = 1
	}
	var snap *snapshot
	if !req.Fresh {
		upTo := len(cells)
		if !req.All {
			upTo-- // run the cell itself: it prints, and its drawings are fresh
		}
		// Run all shows every cell's drawings: a state kept from a run that
		// did not draw a cell above is not used.
		snap = s.kept.longest(cells, upTo, req.All)
	}
	drawn := make([]bool, len(cells)) // each cell's result holds its drawings
	start, why := 0, ""
	if snap != nil {
		if err := snap.restore(); err != nil {
			// What the state kept without checking a copy has changed
			// since: run the cells above again, and say why.
			s.kept.drop(snap)
			why = err.Error()
			snap = nil
		}
	}
	if snap != nil {
		start = len(snap.srcs)
		r.lin = snap.lin
		copy(res, snap.res)
		copy(drawn, snap.drawn)
	} else {
		if overHeap(r.limits.Heap) {
			s.kept.forget() // what earlier runs kept must not crowd out this one
		}
		r.lin = s.newLineage()
	}
	for _, p := range r.lin.parts {
		p.SetRun(r)
	}
	defer func() {
		for _, p := range r.lin.parts {
			p.SetRun(nil)
		}
	}()
	r.bound = map[string]int{}
	for i, f := range files {
		for _, n := range BoundNames(f) {
			if _, ok := r.bound[n]; !ok {
				r.bound[n] = i
			}
		}
	}
	r.out.line = req.Hooks.Line
	r.start = time.Now()
	thread := limitedThread("notebook", r.limits, func() time.Time { return r.start }, r.print, r.halt)
	if flush := req.Hooks.Flush; flush != nil {
		limits := thread.OnMaxSteps
		thread.OnMaxSteps = func(th *starlark.Thread) {
			limits(th)
			flush()
		}
	}
	thread.SetLocal(localKey, r)
	r.thread = thread
	env := r.lin.env
	isPredeclared := func(name string) bool {
		_, bound := r.bound[name]
		return bound || env.Has(name)
	}
	for i := start; i < len(cells); i++ {
		r.current = i
		r.graphs.made = 0 // Limits.Values is per cell, and so is Limits.Time
		res[i] = CellResult{Ran: true}
		began := time.Now()
		r.start = began
		if req.Hooks.Start != nil {
			req.Hooks.Start(i)
		}
		assigned := assignedNames(files[i])
		rewrite(files[i])
		prog, err := starlark.FileProgram(files[i], isPredeclared)
		if err != nil {
			res[i].Err = r.compileError(i, err)
			break
		}
		_, err = prog.Init(thread, env)
		if err != nil {
			res[i].Err = r.runtimeError(i, err)
		}
		for _, p := range r.lin.parts {
			p.CellDone(i, assigned)
		}
		res[i].Plots = r.plots[i]
		res[i].MS = float64(time.Since(began).Microseconds()) / 1000
		if req.All || i == len(cells)-1 {
			r.drawCell(i)
		}
		res[i].Output = r.out.lines[i].String()
		if err == nil && overHeap(r.limits.Heap) {
			// One statement can make more than the limit between two
			// checks of the running code: say so, and keep none of it.
			s.kept.forget()
			clear(env)
			res[i].Err = &CellError{Cell: i, Msg: stopMessage(ErrTooMuchMemory, r.limits), Stop: ErrTooMuchMemory}
			break
		}
		if err != nil {
			break
		}
		// Kept or not, a cell's globals freeze when it ends, so that a
		// check (-check, the lesson tests) sees what the page does.
		var nested *nestedError
		if !req.Fresh {
			drawn[i] = req.All || i == len(cells)-1
			var snap *snapshot
			if snap, nested = take(r.lin, cells[:i+1], res[:i+1], drawn[:i+1]); nested == nil {
				s.kept.put(snap)
			}
		} else {
			_, nested = freeze(r.lin)
		}
		if nested != nil {
			// Nothing may walk it again: not kept, not in the globals.
			delete(env, nested.name)
			e := &CellError{Cell: i, Msg: nested.msg}
			if e.Line = bindingLine(files[i], nested.name); e.Line > 0 {
				e.Code = lineOf(cells[i], e.Line)
			}
			res[i].Err = e
			break
		}
	}
	r.current = -1
	if !req.Fresh && !req.All && !req.Quiet && len(cells) > 1 && start < len(cells)-1 {
		res[len(cells)-1].Above = above(start, len(cells)-1, why, s.kept.wasDropped(cells))
	}
}

// above says which cells above the one asked for ran, from cell start
// (from 0) to the one above it, and why their kept state was not used:
// why, or dropped (for its size), or else that nothing was kept yet.
func above(start, last int, why string, dropped bool) string {
	which, them, their := fmt.Sprintf("cells %d–%d", start+1, last), "them", "their"
	if start+1 == last {
		which, them, their = fmt.Sprintf("cell %d", last), "it", "its"
	}
	switch {
	case why != "":
		return which + " ran first: " + why
	case dropped:
		return fmt.Sprintf("%s ran first: %s kept state was dropped, as a session keeps at most %s numbers", which, their, words.Int(maxSaved))
	}
	return fmt.Sprintf("%s ran first, as no state after %s is kept yet", which, them)
}

// compileError places an error found before a cell ran (resolving
// names).
func (r *Run) compileError(cell int, err error) *CellError {
	e := &CellError{Cell: cell, Msg: err.Error()}
	var se syntax.Error
	var list resolve.ErrorList
	switch {
	case errors.As(err, &list) && len(list) > 0:
		se = syntax.Error(list[0])
	case errors.As(err, &se):
	default:
		return e
	}
	e.Line = int(se.Pos.Line)
	e.Code = lineOf(r.cells[cell], e.Line)
	e.Msg = se.Msg
	e.Hint = hint(e.Code, e.Msg, int(se.Pos.Col))
	return e
}

// runtimeError places an error that stopped cell ran, in the learner's
// code, and says it in a learner's words.
func (r *Run) runtimeError(ran int, err error) *CellError {
	e := &CellError{Cell: ran, Msg: err.Error()}
	col, innermost := 0, false
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		e.Msg = ee.Msg
		stack := ee.CallStack
		if r.stopped.at != nil {
			stack = r.stopped.at
		}
		// The innermost frame in the learner's code places the error.
		for i := len(stack) - 1; i >= 0; i-- {
			f := stack[i]
			cell, ok := cellOf(f.Pos)
			if !ok || cell >= len(r.cells) {
				continue
			}
			e.Line, col = int(f.Pos.Line), int(f.Pos.Col)
			e.Code = lineOf(r.cells[cell], e.Line)
			innermost = i == len(stack)-1 && cell == ran
			if cell != ran {
				e.Where = fmt.Sprintf("in %s, defined in cell %d", f.Name, cell+1)
			}
			break
		}
	}
	// A limit that fired says why itself: the reason is a value, whatever
	// Starlark made of the message on its way out.
	var stopped *stopError
	switch {
	case r.stopped.why != 0:
		e.Stop, e.Msg = r.stopped.why, stopMessage(r.stopped.why, r.limits)
	case errors.As(err, &stopped):
		e.Stop, e.Msg = stopped.why, stopped.msg
	}
	if name, ok := uninitialized(e.Msg); ok {
		switch at, ok := r.bound[name]; {
		case ok && at > ran:
			e.Msg = fmt.Sprintf("%s is not defined yet: cell %d, below this one, assigns it", name, at+1)
		case ok && at == ran:
			e.Msg = fmt.Sprintf("%s is used before this cell assigns it", name)
		default:
			e.Msg = fmt.Sprintf("%s is not defined: the cell that assigns it stopped before it did", name)
		}
	}
	if frozenMutation(e.Msg) {
		e.Msg += " (a cell cannot change a list or dict that a cell above made, so that every run gives the same result: make a copy, such as xs = list(xs), and change that)"
	}
	if e.Stop == ErrTooLong && (e.Line < 1 || e.Where != "" || innermost && e.Line < loopLine(r.cells[ran])) {
		// Starlark does not keep the position of every instruction: a
		// loop's test takes the position of the code before it, which
		// runs once and calls nothing. Name the loop that was running.
		if line := loopLine(r.cells[ran]); line > 0 {
			e.Line, e.Code, e.Where = line, lineOf(r.cells[ran], line), ""
		}
	}
	e.Hint = hint(e.Code, e.Msg, col)
	return e
}

// loopLine returns the line of the first loop in src, or 0.
func loopLine(src string) int {
	for i, l := range strings.Split(src, "\n") {
		if f := strings.Fields(l); len(f) > 0 && (f[0] == "while" || f[0] == "for") {
			return i + 1
		}
	}
	return 0
}

// syntaxError places an error the parser found in cell, and says it in
// plain words where it can.
func syntaxError(cell int, src string, err error) *CellError {
	e := &CellError{Cell: cell, Msg: err.Error()}
	var se syntax.Error
	col := 0
	if errors.As(err, &se) {
		e.Line, e.Msg, col = int(se.Pos.Line), se.Msg, int(se.Pos.Col)
	}
	var errs interface{ Unwrap() []error }
	if errors.As(err, &errs) && len(errs.Unwrap()) > 0 {
		if errors.As(errs.Unwrap()[0], &se) {
			e.Line, e.Msg, col = int(se.Pos.Line), se.Msg, int(se.Pos.Col)
		}
	}
	e.Code = lineOf(src, e.Line)
	e.Hint = hint(e.Code, e.Msg, col)
	if e.Hint == "" {
		e.Msg, e.Line = plainSyntax(e.Msg, src, e.Line, col)
		e.Code = lineOf(src, e.Line)
	}
	if e.Hint == "" {
		// A statement Starlark lacks (class, import, try) may be on a line
		// above the one the parser tripped on.
		for i, l := range strings.Split(src, "\n") {
			if e.Line > 0 && i+1 > e.Line {
				break
			}
			if h := lineHint(l); h != "" {
				e.Hint = h
				if e.Line == 0 {
					e.Line, e.Code = i+1, l
				}
				break
			}
		}
	}
	return e
}

func lineOf(src string, line int) string {
	lines := strings.Split(src, "\n")
	if line < 1 || line > len(lines) {
		return ""
	}
	return lines[line-1]
}

// Here returns the line of the learner's code running now, and its cell:
// for a built-in that is not given its thread (a Value's operators).
func (r *Run) Here() (cell int, code string) {
	if r == nil {
		return -1, ""
	}
	if r.thread == nil {
		return r.current, ""
	}
	for d := 0; d < r.thread.CallStackDepth(); d++ {
		f := r.thread.CallFrame(d)
		if c, ok := cellOf(f.Pos); ok && c < len(r.cells) {
			return c, lineOf(r.cells[c], int(f.Pos.Line))
		}
	}
	return r.current, ""
}

// Caller returns the code of the learner's line that is calling a
// built-in on thread, from the call on, the cell that is running, and
// the line of the call in that cell, when the call is in the running
// cell itself (0 otherwise). Outside a run the cell is -1.
func (r *Run) Caller(thread *starlark.Thread) (cell int, code string, line int) {
	if r == nil {
		return -1, "", 0
	}
	for d := 1; d < thread.CallStackDepth(); d++ {
		f := thread.CallFrame(d)
		if c, ok := cellOf(f.Pos); ok && c < len(r.cells) {
			src := lineOf(r.cells[c], int(f.Pos.Line))
			if c == r.current {
				line = int(f.Pos.Line)
			}
			col := int(f.Pos.Col) - 1
			if col >= 0 && col < len(src) {
				return r.current, src[col:], line
			}
			return r.current, src, line
		}
	}
	return r.current, "", 0
}
