package engine

import (
	"fmt"
	"math"
	"slices"
)

// Bound is a list of named values handed to a Tape: the value Xs[i] for
// name id IDs[i] of the Encoded graph, or, where IDs[i] is -1, for the next
// name of Extra: a name the graph does not use.
type Bound struct {
	IDs   []int32
	Xs    []float64
	Extra []string
}

// bind lists the values of m, with names numbered by t.
func (t *Tape) bind(m map[string]float64, sorted bool) (b Bound, names []string) {
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
	return t.bindNames(names, xs), names
}

// Load checks the given values and returns the values of every slot. For
// Evaluate (leavesOnly), b holds leaves: none may be named like a node.
// For a reverse pass, b holds every leaf and node value. Problems are
// reported in the order of b, then missing values in graph order.
func (t *Tape) Load(b Bound, leavesOnly bool) ([]float64, error) {
	n := len(t.names)
	if leavesOnly {
		n = t.leaves
	}
	vals := make([]float64, len(t.names))
	filled := make([]bool, n)
	extra := 0
	for i, id := range b.IDs {
		x := b.Xs[i]
		finite := !math.IsNaN(x) && !math.IsInf(x, 0)
		if id < 0 || int(id) >= len(t.ids) || t.ids[id] < 0 {
			if extra >= len(b.Extra) {
				return nil, fmt.Errorf("%w: value %d has no name", ErrSyntax, i+1)
			}
			name := b.Extra[extra]
			extra++
			if name == "" {
				return nil, fmt.Errorf("a leaf has an empty name: %w", ErrEmptyName)
			}
			if !finite {
				return nil, checkNumber(name, x)
			}
			continue
		}
		s := int(t.ids[id])
		name := t.names[s]
		if s >= t.leaves {
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
			return nil, nodeErr(t.names[t.leaves+int(t.firstUser[s])], ErrUndefined,
				"input %q is not defined earlier: no leaf or earlier node has that name", t.names[s])
		}
		return nil, nodeErr(t.names[s], ErrMissingValue, "has no value: pass backward the values that evaluate returned")
	}
	return vals, nil
}

// Gradients runs the reverse pass from out over vals (from Load) and
// returns the gradient for each value of b, in order. out is the name id
// of a node or leaf, or -1 when out is outName, a name the graph does not
// use: then only the values of b called outName get 1.
func (t *Tape) Gradients(vals []float64, b Bound, out int32, outName string, mode Mode) ([]float64, error) {
	res := make([]float64, len(b.IDs))
	s := t.SlotOfID(int(out))
	if s < 0 {
		found := false
		extra := 0
		for i, id := range b.IDs {
			if id < 0 || int(id) >= len(t.ids) || t.ids[id] < 0 {
				if b.Extra[extra] == outName {
					res[i] = 1
					found = true
				}
				extra++
			}
		}
		if !found {
			if outName == "" {
				return nil, fmt.Errorf("%w: the output name is empty", ErrNoOutput)
			}
			return nil, fmt.Errorf("%w: %q is not the name of a node or leaf", ErrNoOutput, outName)
		}
		return res, nil
	}
	grads := make([]float64, len(vals))
	t.Reverse(vals, grads, s, mode)
	for i, id := range b.IDs {
		if s := t.SlotOfID(int(id)); s >= 0 {
			res[i] = grads[s]
		}
	}
	return res, nil
}

// Evaluate returns the value of every leaf in leaves and every node.
// It is an error for a leaf to be missing, not finite, or named like a node.
func (t *Tape) Evaluate(leaves map[string]float64) (map[string]float64, error) {
	b, _ := t.bind(leaves, false)
	vals, err := t.Load(b, true)
	if err != nil {
		b, _ = t.bind(leaves, true) // report the first problem in name order
		_, err = t.Load(b, true)
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
	b, names := t.bind(values, false)
	vals, err := t.Load(b, false)
	if err != nil {
		b, _ = t.bind(values, true)
		_, err = t.Load(b, false)
		return nil, err
	}
	outID, ok := t.byName[out]
	if !ok {
		outID = -1
	}
	grads, err := t.Gradients(vals, b, outID, out, mode)
	if err != nil {
		return nil, err
	}
	res := make(map[string]float64, len(values))
	for i, name := range names {
		res[name] = grads[i]
	}
	return res, nil
}
