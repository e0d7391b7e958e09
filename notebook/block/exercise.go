package block

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"go.starlark.net/starlark"

	"gradbook/engine"
	"gradbook/internal/words"
	"gradbook/notebook"
	"gradbook/notebook/draw"
	"gradbook/notebook/kernel"
	"gradbook/notebook/values"
)

// Exercise is code for the learner to complete, with a Check button that
// tests it. Its lead is the starter code; its sections:
//
//	--- check backward        a checker written in Go (see Checkers)
//	--- test relu at exactly 0
//	                          a hidden test in the cell language (see
//	                          Test); an exercise has a checker, tests or
//	                          both, and its starter code must fail them
//	--- hint                  a hint; hints are shown one at a time
//	--- solution              a solution, behind a button; it is checked
//	                          after the starter code, so it may be just
//	                          the part the learner writes
type Exercise struct {
	ID       string
	Starter  string
	Check    string
	Tests    []Test
	Hints    []string
	Solution string
	// Heading is the id of the heading on the page that introduces the
	// exercise, which names its region, so that two exercises on a page
	// are told apart; "" names it by its label, "Exercise: your code".
	Heading string
}

// Checkers are the exercises' checkers, by name. "backward" calls the
// learner's backward(graph, values, out) on hidden graphs and compares it
// with the engine; "layer" calls the learner's layer(neurons, x) on hidden
// layers and checks its outputs and their gradients.
var Checkers = map[string]func(source string) Report{
	"backward": CheckBackward,
	"layer":    CheckLayer,
}

// Report is the outcome of checking an exercise.
type Report struct {
	Passed bool
	Lines  []string // one per test passed, then the failure
	// Why explains the first failure in a learner's terms.
	Why string
	// Line is the block line of the test that failed, for authors; 0 if
	// none or a Go checker.
	Line int
	// Drawing, when the backward checker failed on gradients it could
	// compare, is the hidden graph with the learner's gradients beside
	// the engine's, the first node where they part marked.
	Drawing *draw.Drawing
}

// Text is the report as the page shows it: a well done and the tests
// passed, or the tests up to the failure and why it failed.
func (r Report) Text() string {
	text := strings.Join(r.Lines, "\n")
	if r.Passed {
		return strings.TrimSpace("All tests pass. Well done!\n" + text)
	}
	return strings.TrimSpace(text + "\n" + r.Why)
}

// ParseExercise reads an exercise block.
func ParseExercise(id, body string) (*Exercise, error) {
	lead, sections := splitSections(body)
	x := &Exercise{ID: id, Starter: lead}
	for _, s := range sections {
		switch s.Name {
		case "check":
			if len(s.Args) != 1 || Checkers[s.Args[0]] == nil {
				return nil, blockErr(s, "name a checker: --- check backward or --- check layer")
			}
			x.Check = s.Args[0]
		case "test":
			if len(s.Args) == 0 {
				return nil, blockErr(s, "name the test: --- test relu at exactly 0")
			}
			if strings.TrimSpace(s.Text) == "" {
				return nil, blockErr(s, "the test has no code")
			}
			x.Tests = append(x.Tests, Test{Name: strings.Join(s.Args, " "), Code: s.Text, Line: s.Line})
		case "hint":
			x.Hints = append(x.Hints, s.Text)
		case "solution":
			x.Solution = s.Text
		default:
			return nil, unknownSection("exercise", s)
		}
	}
	if x.Check == "" && len(x.Tests) == 0 {
		return nil, errors.New("an exercise needs a checker (--- check backward) or tests (--- test <what it tries>)")
	}
	if x.Solution == "" {
		return nil, errors.New("an exercise needs a --- solution, which is checked")
	}
	return x, nil
}

// Verify runs the exercise's check on its starter code, which must fail
// (or the learner would have nothing to do), and on its solution, which
// must pass. A solution may be just the function to write: it then
// replaces the starter's.
func (x *Exercise) Verify() error {
	if r := x.Judge(x.Starter); r.Passed {
		return errors.New("the starter code already passes the check: the learner would have nothing to do")
	}
	if r := x.Judge(x.Starter + "\n\n" + x.Solution); !r.Passed {
		msg := "the solution does not pass its own check: " + r.Why
		if r.Line > 0 {
			return &LineError{Line: r.Line, Msg: msg}
		}
		return errors.New(msg)
	}
	return nil
}

// Judge checks the learner's source: its checker first, then its tests.
func (x *Exercise) Judge(source string) Report {
	return Judge(x.Check, x.Tests, source)
}

// Judge checks source with the checker named check (if any), then with
// tests (if any), and reports every test run up to the first failure.
func Judge(check string, tests []Test, source string) Report {
	var rep Report
	if check != "" {
		checker := Checkers[check]
		if checker == nil {
			return Report{Why: fmt.Sprintf("This exercise has no checker called %q.", check)}
		}
		if rep = checker(source); !rep.Passed || len(tests) == 0 {
			return rep.capped()
		}
	}
	more := CheckTests(source, tests)
	more.Lines = append(rep.Lines, more.Lines...)
	return more.capped()
}

// capped cuts the report's texts as every text of a run is cut.
func (r Report) capped() Report {
	r.Why = kernel.CapMessage(r.Why)
	for i, l := range r.Lines {
		r.Lines[i] = kernel.CapMessage(l)
	}
	return r
}

// HTML renders the exercise: an editor with the starter code, Run, Check
// and Reset, the output and report with the drawings under them, hints one at a time, and the solution behind a
// button.
func (x *Exercise) HTML() string {
	id := "exercise-" + x.ID
	rows := min(max(strings.Count(x.Starter, "\n")+2, 6), 40)
	var w writer
	labelledBy := id + "-label"
	if x.Heading != "" {
		labelledBy = x.Heading
	}
	w.open("section", "class", classes(ClassCell, KindExercise), "id", id, AttrCellID, x.ID, AttrKind, KindExercise, AttrCheck, x.Check, "aria-labelledby", labelledBy)
	w.open("div", "class", ClassCellBar)
	w.el("label", "Exercise: your code", "class", ClassCellLabel, "id", id+"-label", "for", id+"-src")
	w.el("button", "Run", "type", "button", "class", ClassRun, "disabled", bare)
	w.el("button", "Check", "type", "button", "class", ClassCheck, "disabled", bare)
	w.el("button", "Reset", "type", "button", "class", ClassReset, "disabled", bare)
	w.close("div")
	w.el("textarea", x.Starter, "class", ClassEditor, "id", id+"-src", "rows", fmt.Sprint(rows), "spellcheck", "false", "autocapitalize", "off", "autocomplete", "off")
	w.el("output", "", "class", ClassOut, "for", id+"-src", "role", "status", "aria-live", "polite")
	w.el("div", "", "class", ClassReport, "role", "status", "aria-live", "polite")
	w.el("div", "", "class", ClassDrawings)
	for _, t := range x.Tests {
		// Inert text the runner is given with the learner's code: a
		// template is neither shown nor run by the browser.
		w.el("template", t.Code, "class", ClassTest, AttrName, t.Name)
	}
	if len(x.Hints) > 0 {
		w.open("div", "class", "hints")
		w.el("button", "Show a hint", "type", "button", "class", ClassHint, "disabled", bare)
		w.open("ol", "class", ClassHintList)
		for _, h := range x.Hints {
			w.markup("li", paragraphs(h), "hidden", bare)
		}
		w.close("ol")
		w.close("div")
	}
	if x.Solution != "" {
		w.open("details", "class", "solution")
		w.el("summary", "Show a solution")
		w.open("pre")
		w.el("code", x.Solution)
		w.close("pre")
		w.close("details")
	}
	w.close("section")
	return w.String()
}

// backwardTest is one hidden test of a learner's backward.
type backwardTest struct {
	name   string
	graph  engine.Graph
	leaves map[string]float64
	twice  bool // call backward twice and compare
}

func lessonOps() []string { return []string{"add", "sub", "mul", "div", "sq", "tanh", "relu", "neg"} }

func backwardTests() []backwardTest {
	n := func(name, op string, in ...string) engine.Node { return engine.Node{Name: name, Op: op, Inputs: in} }
	every := engine.Graph{n("s", "add", "a", "b"), n("d", "sub", "s", "c"), n("m", "mul", "d", "a"), n("q", "div", "m", "b"),
		n("sq", "sq", "q"), n("t", "tanh", "sq"), n("r", "relu", "t"), n("ng", "neg", "r")}
	r := rand.New(rand.NewPCG(5, 8))
	var random engine.Graph
	names := []string{"a", "b", "c"}
	for i := 0; i < 12; i++ {
		ops := lessonOps()
		op := ops[r.IntN(len(ops))]
		if op == "div" || op == "relu" {
			op = "mul" // keep the random graph smooth and finite
		}
		ar, _ := engine.Arity(op)
		node := engine.Node{Name: fmt.Sprintf("n%d", i), Op: op}
		for j := 0; j < ar; j++ {
			node.Inputs = append(node.Inputs, names[r.IntN(len(names))])
		}
		random = append(random, node)
		names = append(names, node.Name)
	}
	return []backwardTest{
		{"the worked example", engine.Graph{n("p", "mul", "a", "b"), n("u", "add", "p", "c"), n("L", "sq", "u")}, map[string]float64{"a": 2, "b": 3, "c": 1}, false},
		{"x + x, one value used twice by one op", engine.Graph{n("y", "add", "x", "x")}, map[string]float64{"x": 3}, false},
		{"x * x, a repeated operand", engine.Graph{n("y", "mul", "x", "x")}, map[string]float64{"x": 3}, false},
		{"fan-out: a feeds two nodes", engine.Graph{n("p", "mul", "a", "b"), n("q", "mul", "a", "c"), n("s", "add", "p", "q")}, map[string]float64{"a": 2, "b": 3, "c": 4}, false},
		{"a leaf the output does not use", engine.Graph{n("p", "mul", "a", "b")}, map[string]float64{"a": 2, "b": 3, "unused": 7}, false},
		{"calling backward twice", engine.Graph{n("p", "mul", "a", "a"), n("L", "add", "p", "b")}, map[string]float64{"a": 3, "b": 1}, true},
		{"every op", every, map[string]float64{"a": 0.5, "b": 1.5, "c": -0.25}, false},
		{"a random graph", random, map[string]float64{"a": 0.3, "b": -0.7, "c": 0.9}, false},
	}
}

// CheckBackward runs the learner's code, then calls the backward(graph,
// values, out) it defines on hidden graphs, comparing every gradient with
// the engine's. It stops at the first failure and explains it: the
// overwrite bug, a missing 0 for an unused leaf, a reused dict, a wrong
// number.
func CheckBackward(source string) Report {
	if why := stopsBefore(source); why != "" {
		return Report{Why: why}
	}
	fn, ok := onBehalf(source).Globals["backward"].(*starlark.Function)
	if !ok {
		return Report{Why: "Define a function backward(graph, values, out) in your code."}
	}
	var drawing *draw.Drawing
	rep := judge(backwardTests(), func(tc backwardTest) (string, string) {
		why, d := checkOne(fn, tc)
		drawing = d
		return tc.name, why
	})
	if !rep.Passed {
		rep.Drawing = drawing
	}
	return rep
}

// stopsBefore runs the learner's code as a cell and says why it stops, if
// it does: then it cannot be checked.
func stopsBefore(source string) string {
	if e := onBehalf(source).Last().Err; e != nil {
		return "Your code stops before it can be checked:\n" + e.Error()
	}
	return ""
}

// onBehalf runs cells on the learner's behalf: quietly, from scratch,
// within kernel.CheckBudget. Checkers read the globals they leave.
func onBehalf(cells ...string) kernel.Result {
	return notebook.NewSession().Run(kernel.Request{Cells: cells, Fresh: true, Quiet: true, Limits: kernel.Limits{Time: kernel.CheckBudget}})
}

// judge runs hidden tests in order, each giving its name and why it
// failed ("" if it passed), and reports them up to the first failure.
func judge[T any](tests []T, run func(T) (name, why string)) Report {
	var rep Report
	for _, tc := range tests {
		name, why := run(tc)
		if why != "" {
			rep.Lines = append(rep.Lines, "✗ "+name)
			rep.Why = why
			return rep
		}
		rep.Lines = append(rep.Lines, "✓ "+name)
	}
	rep.Passed = true
	return rep
}

// checkOne runs the learner's backward on one hidden graph and says why
// it is wrong ("" if it is not), with a drawing that compares their
// gradients with the engine's when they returned some.
func checkOne(fn *starlark.Function, tc backwardTest) (string, *draw.Drawing) {
	out := tc.graph[len(tc.graph)-1].Name
	tape, err := engine.Compile(tc.graph)
	if err != nil {
		return err.Error(), nil
	}
	vals, err := tape.Evaluate(tc.leaves)
	if err != nil {
		return err.Error(), nil
	}
	want, _ := tape.Backward(vals, out, engine.Accumulate)
	wrong, _ := tape.Backward(vals, out, engine.OverwriteBug)
	call := func() (starlark.Value, string) {
		thread := kernel.NewThread("check", kernel.CheckBudget, "it ran too long (an endless loop?)")
		v, err := starlark.Call(thread, fn, starlark.Tuple{graphValue(tc.graph), valuesDict(tape, tc.leaves, vals), starlark.String(out)}, nil)
		if err != nil {
			msg := err.Error()
			if ee, ok := err.(*starlark.EvalError); ok {
				msg = ee.Backtrace()
			}
			return nil, fmt.Sprintf("On %s, backward stopped with an error:\n%s", tc.name, msg)
		}
		return v, ""
	}
	got, why := call()
	if why != "" {
		return why, nil
	}
	if why := compareGrads(tc, tape, got, want, wrong, out); why != "" {
		return why, compared(tape, vals, out, got)
	}
	if tc.twice {
		first := snapshot(got)
		again, why := call()
		if why != "" {
			return why, nil
		}
		if why := compareGrads(tc, tape, again, want, wrong, out); why != "" {
			return "Calling backward a second time went wrong. " + why + " Build a fresh dict inside backward on every call, starting every gradient at 0.0.", compared(tape, vals, out, again)
		}
		if after := snapshot(got); !sameMap(first, after) {
			return "Calling backward a second time changed the dict the first call returned: build a fresh dict inside backward on every call.", nil
		}
	}
	return "", nil
}

// compared draws the hidden graph with the gradients the learner's
// backward returned (got) beside the engine's, or nil if got is not a
// dict of gradients.
func compared(t *engine.Tape, vals map[string]float64, out string, got starlark.Value) *draw.Drawing {
	if _, ok := got.(*starlark.Dict); !ok {
		return nil
	}
	names := t.Names()
	slots := make([]float64, len(names))
	for s, name := range names {
		slots[s] = vals[name]
	}
	d := draw.Compare(draw.Graph(t, slots, out), snapshot(got))
	d.Title = "The hidden graph " + out + ", with your gradients beside the engine's"
	return d
}

func graphValue(g engine.Graph) starlark.Value {
	entries := make([]starlark.Value, len(g))
	for i, n := range g {
		ins := make([]starlark.Value, len(n.Inputs))
		for j, in := range n.Inputs {
			ins[j] = starlark.String(in)
		}
		entries[i] = starlark.Tuple{starlark.String(n.Name), starlark.String(n.Op), starlark.NewList(ins)}
	}
	return starlark.NewList(entries)
}

func valuesDict(t *engine.Tape, leaves, vals map[string]float64) *starlark.Dict {
	d := starlark.NewDict(len(vals))
	var names []string
	for k := range leaves {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		d.SetKey(starlark.String(k), starlark.Float(vals[k]))
	}
	for _, k := range t.Names()[t.NumLeaves():] {
		d.SetKey(starlark.String(k), starlark.Float(vals[k]))
	}
	return d
}

func snapshot(v starlark.Value) map[string]float64 {
	m := map[string]float64{}
	if d, ok := v.(*starlark.Dict); ok {
		for _, it := range d.Items() {
			name, isStr := starlark.AsString(it[0])
			if f, ok := values.AsFloat(it[1]); ok && isStr {
				m[name] = f
			}
		}
	}
	return m
}

func sameMap(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// compareGrads explains the first way got differs from want.
func compareGrads(tc backwardTest, t *engine.Tape, got starlark.Value, want, wrong map[string]float64, out string) string {
	d, ok := got.(*starlark.Dict)
	if !ok {
		if got == starlark.None {
			return fmt.Sprintf("On %s, backward returned None: return the dict of gradients at the end.", tc.name)
		}
		return fmt.Sprintf("On %s, backward returned a %s: it should return a dict of name → gradient.", tc.name, got.Type())
	}
	gotOf := func(name string) (float64, bool, bool) {
		v, found, _ := d.Get(starlark.String(name))
		if !found {
			return 0, false, false
		}
		f, ok := values.AsFloat(v)
		return f, true, ok
	}
	// The overwrite bug: every number matches what '=' instead of '+='
	// gives, and some value used more than once lost a contribution.
	if matchesAll(gotOf, wrong) && !matchesAll(gotOf, want) {
		uses := map[string]int{}
		for _, n := range tc.graph {
			for _, in := range n.Inputs {
				uses[in]++
			}
		}
		for _, name := range t.Names() {
			if uses[name] > 1 && !Close(wrong[name], want[name]) {
				return fmt.Sprintf("On %s: %s is used %s and got %s instead of %s: are you assigning (=) instead of adding (+=)? Every use sends back a contribution, and they all add up.",
					tc.name, name, times(uses[name]), words.Number(wrong[name]), words.Number(want[name]))
			}
		}
	}
	names := append(make([]string, 0, len(want)), t.Names()...)
	for k := range tc.leaves {
		if _, used := t.Slot(k); !used {
			names = append(names, k)
		}
	}
	for _, name := range names {
		g, found, isNum := gotOf(name)
		switch {
		case !found && want[name] == 0 && !reaches(t, name, out):
			return fmt.Sprintf("On %s: %s does not reach %s, so its gradient is 0.0, but your dict has no entry for it. Start every name in values at 0.0.", tc.name, name, out)
		case !found:
			return fmt.Sprintf("On %s: your dict has no gradient for %s. Return one for every name in values, leaves and nodes.", tc.name, name)
		case !isNum:
			return fmt.Sprintf("On %s: the gradient of %s is not a number.", tc.name, name)
		case name == out && !Close(g, 1):
			return fmt.Sprintf("On %s: the gradient of %s itself should be 1.0 (d%s/d%s = 1), got %s.", tc.name, out, out, out, words.Number(g))
		case !Close(g, want[name]):
			return fmt.Sprintf("On %s: d%s/d%s should be %s, but your backward gave %s.", tc.name, out, name, words.Number(want[name]), words.Number(g))
		}
	}
	return ""
}

func matchesAll(got func(string) (float64, bool, bool), want map[string]float64) bool {
	for k, w := range want {
		g, found, ok := got(k)
		if !found || !ok || !Close(g, w) {
			return false
		}
	}
	return true
}

// reaches reports whether name is an input, directly or not, of out.
func reaches(t *engine.Tape, name, out string) bool {
	s, ok := t.Slot(name)
	o, ok2 := t.Slot(out)
	if !ok || !ok2 {
		return false
	}
	live := map[int]bool{o: true}
	for x := o; x >= t.NumLeaves(); x-- {
		if live[x] {
			for _, in := range t.Inputs(x) {
				live[in] = true
			}
		}
	}
	return live[s]
}

func times(n int) string {
	if n == 2 {
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

// BackwardCase is one of the hidden tests of the backward checker, as
// data: for a notebook in another system that checks the same.
type BackwardCase struct {
	Name   string
	Graph  engine.Graph
	Leaves map[string]float64
	Twice  bool // backward is called twice, and must give the same
}

// BackwardCases returns the backward checker's hidden tests.
func BackwardCases() []BackwardCase {
	var cs []BackwardCase
	for _, t := range backwardTests() {
		cs = append(cs, BackwardCase{t.name, t.graph, t.leaves, t.twice})
	}
	return cs
}
