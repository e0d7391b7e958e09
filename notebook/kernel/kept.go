package kernel

import (
	"slices"

	"go.starlark.net/starlark"
)

// A run's state after a cell is its environment (env.go). It is kept,
// keyed by the sources of the cells up to that cell, so that running a
// cell whose cells above are unchanged starts from there instead of
// running them again: the plot under a training cell does not train
// again. Two rules keep that invisible, so that a result never depends on
// what ran before:
//
//   - When a cell ends, every value in the environment is frozen: a later
//     cell cannot append to a list or change a dict that a cell above made
//     (it gets an error saying so; it can make a copy).
//   - Values and tensors stay changeable (a training step sets .value,
//     backward sets .grad), so a kept state records, through the parts
//     they belong to (parts.go), the number, gradient and label of every
//     Value it can reach and the numbers of every tensor, and puts them
//     back when a run starts from it.

// lineage is what the cells of one chain share across the runs of a
// Session: the environment, one map read by every function they define,
// and the parts of other packages (parts.go).
type lineage struct {
	env   starlark.StringDict
	parts []Part
}

func (s *Session) newLineage() *lineage {
	env := make(starlark.StringDict, len(s.builtins)+1)
	for k, v := range s.builtins {
		env[k] = v
	}
	env[setName] = starlark.NewBuiltin(setName, setBuiltin)
	l := &lineage{env: env}
	if s.newParts != nil {
		l.parts = s.newParts()
	}
	return l
}

// snapshot is the state after a cell.
type snapshot struct {
	srcs  []string // the sources of the cells up to this one
	lin   *lineage
	env   starlark.StringDict
	res   CellResult
	drawn bool     // res holds the cell's drawings
	parts []func() // what puts each of lin.parts back (Part.Keep)
	cost  int      // what it holds, in numbers: the parts' cost
}

// restore puts the lineage back as it was after the cell.
func (s *snapshot) restore() {
	clear(s.lin.env)
	for k, v := range s.env {
		s.lin.env[k] = v
	}
	for _, restore := range s.parts {
		restore()
	}
}

// take freezes the environment and records it, with what each part
// keeps of the changeable values it reaches.
func take(lin *lineage, srcs []string, res CellResult) *snapshot {
	s := &snapshot{srcs: slices.Clone(srcs), lin: lin, env: make(starlark.StringDict, len(lin.env)), res: res}
	held := make([][]Changeable, len(lin.parts))
	seen := map[starlark.Value]bool{}
	var walk func(x starlark.Value, depth int)
	walk = func(x starlark.Value, depth int) {
		if depth > 1000 {
			return
		}
		switch x := x.(type) {
		case Changeable:
			p := x.KeptBy()
			for i := range lin.parts {
				if lin.parts[i] == p {
					held[i] = append(held[i], x)
				}
			}
			return
		case *starlark.List, *starlark.Dict, *starlark.Function, *starlark.Set:
			if seen[x] {
				return
			}
			seen[x] = true
		}
		switch x := x.(type) {
		case *starlark.List:
			for i := range x.Len() {
				walk(x.Index(i), depth+1)
			}
		case starlark.Tuple:
			for _, y := range x {
				walk(y, depth+1)
			}
		case *starlark.Dict:
			for _, kv := range x.Items() {
				walk(kv[0], depth+1)
				walk(kv[1], depth+1)
			}
		case *starlark.Function:
			for i := range x.NumParams() {
				if d := x.ParamDefault(i); d != nil {
					walk(d, depth+1)
				}
			}
			for i := range x.NumFreeVars() {
				_, v := x.FreeVar(i)
				walk(v, depth+1)
			}
		}
	}
	for k, v := range lin.env {
		v.Freeze()
		s.env[k] = v
		walk(v, 0)
	}
	s.parts = make([]func(), len(lin.parts))
	for i, p := range lin.parts {
		var cost int
		s.parts[i], cost = p.Keep(held[i])
		s.cost += cost
	}
	return s
}

// keptStates are a Session's latest snapshots, within limits.
type keptStates struct {
	list  []*snapshot // oldest first
	saved int         // numbers recorded, over all snapshots
}

// Limits of what a Session keeps: it holds the graphs of its snapshots.
const (
	maxSnapshots = 64
	maxSaved     = 2_000_000
)

// prefix returns the kept snapshots after cells 1, 2, … k of srcs, for
// the largest k for which it keeps them all.
func (c *keptStates) prefix(srcs []string) []*snapshot {
	byLen := make([]*snapshot, len(srcs))
	for _, s := range c.list {
		if k := len(s.srcs); k >= 1 && k <= len(srcs) && slices.Equal(s.srcs, srcs[:k]) {
			byLen[k-1] = s
		}
	}
	var out []*snapshot
	for _, s := range byLen {
		if s == nil {
			break
		}
		out = append(out, s)
		c.touch(s)
	}
	return out
}

func (c *keptStates) touch(s *snapshot) {
	if i := slices.Index(c.list, s); i >= 0 {
		c.list = append(append(c.list[:i:i], c.list[i+1:]...), s)
	}
}

func (c *keptStates) put(s *snapshot) {
	c.list = slices.DeleteFunc(c.list, func(t *snapshot) bool {
		if slices.Equal(t.srcs, s.srcs) {
			c.saved -= t.cost
			return true
		}
		return false
	})
	c.list = append(c.list, s)
	c.saved += s.cost
	for len(c.list) > 1 && (len(c.list) > maxSnapshots || c.saved > maxSaved) {
		c.saved -= c.list[0].cost
		c.list = c.list[1:]
	}
}

// forget drops every kept state: the next run computes everything again.
func (c *keptStates) forget() {
	c.list, c.saved = nil, 0
}
