package engine

import (
	"math"
	"sync/atomic"
)

// Value is a scalar in an expression built with methods, micrograd style:
//
//	a, b := NewValue(2, "a"), NewValue(3, "b")
//	L := a.Mul(b).Add(NewValue(1, "c")).Sq()
//	L.Backward() // a.Grad == 42
//
// Data is computed when the Value is built; Grad is filled in by Backward.
// A Value follows the same rules as Graph: Backward runs a Tape's reverse
// pass on the Values themselves, and TapeOf compiles the expression behind
// one into a Tape.
//
// A Value is not safe for concurrent use: walking its expression marks
// the Values in it.
type Value struct {
	Data  float64
	Grad  float64
	Label string
	in    [2]*Value // in[1] is nil for one-input ops
	k     float64
	op    opcode
	node  bool // false for a leaf
	// Const marks a leaf that stands for a number the code wrote (the 2
	// in 2 * x) rather than a value of its own: drawings show it small.
	Const bool
	mark  uint32 // the walk that last reached it (see Topo)
	slot  int32  // its slot in the tape being compiled from it
}

// walks numbers the walks over Values, so that a walk marks what it has
// reached instead of keeping a set of it.
var walks uint32

// NewValue returns a leaf holding x, labelled for display.
func NewValue(x float64, label string) *Value { return &Value{Data: x, Label: label} }

func (v *Value) apply(op opcode, w *Value, k float64) *Value {
	r := new(Value)
	r.set(op, v, w, k)
	return r
}

// set makes r the node op(a, b) with constant k; b is nil for one-input ops.
func (r *Value) set(op opcode, a, b *Value, k float64) {
	y := a
	if b != nil {
		y = b
	}
	*r = Value{Data: forward(op, a.Data, y.Data, k), op: op, node: true, in: [2]*Value{a, b}, k: k}
}

// Make sets r to the op called name applied to a, or to a and b for a
// two-input op, with the constant k for pow (0 otherwise): what a.Add(b),
// a.Pow(k) or a.Apply(name) return, but in a Value the caller has, which
// can be part of an object of its own instead of a heap object for each
// Value. It reports false, leaving r as it was, if there is no such op
// or b is given for a one-input op or missing for a two-input one.
func (r *Value) Make(name string, a, b *Value, k float64) bool {
	c, ok := opNamed(name)
	if !ok || (ops[c].arity == 2) != (b != nil) || !ops[c].konst && k != 0 {
		return false
	}
	r.set(c, a, b, k)
	return true
}

// Add returns v + w.
func (v *Value) Add(w *Value) *Value { return v.apply(opAdd, w, 0) }

// Sub returns v - w.
func (v *Value) Sub(w *Value) *Value { return v.apply(opSub, w, 0) }

// Mul returns v * w.
func (v *Value) Mul(w *Value) *Value { return v.apply(opMul, w, 0) }

// Div returns v / w. Dividing by zero gives an infinite or NaN Data, as in
// IEEE arithmetic; callers that want an error check w.Data first.
func (v *Value) Div(w *Value) *Value { return v.apply(opDiv, w, 0) }

// Neg returns -v.
func (v *Value) Neg() *Value { return v.apply(opNeg, nil, 0) }

// Sq returns v².
func (v *Value) Sq() *Value { return v.apply(opSq, nil, 0) }

// Tanh returns tanh(v).
func (v *Value) Tanh() *Value { return v.apply(opTanh, nil, 0) }

// Relu returns max(0, v); its derivative at exactly 0 is 0.
func (v *Value) Relu() *Value { return v.apply(opRelu, nil, 0) }

// Exp returns eᵛ.
func (v *Value) Exp() *Value { return v.apply(opExp, nil, 0) }

// Log returns ln v.
func (v *Value) Log() *Value { return v.apply(opLog, nil, 0) }

// Sigmoid returns 1/(1+e⁻ᵛ).
func (v *Value) Sigmoid() *Value { return v.apply(opSigmoid, nil, 0) }

// Pow returns vᵏ for a constant k.
func (v *Value) Pow(k float64) *Value { return v.apply(opPow, nil, k) }

// Detach returns a stop-gradient of v: the same value, which receives a
// gradient of its own but passes none on to v.
func (v *Value) Detach() *Value { return v.apply(opDetach, nil, 0) }

// Apply returns the one-input op called name (relu, tanh, exp, …) applied
// to v, and whether there is such an op without a constant.
func (v *Value) Apply(name string) (*Value, bool) {
	c, ok := opNamed(name)
	if !ok || ops[c].arity != 1 || ops[c].konst {
		return nil, false
	}
	return v.apply(c, nil, 0), true
}

// Op returns the name of the op that made v, or "" for a leaf.
func (v *Value) Op() string {
	if !v.node {
		return ""
	}
	return ops[v.op].name
}

// Inputs returns the values v was computed from: one or two, or none for a
// leaf. x*x has the same input twice.
func (v *Value) Inputs() []*Value {
	if !v.node {
		return nil
	}
	if ops[v.op].arity == 1 {
		return []*Value{v.in[0]}
	}
	return []*Value{v.in[0], v.in[1]}
}

// Backward sets Grad to d(v)/d(u) for every u that v depends on. It first
// clears every reachable gradient, so calling it twice gives the same
// answer. It uses no recursion: any depth of expression works.
func (v *Value) Backward() { v.BackwardMode(Accumulate) }

// BackwardMode is Backward with a choice of Mode; OverwriteBug shows what
// the classic assign-instead-of-add bug does, TwiceBug what a second
// call without zeroing does. It runs the reverse pass of
// a Tape (Reverse), with the same rules in the same order, on the Values
// themselves: their Grad fields are the gradients, so it needs no tape.
//
// It fails only in RecursiveBug mode, on a graph with so many paths that
// the recursion would visit more than MaxRecursiveVisits nodes; the Grad
// fields are then left as they were.
func (v *Value) BackwardMode(mode Mode) error {
	if mode == RecursiveBug {
		t, vals, bySlot := TapeOf(v)
		grads := make([]float64, len(vals))
		if _, _, ok := t.ReverseRecursive(vals, grads, len(vals)-1); !ok {
			return ErrTooManyVisits
		}
		for s, u := range bySlot {
			u.Grad = grads[s]
		}
		return nil
	}
	order := Topo(v)
	for _, u := range order {
		u.Grad = 0
	}
	v.Grad = 1
	reverseValues(order, mode)
	if mode == TwiceBug {
		for _, u := range order {
			u.Grad += u.Grad
		}
	}
	return nil
}

// reverseValues is the reverse pass over order, a topological order whose
// last Value holds its gradient (OverwriteBug, else Accumulate): every node
// adds its gradient times each local derivative into its inputs'. The
// common ops are written out, as in the tape's reverse.
func reverseValues(order []*Value, mode Mode) {
	for i := len(order) - 1; i >= 0; i-- {
		u := order[i]
		if !u.node {
			continue
		}
		a, b := u.in[0], u.in[1]
		if mode == OverwriteBug {
			y := a
			if b != nil {
				y = b
			}
			da, db := local(u.op, a.Data, y.Data, u.k, u.Data)
			a.Grad = u.Grad * da // the bug: '=' where '+=' belongs
			if b != nil {
				b.Grad = u.Grad * db
			}
			continue
		}
		up := u.Grad
		if up == 0 {
			continue
		}
		switch u.op {
		case opAdd:
			a.Grad += up
			b.Grad += up
		case opSub:
			a.Grad += up
			b.Grad -= up
		case opMul:
			a.Grad += up * b.Data
			b.Grad += up * a.Data
		default:
			if b == nil {
				da, _ := local(u.op, a.Data, a.Data, u.k, u.Data)
				a.Grad += up * da
				break
			}
			da, db := local(u.op, a.Data, b.Data, u.k, u.Data)
			a.Grad += up * da
			b.Grad += up * db
		}
	}
}

// Topo returns every value v depends on, and v last, each once, inputs
// before the values made from them. It uses an explicit stack, and marks
// the values it reaches instead of keeping a set of them.
func Topo(v *Value) []*Value {
	var order []*Value
	walk(v, &order, nil)
	return order
}

// Size returns how many values the expression behind v has, v included:
// len(Topo(v)), without making the list.
func Size(v *Value) int {
	n, _ := walk(v, nil, nil)
	return n
}

// SizeAtMost returns how many values the expression behind v has, v
// included, if that is at most max, and otherwise a number above max: it
// stops counting there, so that asking whether a graph is small is cheap
// for a large one.
func SizeAtMost(v *Value, max int) int {
	return reach([]*Value{v}, max+1, nil)
}

// Reach calls visit once for every Value that any of roots is or depends
// on, in no particular order. It marks the Values it reaches, as Topo
// does, instead of keeping a set of them, and allocates only its stack:
// what a notebook's kept state uses to note every Value its variables
// can reach.
func Reach(roots []*Value, visit func(*Value)) {
	reach(roots, math.MaxInt, visit)
}

// reach is Reach, calling visit only if it is not nil, that stops after
// limit Values; it returns how many it reached.
func reach(roots []*Value, limit int, visit func(*Value)) int {
	mark := atomic.AddUint32(&walks, 1)
	stack := make([]*Value, 0, 1024)
	for _, r := range roots {
		if r != nil && r.mark != mark {
			r.mark = mark
			stack = append(stack, r)
		}
	}
	n := 0
	for len(stack) > 0 && n < limit {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n++
		if visit != nil {
			visit(u)
		}
		if !u.node {
			continue
		}
		for _, w := range u.in {
			if w != nil && w.mark != mark {
				w.mark = mark
				stack = append(stack, w)
			}
		}
	}
	return n
}

// walk visits every value v depends on, and v last, each once, inputs
// before the values made from them: it appends each to order, if order is
// not nil, and gives each to c, if c is not nil. It returns how many
// values there are, and how many of them are leaves.
func walk(v *Value, order *[]*Value, c *compiler) (n, leaves int) {
	type frame struct {
		v    *Value
		next int
	}
	mark := atomic.AddUint32(&walks, 1)
	v.mark = mark
	stack := make([]frame, 1, 64)
	stack[0] = frame{v, 0}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		u := f.v
		if u.node && f.next < 2 && u.in[f.next] != nil {
			w := u.in[f.next]
			f.next++
			if w.mark != mark {
				w.mark = mark
				stack = append(stack, frame{w, 0})
			}
			continue
		}
		if order != nil {
			if o := *order; len(o) == cap(o) {
				// Double: append grows a large slice by a quarter, which
				// makes five times the order's size in garbage.
				*order = append(make([]*Value, 0, 2*cap(o)+64), o...)
			}
			*order = append(*order, u)
		}
		if c != nil {
			c.add(u)
		}
		n++
		if !u.node {
			leaves++
		}
		stack = stack[:len(stack)-1]
	}
	return n, leaves
}

// TapeOf compiles the expression behind root into a Tape, returning the
// value of every slot and the Value in each slot. The root is in the last
// slot unless it is a leaf. It walks the expression twice, to count its
// values and then to compile them, so that it allocates only what it
// returns.
func TapeOf(root *Value) (t *Tape, vals []float64, bySlot []*Value) {
	n, leaves := walk(root, nil, nil)
	c := &compiler{
		t:      &Tape{leaves: leaves, code: make([]instr, n-leaves)},
		vals:   make([]float64, n),
		bySlot: make([]*Value, n),
		node:   leaves,
	}
	walk(root, nil, c)
	return c.t, c.vals, c.bySlot
}

// compiler builds a Tape from the values of an expression given in a
// topological order. Leaves take the first slots, as in every Tape, and
// each group keeps its order, so that a node's inputs have their slots
// before it. The tape names a slot by its value's label, else "v" and the
// slot, when it is first asked (Names).
type compiler struct {
	t          *Tape
	vals       []float64
	bySlot     []*Value
	leaf, node int // the next slot of each kind
}

// add gives u the next slot of its kind, and its instruction if it is a
// node.
func (c *compiler) add(u *Value) {
	s := c.leaf
	if u.node {
		s = c.node
		a := u.in[0].slot
		b := a
		if u.in[1] != nil {
			b = u.in[1].slot
		}
		c.t.code[s-c.t.leaves] = instr{op: u.op, a: a, b: b, k: u.k}
		c.node++
	} else {
		c.leaf++
	}
	u.slot = int32(s)
	c.vals[s] = u.Data
	c.bySlot[s] = u
	if u.Label != "" {
		if c.t.labels == nil {
			c.t.labels = map[int32]string{}
		}
		c.t.labels[u.slot] = u.Label
	}
}
