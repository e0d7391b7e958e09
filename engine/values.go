package engine

import (
	"fmt"
	"math"
	"slices"
)

// Input is one named value handed to a Tape: X is the value of the leaf
// or node in Slot, or, where Slot is -1, of Name, a name the graph does not
// use (such a value is checked, then ignored).
type Input struct {
	Slot int32
	Name string // needed only where Slot is -1
	X    float64
}

// Bind resolves named values to the tape's slots.
func (t *Tape) Bind(names []string, xs []float64) []Input {
	in := make([]Input, len(names))
	for i, name := range names {
		in[i] = Input{Slot: -1, Name: name}
		if s, ok := t.slots[name]; ok {
			in[i].Slot = s
		}
		if xs != nil {
			in[i].X = xs[i]
		}
	}
	return in
}

// bindMap is Bind for a map, in name order when sorted (so that the first
// problem reported does not depend on the map's order).
func (t *Tape) bindMap(m map[string]float64, sorted bool) (names []string, in []Input) {
	names = make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	if sorted {
		slices.Sort(names)
	}
	xs := make([]float64, len(names))
	for i, name := range names {
		xs[i] = m[name]
	}
	return names, t.Bind(names, xs)
}

// Load checks the given values and returns the value of every slot. For a
// forward pass (leavesOnly), in holds leaves: none may be named like a
// node. For a reverse pass, in holds every leaf and node value. Problems
// are reported in the order of in, then missing values in graph order.
func (t *Tape) Load(in []Input, leavesOnly bool) ([]float64, error) {
	n := len(t.names)
	if leavesOnly {
		n = t.leaves
	}
	vals := make([]float64, len(t.names))
	filled := make([]bool, n)
	for _, v := range in {
		finite := !math.IsNaN(v.X) && !math.IsInf(v.X, 0)
		if v.Slot < 0 || int(v.Slot) >= len(t.names) {
			if v.Name == "" {
				return nil, fmt.Errorf("a leaf has an empty name: %w", ErrEmptyName)
			}
			if !finite {
				return nil, checkNumber(v.Name, v.X)
			}
			continue
		}
		s := int(v.Slot)
		name := t.names[s]
		if s >= t.leaves {
			if leavesOnly {
				return nil, nodeErr(name, ErrDuplicate, "is both a leaf and a node: give the node another name")
			}
			if !finite {
				return nil, nodeErr(name, ErrBadNumber, "its value is %v", v.X)
			}
		} else if !finite {
			return nil, checkNumber(name, v.X)
		}
		vals[s] = v.X
		filled[s] = true
	}
	for s, ok := range filled {
		if ok {
			continue
		}
		if s < t.leaves {
			return nil, nodeErr(t.names[t.leaves+int(t.firstUser[s])], ErrUndefined,
				"input %q is not defined earlier: no leaf or earlier node has that name", t.names[s])
		}
		return nil, nodeErr(t.names[s], ErrMissingValue, "has no value: pass backward the values that evaluate returned")
	}
	return vals, nil
}

// Gradients runs the reverse pass from out over vals (from Load) and
// returns the gradient for each value of in, in order. When out is a name
// the graph does not use, only the values of in called out get 1.
func (t *Tape) Gradients(vals []float64, in []Input, out string, mode Mode) ([]float64, error) {
	res := make([]float64, len(in))
	s, ok := t.slots[out]
	if !ok {
		found := false
		for i, v := range in {
			if v.Slot < 0 && v.Name == out {
				res[i] = 1
				found = true
			}
		}
		if !found {
			if out == "" {
				return nil, fmt.Errorf("%w: the output name is empty", ErrNoOutput)
			}
			return nil, fmt.Errorf("%w: %q is not the name of a node or leaf", ErrNoOutput, out)
		}
		return res, nil
	}
	grads := make([]float64, len(vals))
	t.Reverse(vals, grads, int(s), mode)
	for i, v := range in {
		if v.Slot >= 0 && int(v.Slot) < len(grads) {
			res[i] = grads[v.Slot]
		}
	}
	return res, nil
}

// Evaluate returns the value of every leaf in leaves and every node.
// It is an error for a leaf to be missing, not finite, or named like a node.
func (t *Tape) Evaluate(leaves map[string]float64) (map[string]float64, error) {
	_, in := t.bindMap(leaves, false)
	vals, err := t.Load(in, true)
	if err != nil {
		_, in = t.bindMap(leaves, true) // report the first problem in name order
		_, err = t.Load(in, true)
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

// Backward returns d(out)/d(name) for every name in values, which must hold
// the value of every leaf and node (as Evaluate returns them). Names that do
// not reach out get 0. Each call returns a fresh map.
func (t *Tape) Backward(values map[string]float64, out string, mode Mode) (map[string]float64, error) {
	names, in := t.bindMap(values, false)
	vals, err := t.Load(in, false)
	if err != nil {
		_, in = t.bindMap(values, true)
		_, err = t.Load(in, false)
		return nil, err
	}
	grads, err := t.Gradients(vals, in, out, mode)
	if err != nil {
		return nil, err
	}
	res := make(map[string]float64, len(values))
	for i, name := range names {
		res[name] = grads[i]
	}
	return res, nil
}
