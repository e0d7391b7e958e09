package library

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gradbook/notebook/values"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Cells have no random module: data sets and starting weights come from
// these built-ins, seeded, so a lesson gives the same numbers every time.

// MaxDataPoints caps what moons and uniform make in one call.
const MaxDataPoints = 100_000

// moons(n, noise=0.1, seed=0) returns (X, y): n points of two interleaving
// half circles, as scikit-learn's make_moons (unshuffled): the first
// n - n//2 on the upper moon, with y = -1, the rest on the lower one, with
// y = 1. Each coordinate gets Gaussian noise of standard deviation noise,
// from a PCG generator seeded with seed.
func moonsBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var n, seed int
	noise := 0.1
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "n", &n, "noise?", &noise, "seed?", &seed); err != nil {
		return nil, err
	}
	if n < 2 || n > MaxDataPoints {
		return nil, fmt.Errorf("moons: n must be between 2 and %d, got %d", MaxDataPoints, n)
	}
	if noise < 0 || math.IsNaN(noise) || math.IsInf(noise, 0) {
		return nil, fmt.Errorf("moons: noise must be a finite number, 0 or more")
	}
	X, y := Moons(n, noise, uint64(seed))
	xs := make([]starlark.Value, n)
	ys := make([]starlark.Value, n)
	for i := range X {
		xs[i] = starlark.NewList([]starlark.Value{starlark.Float(X[i][0]), starlark.Float(X[i][1])})
		ys[i] = starlark.MakeInt(y[i])
	}
	return starlark.Tuple{starlark.NewList(xs), starlark.NewList(ys)}, nil
}

// Moons is the data set of moons(n, noise, seed).
func Moons(n int, noise float64, seed uint64) (X [][2]float64, y []int) {
	outer := n - n/2
	inner := n / 2
	step := func(i, m int) float64 {
		if m == 1 {
			return 0
		}
		return math.Pi * float64(i) / float64(m-1)
	}
	for i := range outer {
		t := step(i, outer)
		X = append(X, [2]float64{math.Cos(t), math.Sin(t)})
		y = append(y, -1)
	}
	for i := range inner {
		t := step(i, inner)
		X = append(X, [2]float64{1 - math.Cos(t), 0.5 - math.Sin(t)})
		y = append(y, 1)
	}
	r := rand.New(rand.NewPCG(seed, 0x6d6f6f6e73)) // "moons"
	for i := range X {
		X[i][0] += noise * r.NormFloat64()
		X[i][1] += noise * r.NormFloat64()
	}
	return X, y
}

// uniform(n, low=-1, high=1, seed=0) returns n numbers drawn uniformly
// from [low, high) by a PCG generator seeded with seed: starting weights.
func uniformBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var n, seed int
	low, high := -1.0, 1.0
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "n", &n, "low?", &low, "high?", &high, "seed?", &seed); err != nil {
		return nil, err
	}
	if n < 0 || n > MaxDataPoints {
		return nil, fmt.Errorf("uniform: n must be between 0 and %d, got %d", MaxDataPoints, n)
	}
	if !(low < high) || math.IsInf(high-low, 0) {
		return nil, fmt.Errorf("uniform: want finite low < high, got %v and %v", low, high)
	}
	r := rand.New(rand.NewPCG(uint64(seed), 0x756e69666f726d)) // "uniform"
	xs := make([]starlark.Value, n)
	for i := range xs {
		xs[i] = starlark.Float(low + (high-low)*r.Float64())
	}
	return starlark.NewList(xs), nil
}

// sum(xs, start=0) adds up numbers or Values, as Python's sum does.
func sumBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var xs starlark.Iterable
	var total starlark.Value = starlark.MakeInt(0)
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "xs", &xs, "start?", &total); err != nil {
		return nil, err
	}
	it := xs.Iterate()
	defer it.Done()
	var x starlark.Value
	for it.Next(&x) {
		var err error
		if t, ok := total.(*values.Value); ok {
			// What starlark.Binary would do, without its search for the
			// operator's implementation.
			if total, err = t.Binary(syntax.PLUS, x, starlark.Left); err != nil {
				return nil, fmt.Errorf("sum: %v", err)
			}
			if total != nil {
				continue
			}
			total = t // x is not a number: let starlark.Binary say so
		}
		if total, err = starlark.Binary(syntax.PLUS, total, x); err != nil {
			return nil, fmt.Errorf("sum: %v", err)
		}
	}
	return total, nil
}
