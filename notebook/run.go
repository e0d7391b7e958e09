package notebook

import (
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"

	"go.starlark.net/lib/math"
	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"gradbook/engine"
	"gradbook/notebook/draw"
	"gradbook/notebook/plot"
)

// fileOptions are the Starlark dialect of cells: Python-like, with while
// loops, top-level control flow, global reassignment and recursion.
var fileOptions = &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true, Recursion: true}

// CellResult is what running one cell produced.
type CellResult struct {
	Ran      bool   // false if the cell did not run (an error above it)
	Output   string // what it printed, check lines included
	Checks   []CheckResult
	Drawings []*draw.Drawing
	Plots    []*plot.Plot
	Err      *CellError // nil if it ran clean
}

// Passed reports whether the cell ran clean and every check passed.
func (r *CellResult) Passed() bool {
	if !r.Ran || r.Err != nil {
		return false
	}
	for _, c := range r.Checks {
		if !c.Passed {
			return false
		}
	}
	return true
}

// CheckResult is one call of check().
type CheckResult struct {
	Label  string
	Passed bool
	Text   string // the line check printed
	Line   int    // the line of the check in its cell, from 1; 0 if unknown
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

// Run runs cells[0] to cells[last] in order as one program, so that each
// cell sees the globals the cells above it leave, and returns a result for
// each of them. Nothing carries over from an earlier Run: results depend
// only on the sources.
func Run(cells []string, last int) (res []CellResult) {
	return Options{All: true}.Run(cells, last)
}

// RunOne is Run for showing one cell: it runs the cells above cells[i] and
// the cell itself, and returns the cell's result only, drawing just its
// graphs.
func RunOne(cells []string, i int) CellResult {
	res := Options{}.Run(cells, i)
	if len(res) == 0 {
		return CellResult{}
	}
	return res[len(res)-1]
}

// Options say how a run goes.
type Options struct {
	// All draws the graphs of every cell; otherwise only the last cell's.
	All bool
	// Budget is how long the run may take; 0 means CellBudget.
	Budget time.Duration
	// Print, if not nil, is given each line as a cell prints it (cell is
	// the index in cells), for showing output while the run goes on. The
	// results hold every line too.
	Print func(cell int, line string)
	// Flush, if not nil, is called every 1,000 steps of the cells' code,
	// so that a caller that holds printed lines back to send them in
	// batches can send them on while a cell computes without printing.
	Flush func()
	// NoCache runs every cell, neither using nor keeping the state after
	// each (cache.go).
	NoCache bool
}

// Run runs cells[0] to cells[last] as Run does, the way o says.
func (o Options) Run(cells []string, last int) (res []CellResult) {
	if o.Budget <= 0 {
		o.Budget = CellBudget
	}
	last = min(last, len(cells)-1)
	res = make([]CellResult, last+1)
	var st *runState
	defer func() {
		// A bug in a built-in must not take the page down: it becomes the
		// error of the cell that was running.
		if r := recover(); r != nil && last >= 0 {
			at := last
			if st != nil && st.current >= 0 && st.current <= last {
				at = st.current
			}
			res[at].Ran = true
			res[at].Err = &CellError{Cell: at, Msg: panicMessage(r)}
		}
	}()
	// A syntax error anywhere stops the run at that cell.
	files := make([]*syntax.File, 0, last+1)
	for i := 0; i <= last; i++ {
		f, err := fileOptions.Parse(cellFile(i), cells[i], 0)
		if err != nil {
			res[i].Ran = true
			res[i].Err = syntaxError(i, cells[i], err)
			break
		}
		files = append(files, f)
	}
	if len(files) > 0 {
		st = run(cells[:len(files)], files, res, o)
	}
	for i := range res {
		if !res[i].Ran {
			for j := i - 1; j >= 0; j-- {
				if res[j].Err != nil {
					res[i].Err = &CellError{Cell: j, Above: true}
					break
				}
			}
		}
	}
	return res
}

// runState is what built-ins record during one run.
type runState struct {
	cells   []string
	current int // the cell running now
	res     []CellResult
	out     []strings.Builder
	last    []*target      // per cell: the last graph it built
	shown   [][]*target    // per cell: what it asked show() to draw
	plots   [][]*plot.Plot // per cell: its plots
	quiet   int            // >0 while built-ins evaluate on the learner's behalf
	// stoppedAt is where a run that went over a limit was stopped.
	stoppedAt starlark.CallStack
	printed   int // bytes printed by the run
	values    int // Values made by the run
	thread    *starlark.Thread
	lin       *lineage
	rec       *recording // the trace recording now, if any
	bound     map[string]int
}

// target is something to draw: the expression behind a Value, or a
// compiled graph with the value of every slot and the output whose
// gradients to show ("" for values only).
type target struct {
	root *engine.Value
	tape *engine.Tape
	vals []float64
	out  string
}

func state(thread *starlark.Thread) *runState {
	st, _ := thread.Local("notebook").(*runState)
	return st
}

// built records t as the current cell's latest graph.
func (st *runState) built(t *target) {
	if st == nil || st.quiet > 0 || st.current < 0 {
		return
	}
	st.last[st.current] = t
}

func newRunState(cells []string, res []CellResult) *runState {
	return &runState{
		cells: cells, res: res, current: -1,
		out:   make([]strings.Builder, len(cells)),
		last:  make([]*target, len(cells)),
		shown: make([][]*target, len(cells)),
		plots: make([][]*plot.Plot, len(cells)),
	}
}

// panicMessage is what a cell shows for a panic under it. A list larger
// than the address space (in the browser, [0] * 300000000 asks for 4.8 GB
// at once) is the memory limit, met in one statement; anything else is a
// bug in Gradbook.
func panicMessage(r any) string {
	if e, ok := r.(runtime.Error); ok && (strings.Contains(e.Error(), "len out of range") || strings.Contains(e.Error(), "cap out of range")) {
		return heapMessage()
	}
	return fmt.Sprintf("internal error in Gradbook: %v (please report it)", r)
}

// uninitialized reads the name in Starlark's error for a global used
// before the cell that assigns it has run.
func uninitialized(msg string) (name string, ok bool) {
	name, ok = strings.CutPrefix(msg, "internal error: predeclared variable ")
	if ok {
		name, ok = strings.CutSuffix(name, " is uninitialized")
	}
	return name, ok && name != "" && !strings.ContainsRune(name, ' ')
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

// run runs the cells, each after the state the cells above it leave:
// from the longest run of cells above that is kept, if any (cache.go).
func run(cells []string, files []*syntax.File, res []CellResult, o Options) *runState {
	st := newRunState(cells, res)
	var kept []*snapshot
	if !o.NoCache {
		kept = cache.prefix(cells)
		if len(kept) == len(cells) && !o.All {
			kept = kept[:len(kept)-1] // run the cell itself: it prints, and its drawings are fresh
		}
	}
	start := len(kept)
	names := map[*engine.Value]string{}
	if start > 0 {
		snap := kept[start-1]
		st.lin = snap.lin
		snap.restore()
		for i, k := range kept {
			res[i] = k.res
			for v, n := range k.names {
				names[v] = n
			}
		}
	} else {
		if overHeap() {
			Forget() // what earlier runs kept must not crowd out this one
		}
		st.lin = newLineage()
	}
	prev := st.lin.cur
	st.lin.cur = st
	defer func() { st.lin.cur = prev }()
	st.bound = map[string]int{}
	for i, f := range files {
		for _, n := range boundNames(f) {
			if _, ok := st.bound[n]; !ok {
				st.bound[n] = i
			}
		}
	}
	print := func(msg string) {
		if st.current < 0 || st.quiet > 0 {
			return
		}
		st.printed += len(msg) + 1
		switch over := st.printed - MaxOutput; {
		case over <= 0:
			st.out[st.current].WriteString(msg)
			st.out[st.current].WriteString("\n")
			if o.Print != nil {
				o.Print(st.current, msg)
			}
		case over <= len(msg)+1: // the line that crosses the limit
			cut := msg[:max(0, len(msg)-over)] + fmt.Sprintf("\n… output truncated: a run may print at most %d MB.", MaxOutput>>20)
			st.out[st.current].WriteString(cut + "\n")
			if o.Print != nil {
				o.Print(st.current, cut)
			}
		}
	}
	why := fmt.Sprintf("stopped after %s: the cell ran too long (an endless loop?)", seconds(o.Budget))
	thread := NewThread("notebook", o.Budget, print, why, func(th *starlark.Thread) { st.stoppedAt = th.CallStack() })
	if o.Flush != nil {
		limits := thread.OnMaxSteps
		thread.OnMaxSteps = func(th *starlark.Thread) {
			limits(th)
			o.Flush()
		}
	}
	thread.SetLocal("notebook", st)
	st.thread = thread
	env := st.lin.env
	isPredeclared := func(name string) bool {
		_, bound := st.bound[name]
		return bound || env.Has(name)
	}
	for i := start; i < len(cells); i++ {
		st.current = i
		res[i] = CellResult{Ran: true}
		assigned := assignedNames(files[i])
		rewrite(files[i])
		prog, err := starlark.FileProgram(files[i], isPredeclared)
		if err != nil {
			res[i].Err = st.compileError(i, err)
			break
		}
		_, err = prog.Init(thread, env)
		if err != nil {
			res[i].Err = st.runtimeError(i, err)
		}
		mine := map[*engine.Value]string{}
		for _, n := range assigned {
			if v, ok := env[n].(*Value); ok && v.v.Label == "" {
				mine[v.v] = n
				names[v.v] = n
			}
		}
		res[i].Plots = st.plots[i]
		st.drawCell(i, names) // and the cell's output, its notes included
		if err == nil && overHeap() {
			// One statement can make more than the limit between two
			// checks of the running code: say so, and keep none of it.
			Forget()
			clear(env)
			res[i].Err = &CellError{Cell: i, Msg: heapMessage()}
			break
		}
		if err != nil {
			break
		}
		if !o.NoCache {
			cache.put(take(st.lin, cells[:i+1], res[i], mine))
		}
	}
	st.current = -1
	return st
}

// drawCell draws what cell i asked show() to draw, or the last graph it
// built.
func (st *runState) drawCell(i int, names map[*engine.Value]string) {
	targets := st.shown[i]
	if len(targets) == 0 && st.last[i] != nil {
		targets = []*target{st.last[i]}
	}
	for _, t := range targets {
		d, n := t.draw(names)
		switch {
		case d != nil:
			st.res[i].Drawings = append(st.res[i].Drawings, d)
		case n > draw.MaxDrawnNodes:
			fmt.Fprintf(&st.out[i], "(The graph has %d values, too many to draw: drawings show up to %d.)\n", n, draw.MaxDrawnNodes)
		}
	}
	st.res[i].Output = st.out[i].String()
}

// seconds writes a duration for a learner: "60 s", "0.8 s".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

// draw draws the target, or returns nil and how many values it has if
// that is too many to draw.
func (t *target) draw(names map[*engine.Value]string) (*draw.Drawing, int) {
	if t.root != nil {
		if n := engine.Size(t.root); n > draw.MaxDrawnNodes {
			return nil, n
		}
		d := draw.Value(t.root, names)
		d.Title = "The graph behind " + d.Nodes[d.Out].Label
		return d, len(d.Nodes)
	}
	if n := len(t.tape.Names()); n > draw.MaxDrawnNodes {
		return nil, n
	}
	d := draw.Graph(t.tape, t.vals, t.out)
	d.Title = "The graph"
	if t.out != "" {
		d.Title += ", with gradients of " + t.out
	}
	return d, len(d.Nodes)
}

// compileError places an error found before a cell ran (resolving
// names).
func (st *runState) compileError(cell int, err error) *CellError {
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
	e.Code = lineOf(st.cells[cell], e.Line)
	e.Msg = se.Msg
	e.Hint = hint(e.Code, e.Msg)
	return e
}

func (st *runState) runtimeError(ran int, err error) *CellError {
	e := &CellError{Cell: ran, Msg: err.Error()}
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		e.Msg = ee.Msg
		stack := ee.CallStack
		if st.stoppedAt != nil {
			stack = st.stoppedAt
		}
		// The innermost frame in the learner's code places the error.
		for i := len(stack) - 1; i >= 0; i-- {
			f := stack[i]
			cell, ok := cellOf(f.Pos)
			if !ok || cell >= len(st.cells) {
				continue
			}
			e.Line = int(f.Pos.Line)
			e.Code = lineOf(st.cells[cell], e.Line)
			if cell != ran {
				e.Where = fmt.Sprintf("in %s, defined in cell %d", f.Name, cell+1)
			}
			break
		}
	}
	e.Msg = strings.TrimPrefix(e.Msg, "Starlark computation cancelled: ")
	if name, ok := uninitialized(e.Msg); ok {
		switch at, ok := st.bound[name]; {
		case ok && at > ran:
			e.Msg = fmt.Sprintf("%s is not defined yet: cell %d, below this one, assigns it", name, at+1)
		case ok && at == ran:
			e.Msg = fmt.Sprintf("%s is used before this cell assigns it", name)
		default:
			e.Msg = fmt.Sprintf("%s is not defined: the cell that assigns it stopped before it did", name)
		}
	}
	if strings.Contains(e.Msg, "frozen") {
		e.Msg += " (a cell cannot change a list or dict that a cell above made, so that every run gives the same result: make a copy, such as xs = list(xs), and change that)"
	}
	if st.stoppedAt != nil && strings.HasPrefix(e.Msg, "stopped after") && (e.Line < 1 || e.Where != "") {
		// Starlark does not keep the position of every instruction: name
		// the loop that was running.
		if line := loopLine(st.cells[ran]); line > 0 {
			e.Line, e.Code, e.Where = line, lineOf(st.cells[ran], line), ""
		}
	}
	e.Hint = hint(e.Code, e.Msg)
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

func syntaxError(cell int, src string, err error) *CellError {
	e := &CellError{Cell: cell, Msg: err.Error()}
	var se syntax.Error
	if errors.As(err, &se) {
		e.Line = int(se.Pos.Line)
		e.Msg = se.Msg
	}
	var errs interface{ Unwrap() []error }
	if errors.As(err, &errs) && len(errs.Unwrap()) > 0 {
		if errors.As(errs.Unwrap()[0], &se) {
			e.Line, e.Msg = int(se.Pos.Line), se.Msg
		}
	}
	e.Code = lineOf(src, e.Line)
	e.Hint = hint(e.Code, e.Msg)
	if e.Hint == "" {
		// A Python habit may sit on another line than the one the parser
		// tripped on: look at the whole cell.
		for i, l := range strings.Split(src, "\n") {
			if h := hint(l, e.Msg); h != "" {
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

// builtins returns the built-ins of a cell.
func builtins() starlark.StringDict {
	return starlark.StringDict{
		"Value":      starlark.NewBuiltin("Value", newValue),
		"detach":     starlark.NewBuiltin("detach", detach),
		"evaluate":   starlark.NewBuiltin("evaluate", evaluateBuiltin),
		"backward":   starlark.NewBuiltin("backward", backwardBuiltin),
		"check":      starlark.NewBuiltin("check", checkBuiltin),
		"grad_check": starlark.NewBuiltin("grad_check", gradCheckBuiltin),
		"show":       starlark.NewBuiltin("show", showBuiltin),
		"round":      starlark.NewBuiltin("round", roundBuiltin),
		"trace":      starlark.NewBuiltin("trace", traceBuiltin),
		"moons":      starlark.NewBuiltin("moons", moonsBuiltin),
		"uniform":    starlark.NewBuiltin("uniform", uniformBuiltin),
		"sum":        starlark.NewBuiltin("sum", sumBuiltin),
		"plot":       starlark.NewBuiltin("plot", plotBuiltin),
		"scatter":    starlark.NewBuiltin("scatter", scatterBuiltin),
		"boundary":   starlark.NewBuiltin("boundary", boundaryBuiltin),
		"math":       math.Module,
	}
}

// here returns the line of the learner's code running now, and its cell.
func (st *runState) here() (cell int, code string) {
	if st.thread == nil {
		return st.current, ""
	}
	for d := 0; d < st.thread.CallStackDepth(); d++ {
		f := st.thread.CallFrame(d)
		if c, ok := cellOf(f.Pos); ok && c < len(st.cells) {
			return c, lineOf(st.cells[c], int(f.Pos.Line))
		}
	}
	return st.current, ""
}

// caller returns the code of the learner's line that is calling a
// built-in, from the call on, and the cell that is running.
func (st *runState) caller(thread *starlark.Thread) (cell int, code string) {
	cell, code, _ = st.callerLine(thread)
	return cell, code
}

// callerLine is caller with the line of the call in its cell, when the
// call is in the running cell itself (0 otherwise).
func (st *runState) callerLine(thread *starlark.Thread) (cell int, code string, line int) {
	for d := 1; d < thread.CallStackDepth(); d++ {
		f := thread.CallFrame(d)
		if c, ok := cellOf(f.Pos); ok && c < len(st.cells) {
			src := lineOf(st.cells[c], int(f.Pos.Line))
			if c == st.current {
				line = int(f.Pos.Line)
			}
			col := int(f.Pos.Col) - 1
			if col >= 0 && col < len(src) {
				return st.current, src[col:], line
			}
			return st.current, src, line
		}
	}
	return st.current, "", 0
}

// Globals runs src as a cell, quietly (its checks and drawings are not
// recorded), and returns its globals; errors name the file. Blocks use it
// to run their given code and learners' answers.
func Globals(file, src string) (starlark.StringDict, error) {
	st := newRunState([]string{src}, make([]CellResult, 1))
	st.current, st.quiet = 0, 1
	st.lin = &lineage{cur: st}
	thread := NewThread("quiz", CheckBudget, nil, "the given code ran too long (an endless loop?)", nil)
	thread.SetLocal("notebook", st)
	st.thread = thread
	return starlark.ExecFileOptions(fileOptions, thread, file, src, builtins())
}
