package notebook

import (
	"math/rand/v2"
	"slices"

	"go.starlark.net/starlark"

	"gradbook/engine"
	"gradbook/tensor"
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
//   - Values stay changeable (a training step sets .value, backward sets
//     .grad), so a kept state records the number, gradient and label of
//     every Value it can reach, and puts them back when a run starts from
//     it.

// lineage is what the cells of one chain share across the runs of a
// Session: the environment, one map read by every function they define,
// and the run going on now, which Values made in earlier runs report to.
type lineage struct {
	env  starlark.StringDict
	cur  *runState
	size int               // Values in its last snapshot
	rng  *rand.PCG         // the random module's generator, nil until drawn from
	trng *tensor.Generator // torch's, nil until drawn from
	// saved holds the numbers of each tensor as the last snapshot saved
	// them: a tensor that has not changed since (a data set) shares them
	// instead of being copied again.
	saved map[*tensor.Tensor][]float64
}

func newLineage() *lineage {
	env := builtins()
	env[setName] = starlark.NewBuiltin(setName, setBuiltin)
	return &lineage{env: env}
}

// snapshot is the state after a cell.
type snapshot struct {
	srcs     []string // the sources of the cells up to this one
	lin      *lineage
	env      starlark.StringDict
	values   []savedValue
	res      CellResult
	names    map[*engine.Value]string // the names this cell gave Values
	drawn    bool                     // res holds the cell's drawings
	rng      []byte                   // the random generator's state, if it was used
	trng     []byte                   // torch's generator's state, if it was used
	tensors  []savedTensor
	elements int // the numbers tensors holds
}

type savedTensor struct {
	t            *tensor.Tensor
	data         []float64
	grad         *tensor.Tensor // the gradient tensor, whose numbers are in gdata
	gdata        []float64
	requiresGrad bool
}

// cost is what the snapshot holds, in Values and numbers.
func (s *snapshot) cost() int { return len(s.values) + s.elements }

type savedValue struct {
	v          *engine.Value
	data, grad float64
	label      string
}

// restore puts the lineage back as it was after the cell.
func (s *snapshot) restore() {
	clear(s.lin.env)
	for k, v := range s.env {
		s.lin.env[k] = v
	}
	for _, sv := range s.values {
		sv.v.Data, sv.v.Grad, sv.v.Label = sv.data, sv.grad, sv.label
	}
	for _, st := range s.tensors {
		copy(st.t.Data(), st.data)
		st.t.Grad = st.grad
		if st.grad != nil {
			copy(st.grad.Data(), st.gdata)
		}
		if st.t.IsLeaf() {
			st.t.SetRequiresGrad(st.requiresGrad)
		}
	}
	s.lin.trng = nil
	if s.trng != nil {
		s.lin.trng = new(tensor.Generator)
		if err := s.lin.trng.UnmarshalBinary(s.trng); err != nil {
			panic(err) // what MarshalBinary wrote
		}
	}
	s.lin.rng = nil
	if s.rng != nil {
		s.lin.rng = new(rand.PCG)
		if err := s.lin.rng.UnmarshalBinary(s.rng); err != nil {
			panic(err) // what MarshalBinary wrote
		}
	}
}

// take freezes the environment and records it, with every Value it
// reaches.
func take(lin *lineage, srcs []string, res CellResult, names map[*engine.Value]string) *snapshot {
	s := &snapshot{srcs: slices.Clone(srcs), lin: lin, env: make(starlark.StringDict, len(lin.env)), res: res, names: names}
	if lin.rng != nil {
		s.rng, _ = lin.rng.MarshalBinary() // never fails
	}
	if lin.trng != nil {
		s.trng, _ = lin.trng.MarshalBinary() // never fails
	}
	seen := map[starlark.Value]bool{}
	var roots []*engine.Value
	var troots []*tensor.Tensor
	var walk func(x starlark.Value, depth int)
	walk = func(x starlark.Value, depth int) {
		if depth > 1000 {
			return
		}
		switch x := x.(type) {
		case *Value:
			roots = append(roots, x.v)
			return
		case *Tensor:
			troots = append(troots, x.t)
			return
		case *maxPair:
			troots = append(troots, x.values.t, x.indices.t)
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
	// Every Value the kept ones were made from: backward reaches them.
	// Sized as the lineage's last snapshot was: the graphs are mostly the
	// same.
	s.values = make([]savedValue, 0, lin.size)
	engine.Reach(roots, func(v *engine.Value) {
		s.values = append(s.values, savedValue{v, v.Data, v.Grad, v.Label})
	})
	lin.size = len(s.values)
	// Every tensor the kept ones were made from, and their gradients.
	tseen := map[*tensor.Tensor]bool{}
	saved := make(map[*tensor.Tensor][]float64, len(lin.saved))
	keep := func(t *tensor.Tensor) []float64 {
		if prev, ok := lin.saved[t]; ok && slices.Equal(prev, t.Data()) {
			saved[t] = prev
			return prev
		}
		c := slices.Clone(t.Data())
		s.elements += len(c)
		saved[t] = c
		return c
	}
	for _, r := range troots {
		if tseen[r] {
			continue
		}
		for _, t := range tensor.Topo(r) {
			if tseen[t] {
				continue
			}
			tseen[t] = true
			sv := savedTensor{t: t, data: keep(t), grad: t.Grad, requiresGrad: t.RequiresGrad()}
			if t.Grad != nil {
				sv.gdata = keep(t.Grad)
			}
			s.tensors = append(s.tensors, sv)
		}
	}
	lin.saved = saved
	return s
}

// keptStates are a Session's latest snapshots, within limits.
type keptStates struct {
	list  []*snapshot // oldest first
	saved int         // Values recorded, over all snapshots
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
			c.saved -= t.cost()
			return true
		}
		return false
	})
	c.list = append(c.list, s)
	c.saved += s.cost()
	for len(c.list) > 1 && (len(c.list) > maxSnapshots || c.saved > maxSaved) {
		c.saved -= c.list[0].cost()
		c.list = c.list[1:]
	}
}

// forget drops every kept state: the next run computes everything again.
func (c *keptStates) forget() {
	c.list, c.saved = nil, 0
}
