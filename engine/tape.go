package engine

import (
	"fmt"
	"math"
	"slices"
)

// Mode chooses how the reverse pass combines the contributions that reach
// a value.
type Mode int

const (
	// Accumulate adds every contribution: the chain rule, and the default.
	Accumulate Mode = iota
	// OverwriteBug is a teaching mode that reproduces the classic autograd
	// bug: each contribution replaces the gradient instead of adding to
	// it, so a value used twice keeps only the last one. Never train with it.
	OverwriteBug
)

// instr is one compiled node: op applied to the slots a and b (b equals a
// for one-input ops) with constant k.
type instr struct {
	op   opcode
	a, b int32
	k    float64
}

// Tape is a compiled graph: names resolved once to slots, values and
// gradients kept in flat slices. Slots 0..NumLeaves()-1 hold the leaves the
// graph uses, in order of first use; node i of the graph is slot
// NumLeaves()+i. A Tape is immutable and may be shared between goroutines;
// each run brings its own slices.
type Tape struct {
	names     []string
	slot      map[string]int32
	leaves    int
	code      []instr
	firstUser []int32 // for each leaf slot, the first node that uses it
}

// Compile checks g and resolves its names. It reports the first problem:
// an empty name, an unknown op, a wrong number of inputs, a name defined
// twice, or an input that is used before it is defined.
func Compile(g Graph) (*Tape, error) {
	entry := make(map[string]int32, len(g))
	for i, n := range g {
		if n.Name == "" {
			if i == 0 {
				return nil, fmt.Errorf("entry 1: %w: every node needs a name", ErrEmptyName)
			}
			return nil, fmt.Errorf("entry %d (after node %q): %w: every node needs a name", i+1, g[i-1].Name, ErrEmptyName)
		}
		op, ok := opByName[n.Op]
		if !ok {
			if n.Op == "" {
				return nil, nodeErr(n.Name, ErrUnknownOp, "the op is missing (known ops: %s)", knownOps())
			}
			return nil, nodeErr(n.Name, ErrUnknownOp, "unknown op %q (known ops: %s)", n.Op, knownOps())
		}
		info := ops[op]
		if len(n.Inputs) != info.arity {
			return nil, nodeErr(n.Name, ErrArity, "%s takes %s, got %d", info.name, plural(info.arity, "input"), len(n.Inputs))
		}
		if info.konst {
			if math.IsNaN(n.K) || math.IsInf(n.K, 0) {
				return nil, nodeErr(n.Name, ErrBadNumber, "the exponent of pow must be a finite number, got %v", n.K)
			}
		} else if n.K != 0 {
			return nil, nodeErr(n.Name, ErrArity, "%s takes no constant, got %v", info.name, n.K)
		}
		if prev, dup := entry[n.Name]; dup {
			return nil, nodeErr(n.Name, ErrDuplicate, "defined twice, by entries %d and %d", prev+1, i+1)
		}
		entry[n.Name] = int32(i)
	}

	t := &Tape{code: make([]instr, len(g)), slot: entry}
	var leafNames []string
	// Nodes are first coded as ^index (negative), leaves as their slot;
	// once the number of leaves is known, nodes move after them.
	for i, n := range g {
		var ref [2]int32
		for p, in := range n.Inputs {
			if in == "" {
				return nil, nodeErr(n.Name, ErrEmptyName, "input %d has an empty name", p+1)
			}
			j, known := entry[in]
			switch {
			case !known:
				j = int32(len(leafNames))
				entry[in] = ^j
				leafNames = append(leafNames, in)
				t.firstUser = append(t.firstUser, int32(i))
				ref[p] = j
			case j < 0:
				ref[p] = ^j // a leaf seen before
			case j == int32(i):
				return nil, nodeErr(n.Name, ErrUndefined, "uses itself as an input")
			case j > int32(i):
				return nil, nodeErr(n.Name, ErrUndefined, "input %q is not defined earlier: it is entry %d, after this one (entry %d)", in, j+1, i+1)
			default:
				ref[p] = ^j
			}
		}
		if len(n.Inputs) == 1 {
			ref[1] = ref[0]
		}
		t.code[i] = instr{op: opByName[n.Op], a: ref[0], b: ref[1], k: n.K}
	}
	L := int32(len(leafNames))
	for i := range t.code {
		c := &t.code[i]
		if c.a < 0 {
			c.a = L + ^c.a
		}
		if c.b < 0 {
			c.b = L + ^c.b
		}
	}
	t.leaves = len(leafNames)
	t.names = append(leafNames, make([]string, len(g))...)
	for s, name := range leafNames {
		entry[name] = int32(s)
	}
	for i, n := range g {
		t.names[t.leaves+i] = n.Name
		entry[n.Name] = L + int32(i)
	}
	return t, nil
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// NumLeaves returns how many leaves the graph uses.
func (t *Tape) NumLeaves() int { return t.leaves }

// NumNodes returns how many nodes the graph has.
func (t *Tape) NumNodes() int { return len(t.code) }

// Names returns the name of every slot: the leaves, then the nodes.
// The caller must not change it.
func (t *Tape) Names() []string { return t.names }

// Slot returns the slot of a leaf or node.
func (t *Tape) Slot(name string) (int, bool) {
	s, ok := t.slot[name]
	return int(s), ok
}

// Inputs returns the slots of the inputs of slot s (none for a leaf).
func (t *Tape) Inputs(s int) []int {
	if s < t.leaves {
		return nil
	}
	c := t.code[s-t.leaves]
	if ops[c.op].arity == 1 {
		return []int{int(c.a)}
	}
	return []int{int(c.a), int(c.b)}
}

// Op returns the op of slot s, or "" for a leaf.
func (t *Tape) Op(s int) string {
	if s < t.leaves {
		return ""
	}
	return ops[t.code[s-t.leaves].op].name
}

// Forward computes every node's value into vals, whose first NumLeaves()
// entries must hold the leaf values and whose length must be
// NumLeaves()+NumNodes(). It reports the first node whose value is not
// finite, and why: a division by zero, the log of a non-positive number,
// or an overflow.
func (t *Tape) Forward(vals []float64) error {
	v := vals[:t.leaves+len(t.code)]
	out := v[t.leaves:]
	for i, c := range t.code {
		out[i] = forward(c.op, v[c.a], v[c.b], c.k)
	}
	for i, y := range out {
		if y-y != 0 { // NaN or ±Inf
			return t.diagnose(v, i)
		}
	}
	return nil
}

func (t *Tape) diagnose(v []float64, i int) error {
	c := t.code[i]
	name := t.names[t.leaves+i]
	a, b := v[c.a], v[c.b]
	an, bn := t.names[c.a], t.names[c.b]
	switch {
	case c.op == opDiv && b == 0:
		return nodeErr(name, ErrDivByZero, "division by zero: %s / %s with %s = 0", an, bn, bn)
	case c.op == opLog && a <= 0:
		return nodeErr(name, ErrLogDomain, "log of a non-positive number: %s = %v", an, a)
	case ops[c.op].arity == 2:
		return nodeErr(name, ErrNotFinite, "%s(%s = %v, %s = %v) is %v", ops[c.op].name, an, a, bn, b, v[t.leaves+i])
	case c.op == opPow:
		return nodeErr(name, ErrNotFinite, "pow(%s = %v, %v) is %v", an, a, c.k, v[t.leaves+i])
	default:
		return nodeErr(name, ErrNotFinite, "%s(%s = %v) is %v", ops[c.op].name, an, a, v[t.leaves+i])
	}
}

// Reverse runs the reverse pass from slot out, writing d(out)/d(slot) into
// grads for every slot. vals holds the values Forward computed. Nodes run
// in reverse topological order, which is the reverse of the graph's order;
// nodes after out, and every slot that does not reach out, get 0.
func (t *Tape) Reverse(vals, grads []float64, out int, mode Mode) {
	n := t.leaves + len(t.code)
	v, g := vals[:n], grads[:n]
	clear(g)
	g[out] = 1
	if out < t.leaves {
		return
	}
	code := t.code[:out-t.leaves+1]
	if mode == OverwriteBug {
		t.reverseOverwrite(v, g, code)
		return
	}
	for i := len(code) - 1; i >= 0; i-- {
		up := g[t.leaves+i]
		if up == 0 {
			continue
		}
		c := code[i]
		da, db := local(c.op, v[c.a], v[c.b], c.k, v[t.leaves+i])
		g[c.a] += up * da
		g[c.b] += up * db // db is 0 for one-input ops, whose b is a
	}
}

// reverseOverwrite is Reverse with the bug: '=' where '+=' belongs.
func (t *Tape) reverseOverwrite(v, g []float64, code []instr) {
	for i := len(code) - 1; i >= 0; i-- {
		up := g[t.leaves+i]
		c := code[i]
		da, db := local(c.op, v[c.a], v[c.b], c.k, v[t.leaves+i])
		g[c.a] = up * da
		if ops[c.op].arity == 2 {
			g[c.b] = up * db
		}
	}
}

// Contribution returns what node slot s sends to its p-th input on the
// reverse pass: its gradient times the local derivative.
func (t *Tape) Contribution(vals, grads []float64, s, p int) float64 {
	c := t.code[s-t.leaves]
	da, db := local(c.op, vals[c.a], vals[c.b], c.k, vals[s])
	if p == 0 {
		return grads[s] * da
	}
	return grads[s] * db
}

// LocalGrad returns the local derivative of node slot s with respect to its
// p-th input, at vals.
func (t *Tape) LocalGrad(vals []float64, s, p int) float64 {
	c := t.code[s-t.leaves]
	da, db := local(c.op, vals[c.a], vals[c.b], c.k, vals[s])
	if p == 0 {
		return da
	}
	return db
}

// Evaluate returns the value of every leaf in leaves and every node.
// It is an error for a leaf to be missing, not finite, or named like a node.
func (t *Tape) Evaluate(leaves map[string]float64) (map[string]float64, error) {
	vals := make([]float64, len(t.names))
	if err := t.load(leaves, vals, true); err != nil {
		return nil, err
	}
	if err := t.Forward(vals); err != nil {
		return nil, err
	}
	res := make(map[string]float64, len(leaves)+len(t.code))
	for name, x := range leaves {
		res[name] = x
	}
	for i, name := range t.names[t.leaves:] {
		res[name] = vals[t.leaves+i]
	}
	return res, nil
}

// load copies the leaf values (and, for a reverse pass, the node values)
// into vals, checking each. Problems are reported in graph order; among
// names the graph does not use, the first in sorted order.
func (t *Tape) load(values map[string]float64, vals []float64, leavesOnly bool) error {
	n := len(t.names)
	if leavesOnly {
		n = t.leaves
	}
	for s, name := range t.names[:n] {
		x, ok := values[name]
		if !ok {
			if s < t.leaves {
				user := t.firstUser[s]
				return nodeErr(t.names[t.leaves+int(user)], ErrUndefined,
					"input %q is not defined earlier: no leaf or earlier node has that name", name)
			}
			return nodeErr(name, ErrMissingValue, "has no value: pass backward the values that evaluate returned")
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			if s >= t.leaves {
				return nodeErr(name, ErrBadNumber, "its value is %v", x)
			}
			return checkNumber(name, x)
		}
		vals[s] = x
	}
	if len(values) == n {
		return nil // every name was a slot: nothing else to check
	}
	var bad []string
	for name, x := range values {
		s, used := t.slot[name]
		switch {
		case used && int(s) < n:
		case name == "" || !used && (math.IsNaN(x) || math.IsInf(x, 0)) || leavesOnly && used:
			bad = append(bad, name)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	name := slices.Min(bad)
	switch {
	case name == "":
		return fmt.Errorf("a leaf has an empty name: %w", ErrEmptyName)
	case t.slot[name] >= int32(t.leaves):
		return nodeErr(name, ErrDuplicate, "is both a leaf and a node: give the node another name")
	}
	return checkNumber(name, values[name])
}

// Backward returns d(out)/d(name) for every name in values, which must hold
// the value of every leaf and node (as Evaluate returns them). Names that do
// not reach out get 0. Each call returns a fresh map.
func (t *Tape) Backward(values map[string]float64, out string, mode Mode) (map[string]float64, error) {
	vals := make([]float64, len(t.names))
	if err := t.load(values, vals, false); err != nil {
		return nil, err
	}
	res := make(map[string]float64, len(values))
	s, ok := t.slot[out]
	if !ok {
		if _, isLeaf := values[out]; !isLeaf {
			if out == "" {
				return nil, fmt.Errorf("%w: the output name is empty", ErrNoOutput)
			}
			return nil, fmt.Errorf("%w: %q is not the name of a node or leaf", ErrNoOutput, out)
		}
		for name := range values {
			res[name] = 0
		}
		res[out] = 1
		return res, nil
	}
	grads := make([]float64, len(t.names))
	t.Reverse(vals, grads, int(s), mode)
	for name := range values {
		if s, ok := t.slot[name]; ok {
			res[name] = grads[s]
		} else {
			res[name] = 0
		}
	}
	return res, nil
}
