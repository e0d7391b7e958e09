package notebook

import (
	"errors"
	"fmt"
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
}

// Run runs cells[0] to cells[last] as Run does, the way o says.
func (o Options) Run(cells []string, last int) (res []CellResult) {
	if o.Budget <= 0 {
		o.Budget = CellBudget
	}
	last = min(last, len(cells)-1)
	res = make([]CellResult, last+1)
	defer func() {
		// A bug in a built-in must not take the page down: it becomes the
		// cell's error.
		if r := recover(); r != nil && last >= 0 {
			res[last].Ran = true
			res[last].Err = &CellError{Cell: last, Msg: fmt.Sprintf("internal error in Gradbook: %v (please report it)", r)}
		}
	}()
	// A syntax error anywhere stops the run at that cell.
	stop := last
	for i := 0; i <= last; i++ {
		if _, err := fileOptions.Parse(fmt.Sprintf("cell %d", i+1), cells[i], 0); err != nil {
			res[i].Ran = true
			res[i].Err = syntaxError(i, cells[i], err)
			stop = i - 1
			break
		}
	}
	if stop >= 0 {
		run(cells[:stop+1], res, o)
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
	starts  []int // line of the program where each cell's source begins
	current int   // the cell running now
	res     []CellResult
	out     []strings.Builder
	last    []*target                  // per cell: the last graph it built
	shown   [][]*target                // per cell: what it asked show() to draw
	plots   [][]*plot.Plot             // per cell: its plots
	quiet   int                        // >0 while built-ins evaluate on the learner's behalf
	names   []map[*engine.Value]string // per cell: the names it gave Values
	reached int                        // the last cell that started
	// stoppedAt is where a run that went over a limit was stopped.
	stoppedAt starlark.CallStack
	printed   int // bytes printed by the run
	values    int // Values made by the run
	start     time.Time
	thread    *starlark.Thread
	rec       *recording // the trace recording now, if any
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
		cells: cells, res: res, current: -1, reached: -1,
		out:   make([]strings.Builder, len(cells)),
		last:  make([]*target, len(cells)),
		shown: make([][]*target, len(cells)),
		plots: make([][]*plot.Plot, len(cells)),
		names: make([]map[*engine.Value]string, len(cells)),
		start: time.Now(),
	}
}

func run(cells []string, res []CellResult, o Options) {
	st := newRunState(cells, res)
	var prog strings.Builder
	line := 1
	for i, src := range cells {
		// Each cell starts with a marker that also hands over the names
		// the cell above assigned, to label the values in its drawings.
		fmt.Fprintf(&prog, "__cell__(%d, %s)\n", i, namesDict(cells, i-1))
		line++
		st.starts = append(st.starts, line)
		prog.WriteString(src)
		prog.WriteString("\n")
		line += strings.Count(src, "\n") + 1
	}
	fmt.Fprintf(&prog, "__cell__(%d, %s)\n", len(cells), namesDict(cells, len(cells)-1))
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
	thread.SetLocal("notebook", st)
	st.thread = thread
	globals, err := starlark.ExecFileOptions(fileOptions, thread, "cells", prog.String(), st.predeclared())
	if cell, e := st.compileError(err); e != nil {
		// A name that no cell above defines, say: run the cells above it,
		// then report it in its cell.
		if cell > 0 {
			run(cells[:cell], res, o)
		}
		res[cell].Ran = true
		res[cell].Err = e
		return
	}
	ran := st.reached
	for i := 0; i <= ran && i < len(res); i++ {
		res[i].Ran = true
	}
	if err != nil && ran >= 0 {
		res[ran].Err = st.runtimeError(ran, err)
	}
	names := map[*engine.Value]string{}
	for i := 0; i <= ran && i < len(res); i++ {
		for v, name := range st.names[i] {
			names[v] = name
		}
		if i == ran && err != nil {
			// The cell stopped early: name what its globals hold now.
			for name, v := range globals {
				if v, ok := v.(*Value); ok && v.v.Label == "" {
					names[v.v] = name
				}
			}
		}
		res[i].Output += st.out[i].String()
		if !o.All && i != len(res)-1 {
			continue
		}
		res[i].Plots = st.plots[i]
		targets := st.shown[i]
		if len(targets) == 0 && st.last[i] != nil {
			targets = []*target{st.last[i]}
		}
		for _, t := range targets {
			d, n := t.draw(names)
			switch {
			case d != nil:
				res[i].Drawings = append(res[i].Drawings, d)
			case n > draw.MaxDrawnNodes:
				res[i].Output += fmt.Sprintf("(The graph has %d values, too many to draw: drawings show up to %d.)\n", n, draw.MaxDrawnNodes)
			}
		}
	}
}

// seconds writes a duration for a learner: "60 s", "0.8 s".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

// draw draws the target, or returns nil and how many values it has if
// that is too many to draw.
func (t *target) draw(names map[*engine.Value]string) (*draw.Drawing, int) {
	if t.root != nil {
		if n := len(engine.Topo(t.root)); n > draw.MaxDrawnNodes {
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

// namesDict returns a Starlark dict expression of the names that cell i
// surely assigns: those bound by top-level assignment statements, which
// are bound once the cell has run to its end.
func namesDict(cells []string, i int) string {
	if i < 0 {
		return "{}"
	}
	f, err := fileOptions.Parse("cell", cells[i], 0)
	if err != nil {
		return "{}"
	}
	seen := map[string]bool{}
	var b strings.Builder
	b.WriteString("{")
	var add func(e syntax.Expr)
	add = func(e syntax.Expr) {
		switch e := e.(type) {
		case *syntax.Ident:
			if !seen[e.Name] {
				seen[e.Name] = true
				fmt.Fprintf(&b, "%q: %s, ", e.Name, e.Name)
			}
		case *syntax.TupleExpr:
			for _, x := range e.List {
				add(x)
			}
		case *syntax.ParenExpr:
			add(e.X)
		case *syntax.ListExpr:
			for _, x := range e.List {
				add(x)
			}
		}
	}
	for _, stmt := range f.Stmts {
		if a, ok := stmt.(*syntax.AssignStmt); ok && a.Op == syntax.EQ {
			add(a.LHS)
		}
	}
	b.WriteString("}")
	return b.String()
}

// cellOf maps a program line to a cell and a line within it.
func (st *runState) cellOf(line int) (cell, inCell int) {
	cell = -1
	for i, s := range st.starts {
		if line >= s {
			cell = i
		}
	}
	if cell < 0 {
		return 0, 0
	}
	return cell, line - st.starts[cell] + 1
}

// compileError places an error found before the program ran (resolving
// names), or returns nil.
func (st *runState) compileError(err error) (int, *CellError) {
	if err == nil {
		return 0, nil
	}
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		return 0, nil
	}
	var se syntax.Error
	var list resolve.ErrorList
	switch {
	case errors.As(err, &list) && len(list) > 0:
		se = syntax.Error(list[0])
	case errors.As(err, &se):
	default:
		return 0, nil
	}
	cell, line := st.cellOf(int(se.Pos.Line))
	e := &CellError{Cell: cell, Line: line, Code: lineOf(st.cells[cell], line), Msg: se.Msg}
	e.Hint = hint(e.Code, e.Msg)
	return cell, e
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
			if f.Pos.Filename() != "cells" {
				continue
			}
			cell, line := st.cellOf(int(f.Pos.Line))
			e.Line = line
			e.Code = lineOf(st.cells[cell], line)
			if cell != ran {
				e.Where = fmt.Sprintf("in %s, defined in cell %d", f.Name, cell+1)
			}
			break
		}
	}
	e.Msg = strings.TrimPrefix(e.Msg, "Starlark computation cancelled: ")
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

// predeclared returns the built-ins of a cell.
func (st *runState) predeclared() starlark.StringDict {
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
		"__cell__": starlark.NewBuiltin("__cell__", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var i int
			var names *starlark.Dict
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 2, &i, &names); err != nil {
				return nil, err
			}
			if prev := i - 1; prev >= 0 && prev < len(st.names) {
				st.names[prev] = map[*engine.Value]string{}
				for _, item := range names.Items() {
					if v, ok := item[1].(*Value); ok && v.v.Label == "" {
						st.names[prev][v.v] = string(item[0].(starlark.String))
					}
				}
			}
			st.current = i
			if i >= len(st.cells) {
				st.current = -1
			} else {
				st.reached = i
			}
			return starlark.None, nil
		}),
	}
}

// here returns the line of the learner's code running now, and its cell.
func (st *runState) here() (cell int, code string) {
	if st.thread == nil {
		return st.current, ""
	}
	for d := 0; d < st.thread.CallStackDepth(); d++ {
		if f := st.thread.CallFrame(d); f.Pos.Filename() == "cells" {
			c, line := st.cellOf(int(f.Pos.Line))
			return c, lineOf(st.cells[c], line)
		}
	}
	return st.current, ""
}

// Line returns the line of the learner's code that is calling a built-in,
// and which cell it is in.
func (st *runState) caller(thread *starlark.Thread) (cell int, code string) {
	for d := 1; d < thread.CallStackDepth(); d++ {
		f := thread.CallFrame(d)
		if f.Pos.Filename() == "cells" {
			c, line := st.cellOf(int(f.Pos.Line))
			src := lineOf(st.cells[c], line)
			col := int(f.Pos.Col) - 1
			if col >= 0 && col < len(src) {
				return c, src[col:]
			}
			return c, src
		}
	}
	return st.current, ""
}

// Globals runs src as a cell, quietly (its checks and drawings are not
// recorded), and returns its globals; errors name the file. Blocks use it
// to run their given code and learners' answers.
func Globals(file, src string) (starlark.StringDict, error) {
	st := newRunState([]string{src}, make([]CellResult, 1))
	st.current, st.quiet = 0, 1
	thread := NewThread("quiz", CheckBudget, nil, "the given code ran too long (an endless loop?)", nil)
	thread.SetLocal("notebook", st)
	st.thread = thread
	return starlark.ExecFileOptions(fileOptions, thread, file, src, st.predeclared())
}
