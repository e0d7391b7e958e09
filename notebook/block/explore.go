package block

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"gradbook/engine"
	"gradbook/internal/jsontext"
	"gradbook/internal/words"
	"gradbook/notebook/draw"
	"gradbook/notebook/kernel"
)

// Explore is a graph to play with: a slider and a number field per leaf,
// values, gradients and the drawing updating as they move, and tasks that
// tick when met. Its lead is a caption; its sections:
//
//	--- graph                 the graph in the list format
//	--- out L                 the value whose gradients are shown
//	--- leaf w 2 -5 5 0.5     a leaf: start, min, max, step
//	--- task id <condition>   a task: its condition on the first line,
//	                          its text below
//
// A condition is a Starlark expression over the values (by name) and the
// gradients (d["w"]), with near(a, b) for equality to within 1e-9:
//
//	--- task db near(d["b"], -6)
//	Make ∂L/∂b exactly −6.
type Explore struct {
	ID      string
	Caption string
	Graph   engine.Graph
	Out     string
	Leaves  []Slider
	Tasks   []Task

	tape  *engine.Tape
	conds []syntax.Expr
}

// Slider is a leaf of an Explore block.
type Slider struct {
	Name                  string
	Start, Min, Max, Step float64
}

// Task is a goal of an Explore block.
type Task struct {
	ID   string
	Cond string
	Text string
	Line int // the --- task line in the block, from 1
}

// ParseExplore reads an explore block.
func ParseExplore(id, body string) (*Explore, error) {
	lead, sections := splitSections(body)
	e := &Explore{ID: id, Caption: lead}
	var graph string
	for _, s := range sections {
		switch s.Name {
		case "graph":
			graph = s.Text
		case "out":
			if len(s.Args) != 1 {
				return nil, blockErr(s, "write --- out <name>")
			}
			e.Out = s.Args[0]
		case "leaf":
			if len(s.Args) != 5 {
				return nil, blockErr(s, "write --- leaf <name> <start> <min> <max> <step>")
			}
			sl := Slider{Name: s.Args[0]}
			for i, p := range []*float64{&sl.Start, &sl.Min, &sl.Max, &sl.Step} {
				x, err := strconv.ParseFloat(s.Args[i+1], 64)
				if err != nil {
					return nil, blockErr(s, "%q is not a number", s.Args[i+1])
				}
				*p = x
			}
			if !(sl.Min <= sl.Start && sl.Start <= sl.Max && sl.Step > 0) {
				return nil, blockErr(s, "want min ≤ start ≤ max and a positive step")
			}
			e.Leaves = append(e.Leaves, sl)
		case "task":
			if len(s.Args) < 2 || s.Text == "" {
				return nil, blockErr(s, "write --- task <id> <condition>, then the task's text")
			}
			e.Tasks = append(e.Tasks, Task{ID: s.Args[0], Cond: strings.Join(s.Args[1:], " "), Text: s.Text, Line: s.Line})
		default:
			return nil, unknownSection("explore", s)
		}
	}
	var err error
	if e.Graph, err = engine.ParseGraph([]byte(graph)); err != nil {
		return nil, fmt.Errorf("graph: %w", err)
	}
	if len(e.Leaves) == 0 || e.Out == "" {
		return nil, errors.New("an explore block needs --- out and at least one --- leaf")
	}
	if err := e.compile(); err != nil {
		return nil, err
	}
	if _, _, _, err := e.State(e.Start()); err != nil {
		return nil, fmt.Errorf("at the start values: %w", err)
	}
	return e, nil
}

func (e *Explore) compile() error {
	var err error
	if e.tape, err = engine.Compile(e.Graph); err != nil {
		return err
	}
	for _, t := range e.Tasks {
		x, err := (&syntax.FileOptions{}).ParseExpr("task", t.Cond, 0)
		if err != nil {
			return fmt.Errorf("task %s: %v", t.ID, err)
		}
		e.conds = append(e.conds, x)
	}
	return nil
}

// Start returns the leaves' starting values.
func (e *Explore) Start() map[string]float64 {
	m := map[string]float64{}
	for _, l := range e.Leaves {
		m[l.Name] = l.Start
	}
	return m
}

// State computes every value and gradient at the given leaves, and which
// tasks are met.
func (e *Explore) State(leaves map[string]float64) (vals, grads map[string]float64, done []bool, err error) {
	if e.tape == nil {
		if err := e.compile(); err != nil {
			return nil, nil, nil, err
		}
	}
	if vals, err = e.tape.Evaluate(leaves); err != nil {
		return nil, nil, nil, err
	}
	if grads, err = e.tape.Backward(vals, e.Out, engine.Accumulate); err != nil {
		return nil, nil, nil, err
	}
	env := starlark.StringDict{"near": starlark.NewBuiltin("near", near)}
	d := starlark.NewDict(len(grads))
	for k, v := range vals {
		if isIdent(k) {
			env[k] = starlark.Float(v)
		}
		d.SetKey(starlark.String(k), starlark.Float(grads[k]))
	}
	env["d"] = d
	thread := kernel.NewThread("task", kernel.TaskBudget, "the task's condition ran too long")
	for i, x := range e.conds {
		v, err := starlark.EvalExprOptions(&syntax.FileOptions{}, thread, x, env)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("task %s: %v", e.Tasks[i].ID, err)
		}
		done = append(done, bool(v.Truth()))
	}
	return vals, grads, done, nil
}

// near(a, b, tol=1e-9) reports whether a and b differ by at most tol.
func near(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var xv, yv starlark.Value
	var tolv starlark.Value = starlark.Float(1e-9)
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "a", &xv, "b", &yv, "tol?", &tolv); err != nil {
		return nil, err
	}
	x, ok1 := starlark.AsFloat(xv)
	y, ok2 := starlark.AsFloat(yv)
	tol, ok3 := starlark.AsFloat(tolv)
	if !ok1 || !ok2 || !ok3 {
		return nil, fmt.Errorf("near: want numbers, got %s and %s", xv.Type(), yv.Type())
	}
	return starlark.Bool(math.Abs(x-y) <= tol), nil
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != "" && s != "d" && s != "near"
}

// Drawing draws the graph at the given leaves.
func (e *Explore) Drawing(vals map[string]float64) *draw.Drawing {
	names := e.tape.Names()
	v := make([]float64, len(names))
	for s, n := range names {
		v[s] = vals[n]
	}
	d := draw.Graph(e.tape, v, e.Out)
	d.Title = e.Caption
	return d
}

// HTML renders the block: a slider and a number field per leaf, a table
// of values and gradients, a place for the drawing, and the task list.
func (e *Explore) HTML() string {
	id := "explore-" + e.ID
	var w writer
	w.open("section", "class", classes(ClassCell, KindExplore), "id", id, AttrCellID, e.ID, AttrKind, KindExplore)
	w.WriteString(dataScript(e.Data()))
	w.el("h3", e.Caption, "class", ClassExploreCap)
	w.open("div", "class", "explore-body")
	w.open("div", "class", "explore-inputs", "role", "group", "aria-label", "Inputs of "+e.Caption)
	for _, l := range e.Leaves {
		at := id + "-" + l.Name
		w.open("div", "class", ClassLeaf, AttrLeaf, l.Name)
		w.el("label", l.Name, "for", at+"-range")
		g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
		w.open("input", "type", "range", "id", at+"-range", "min", g(l.Min), "max", g(l.Max), "step", g(l.Step), "value", g(l.Start))
		w.open("input", "type", "number", "id", at+"-num", "aria-label", l.Name+", exact value", "step", "any", "value", g(l.Start))
		w.close("div")
	}
	w.close("div")
	w.el("div", "", "class", ClassExploreSt, "aria-live", "polite")
	w.close("div")
	if len(e.Tasks) > 0 {
		w.el("h4", "To do")
		w.open("ul", "class", "tasks")
		for _, t := range e.Tasks {
			w.open("li", "class", ClassTask, AttrTask, t.ID)
			w.el("span", "○", "class", ClassTick, "aria-hidden", "true")
			w.text(" " + t.Text + " ")
			w.el("span", "(not yet)", "class", ClassTaskState)
			w.close("li")
		}
		w.close("ul")
	}
	w.el("div", "", "class", ClassDrawings)
	w.close("section")
	return w.String()
}

// Data is what the browser needs of the block, as decoded-JSON shapes:
// the graph in the list format, the output, the leaves and the tasks'
// conditions. The page carries it next to the block (dataScript), and
// ExploreOf reads it back.
func (e *Explore) Data() jsontext.Object {
	graph := make([]any, len(e.Graph))
	for i, n := range e.Graph {
		ins := make([]any, len(n.Inputs))
		for j, in := range n.Inputs {
			ins[j] = in
		}
		entry := []any{n.Name, n.Op, ins}
		if n.K != 0 {
			entry = append(entry, n.K)
		}
		graph[i] = entry
	}
	leaves := make([]any, len(e.Leaves))
	for i, l := range e.Leaves {
		leaves[i] = jsontext.Object{{Name: "name", Value: l.Name}, {Name: "start", Value: l.Start}, {Name: "min", Value: l.Min}, {Name: "max", Value: l.Max}, {Name: "step", Value: l.Step}}
	}
	tasks := make([]any, len(e.Tasks))
	for i, t := range e.Tasks {
		tasks[i] = jsontext.Object{{Name: "id", Value: t.ID}, {Name: "cond", Value: t.Cond}}
	}
	return jsontext.Object{{Name: "graph", Value: graph}, {Name: "out", Value: e.Out}, {Name: "leaves", Value: leaves}, {Name: "tasks", Value: tasks}}
}

// ExploreOf rebuilds the Explore block id from its Data, decoded with
// jsontext.DecodeOrdered. The browser uses it.
func ExploreOf(id string, data any) (*Explore, error) {
	o, _ := data.(jsontext.Object)
	field := o.Get
	g, err := engine.GraphOf(field("graph"))
	if err != nil {
		return nil, err
	}
	out, _ := field("out").(string)
	e := &Explore{ID: id, Graph: g, Out: out}
	leaves, _ := field("leaves").([]any)
	for _, l := range leaves {
		lo, _ := l.(jsontext.Object)
		var sl Slider
		for _, m := range lo {
			x, _ := m.Value.(float64)
			switch m.Name {
			case "name":
				sl.Name, _ = m.Value.(string)
			case "start":
				sl.Start = x
			case "min":
				sl.Min = x
			case "max":
				sl.Max = x
			case "step":
				sl.Step = x
			}
		}
		e.Leaves = append(e.Leaves, sl)
	}
	tasks, _ := field("tasks").([]any)
	for _, t := range tasks {
		to, _ := t.(jsontext.Object)
		var task Task
		for _, m := range to {
			switch m.Name {
			case "id":
				task.ID, _ = m.Value.(string)
			case "cond":
				task.Cond, _ = m.Value.(string)
			}
		}
		e.Tasks = append(e.Tasks, task)
	}
	if len(e.Leaves) == 0 || e.Out == "" {
		return nil, errors.New("the block's data has no output or no leaves")
	}
	return e, e.compile()
}

// StateHTML renders the values and gradients at the current leaves as a
// table: leaves first, then nodes.
func (e *Explore) StateHTML(vals, grads map[string]float64) string {
	var w writer
	w.open("table", "class", "explore-table")
	w.open("thead")
	w.open("tr")
	w.el("th", "name", "scope", "col")
	w.el("th", "value", "scope", "col")
	w.el("th", "∂"+e.Out+"/∂name", "scope", "col")
	w.close("tr")
	w.close("thead")
	w.open("tbody")
	for _, n := range e.tape.Names() {
		w.open("tr", AttrName, n)
		w.el("th", n, "scope", "row")
		w.el("td", words.Number(vals[n]), "class", "value")
		w.el("td", words.Number(grads[n]), "class", "grad")
		w.close("tr")
	}
	w.close("tbody")
	w.close("table")
	return w.String()
}
