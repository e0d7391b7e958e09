package notebook

import (
	"errors"
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"gradbook/engine"
	"gradbook/internal/jsontext"
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
			e.Tasks = append(e.Tasks, Task{ID: s.Args[0], Cond: strings.Join(s.Args[1:], " "), Text: s.Text})
		default:
			return nil, blockErr(s, "unknown section (an explore block has graph, out, leaf, task)")
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
	thread := &starlark.Thread{Name: "task"}
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
func (e *Explore) Drawing(vals map[string]float64) *Drawing {
	names := e.tape.Names()
	v := make([]float64, len(names))
	for s, n := range names {
		v[s] = vals[n]
	}
	d := DrawGraph(e.tape, v, e.Out)
	d.Title = e.Caption
	return d
}

// HTML renders the block: a slider and a number field per leaf, a table
// of values and gradients, a place for the drawing, and the task list.
func (e *Explore) HTML() string {
	id := html.EscapeString(e.ID)
	var b strings.Builder
	g, _ := graphJSON(e.Graph)
	fmt.Fprintf(&b, `<section class="cell explore" id="explore-%s" data-cell-id="%s" data-kind="explore" data-out="%s" data-graph="%s">`,
		id, id, html.EscapeString(e.Out), html.EscapeString(g))
	fmt.Fprintf(&b, `<h3 class="explore-caption">%s</h3><div class="explore-body"><div class="explore-inputs" role="group" aria-label="Inputs of %s">`, html.EscapeString(e.Caption), html.EscapeString(e.Caption))
	for _, l := range e.Leaves {
		n := html.EscapeString(l.Name)
		fmt.Fprintf(&b, `<div class="leaf" data-leaf="%s"><label for="%s-%s-range">%s</label><input type="range" id="%s-%s-range" min="%g" max="%g" step="%g" value="%g"><input type="number" id="%s-%s-num" aria-label="%s, exact value" step="any" value="%g"></div>`,
			n, id, n, n, id, n, l.Min, l.Max, l.Step, l.Start, id, n, n, l.Start)
	}
	b.WriteString(`</div><div class="explore-state" aria-live="polite"></div></div>`)
	if len(e.Tasks) > 0 {
		b.WriteString(`<h4>To do</h4><ul class="tasks">`)
		for _, t := range e.Tasks {
			fmt.Fprintf(&b, `<li class="task" data-task="%s" data-cond="%s"><span class="tick" aria-hidden="true">○</span> %s <span class="task-state">(not yet)</span></li>`,
				html.EscapeString(t.ID), html.EscapeString(t.Cond), html.EscapeString(t.Text))
		}
		b.WriteString(`</ul>`)
	}
	b.WriteString(`<div class="drawings"></div></section>`)
	return b.String()
}

// graphJSON writes a graph in the list format.
func graphJSON(g engine.Graph) (string, error) {
	list := make([]any, len(g))
	for i, n := range g {
		e := []any{n.Name, n.Op, n.Inputs}
		if n.Op == "pow" {
			e = append(e, n.K)
		}
		list[i] = e
	}
	return string(jsontext.Encode(list)), nil
}

// ParseExploreHTML rebuilds an Explore from the attributes its HTML
// carries: the graph, the output, the leaves' starting values and the
// tasks' conditions. The browser uses it.
func ParseExploreHTML(id, graph, out string, leaves []Slider, tasks []Task) (*Explore, error) {
	g, err := engine.ParseGraph([]byte(graph))
	if err != nil {
		return nil, err
	}
	e := &Explore{ID: id, Graph: g, Out: out, Leaves: leaves, Tasks: tasks}
	return e, e.compile()
}

// StateHTML renders the values and gradients at the current leaves as a
// table: leaves first, then nodes.
func (e *Explore) StateHTML(vals, grads map[string]float64) string {
	var b strings.Builder
	out := html.EscapeString(e.Out)
	fmt.Fprintf(&b, `<table class="explore-table"><thead><tr><th scope="col">name</th><th scope="col">value</th><th scope="col">∂%s/∂name</th></tr></thead><tbody>`, out)
	for _, n := range e.tape.Names() {
		fmt.Fprintf(&b, `<tr data-name="%s"><th scope="row">%s</th><td class="value">%s</td><td class="grad">%s</td></tr>`,
			html.EscapeString(n), html.EscapeString(n), num(vals[n]), num(grads[n]))
	}
	b.WriteString(`</tbody></table>`)
	return b.String()
}
