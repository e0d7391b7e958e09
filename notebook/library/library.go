package library

import (
	"go.starlark.net/starlark"

	"gradbook/notebook/kernel"
)

// Builtins returns the built-ins of the library: the table of each of
// its files.
func Builtins() []kernel.Builtin {
	var all []kernel.Builtin
	for _, table := range [][]kernel.Builtin{graphBuiltins, checkBuiltins, mathBuiltins, plotBuiltins, dataBuiltins, dataFileBuiltins, randomBuiltins, forwardBuiltins} {
		all = append(all, table...)
	}
	return all
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
