package engine

import (
	"fmt"
	"math"
)

// DefaultSteps are the finite-difference steps GradCheck uses when given
// none.
var DefaultSteps = []float64{1e-2, 1e-4, 1e-6}

// Difference is one finite-difference estimate of a derivative at one step.
type Difference struct {
	Step    float64
	Left    float64 // (f(x) − f(x−h)) / h
	Right   float64 // (f(x+h) − f(x)) / h
	Central float64 // (f(x+h) − f(x−h)) / 2h
	AbsErr  float64 // |Central − analytic|
	RelErr  float64 // AbsErr / max(|Central|, |analytic|), 0 when both are 0
}

// GradientCheck compares one leaf's analytic gradient with finite
// differences.
type GradientCheck struct {
	Name     string
	Analytic float64 // what Backward returns
	Rows     []Difference
	// Kink is set when the left and right differences disagree and do not
	// come together as the step shrinks: the function has a corner here
	// (a relu input at exactly 0, say), so no central difference is a
	// derivative, and the analytic gradient is a convention.
	Kink bool
}

// GradCheck checks d(out)/d(name) for each of names against left, right and
// central differences at each step (DefaultSteps if steps is empty).
func GradCheck(g Graph, leaves map[string]float64, out string, names []string, steps []float64) ([]GradientCheck, error) {
	t, err := Compile(g)
	if err != nil {
		return nil, err
	}
	vals, err := t.Evaluate(leaves)
	if err != nil {
		return nil, err
	}
	grads, err := t.Backward(vals, out, Accumulate)
	if err != nil {
		return nil, err
	}
	f := func(name string, x float64) (float64, error) {
		shifted := make(map[string]float64, len(leaves))
		for k, v := range leaves {
			shifted[k] = v
		}
		shifted[name] = x
		v, err := t.Evaluate(shifted)
		if err != nil {
			return 0, fmt.Errorf("at %s = %v: %w", name, x, err)
		}
		return v[out], nil
	}
	var checks []GradientCheck
	for _, name := range names {
		x, ok := leaves[name]
		if !ok {
			return nil, leafErr(name, ErrUndefined, "cannot check it: it is not a leaf")
		}
		c, err := Differences(func(x float64) (float64, error) { return f(name, x) }, x, grads[name], steps)
		if err != nil {
			return nil, err
		}
		c.Name = name
		checks = append(checks, c)
	}
	return checks, nil
}

// Differences compares analytic, the derivative of f at x, with left,
// right and central differences of f at each step (DefaultSteps if none).
func Differences(f func(float64) (float64, error), x, analytic float64, steps []float64) (GradientCheck, error) {
	if len(steps) == 0 {
		steps = DefaultSteps
	}
	c := GradientCheck{Analytic: analytic}
	base, err := f(x)
	if err != nil {
		return c, err
	}
	for _, h := range steps {
		if !(h > 0) || math.IsInf(h, 0) {
			return c, fmt.Errorf("grad check: the step must be a positive number, got %v", h)
		}
		lo, err := f(x - h)
		if err != nil {
			return c, err
		}
		hi, err := f(x + h)
		if err != nil {
			return c, err
		}
		d := Difference{Step: h, Left: (base - lo) / h, Right: (hi - base) / h, Central: (hi - lo) / (2 * h)}
		d.AbsErr = math.Abs(d.Central - analytic)
		if scale := math.Max(math.Abs(d.Central), math.Abs(analytic)); scale > 0 {
			d.RelErr = d.AbsErr / scale
		}
		c.Rows = append(c.Rows, d)
	}
	c.Kink = kink(c.Rows)
	return c, nil
}

// kink reports whether the one-sided differences disagree at the smallest
// step by more than rounding, without closing in as the step shrinks (on a
// smooth function the gap shrinks in proportion to the step).
func kink(rows []Difference) bool {
	smallest := 0
	for i, r := range rows {
		if r.Step < rows[smallest].Step {
			smallest = i
		}
	}
	last := rows[smallest]
	gap := math.Abs(last.Left - last.Right)
	if gap <= 1e-3*math.Max(1, math.Abs(last.Central)) {
		return false
	}
	for _, r := range rows {
		if r.Step > last.Step && gap < 0.5*math.Abs(r.Left-r.Right) {
			return false // the gap is still closing
		}
	}
	return true
}
