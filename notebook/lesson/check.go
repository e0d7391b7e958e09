package lesson

import (
	"fmt"
	"math"
	"sort"

	"gradbook/notebook"
	"gradbook/notebook/block"
	"gradbook/notebook/kernel"
)

// gridLimit is how many points an explore block's sliders may span for
// Check to try them all; larger grids are not searched.
const gridLimit = 40000

// Check runs everything in a lesson that can be run, as a learner would
// and more: every code cell in order (errors and failed checks), every
// exercise's starter code (it must fail its check) and solution (it must
// pass), and every explore task over its sliders' whole grid, where that
// grid is small enough (it must be reachable). Quizzes' answers are
// computed when the lesson is parsed. Each problem names its file and
// line.
func Check(l *Lesson) []*Error {
	errs, _ := check(l)
	return errs
}

// check is Check, which also returns the results of the lesson's code
// cells, run in order as one program (nil if it has none), for a caller
// that looks further into them without running the lesson again.
func check(l *Lesson) (errs []*Error, results []kernel.CellResult) {
	add := func(line int, format string, args ...any) {
		errs = append(errs, &Error{File: l.File, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	var srcs []string
	var code []*Cell
	for _, c := range l.Cells {
		if c.Kind == "python" {
			srcs = append(srcs, c.Source)
			code = append(code, c)
		}
	}
	if len(srcs) > 0 {
		results = notebook.NewSession().Run(kernel.Request{Cells: srcs, Fresh: true}).Cells
		for i, r := range results {
			c := code[i]
			if e := r.Err; e != nil && !e.Above {
				line := c.Line
				if e.Line > 0 && e.Cell == i && e.Where == "" {
					line += e.Line
				}
				msg := e.Msg
				if e.Where != "" {
					msg += " (" + e.Where + ")"
				}
				add(line, "cell %s: %s", c.ID, msg)
			}
			for _, ch := range r.Checks {
				if !ch.Passed {
					line := c.Line
					if ch.Line > 0 {
						line += ch.Line
					}
					add(line, "cell %s: %s", c.ID, ch.Text)
				}
			}
		}
	}
	for _, c := range l.Cells {
		switch c.Kind {
		case "exercise":
			x, err := block.ParseExercise(c.ID, c.Source)
			if err == nil {
				err = x.Verify()
			}
			if err != nil {
				e := c.errorAt(err)
				e.File = l.File
				errs = append(errs, e)
			}
		case "explore":
			e, err := block.ParseExplore(c.ID, c.Source)
			if err != nil {
				continue // Parse said so already
			}
			for _, t := range unreachable(e) {
				add(c.Line+t.Line, "explore %s: task %s can never be met: no setting of the sliders (their ranges and steps) satisfies %s", c.ID, t.ID, t.Cond)
			}
		}
	}
	return errs, results
}

// unreachable returns the tasks that no point of the sliders' grid meets,
// or nil if the grid is too large to search.
func unreachable(e *block.Explore) []block.Task {
	size := 1.0
	var axes [][]float64
	for _, s := range e.Leaves {
		var xs []float64
		n := math.Floor((s.Max-s.Min)/s.Step+1e-9) + 1
		size *= n
		if size > gridLimit {
			return nil
		}
		for k := 0.0; k < n; k++ {
			xs = append(xs, s.Min+k*s.Step)
		}
		xs = append(xs, s.Start)
		axes = append(axes, xs)
	}
	met := make([]bool, len(e.Tasks))
	left := len(met)
	at := map[string]float64{}
	var walk func(i int) bool
	walk = func(i int) bool {
		if i == len(axes) {
			_, _, done, err := e.State(at)
			if err != nil {
				return false
			}
			for k, d := range done {
				if d && !met[k] {
					met[k] = true
					left--
				}
			}
			return left == 0
		}
		for _, x := range axes[i] {
			at[e.Leaves[i].Name] = x
			if walk(i + 1) {
				return true
			}
		}
		return false
	}
	walk(0)
	var out []block.Task
	for k, t := range e.Tasks {
		if !met[k] {
			out = append(out, t)
		}
	}
	return out
}

// CheckDirs loads and checks every lesson in the folders, going on past
// a lesson that does not parse, and returns every problem, sorted by file
// and line, with how many lessons it checked.
func CheckDirs(dirs ...string) (int, []*Error) {
	lessons, errs := Load(dirs...)
	n := 0
	for _, l := range lessons {
		if l.Problem == nil {
			n++
			errs = append(errs, Check(l)...)
		}
	}
	sort.SliceStable(errs, func(i, j int) bool {
		if errs[i].File != errs[j].File {
			return errs[i].File < errs[j].File
		}
		return errs[i].Line < errs[j].Line
	})
	return n, errs
}
