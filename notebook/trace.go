package notebook

import (
	"fmt"

	"go.starlark.net/starlark"

	"gradbook/engine"
	"gradbook/internal/words"
)

// Traced is what trace(f, *args) returns: the graph f builds from args,
// recorded once as a tape. Called with new numbers in the same shape, it
// replays the tape forward and backward without running f again, which
// is how a training loop takes a hundred steps in the time of a few.
type Traced struct {
	name   string
	tape   *engine.Tape
	vals   []float64 // every slot's value; constants stay as recorded
	grads  []float64
	out    int
	inputs []tracedArg
}

// tracedArg is one argument of a traced function: a Value (list false) or
// a list of Values, and the tape slot of each (-1 where the graph does not
// use it).
type tracedArg struct {
	list  bool
	slots []int
}

var (
	_ starlark.Callable = (*Traced)(nil)
	_ starlark.HasAttrs = (*Traced)(nil)
)

func (t *Traced) String() string        { return fmt.Sprintf("<traced %s: %d values>", t.name, len(t.vals)) }
func (t *Traced) Type() string          { return "traced" }
func (t *Traced) Freeze()               {}
func (t *Traced) Truth() starlark.Bool  { return true }
func (t *Traced) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: traced") }
func (t *Traced) Name() string          { return t.name }

// Attr is .nodes, how many values the recorded graph has.
func (t *Traced) Attr(name string) (starlark.Value, error) {
	if name == "nodes" {
		return starlark.MakeInt(len(t.vals)), nil
	}
	return nil, nil
}

// AttrNames lists Attr's names.
func (t *Traced) AttrNames() []string { return []string{"nodes"} }

// traceBuiltin is trace(f, *args): it calls f(*args) once, where each
// argument is a Value or a list of Values (the inputs and parameters that
// change between calls), and records the graph of the Value f returns.
func traceBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 || len(args) < 2 {
		return nil, fmt.Errorf("trace: call it as trace(f, inputs...), with f a function and each input a Value or a list of Values")
	}
	f, ok := args[0].(starlark.Callable)
	if !ok {
		return nil, fmt.Errorf("trace: the first argument must be a function, got %s", args[0].Type())
	}
	st := state(thread)
	inputs := map[*engine.Value]bool{}
	var shape []tracedArg
	var leaves [][]*engine.Value
	for i, a := range args[1:] {
		vs, list, err := valuesOf(a)
		if err != nil {
			return nil, fmt.Errorf("trace: input %d: %v", i+1, err)
		}
		for _, v := range vs {
			inputs[v] = true
		}
		shape = append(shape, tracedArg{list: list})
		leaves = append(leaves, vs)
	}
	// Record: run f once, noting whether it reads the number of a Value
	// that depends on the inputs, which could make its graph depend on
	// the numbers.
	rec := &recording{inputs: inputs}
	if st != nil {
		prev := st.rec
		st.rec = rec
		defer func() { st.rec = prev }()
	}
	res, err := starlark.Call(thread, f, args[1:], nil)
	if err != nil {
		return nil, err
	}
	if rec.read != "" {
		return nil, fmt.Errorf("trace: %s reads the number of a Value while it builds its graph (%s), so its graph may change with the numbers and a recorded tape could be wrong. Build the graph with Value ops only (v.relu() rather than an if on v.value), or use a plain loop that builds the graph at every step", f.Name(), rec.read)
	}
	root, ok := res.(*Value)
	if !ok {
		return nil, fmt.Errorf("trace: %s must return a Value, got %s", f.Name(), res.Type())
	}
	tape, vals, bySlot := engine.TapeOf(root.v)
	// The slot of each input the graph uses. Inputs are leaves, which come
	// first: the nodes need looking at only if an input is not one.
	look := bySlot[:tape.NumLeaves()]
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
		for _, v := range vs {
			s, ok := slot[v]
			if !ok {
				s = -1
			}
			if s >= tape.NumLeaves() {
				return nil, fmt.Errorf("trace: input %d holds a Value made by an op; the inputs must be Values made with Value(x)", i+1)
			}
			shape[i].slots = append(shape[i].slots, s)
		}
	}
	out := len(vals) - 1
	if root.v.Op() == "" {
		out = slot[root.v]
	}
	return &Traced{name: f.Name(), tape: tape, vals: vals, grads: make([]float64, len(vals)), out: out, inputs: shape}, nil
}

// recording is what trace notes while f builds its graph.
type recording struct {
	inputs map[*engine.Value]bool
	read   string // where f first read the number of a Value it made or was given
}

// valuesOf reads a trace input: a Value, or a list or tuple of Values.
func valuesOf(x starlark.Value) (vs []*engine.Value, list bool, err error) {
	if v, ok := x.(*Value); ok {
		return []*engine.Value{v.v}, false, nil
	}
	it, ok := x.(starlark.Indexable)
	if !ok {
		return nil, false, fmt.Errorf("want a Value or a list of Values, got %s", x.Type())
	}
	for i := range it.Len() {
		v, ok := it.Index(i).(*Value)
		if !ok {
			return nil, false, fmt.Errorf("want a list of Values, but item %d is %s", i, it.Index(i).Type())
		}
		vs = append(vs, v.v)
	}
	return vs, true, nil
}

// CallInternal replays the tape with the numbers in args, which have the
// shape of trace's inputs: Values (whose .value is used and whose .grad is
// set) or plain numbers (no gradients then). It returns f's number.
func (t *Traced) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 || len(args) != len(t.inputs) {
		return nil, fmt.Errorf("%s: want %d inputs, as it was traced with, got %d", t.name, len(t.inputs), len(args))
	}
	var values []*Value // the Value inputs, in order, with their slots
	var slots []int
	for i, a := range args {
		in := t.inputs[i]
		items := starlark.Tuple{a}
		if in.list {
			it, ok := a.(starlark.Indexable)
			if !ok || it.Len() != len(in.slots) {
				return nil, fmt.Errorf("%s: input %d must be a list of %d, as it was traced with", t.name, i+1, len(in.slots))
			}
			items = make(starlark.Tuple, it.Len())
			for k := range items {
				items[k] = it.Index(k)
			}
		}
		for k, x := range items {
			var f float64
			switch x := x.(type) {
			case *Value:
				f = x.v.Data
				values = append(values, x)
				slots = append(slots, in.slots[k])
			default:
				n, ok := Number(x)
				if !ok {
					return nil, fmt.Errorf("%s: input %d: want a Value or a number, got %s", t.name, i+1, x.Type())
				}
				f = n
			}
			if s := in.slots[k]; s >= 0 {
				t.vals[s] = f
			}
		}
	}
	if err := t.tape.Forward(t.vals); err != nil {
		return nil, fmt.Errorf("%s: %v", t.name, err)
	}
	if len(values) > 0 {
		t.tape.Reverse(t.vals, t.grads, t.out, engine.Accumulate)
		for i, v := range values {
			v.v.Grad = 0
			if s := slots[i]; s >= 0 {
				v.v.Grad = t.grads[s]
			}
		}
	}
	y := t.vals[t.out]
	if y-y != 0 {
		return nil, fmt.Errorf("%s: the result is %s, not a finite number", t.name, words.Number(y))
	}
	return starlark.Float(y), nil
}

// width is how many numbers the traced function takes, its inputs
// flattened.
func (t *Traced) width() int {
	n := 0
	for _, in := range t.inputs {
		n += len(in.slots)
	}
	return n
}

// at replays the tape forward only, with the inputs flattened to xs.
func (t *Traced) at(xs ...float64) (float64, error) {
	k := 0
	for _, in := range t.inputs {
		for _, s := range in.slots {
			if s >= 0 {
				t.vals[s] = xs[k]
			}
			k++
		}
	}
	if err := t.tape.Forward(t.vals); err != nil {
		return 0, fmt.Errorf("%s: %v", t.name, err)
	}
	return t.vals[t.out], nil
}
