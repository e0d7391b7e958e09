package kernel

import (
	"encoding"
	"fmt"

	"go.starlark.net/starlark"
)

// A chain of cells (the cells that run one after another from a fresh
// start, and every run that starts from a state one of them left) shares
// one environment (env.go) and one Part of each package that keeps
// state of its own from run to run: the Values' numbers and the names
// cells gave them (package values), the tensors' numbers and torch's
// generator (package torch), the random module's generator (package
// library). The kernel knows none of them: it tells each part which run
// is going on and which cell ended, and asks each for what to keep with
// a cell's state, and to put it back.

// Part is one package's state in a chain of cells. A Session makes the
// parts of each new chain with the function given to NewSession.
type Part interface {
	// SetRun gives the part the run going on now on its chain: r when it
	// starts, nil when it has ended.
	SetRun(r *Run)
	// CellDone tells the part that cell has ended, having assigned the
	// names assigned with = at its top level (a Value's name in
	// drawings).
	CellDone(cell int, assigned []string)
	// Keep records what the part must put back for a run that starts
	// from the state after the cell that just ended: held are the values
	// of this part that the cell's globals reach (Changeable), which stay
	// changeable although the globals are frozen. It returns the function
	// that puts the part back as it is now, or says why it cannot (what
	// it checked instead of copying has changed since), and how many
	// numbers that holds: a Session keeps at most maxSaved over all its
	// kept states.
	Keep(held []Changeable) (restore func() error, cost int)
}

// Changeable is a value that stays changeable after the cell that made it
// ends, which freezing the globals does not stop: a Value's number and
// gradient (a training step sets .value, backward sets .grad), a
// tensor's numbers. When a cell's state is kept, the walk of its
// globals hands each one it reaches to the part it belongs to.
type Changeable interface {
	starlark.Value
	// KeptBy returns the part that records the value's state.
	KeptBy() Part
}

// PartOf returns the part of type P of the chain whose run thread runs,
// or P's zero value outside a run.
func PartOf[P Part](thread *starlark.Thread) P {
	p, _ := partOf[P](thread)
	return p
}

// partOf is PartOf, and whether thread runs a chain with a part of type P.
func partOf[P Part](thread *starlark.Thread) (P, bool) {
	if r := RunOf(thread); r != nil {
		for _, p := range r.lin.parts {
			if q, ok := p.(P); ok {
				return q, true
			}
		}
	}
	var zero P
	return zero, false
}

// SeedBuiltin returns the built-in name(n) of a package whose part P keeps
// a generator: in a cell's run, seed(p, n) starts p's generator again
// from n (random.seed, torch.manual_seed).
func SeedBuiltin[P Part](seed func(p P, n int64)) func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var n int64
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &n); err != nil {
			return nil, err
		}
		p, ok := partOf[P](thread)
		if !ok {
			return nil, fmt.Errorf("%s: only a cell can seed the generator", b.Name())
		}
		seed(p, n)
		return starlark.None, nil
	}
}

// A generator is a part's random generator whose state a kept state
// records: *rand.PCG, *tensor.Generator.
type generator[G any] interface {
	*G
	encoding.BinaryMarshaler
	encoding.BinaryUnmarshaler
}

// KeepGenerator records where g is (nil: not drawn from yet) and returns
// what makes it again: a generator that goes on from there, or nil.
func KeepGenerator[G any, P generator[G]](g P) (again func() P) {
	if g == nil {
		return func() P { return nil }
	}
	state, _ := g.MarshalBinary() // never fails
	return func() P {
		p := P(new(G))
		if err := p.UnmarshalBinary(state); err != nil {
			panic(err) // what MarshalBinary wrote
		}
		return p
	}
}
