package engine

import (
	"fmt"
	"math"
	"slices"
)

// Values is a list of named values handed to a Tape, as Bind makes it:
// Xs[i] is the value of the leaf or node in slot Slots[i], or, where
// Slots[i] is -1, of the next name in Extra, a name the graph does not use
// (such a value is checked, then ignored). It holds no string per value,
// so a long list costs little to make and to collect.
type Values struct {
	Slots []int32
	Xs    []float64
	Extra []string
}

// Bind resolves named values to the tape's slots. xs may be nil (for
// Gradients, which needs only the slots).
func (t *Tape) Bind(names []string, xs []float64) Values {
	v := Values{Slots: make([]int32, len(names)), Xs: xs}
	for i, name := range names {
		s, ok := t.slots[name]
		if !ok {
			s = -1
			v.Extra = append(v.Extra, name)
		}
		v.Slots[i] = s
	}
	return v
}

// bindMap is Bind for a map, in name order when sorted (so that the first
// problem reported does not depend on the map's order).
func (t *Tape) bindMap(m map[string]float64, sorted bool) (names []string, v Values) {
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
// forward pass (leavesOnly), v holds leaves: none may be named like a
// node. For a reverse pass, v holds every leaf and node value. Problems
// are reported in the order of v, then missing values in graph order.
func (t *Tape) Load(v Values, leavesOnly bool) ([]float64, error) {
	names := t.Names()
	n := len(names)
	if leavesOnly {
		n = t.leaves
	}
	vals := make([]float64, len(names))
	filled := make([]bool, n)
	extra := 0
	for i, s := range v.Slots {
		x := v.Xs[i]
		finite := !math.IsNaN(x) && !math.IsInf(x, 0)
		if s < 0 || int(s) >= len(names) {
			if extra >= len(v.Extra) {
				return nil, fmt.Errorf("%w: value %d has no name", ErrSyntax, i+1)
			}
			name := v.Extra[extra]
			extra++
			if name == "" {
				return nil, fmt.Errorf("a leaf has an empty name: %w", ErrEmptyName)
			}
			if !finite {
				return nil, checkNumber(name, x)
			}
			continue
		}
		name := names[s]
		if int(s) >= t.leaves {
			if leavesOnly {
				return nil, nodeErr(name, ErrDuplicate, "is both a leaf and a node: give the node another name")
			}
			if !finite {
				return nil, nodeErr(name, ErrBadNumber, "its value is %v", x)
			}
		} else if !finite {
			return nil, checkNumber(name, x)
		}
		vals[s] = x
		filled[s] = true
	}
	for s, ok := range filled {
		if ok {
			continue
		}
		if s < t.leaves {
			return nil, nodeErr(names[t.leaves+int(t.firstUser[s])], ErrUndefined,
				"input %q is not defined earlier: no leaf or earlier node has that name", names[s])
		}
		return nil, nodeErr(names[s], ErrMissingValue, "has no value: pass backward the values that evaluate returned")
	}
	return vals, nil
}

// Gradients runs the reverse pass from out over vals (from Load) and
// returns the gradient for each value of v, in order. When out is a name
// the graph does not use, only the values of v called out get 1.
func (t *Tape) Gradients(vals []float64, v Values, out string, mode Mode) ([]float64, error) {
	res := make([]float64, len(v.Slots))
	s, ok := t.slots[out]
	if !ok {
		found := false
		extra := 0
		for i, s := range v.Slots {
			if s < 0 || int(s) >= t.leaves+len(t.code) {
				if extra < len(v.Extra) && v.Extra[extra] == out {
					res[i] = 1
					found = true
				}
				extra++
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
	for i, s := range v.Slots {
		if s >= 0 && int(s) < len(grads) {
			res[i] = grads[s]
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
	for i, name := range t.Names()[t.leaves:] {
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
