package engine

import "fmt"

// Descend takes one gradient-descent step: it returns a copy of leaves in
// which each named parameter p is leaves[p] − rate × grads[p]. The other
// leaves are copied unchanged.
func Descend(leaves, grads map[string]float64, rate float64, params ...string) (map[string]float64, error) {
	next := make(map[string]float64, len(leaves))
	for k, v := range leaves {
		next[k] = v
	}
	for _, p := range params {
		x, ok := leaves[p]
		if !ok {
			return nil, leafErr(p, ErrUndefined, "cannot step it: it is not a leaf")
		}
		g, ok := grads[p]
		if !ok {
			return nil, leafErr(p, ErrMissingValue, "cannot step it: it has no gradient")
		}
		next[p] = x - rate*g
		if err := checkNumber(p, next[p]); err != nil {
			return nil, fmt.Errorf("descend: %w", err)
		}
	}
	return next, nil
}
