package kernel

import (
	"maps"
	"sync"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// This file defines the one way to run cells: a Session's Run, given a
// Request. The worker's runner, -check, the lesson tests, the exercises'
// checkers and the benchmarks all go through it.

// Session is one learner's run state: the states kept after cells, keyed
// by the sources up to them, so that a cell under unchanged cells starts
// from their kept state instead of running them again (kept.go). A
// Session runs one request at a time. Nothing outlives a Session: two
// Sessions share no state.
type Session struct {
	mu       sync.Mutex
	kept     keptStates
	builtins starlark.StringDict
	newParts func() []Part
}

// NewSession returns an empty Session whose cells see builtins beside
// Starlark's own, and whose chains of cells each get the parts newParts
// makes (nil for none): the state that packages other than this one keep
// from run to run (parts.go). Package notebook's NewSession gives it the
// cell language's.
func NewSession(builtins starlark.StringDict, newParts func() []Part) *Session {
	return &Session{builtins: builtins, newParts: newParts}
}

// Request is one run: the cells up to the one to run, how far it may go,
// and the hooks that see it go.
type Request struct {
	// Cells are the sources, in order; the last is the cell to run, after
	// every cell above it.
	Cells []string
	// All draws the graphs of every cell (Run all); otherwise only the
	// last cell's, and the cells above it, if kept, do not run again.
	All bool
	// Fresh runs every cell, neither using nor keeping any kept state:
	// a check that must not depend on what ran before.
	Fresh bool
	// Quiet records no checks, drawings, plots or printed lines: code run
	// on the learner's behalf (a quiz's given code, a checker's hidden
	// calls), whose globals are what the caller wants.
	Quiet bool
	// Limits bound the run; a zero field takes its default.
	Limits Limits
	// Hooks see the run go; the results hold everything they are told.
	Hooks Hooks
}

// Hooks see a run as it goes, for showing it while it goes on; each may
// be nil. Package runner hands them on from the worker to the page.
type Hooks struct {
	// Line is given each line as a cell prints it (cell is the index in
	// the Request's Cells).
	Line func(cell int, line string)
	// Start is told when each cell begins to run (cell is its index in
	// Cells); the cells above it whose state is kept do not run.
	Start func(cell int)
	// Flush is called every 1,000 steps of the cells' code, so that a
	// caller that holds printed lines back to send them in batches can
	// send them on while a cell computes without printing.
	Flush func()
}

// Limits bound one run, so that no cell can take the page down with it;
// a zero field means the default constant of the same name (limits.go).
type Limits struct {
	Time   time.Duration // CellBudget for each cell
	Depth  int           // MaxDepth open calls
	Heap   uint64        // MaxHeap bytes live
	Values int           // MaxValues made by each cell
	Output int           // MaxOutput bytes sent to the page
}

// withDefaults fills in l's zero fields.
func (l Limits) withDefaults() Limits {
	if l.Time <= 0 {
		l.Time = CellBudget
	}
	if l.Depth <= 0 {
		l.Depth = MaxDepth
	}
	if l.Heap == 0 {
		l.Heap = MaxHeap
	}
	if l.Values <= 0 {
		l.Values = MaxValues
	}
	if l.Output <= 0 {
		l.Output = MaxOutput
	}
	return l
}

// Result is what a run produced: a result per cell of the request, and
// the globals the last cell that ran left.
type Result struct {
	Cells []CellResult
	// Globals are the names the cells bound, with the built-ins, after
	// the last cell that ran (frozen, as every kept state is).
	Globals starlark.StringDict
}

// Last is the result of the request's last cell, the one it asked for.
func (r Result) Last() *CellResult {
	if len(r.Cells) == 0 {
		return &CellResult{}
	}
	return &r.Cells[len(r.Cells)-1]
}

// Run runs req.Cells in order as one program, so that each cell sees the
// globals the cells above it leave, and returns a result for each. A
// result depends only on the sources: what ran before in the session
// only saves time.
func (s *Session) Run(req Request) (out Result) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req.Limits = req.Limits.withDefaults()
	last := len(req.Cells) - 1
	out.Cells = make([]CellResult, len(req.Cells))
	res := out.Cells
	var r *Run
	defer func() {
		// A bug in a built-in must not take the page down: it becomes the
		// error of the cell that was running.
		if p := recover(); p != nil && last >= 0 {
			at := last
			if r != nil && r.current >= 0 && r.current <= last {
				at = r.current
			}
			res[at].Ran = true
			res[at].Err = &CellError{Cell: at, Msg: panicMessage(p, req.Limits)}
			markAbove(res)
			for i := range res {
				capErr(res[i].Err)
			}
		}
	}()
	// A syntax error anywhere stops the run at that cell.
	files := make([]*syntax.File, 0, last+1)
	for i := 0; i <= last; i++ {
		f, err := Parse(cellFile(i), req.Cells[i])
		if err != nil {
			res[i].Ran = true
			res[i].Err = syntaxError(i, req.Cells[i], err)
			break
		}
		files = append(files, f)
	}
	if len(files) > 0 {
		r = newRun(req.Cells[:len(files)], res, req.Limits)
		s.run(r, req, files)
		out.Globals = maps.Clone(r.lin.env)
		delete(out.Globals, setName)
		for k := range dialect {
			delete(out.Globals, k)
		}
	}
	markAbove(res)
	for i := range res {
		capErr(res[i].Err)
	}
	return out
}

// markAbove gives each cell that did not run the error of the cell above
// that stopped it.
func markAbove(res []CellResult) {
	for i := range res {
		if res[i].Ran {
			continue
		}
		for j := i - 1; j >= 0; j-- {
			if e := res[j].Err; e != nil {
				stopper := j
				if e.Above {
					stopper = e.Cell
				}
				res[i].Err = &CellError{Cell: stopper, Above: true}
				break
			}
		}
	}
}
