package engine

import (
	"fmt"
	"math"
	"strings"
)

// MaxNodes is the largest graph Compile accepts, so that a huge graph gets
// an error instead of exhausting memory (a WebAssembly program cannot
// recover from that).
const MaxNodes = 5_000_000

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
	ids       []int32          // the slot of each name id, -1 if unused
	byName    map[string]int32 // the id of each name, when compiled from a Graph
	leaves    int
	code      []instr
	firstUser []int32 // for each leaf slot, the first node that uses it
}

// Compile checks g and resolves its names. It reports the first problem:
// an empty name, an unknown op, a wrong number of inputs, a name defined
// twice, or an input that is used before it is defined.
func Compile(g Graph) (*Tape, error) {
	e, ids := Encode(g)
	t, err := CompileEncoded(e)
	if err != nil {
		return nil, err
	}
	t.byName = ids
	return t, nil
}

// Encoded is a graph with its names numbered: the compact form in which
// the JavaScript API hands a graph over. Names[id] is a name and Ops[id] an
// op's name; Code holds five numbers for each node, in forward order: the
// id of its name, the id of its op, its number of inputs and the ids of its
// first two inputs (-1 where there is none). K holds each node's constant.
type Encoded struct {
	Names []string
	Ops   []string
	Code  []int32
	K     []float64
}

// Encode numbers the names of g, returning the encoding and each name's id.
func Encode(g Graph) (Encoded, map[string]int32) {
	ids := make(map[string]int32, len(g)+len(g)/4)
	e := Encoded{Code: make([]int32, 0, 5*len(g)), K: make([]float64, len(g))}
	opIDs := map[string]int32{}
	id := func(name string) int32 {
		i, ok := ids[name]
		if !ok {
			i = int32(len(e.Names))
			ids[name] = i
			e.Names = append(e.Names, name)
		}
		return i
	}
	for i, n := range g {
		op, ok := opIDs[n.Op]
		if !ok {
			op = int32(len(e.Ops))
			opIDs[n.Op] = op
			e.Ops = append(e.Ops, n.Op)
		}
		in := [2]int32{-1, -1}
		nameID := id(n.Name)
		for p, name := range n.Inputs[:min(2, len(n.Inputs))] {
			in[p] = id(name)
		}
		e.Code = append(e.Code, nameID, op, int32(len(n.Inputs)), in[0], in[1])
		e.K[i] = n.K
	}
	return e, ids
}

// CompileEncoded is Compile for an encoded graph.
func CompileEncoded(e Encoded) (*Tape, error) {
	n := len(e.Code) / 5
	if n > MaxNodes {
		return nil, fmt.Errorf("%w: the graph has %d nodes; at most %d are allowed", ErrTooLarge, n, MaxNodes)
	}
	if len(e.Code) != 5*n || len(e.K) != n {
		return nil, fmt.Errorf("%w: encoded graph: %d codes and %d constants for %d nodes", ErrSyntax, len(e.Code), len(e.K), n)
	}
	opcodes := make([]int16, len(e.Ops))
	for i, name := range e.Ops {
		opcodes[i] = -1
		if c, ok := opByName[name]; ok {
			opcodes[i] = int16(c)
		}
	}
	nameOf := func(id int32) (string, bool) {
		if id < 0 || int(id) >= len(e.Names) {
			return "", false
		}
		return e.Names[id], true
	}
	// defined[id] is 1 + the entry that defines name id, or 0.
	defined := make([]int32, len(e.Names))
	t := &Tape{code: make([]instr, n)}
	for i := 0; i < n; i++ {
		c := e.Code[5*i : 5*i+5]
		name, ok := nameOf(c[0])
		if !ok || c[1] < 0 || int(c[1]) >= len(e.Ops) {
			return nil, fmt.Errorf("%w: encoded graph: entry %d refers to a name or op that does not exist", ErrSyntax, i+1)
		}
		if strings.IndexByte(name, 0) >= 0 {
			return nil, fmt.Errorf("entry %d: %w: the name %q contains a NUL character", i+1, ErrSyntax, name)
		}
		if name == "" {
			if i == 0 {
				return nil, fmt.Errorf("entry 1: %w: every node needs a name", ErrEmptyName)
			}
			prev := e.Names[e.Code[5*(i-1)]]
			return nil, fmt.Errorf("entry %d (after node %q): %w: every node needs a name", i+1, prev, ErrEmptyName)
		}
		op := opcodes[c[1]]
		if op < 0 {
			if e.Ops[c[1]] == "" {
				return nil, nodeErr(name, ErrUnknownOp, "the op is missing (known ops: %s)", knownOps())
			}
			return nil, nodeErr(name, ErrUnknownOp, "unknown op %q (known ops: %s)", e.Ops[c[1]], knownOps())
		}
		info := ops[op]
		if int(c[2]) != info.arity {
			return nil, nodeErr(name, ErrArity, "%s takes %s, got %d", info.name, plural(info.arity, "input"), c[2])
		}
		k := e.K[i]
		if info.konst {
			if math.IsNaN(k) || math.IsInf(k, 0) {
				return nil, nodeErr(name, ErrBadNumber, "the exponent of pow must be a finite number, got %v", k)
			}
		} else if k != 0 {
			return nil, nodeErr(name, ErrArity, "%s takes no constant, got %v", info.name, k)
		}
		if prev := defined[c[0]]; prev != 0 {
			return nil, nodeErr(name, ErrDuplicate, "defined twice, by entries %d and %d", prev, i+1)
		}
		defined[c[0]] = int32(i + 1)
		t.code[i] = instr{op: opcode(op), a: c[3], b: c[4], k: k}
	}

	// Resolve inputs: nodes are coded as ^index (negative) until the number
	// of leaves is known, leaves as their slot, in order of first use.
	slot := make([]int32, len(e.Names))
	for i := range slot {
		slot[i] = -1
	}
	var leafNames []string
	for i := range t.code {
		c := &t.code[i]
		name := e.Names[e.Code[5*i]]
		refs := []*int32{&c.a, &c.b}[:ops[c.op].arity]
		for p, ref := range refs {
			in, ok := nameOf(*ref)
			if !ok {
				return nil, fmt.Errorf("%w: encoded graph: node %q has an input that does not exist", ErrSyntax, name)
			}
			if in == "" {
				return nil, nodeErr(name, ErrEmptyName, "input %d has an empty name", p+1)
			}
			if strings.IndexByte(in, 0) >= 0 {
				return nil, nodeErr(name, ErrSyntax, "input %q contains a NUL character", in)
			}
			switch d := defined[*ref] - 1; {
			case d < 0: // a leaf
				if slot[*ref] < 0 {
					slot[*ref] = int32(len(leafNames))
					leafNames = append(leafNames, in)
					t.firstUser = append(t.firstUser, int32(i))
				}
				*ref = slot[*ref]
			case d == int32(i):
				return nil, nodeErr(name, ErrUndefined, "uses itself as an input")
			case d > int32(i):
				return nil, nodeErr(name, ErrUndefined, "input %q is not defined earlier: it is entry %d, after this one (entry %d)", in, d+1, i+1)
			default:
				*ref = ^d
			}
		}
		if len(refs) == 1 {
			c.b = c.a
		}
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
	t.names = append(leafNames, make([]string, n)...)
	for i := 0; i < n; i++ {
		id := e.Code[5*i]
		t.names[t.leaves+i] = e.Names[id]
		slot[id] = L + int32(i)
	}
	t.ids = slot
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
	id, ok := t.byName[name]
	if !ok || t.ids[id] < 0 {
		return 0, false
	}
	return int(t.ids[id]), true
}

// SlotOfID returns the slot of name id of the Encoded graph the Tape was
// compiled from, or -1 if the graph does not use it.
func (t *Tape) SlotOfID(id int) int {
	if id < 0 || id >= len(t.ids) {
		return -1
	}
	return int(t.ids[id])
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
