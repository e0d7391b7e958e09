package library

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"go.starlark.net/starlark"

	"gradbook/notebook/kernel"
	"gradbook/notebook/values"
)

// The random module: a seeded generator with the names of Python's
// random (seed, random, uniform, gauss, randint, choice, choices,
// shuffle). Its numbers are not CPython's (another generator), but they
// are the same in every browser and natively: a PCG, and Go's own
// algorithms over it, which do not depend on the platform. Every run
// starts it at seed 0, and a kept state keeps where it was, so that a
// result depends only on the cells' sources, as everything else does.

// randomPart is the random module's generator in a chain of cells, its
// kernel.Part: nil until drawn from.
type randomPart struct{ rng *rand.PCG }

// SetRun does nothing: the generator lives from run to run.
func (p *randomPart) SetRun(*kernel.Run) {}

// CellDone does nothing.
func (p *randomPart) CellDone(int, []string) {}

// Keep records where the generator is; it holds no numbers a run made.
func (p *randomPart) Keep([]kernel.Changeable) (restore func() error, cost int) {
	rng := kernel.KeepGenerator(p.rng)
	return func() error {
		p.rng = rng()
		return nil
	}, 0
}

// newRNG returns the generator a run starts with, seeded with seed.
func newRNG(seed int64) *rand.PCG {
	return rand.NewPCG(uint64(seed), uint64(seed)^0x9e3779b97f4a7c15)
}

// rngOf returns the generator of the run that thread runs.
func rngOf(thread *starlark.Thread, name string) (*rand.Rand, error) {
	p := kernel.PartOf[*randomPart](thread)
	if p == nil {
		return nil, fmt.Errorf("random.%s: only a cell can draw random numbers", name)
	}
	if p.rng == nil {
		p.rng = newRNG(0)
	}
	return rand.New(p.rng), nil
}

// randomModuleMembers are the random module's functions.
var randomModuleMembers = []kernel.Builtin{
	{Name: "seed", Fn: kernel.SeedBuiltin((*randomPart).seed)},
	{Name: "random", Fn: randomRandom},
	{Name: "uniform", Fn: randomUniform},
	{Name: "gauss", Fn: randomGauss},
	{Name: "randint", Fn: randomRandint},
	{Name: "choice", Fn: randomChoice},
	{Name: "choices", Fn: randomChoices},
	{Name: "shuffle", Fn: randomShuffle},
}

// seed is random.seed(n): it starts the generator again from n.
func (p *randomPart) seed(n int64) { p.rng = newRNG(n) }

// random.random() is a number in [0, 1).
func randomRandom(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 0); err != nil {
		return nil, err
	}
	r, err := rngOf(thread, "random")
	if err != nil {
		return nil, err
	}
	return starlark.Float(r.Float64()), nil
}

// random.uniform(a, b) is a number between a and b.
func randomUniform(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var lo, hi starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "a", &lo, "b", &hi); err != nil {
		return nil, err
	}
	a, ok1 := values.AsFloat(lo)
	c, ok2 := values.AsFloat(hi)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("random.uniform: a and b must be numbers")
	}
	r, err := rngOf(thread, "uniform")
	if err != nil {
		return nil, err
	}
	return starlark.Float(a + (c-a)*r.Float64()), nil
}

// random.gauss(mu=0, sigma=1) is a number from the normal distribution.
func randomGauss(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var muV, sigmaV starlark.Value = starlark.Float(0), starlark.Float(1)
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "mu?", &muV, "sigma?", &sigmaV); err != nil {
		return nil, err
	}
	mu, ok1 := values.AsFloat(muV)
	sigma, ok2 := values.AsFloat(sigmaV)
	if !ok1 || !ok2 || math.IsNaN(mu) || math.IsNaN(sigma) {
		return nil, fmt.Errorf("random.gauss: mu and sigma must be numbers")
	}
	r, err := rngOf(thread, "gauss")
	if err != nil {
		return nil, err
	}
	return starlark.Float(mu + sigma*r.NormFloat64()), nil
}

// random.randint(a, b) is a whole number from a to b, both included.
func randomRandint(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var lo, hi int64
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "a", &lo, "b", &hi); err != nil {
		return nil, err
	}
	if hi < lo {
		return nil, fmt.Errorf("random.randint: b (%d) is below a (%d)", hi, lo)
	}
	r, err := rngOf(thread, "randint")
	if err != nil {
		return nil, err
	}
	return starlark.MakeInt64(lo + r.Int64N(hi-lo+1)), nil
}

// random.choice(seq) is one item of seq.
func randomChoice(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var seq starlark.Indexable
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &seq); err != nil {
		return nil, err
	}
	if seq.Len() == 0 {
		return nil, fmt.Errorf("random.choice: the sequence is empty")
	}
	r, err := rngOf(thread, "choice")
	if err != nil {
		return nil, err
	}
	return seq.Index(r.IntN(seq.Len())), nil
}

// random.choices(population, weights=None, k=1) is a list of k items of
// population, drawn with replacement, each with the chance its weight
// gives (all alike without weights), as Python draws them: a uniform
// number against the running sum of the weights.
func randomChoices(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var pop starlark.Indexable
	var weights starlark.Value = starlark.None
	k := 1
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "population", &pop, "weights?", &weights, "k?", &k); err != nil {
		return nil, err
	}
	n := pop.Len()
	if n == 0 {
		return nil, fmt.Errorf("random.choices: the population is empty")
	}
	if k < 0 || k > 1_000_000 {
		return nil, fmt.Errorf("random.choices: k must be from 0 to 1,000,000, got %d", k)
	}
	r, err := rngOf(thread, "choices")
	if err != nil {
		return nil, err
	}
	out := make([]starlark.Value, k)
	if weights == starlark.None {
		for i := range out {
			out[i] = pop.Index(r.IntN(n))
		}
		return starlark.NewList(out), nil
	}
	ws, ok := weights.(starlark.Indexable)
	if !ok || ws.Len() != n {
		return nil, fmt.Errorf("random.choices: weights must be a list of %d numbers, one per item of the population", n)
	}
	cum := make([]float64, n)
	total, largest := 0.0, 0.0
	for i := range cum {
		w, ok := values.AsFloat(ws.Index(i))
		if !ok || w < 0 || math.IsNaN(w) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("random.choices: weight %d is %s; weights are numbers, at least 0", i, kernel.Short(ws.Index(i)))
		}
		cum[i] = w
		largest = max(largest, w)
	}
	// Weights whose sum overflows ([1e308, 1e308]) are summed scaled by a
	// power of 2, exactly, so that the draw stays fair.
	scale := 1.0
	for i := range cum {
		total += cum[i]
	}
	if math.IsInf(total, 1) {
		_, e := math.Frexp(largest)
		scale = math.Ldexp(1, -e)
	}
	total = 0
	for i := range cum {
		total += cum[i] * scale
		cum[i] = total
	}
	if total <= 0 {
		return nil, fmt.Errorf("random.choices: the weights add up to 0")
	}
	for i := range out {
		x := r.Float64() * total
		j := sort.SearchFloat64s(cum, x)
		for j < n-1 && cum[j] <= x { // bisect_right: skip items of weight 0
			j++
		}
		out[i] = pop.Index(j)
	}
	return starlark.NewList(out), nil
}

// random.shuffle(xs) puts the items of the list xs in a random order, in
// place (a list a cell above made is frozen: shuffle a copy).
func randomShuffle(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var xs *starlark.List
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &xs); err != nil {
		return nil, err
	}
	r, err := rngOf(thread, "shuffle")
	if err != nil {
		return nil, err
	}
	for i := xs.Len() - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		a, c := xs.Index(i), xs.Index(j)
		if err := xs.SetIndex(i, c); err != nil {
			return nil, fmt.Errorf("random.shuffle: %v (a list a cell above made is frozen: shuffle a copy, xs = list(xs))", err)
		}
		if err := xs.SetIndex(j, a); err != nil {
			return nil, fmt.Errorf("random.shuffle: %v", err)
		}
	}
	return starlark.None, nil
}
