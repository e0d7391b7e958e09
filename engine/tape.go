package engine

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"gradbook/internal/words"
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
	// RecursiveBug is the other classic bug of a first backward pass: a
	// recursion in visiting order instead of reverse topological order
	// (see ReverseRecursive), so a value reused by later ones passes its
	// gradient on before all of it has arrived, or more than once.
	RecursiveBug
	// TwiceBug is the slip of calling backward a second time without
	// zeroing the gradients in between: every gradient comes out twice
	// the right one, as a leaf's does in PyTorch or micrograd.
	TwiceBug
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
	labels    map[int32]string // compiled from Values: the labelled slots' labels
	lazyNames sync.Once        // makes names for a tape compiled from Values
	slots     map[string]int32 // the slot of each name, when compiled from a Graph
	leaves    int
	code      []instr
	firstUser []int32 // for each leaf slot, the first node that uses it
}

// Compile checks g and resolves its names. It reports the first problem:
// an empty name, an unknown op, a wrong number of inputs, a name defined
// twice, or an input that is used before it is defined.
func Compile(g Graph) (*Tape, error) {
	n := len(g)
	if n > MaxNodes {
		return nil, fmt.Errorf("%w: the graph has %d nodes; at most %d are allowed", ErrTooLarge, n, MaxNodes)
	}
	// entry[name] is the index of the entry that defines name.
	entry := make(map[string]int32, n)
	t := &Tape{code: make([]instr, n)}
	for i, nd := range g {
		if err := checkName(i, g, nd.Name); err != nil {
			return nil, err
		}
		c, ok := opNamed(nd.Op)
		if !ok {
			if nd.Op == "" {
				return nil, nodeErr(nd.Name, ErrUnknownOp, "the op is missing (known ops: %s)", knownOps())
			}
			return nil, nodeErr(nd.Name, ErrUnknownOp, "unknown op %q (known ops: %s)", nd.Op, knownOps())
		}
		o := ops[c]
		if len(nd.Inputs) != o.arity {
			return nil, nodeErr(nd.Name, ErrArity, "%s takes %s, got %d", o.name, words.Count(o.arity, "input"), len(nd.Inputs))
		}
		if o.konst {
			if math.IsNaN(nd.K) || math.IsInf(nd.K, 0) {
				return nil, nodeErr(nd.Name, ErrBadNumber, "the exponent of pow must be a finite number, got %v", nd.K)
			}
		} else if nd.K != 0 {
			return nil, nodeErr(nd.Name, ErrArity, "%s takes no constant, got %v", o.name, nd.K)
		}
		if prev, ok := entry[nd.Name]; ok {
			return nil, nodeErr(nd.Name, ErrDuplicate, "defined twice, by entries %d and %d", prev+1, i+1)
		}
		entry[nd.Name] = int32(i)
		t.code[i] = instr{op: c, k: nd.K}
	}

	// Resolve inputs: nodes are coded as ^index (negative) until the number
	// of leaves is known, leaves as their slot, in order of first use.
	leafSlot := map[string]int32{}
	var leafNames []string
	for i, nd := range g {
		c := &t.code[i]
		refs := [2]*int32{&c.a, &c.b}
		for p, in := range nd.Inputs {
			if in == "" {
				return nil, nodeErr(nd.Name, ErrEmptyName, "input %d has an empty name", p+1)
			}
			if strings.IndexByte(in, 0) >= 0 {
				return nil, nodeErr(nd.Name, ErrSyntax, "input %q contains a NUL character", in)
			}
			d, isNode := entry[in]
			switch {
			case !isNode:
				s, ok := leafSlot[in]
				if !ok {
					s = int32(len(leafNames))
					leafSlot[in] = s
					leafNames = append(leafNames, in)
					t.firstUser = append(t.firstUser, int32(i))
				}
				*refs[p] = s
			case d == int32(i):
				return nil, nodeErr(nd.Name, ErrUndefined, "uses itself as an input")
			case d > int32(i):
				return nil, nodeErr(nd.Name, ErrUndefined, "input %q is not defined earlier: it is entry %d, after this one (entry %d)", in, d+1, i+1)
			default:
				*refs[p] = ^d
			}
		}
		if len(nd.Inputs) == 1 {
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
	t.slots = leafSlot
	for i, nd := range g {
		t.names[t.leaves+i] = nd.Name
		t.slots[nd.Name] = L + int32(i)
	}
	return t, nil
}

// checkName reports whether the name of entry i of g may name a node.
func checkName(i int, g Graph, name string) error {
	if strings.IndexByte(name, 0) >= 0 {
		return fmt.Errorf("entry %d: %w: the name %q contains a NUL character", i+1, ErrSyntax, name)
	}
	if name == "" {
		if i == 0 {
			return fmt.Errorf("entry 1: %w: every node needs a name", ErrEmptyName)
		}
		return fmt.Errorf("entry %d (after node %q): %w: every node needs a name", i+1, g[i-1].Name, ErrEmptyName)
	}
	return nil
}

// NumLeaves returns how many leaves the graph uses.
func (t *Tape) NumLeaves() int { return t.leaves }

// NumNodes returns how many nodes the graph has.
func (t *Tape) NumNodes() int { return len(t.code) }

// Names returns the name of every slot: the leaves, then the nodes.
// The caller must not change it.
func (t *Tape) Names() []string {
	t.lazyNames.Do(t.makeNames)
	return t.names
}

// makeNames names the slots of a tape compiled from Values, if it has no
// names: a value's label, else "v" and its slot.
func (t *Tape) makeNames() {
	if t.names != nil {
		return // compiled from a Graph
	}
	t.names = make([]string, t.leaves+len(t.code))
	for s := range t.names {
		if l := t.labels[int32(s)]; l != "" {
			t.names[s] = l
		} else {
			t.names[s] = "v" + strconv.Itoa(s)
		}
	}
}

// Slot returns the slot of a leaf or node.
func (t *Tape) Slot(name string) (int, bool) {
	s, ok := t.slots[name]
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
	bad := 0.0 // y*0 is NaN where y is NaN or ±Inf, so bad ends NaN if any y is
	for i := range t.code {
		c := &t.code[i]
		var y float64
		switch c.op { // the common ops written out, the rest through forward
		case opAdd:
			y = v[c.a] + v[c.b]
		case opSub:
			y = v[c.a] - v[c.b]
		case opMul:
			y = v[c.a] * v[c.b]
		case opRelu:
			y = relu(v[c.a])
		default:
			y = forward(c.op, v[c.a], v[c.b], c.k)
		}
		out[i] = y
		bad += y * 0
	}
	if bad == 0 {
		return nil
	}
	for i, y := range out {
		if y-y != 0 {
			return t.diagnose(v, i)
		}
	}
	return nil
}

func (t *Tape) diagnose(v []float64, i int) error {
	c := t.code[i]
	names := t.Names()
	name := names[t.leaves+i]
	a, b := v[c.a], v[c.b]
	an, bn := names[c.a], names[c.b]
	switch {
	case c.op == opDiv && b == 0:
		return nodeErr(name, ErrDivByZero, "division by zero: %s / %s with %s = 0", an, bn, bn)
	case c.op == opLog && a <= 0:
		return nodeErr(name, ErrLogDomain, "log of a non-positive number: %s = %v", an, a)
	case ops[c.op].arity == 2:
		return nodeErr(name, ErrNotFinite, "%s(%s = %v, %s = %v) is %v", ops[c.op].name, an, a, bn, b, v[t.leaves+i])
	case ops[c.op].konst:
		return nodeErr(name, ErrNotFinite, "%s(%s = %v, %v) is %v", ops[c.op].name, an, a, c.k, v[t.leaves+i])
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
	if mode == RecursiveBug {
		t.ReverseRecursive(vals, grads, out)
		return
	}
	if mode == TwiceBug {
		reverse(code, v, g, t.leaves)
		for s := range g {
			g[s] += g[s]
		}
		return
	}
	if mode == OverwriteBug {
		for i := len(code) - 1; i >= 0; i-- {
			c := code[i]
			up := g[t.leaves+i]
			da, db := local(c.op, v[c.a], v[c.b], c.k, v[t.leaves+i])
			g[c.a] = up * da // the bug: '=' where '+=' belongs
			if ops[c.op].arity == 2 {
				g[c.b] = up * db
			}
		}
		return
	}
	reverse(code, v, g, t.leaves)
}

// reverse is the reverse pass over code, whose node i is slot base+i:
// every node adds its gradient times each local derivative into its
// inputs' gradients. The common ops are written out, the rest go through
// local.
func reverse(code []instr, v, g []float64, base int) {
	for i := len(code) - 1; i >= 0; i-- {
		up := g[base+i]
		if up == 0 {
			continue
		}
		c := &code[i]
		switch c.op {
		case opAdd:
			g[c.a] += up
			g[c.b] += up
		case opSub:
			g[c.a] += up
			g[c.b] -= up
		case opMul:
			g[c.a] += up * v[c.b]
			g[c.b] += up * v[c.a]
		default:
			da, db := local(c.op, v[c.a], v[c.b], c.k, v[base+i])
			g[c.a] += up * da
			g[c.b] += up * db // db is 0 for one-input ops, whose b is a
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
