package library

import (
	"go.starlark.net/starlark"

	"gradbook/notebook/kernel"
)

// Builtins returns the built-ins of the library.
func Builtins() []kernel.Builtin { return builtins }

// builtins are the library's built-ins, under the file that defines each
// (README's "Where things go" names it, and a test checks it).
var builtins = []kernel.Builtin{
	// graphs.go: the lessons' graphs in their list format.
	{Name: "evaluate", Fn: evaluateBuiltin},
	{Name: "backward", Fn: backwardBuiltin},
	{Name: "show", Fn: showBuiltin},
	// check.go: the checks.
	{Name: "check", Fn: checkBuiltin},
	{Name: "grad_check", Fn: gradCheckBuiltin},
	// math.go: Starlark's math module, and round as Python 3 rounds.
	{Name: "math", Value: mathModule},
	{Name: "round", Fn: roundBuiltin},
	// plots.go: a plot under the cell.
	{Name: "plot", Fn: plotBuiltin},
	{Name: "scatter", Fn: scatterBuiltin},
	{Name: "boundary", Fn: boundaryBuiltin},
	{Name: "heatmap", Fn: heatmapBuiltin},
	{Name: "hist", Fn: histBuiltin},
	// data.go: seeded data sets and starting weights.
	{Name: "moons", Fn: moonsBuiltin},
	{Name: "uniform", Fn: uniformBuiltin},
	{Name: "sum", Fn: sumBuiltin},
	// datafiles.go: the data files a run is handed.
	{Name: "names", Fn: namesBuiltin},
	{Name: "shakespeare", Fn: shakespeareBuiltin},
	// random.go: the seeded random module.
	{Name: "random", Members: randomModuleMembers},
	// forward.go: forward mode.
	{Name: "jvp", Fn: jvpBuiltin},
	{Name: "jacobian", Fn: jacobianBuiltin},
}

// NewPart returns the part of a new chain of cells that the library
// keeps: the random module's generator (random.go). A Session of the
// cell language makes one for each.
func NewPart() kernel.Part { return new(randomPart) }

// Shadows returns the names that src, a cell, binds at its top level that
// an exercise's hidden tests rely on: Starlark's own built-ins (len, str,
// fail, …) and Gradbook's check, grad_check, Value, trace, sum, round and
// math, in the order src binds them; nil if it does not parse. Learner
// code may define its own backward or evaluate (exercises ask for them),
// but not replace what the tests check with.
func Shadows(src string) []string {
	f, err := kernel.Parse("cell", src)
	if err != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, n := range kernel.BoundNames(f) {
		_, universal := starlark.Universe[n]
		if (universal || testedWith[n]) && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// testedWith are the built-ins of Gradbook that hidden tests check with.
var testedWith = map[string]bool{"check": true, "grad_check": true, "Value": true, "trace": true, "sum": true, "round": true, "math": true}
