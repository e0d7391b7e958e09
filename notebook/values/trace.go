package values

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"go.starlark.net/starlark"

	"gradbook/engine"
	"gradbook/internal/words"
	"gradbook/notebook/internal/attrs"
	"gradbook/notebook/kernel"
)

// Traced is what trace(f, *args) returns: the graph f builds from args,
// recorded as a tape. Called with new numbers in the same shape, it
// replays the tape forward and backward without running f again, which
// is how a training loop takes a hundred steps in the time of a few.
// Called with inputs of a shape it has not seen (a list of another
// length), it runs f once more and keeps that tape too, as jax.jit
// retraces: a GPT's step on a name of each length has a tape of its own.
type Traced struct {
	name  string
	fn    starlark.Callable
	tapes []*tape // by last use, oldest first
	last  *tape   // the tape the last call replayed
	made  int     // tapes recorded, over its life
	// graded: the last call ran backward, so .grads holds its gradients.
	graded bool
}

// tape is one recorded graph of a traced function: its slots, and for
// each input, where its numbers go.
type tape struct {
	shape  string // the inputs' shape (shapeOf), which picks the tape
	seq    int    // it was the traced function's seq-th recording
	tape   *engine.Tape
	vals   []float64 // every slot's value; constants stay as recorded
	grads  []float64
	out    int
	outs   []int // for a function that returns a list, the slot of each item
	inputs []tracedArg
	// captured are the Values f read without being given them (w in
	// lambda x: x * w): inputs too, whose number each call reads and
	// whose gradient it sets, as an untraced call would.
	captured []captured
}

// captured is a Value a traced function read from outside it, and its
// slot in the tape.
type captured struct {
	v    *engine.Value
	slot int
}

// maxTapes is how many tapes a traced function keeps: a new shape past
// it drops the one used longest ago, which a later call records again.
const maxTapes = 64

// tracedArg is one argument of a traced function, flattened: its shape,
// and the tape slot of each of its numbers (-1 where the graph does not
// use it).
type tracedArg struct {
	list  bool
	slots []int
}

var (
	_ starlark.Callable = (*Traced)(nil)
	_ starlark.HasAttrs = (*Traced)(nil)
)

func (t *Traced) String() string {
	return fmt.Sprintf("<traced %s: %s, %d values>", t.name, words.Count(len(t.tapes), "tape"), t.nodes())
}
func (t *Traced) Type() string          { return "traced" }
func (t *Traced) Freeze()               {}
func (t *Traced) Truth() starlark.Bool  { return true }
func (t *Traced) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: traced") }
func (t *Traced) Name() string          { return t.name }

// nodes is the size of the tape the last call used.
func (t *Traced) nodes() int {
	if t.last == nil {
		return 0
	}
	return len(t.last.vals)
}

// tracedAttrs are .nodes, how many values the tape of the last call has;
// .tapes, how many tapes it keeps (one per shape of its inputs); .sizes,
// the size of each, in the order they were recorded; and .grads, the
// last call's gradients.
var tracedAttrs = attrs.New([]attrs.Field[*Traced]{
	{Name: "nodes", Get: func(t *Traced) (starlark.Value, error) { return starlark.MakeInt(t.nodes()), nil }},
	{Name: "tapes", Get: func(t *Traced) (starlark.Value, error) { return starlark.MakeInt(len(t.tapes)), nil }},
	{Name: "grads", Get: (*Traced).grads},
	{Name: "sizes", Get: func(t *Traced) (starlark.Value, error) {
		byAge := slices.Clone(t.tapes)
		slices.SortFunc(byAge, func(a, b *tape) int { return cmp.Compare(a.seq, b.seq) })
		sizes := make([]starlark.Value, len(byAge))
		for i, tp := range byAge {
			sizes[i] = starlark.MakeInt(len(tp.vals))
		}
		return starlark.NewList(sizes), nil
	}},
}, nil)

// Attr returns .nodes, .tapes, .sizes or .grads (tracedAttrs).
func (t *Traced) Attr(name string) (starlark.Value, error) { return tracedAttrs.Attr(t, name) }

// AttrNames lists Attr's names.
func (t *Traced) AttrNames() []string { return tracedAttrs.Names() }

// grads is .grads: after a call of a function that returns a Value, the
// gradient of its result with respect to each input, one item per
// argument: a number for a Value or a number, a list for a list (nested
// lists flattened), numbers included. An optimizer that keeps its
// parameters as a list of numbers reads them here.
func (t *Traced) grads() (starlark.Value, error) {
	if t.last == nil || !t.graded {
		return nil, fmt.Errorf("%s.grads: no gradients yet: call %s first (a function that returns a list has none)", t.name, t.name)
	}
	tp := t.last
	args := make([]starlark.Value, len(tp.inputs))
	for i, in := range tp.inputs {
		of := func(s int) starlark.Value {
			if s < 0 {
				return starlark.Float(0)
			}
			return starlark.Float(tp.grads[s])
		}
		if !in.list {
			args[i] = of(in.slots[0])
			continue
		}
		items := make([]starlark.Value, len(in.slots))
		for k, s := range in.slots {
			items[k] = of(s)
		}
		args[i] = starlark.NewList(items)
	}
	return starlark.NewList(args), nil
}

// traceBuiltin is trace(f, *args): it calls f(*args) once and records the
// graph of the Value f returns. Each argument is a Value, a number, or a
// list of them, nested as deep as need be (the inputs and parameters that
// change between calls; numbers become inputs too, without gradients).
func traceBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 || len(args) < 2 {
		return nil, fmt.Errorf("trace: call it as trace(f, inputs...), with f a function and each input a Value, a number or a list of them")
	}
	f, ok := args[0].(starlark.Callable)
	if !ok {
		return nil, fmt.Errorf("trace: the first argument must be a function, got %s", args[0].Type())
	}
	t := &Traced{name: f.Name(), fn: f}
	if _, err := t.record(thread, args[1:], "trace"); err != nil {
		return nil, err
	}
	return t, nil
}

// record runs f on args once, records the graph of the Value it returns
// as a tape for args' shape, and keeps it. Numbers among args become
// leaves of their own for the recording. who names the caller in errors.
func (t *Traced) record(thread *starlark.Thread, args starlark.Tuple, who string) (*tape, error) {
	p := kernel.PartOf[*part](thread)
	if p != nil && p.rec != nil {
		return nil, fmt.Errorf("%s: %s is being traced already, by a trace that is recording: trace the outer function only", who, t.name)
	}
	inputs := map[*engine.Value]bool{}
	var shape []tracedArg
	var leaves [][]*engine.Value
	call := make(starlark.Tuple, len(args))
	for i, a := range args {
		var vs []*engine.Value
		x, err := asInputs(a, &vs, p, 0)
		if err != nil {
			return nil, fmt.Errorf("%s: input %d: %v", who, i+1, err)
		}
		call[i] = x
		for _, v := range vs {
			inputs[v] = true
		}
		_, isValue := a.(*Value)
		_, isNumber := AsFloat(a)
		shape = append(shape, tracedArg{list: !isValue && !isNumber})
		leaves = append(leaves, vs)
	}
	// Record: run f once, noting whether it reads the number of a Value
	// that depends on the inputs, which could make its graph depend on
	// the numbers.
	rec := &recording{inputs: inputs, made: map[*engine.Value]bool{}}
	if p != nil {
		p.rec = rec
		defer func() { p.rec = nil }()
	}
	res, err := starlark.Call(thread, t.fn, call, nil)
	if err != nil {
		return nil, err
	}
	if rec.read != "" {
		return nil, fmt.Errorf("%s: %s reads the number of a Value while it builds its graph (%s), so its graph may change with the numbers and a recorded tape could be wrong. Build the graph with Value ops only (v.relu() rather than an if on v.value; detach(max(xs)) rather than max of the .value of each), or use a plain loop that builds the graph at every step", who, t.name, rec.read)
	}
	root, outs, err := outputsOf(res, t.name, who)
	if err != nil {
		return nil, err
	}
	tp, vals, bySlot := engine.TapeOf(root)
	// The slot of each input the graph uses. Inputs are leaves, which come
	// first: the nodes need looking at only if an input is not one.
	look := bySlot[:tp.NumLeaves()]
	for v := range inputs {
		if v.Op() != "" {
			look = bySlot
			break
		}
	}
	slot := make(map[*engine.Value]int, len(inputs))
	for s, u := range look {
		if inputs[u] {
			slot[u] = s
		}
	}
	for i, vs := range leaves {
		used := false
		for _, v := range vs {
			s, ok := slot[v]
			if !ok {
				s = -1
			}
			if s >= tp.NumLeaves() {
				return nil, fmt.Errorf("%s: input %d holds a Value made by an op; the inputs must be Values made with Value(x), or numbers", who, i+1)
			}
			used = used || s >= 0
			shape[i].slots = append(shape[i].slots, s)
		}
		// Numbers become leaves of their own when a new shape is recorded:
		// a function that builds its graph from globals instead would
		// replay them as constants, and give their gradients as 0.
		if !used && len(vs) > 0 && numbersIn(args[i]) && t.made > 0 {
			return nil, fmt.Errorf("%s: %s does not use its input %d, which it was called with as numbers: a traced function must build its graph from its inputs, not from globals, since a new shape is recorded from what it is called with", who, t.name, i+1)
		}
	}
	// A leaf that is neither an input nor made while f ran, nor a number
	// written in the code, is a Value f read from outside (a global
	// weight): an input of every call too.
	var capt []captured
	for s, u := range bySlot[:tp.NumLeaves()] {
		if !inputs[u] && !rec.made[u] && !u.Const {
			capt = append(capt, captured{u, s})
		}
	}
	out := len(vals) - 1
	if root.Op() == "" { // a leaf: an input, or a constant
		out = slices.Index(bySlot, root)
	}
	var outSlots []int
	if outs != nil {
		at := make(map[*engine.Value]int, len(bySlot))
		for s, u := range bySlot {
			at[u] = s
		}
		outSlots = make([]int, len(outs))
		for i, o := range outs {
			outSlots[i] = at[o]
		}
	}
	key, err := shapeOf(args)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", who, err)
	}
	r := &tape{shape: key, seq: t.made, tape: tp, vals: vals, grads: make([]float64, len(vals)), out: out, outs: outSlots, inputs: shape, captured: capt}
	if len(t.tapes) == maxTapes {
		t.tapes = t.tapes[1:]
	}
	t.tapes = append(t.tapes, r)
	t.last = r
	t.made++
	return r, nil
}

// outputsOf reads what a traced function returned: a Value, whose graph
// the tape is, or a list (or tuple) of Values and numbers, joined into
// one root by max ops (which never overflow), whose items the replay
// returns; a number in it is a constant of the tape.
func outputsOf(res starlark.Value, name, who string) (root *engine.Value, outs []*engine.Value, err error) {
	if v, ok := res.(*Value); ok {
		return v.v, nil, nil
	}
	it, ok := res.(starlark.Indexable)
	if _, isString := res.(starlark.String); !ok || isString {
		return nil, nil, fmt.Errorf("%s: %s must return a Value or a list of Values, got %s", who, name, res.Type())
	}
	if it.Len() == 0 {
		return nil, nil, fmt.Errorf("%s: %s returned an empty list", who, name)
	}
	for i := range it.Len() {
		var o *engine.Value
		switch x := it.Index(i).(type) {
		case *Value:
			o = x.v
		default:
			f, ok := AsFloat(x)
			if !ok {
				return nil, nil, fmt.Errorf("%s: %s returned a list whose item %d is %s: return Values or numbers", who, name, i, x.Type())
			}
			o = engine.NewValue(f, "")
		}
		outs = append(outs, o)
		if root == nil {
			root = o
			continue
		}
		j := new(engine.Value)
		j.Make("max", root, o, 0)
		root = j
	}
	return root, outs, nil
}

// numbersIn reports whether x, an input of a traced function, holds a
// plain number (not only Values).
func numbersIn(x starlark.Value) bool {
	if _, ok := x.(*Value); ok {
		return false
	}
	if _, ok := AsFloat(x); ok {
		return true
	}
	if it, ok := x.(starlark.Indexable); ok {
		for i := range it.Len() {
			if numbersIn(it.Index(i)) {
				return true
			}
		}
	}
	return false
}

// recording is what trace notes while f builds its graph.
type recording struct {
	inputs map[*engine.Value]bool
	made   map[*engine.Value]bool // the Values made while f ran
	read   string                 // where f first read the number of a Value it made or was given
}

// maxShapeDepth is how deeply trace's inputs may nest lists.
const maxShapeDepth = 16

// asInputs returns x as a traced function is called with it when it
// records: its Values as they are, each number as a new leaf Value, and
// lists (and tuples) of them, nested, as new lists; it appends every
// leaf to vs, in order.
func asInputs(x starlark.Value, vs *[]*engine.Value, p *part, depth int) (starlark.Value, error) {
	if v, ok := x.(*Value); ok {
		*vs = append(*vs, v.v)
		return v, nil
	}
	if f, ok := AsFloat(x); ok {
		if _, isBool := x.(starlark.Bool); !isBool {
			e := engine.NewValue(f, "")
			*vs = append(*vs, e)
			return &Value{v: e, p: p}, nil
		}
	}
	it, ok := x.(starlark.Indexable)
	if !ok || depth >= maxShapeDepth {
		if ok {
			return nil, fmt.Errorf("lists nested more than %d deep", maxShapeDepth)
		}
		return nil, fmt.Errorf("want a Value, a number or a list of them, got %s", x.Type())
	}
	if _, isString := x.(starlark.String); isString {
		return nil, fmt.Errorf("want a Value, a number or a list of them, got a string")
	}
	items := make([]starlark.Value, it.Len())
	for i := range items {
		y, err := asInputs(it.Index(i), vs, p, depth+1)
		if err != nil {
			return nil, fmt.Errorf("item %d: %v", i, err)
		}
		items[i] = y
	}
	return starlark.NewList(items), nil
}

// shapeOf is the shape of a traced function's inputs, as a key: "." for
// each Value or number, "[…]" around each list's, a run of numbers
// counted ("[16]" for a list of 16).
func shapeOf(args starlark.Tuple) (string, error) {
	var b strings.Builder
	var walk func(x starlark.Value, depth int) error
	walk = func(x starlark.Value, depth int) error {
		if _, ok := x.(*Value); ok {
			b.WriteByte('.')
			return nil
		}
		if _, ok := AsFloat(x); ok {
			b.WriteByte('.')
			return nil
		}
		it, ok := x.(starlark.Indexable)
		if !ok || depth >= maxShapeDepth {
			return fmt.Errorf("want a Value, a number or a list of them, got %s", x.Type())
		}
		b.WriteByte('[')
		flat := 0
		for i := range it.Len() {
			y := it.Index(i)
			if _, ok := y.(*Value); ok {
				flat++
				continue
			}
			if _, ok := AsFloat(y); ok {
				flat++
				continue
			}
			if flat > 0 {
				fmt.Fprintf(&b, "%d", flat)
				flat = 0
			}
			if err := walk(y, depth+1); err != nil {
				return err
			}
		}
		if flat > 0 {
			fmt.Fprintf(&b, "%d", flat)
		}
		b.WriteByte(']')
		return nil
	}
	for _, a := range args {
		if err := walk(a, 0); err != nil {
			return "", err
		}
		b.WriteByte(' ')
	}
	return b.String(), nil
}

// CallInternal replays the tape for the shape of args, recording one
// first if it has none: args are Values (whose .value is used and whose
// .grad is set) or plain numbers (no gradients then), in lists as trace
// was given. It returns f's number.
func (t *Traced) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, fmt.Errorf("%s: takes no keyword arguments", t.name)
	}
	if p := kernel.PartOf[*part](thread); p != nil && p.rec != nil {
		// Its number would enter the graph being recorded as a constant,
		// with no gradient through it.
		return nil, fmt.Errorf("%s: a traced function cannot be called while trace records another: trace the outer function only", t.name)
	}
	key, err := shapeOf(args)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", t.name, err)
	}
	tp := t.tapeFor(key)
	if tp == nil {
		if tp, err = t.record(thread, args, t.name); err != nil {
			return nil, err
		}
	}
	t.last = tp
	var values []*Value // the Value inputs, in order, with their slots
	var slots []int
	for i, a := range args {
		in := tp.inputs[i]
		k := 0
		var put func(x starlark.Value)
		put = func(x starlark.Value) {
			if v, ok := x.(*Value); ok {
				values = append(values, v)
				slots = append(slots, in.slots[k])
				if s := in.slots[k]; s >= 0 {
					tp.vals[s] = v.v.Data
				}
				k++
				return
			}
			if f, ok := AsFloat(x); ok {
				if s := in.slots[k]; s >= 0 {
					tp.vals[s] = f
				}
				k++
				return
			}
			it := x.(starlark.Indexable) // shapeOf checked
			for j := range it.Len() {
				put(it.Index(j))
			}
		}
		put(a)
	}
	for _, c := range tp.captured {
		tp.vals[c.slot] = c.v.Data
	}
	if err := tp.tape.Forward(tp.vals); err != nil {
		return nil, fmt.Errorf("%s: %v", t.name, err)
	}
	if tp.outs != nil {
		// A list of results: the tape replays forward only.
		items := make([]starlark.Value, len(tp.outs))
		for i, s := range tp.outs {
			items[i] = starlark.Float(tp.vals[s])
		}
		t.graded = false
		return starlark.NewList(items), nil
	}
	tp.tape.Reverse(tp.vals, tp.grads, tp.out, engine.Accumulate)
	t.graded = true
	for i, v := range values {
		v.v.Grad = 0
		if s := slots[i]; s >= 0 {
			v.v.Grad = tp.grads[s]
		}
	}
	for _, c := range tp.captured {
		c.v.Grad = tp.grads[c.slot]
	}
	y := tp.vals[tp.out]
	if y-y != 0 {
		return nil, fmt.Errorf("%s: the result is %s, not a finite number", t.name, words.Number(y))
	}
	return starlark.Float(y), nil
}

// tapeFor returns the kept tape for inputs of shape key, as the latest
// used, or nil.
func (t *Traced) tapeFor(key string) *tape {
	for i, tp := range t.tapes {
		if tp.shape == key {
			if i != len(t.tapes)-1 {
				t.tapes = append(append(t.tapes[:i:i], t.tapes[i+1:]...), tp)
			}
			return tp
		}
	}
	return nil
}

// Inputs is how many numbers the traced function takes, its inputs
// flattened, as its last call took them.
func (t *Traced) Inputs() int {
	n := 0
	for _, in := range t.last.inputs {
		n += len(in.slots)
	}
	return n
}

// ReturnsList reports whether the traced function returns a list (its
// replay then gives a list of numbers), as its last call did.
func (t *Traced) ReturnsList() bool { return t.last.outs != nil }

// Replay replays the tape of the last call forward only, with the inputs
// flattened to xs (Inputs of them), and returns f's number.
func (t *Traced) Replay(xs ...float64) (float64, error) {
	tp := t.last
	k := 0
	for _, in := range tp.inputs {
		for _, s := range in.slots {
			if s >= 0 {
				tp.vals[s] = xs[k]
			}
			k++
		}
	}
	for _, c := range tp.captured {
		tp.vals[c.slot] = c.v.Data
	}
	if err := tp.tape.Forward(tp.vals); err != nil {
		return 0, fmt.Errorf("%s: %v", t.name, err)
	}
	return tp.vals[tp.out], nil
}
