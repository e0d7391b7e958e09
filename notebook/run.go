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
	"gradbook/internal/words"
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
	// MoreChecks counts the checks of a run beyond MaxChecks, and
	// MoreFailed those of them that failed: they are not in Checks.
	MoreChecks, MoreFailed int
	// MS is how long the cell's own code ran, in milliseconds (0 for a
	// cell whose kept state was used).
	MS float64
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

// CheckResult is one call of check().
type CheckResult struct {
	Label  string
	Passed bool
	Text   string // the line check printed
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
	limits  Limits
	// stop is why the run was stopped, if a limit fired (stop.go), and
	// stoppedAt where.
	stop      Reason
	stoppedAt starlark.CallStack
	onPrint   func(cell int, line string) // Request.Print
	printed   int                         // bytes printed by the run
	checks    int                         // checks made by the run
	values    int                         // Values made by the run
	tensors   int                         // tensors made by the run
	thread    *starlark.Thread
	lin       *lineage
	rec       *recording // the trace recording now, if any
	bound     map[string]int
	// atBackward keeps, for each Value the run called backward on (a
	// graph small enough to draw), every value and gradient of its graph
	// as backward left them: its drawing shows those, the program's own.
	atBackward map[*engine.Value][]savedValue
}

// keepBackward notes the values and gradients backward from root left,
// for root's drawing.
func (st *runState) keepBackward(root *engine.Value) {
	if st.quiet > 0 || engine.SizeAtMost(root, draw.MaxDrawnNodes) > draw.MaxDrawnNodes {
		return
	}
	if st.atBackward == nil {
		st.atBackward = map[*engine.Value][]savedValue{}
	}
	nodes := engine.Topo(root)
	saved := make([]savedValue, len(nodes))
	for i, v := range nodes {
		saved[i] = savedValue{v, v.Data, v.Grad, v.Label}
	}
	st.atBackward[root] = saved
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

func newRunState(cells []string, res []CellResult, l Limits) *runState {
	return &runState{
		cells: cells, res: res, current: -1, limits: l,
		out:   make([]strings.Builder, len(cells)),
		last:  make([]*target, len(cells)),
		shown: make([][]*target, len(cells)),
		plots: make([][]*plot.Plot, len(cells)),
	}
}

// print writes a line of the cell running now to its output, within the
// run's cap on what it sends to the page, and hands it to Request.Print.
// The lines of print() and of check() come here.
func (st *runState) print(msg string) {
	if st.current < 0 || st.quiet > 0 {
		return
	}
	st.printed += len(msg) + 1
	switch over := st.printed - st.limits.Output; {
	case over <= 0:
	case over <= len(msg)+1: // the line that crosses the limit
		msg = cutUTF8(msg, len(msg)-over) + fmt.Sprintf("\n… output truncated: a run may print at most %s.", words.Bytes(int64(st.limits.Output)))
	default:
		return
	}
	st.out[st.current].WriteString(msg)
	st.out[st.current].WriteString("\n")
	if st.onPrint != nil {
		st.onPrint(st.current, msg)
	}
}

// halt stops the run for why, noting where it was: every limit that
// fires while Starlark runs comes here.
func (st *runState) halt(th *starlark.Thread, why Reason) {
	if st.stop == 0 {
		st.stop, st.stoppedAt = why, th.CallStack()
	}
	th.Cancel(stopMessage(why, st.limits))
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

// run runs the cells, each after the state the cells above it leave:
// from the longest run of cells above that is kept, if any (kept.go).
func (s *Session) run(req Request, files []*syntax.File, res []CellResult) *runState {
	cells := req.Cells[:len(files)]
	st := newRunState(cells, res, req.Limits)
	if req.Quiet {
		st.quiet = 1
	}
	var kept []*snapshot
	if !req.Fresh {
		kept = s.kept.prefix(cells)
		if len(kept) == len(cells) && !req.All {
			kept = kept[:len(kept)-1] // run the cell itself: it prints, and its drawings are fresh
		}
		if req.All {
			// Run all shows every cell's drawings: a cell kept from a run
			// that did not draw it runs again.
			for i, k := range kept {
				if !k.drawn {
					kept = kept[:i]
					break
				}
			}
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
		if overHeap(st.limits.Heap) {
			s.kept.forget() // what earlier runs kept must not crowd out this one
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
	st.onPrint = req.Print
	thread := limitedThread("notebook", st.limits, st.print, st.halt)
	if req.Flush != nil {
		limits := thread.OnMaxSteps
		thread.OnMaxSteps = func(th *starlark.Thread) {
			limits(th)
			req.Flush()
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
		st.values = 0 // Limits.Values is per cell
		res[i] = CellResult{Ran: true}
		began := time.Now()
		if req.Start != nil {
			req.Start(i)
		}
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
		res[i].MS = float64(time.Since(began).Microseconds()) / 1000
		if req.All || i == len(cells)-1 {
			st.drawCell(i, names)
		}
		res[i].Output = st.out[i].String()
		if err == nil && overHeap(st.limits.Heap) {
			// One statement can make more than the limit between two
			// checks of the running code: say so, and keep none of it.
			s.kept.forget()
			clear(env)
			res[i].Err = &CellError{Cell: i, Msg: stopMessage(ErrTooMuchMemory, st.limits), Stop: ErrTooMuchMemory}
			break
		}
		if err != nil {
			break
		}
		if !req.Fresh {
			snap := take(st.lin, cells[:i+1], res[i], mine)
			snap.drawn = req.All || i == len(cells)-1
			s.kept.put(snap)
		} else {
			// Kept or not, a cell's globals freeze when it ends, so that a
			// check (-check, the lesson tests) sees what the page does.
			for _, v := range st.lin.env {
				v.Freeze()
			}
		}
	}
	st.current = -1
	return st
}

// drawCell draws what cell i asked show() to draw, or the last graph it
// built; a note of a graph too large to draw goes to its output.
func (st *runState) drawCell(i int, names map[*engine.Value]string) {
	targets := st.shown[i]
	if len(targets) == 0 && st.last[i] != nil {
		targets = []*target{st.last[i]}
	}
	for _, t := range targets {
		d, n := t.draw(names, st.atBackward[t.root])
		switch {
		case d != nil && d.Trivial() && len(st.shown[i]) == 0:
			// A single value is not worth a drawing of its own, unless
			// the cell asked for it.
		case d != nil:
			st.res[i].Drawings = append(st.res[i].Drawings, d)
		case n > draw.MaxDrawnNodes:
			fmt.Fprintf(&st.out[i], "(The graph has %d values, too many to draw: drawings show up to %d.)\n", n, draw.MaxDrawnNodes)
		}
	}
}

// seconds writes a duration for a learner: "60 s", "0.8 s".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

// draw draws the target, or returns nil and how many values it has if
// that is too many to draw.
//
// A drawing shows the program's own state: for a Value the program called
// backward on in this run, the values and gradients backward left (at, as
// keepBackward noted them), even if the code changed values since; for
// any other, the values it holds now and, said so in the title, the
// gradients its backward would give.
func (t *target) draw(names map[*engine.Value]string, at []savedValue) (*draw.Drawing, int) {
	if t.root != nil {
		if n := engine.SizeAtMost(t.root, draw.MaxDrawnNodes); n > draw.MaxDrawnNodes {
			return nil, engine.Size(t.root)
		}
		// Draw the state backward left, then put the program's back.
		now := make([]savedValue, len(at))
		for i, sv := range at {
			now[i] = savedValue{sv.v, sv.v.Data, sv.v.Grad, sv.v.Label}
			sv.v.Data, sv.v.Grad = sv.data, sv.grad
		}
		d := draw.Value(t.root, names, draw.WithConstants(func(v *engine.Value) bool { return v.Const }))
		for _, sv := range now {
			sv.v.Data, sv.v.Grad = sv.data, sv.grad
		}
		name := d.Nodes[d.Out].Label
		if at != nil {
			d.Title = fmt.Sprintf("The graph behind %s, with the gradients %s.backward() set", name, name)
		} else {
			d.Title = fmt.Sprintf("The graph behind %s: gradients as %s.backward() would give them", name, name)
		}
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
	e.Hint = hint(e.Code, e.Msg, int(se.Pos.Col))
	return e
}

func (st *runState) runtimeError(ran int, err error) *CellError {
	e := &CellError{Cell: ran, Msg: err.Error()}
	col := 0
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
			e.Line, col = int(f.Pos.Line), int(f.Pos.Col)
			e.Code = lineOf(st.cells[cell], e.Line)
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
	case st.stop != 0:
		e.Stop, e.Msg = st.stop, stopMessage(st.stop, st.limits)
	case errors.As(err, &stopped):
		e.Stop, e.Msg = stopped.why, stopped.msg
	}
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
	if frozenMutation(e.Msg) {
		e.Msg += " (a cell cannot change a list or dict that a cell above made, so that every run gives the same result: make a copy, such as xs = list(xs), and change that)"
	}
	if e.Stop == ErrTooLong && (e.Line < 1 || e.Where != "") {
		// Starlark does not keep the position of every instruction: name
		// the loop that was running.
		if line := loopLine(st.cells[ran]); line > 0 {
			e.Line, e.Code, e.Where = line, lineOf(st.cells[ran], line), ""
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
		"max":        starlark.NewBuiltin("max", maxBuiltin),
		"names":      starlark.NewBuiltin("names", namesBuiltin),
		"random":     randomModule,
		"plot":       starlark.NewBuiltin("plot", plotBuiltin),
		"scatter":    starlark.NewBuiltin("scatter", scatterBuiltin),
		"boundary":   starlark.NewBuiltin("boundary", boundaryBuiltin),
		"heatmap":    starlark.NewBuiltin("heatmap", heatmapBuiltin),
		"math":       math.Module,
		"torch":      torchModule,
		"F":          functionalModule,
		"cmp":        starlark.NewBuiltin("cmp", cmpBuiltin),
		"jvp":        starlark.NewBuiltin("jvp", jvpBuiltin),
		"jacobian":   starlark.NewBuiltin("jacobian", jacobianBuiltin),
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
