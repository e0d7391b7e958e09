package library

// This file is the checks: check, and grad_check's finite differences.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.starlark.net/starlark"

	"gradbook/engine"
	"gradbook/internal/words"
	"gradbook/notebook/kernel"
	"gradbook/notebook/torch"
	"gradbook/notebook/values"
)

// check(actual, expected, tol=1e-9, label=None) prints whether actual is
// within tol of expected (relative to |expected| when that is above 1).
// Numbers and Values compare as numbers; dicts compare the keys of
// expected; lists and tuples compare element by element.
func checkBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var actual, expected starlark.Value
	tol := 1e-9
	var label string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "actual", &actual, "expected", &expected, "tol?", &tol, "label?", &label); err != nil {
		return nil, err
	}
	run := kernel.RunOf(thread)
	cell, code, line := run.Caller(thread)
	if label == "" {
		label = firstArg(code)
	}
	problem, err := compare(actual, expected, tol, 0)
	if err != nil {
		return nil, err
	}
	if strings.HasPrefix(problem, "at ") {
		// Inside a list or dict: show both whole, not only where they part.
		problem += fmt.Sprintf(" (the whole: got %s, expected %s)", kernel.Short(actual), kernel.Short(expected))
	}
	label = kernel.Clip(label)
	r := kernel.CheckResult{Label: label, Passed: problem == "", Line: line, Expected: kernel.Clip(checked(expected)), Actual: kernel.Clip(checked(actual))}
	if r.Passed {
		r.Text = kernel.CapMessage(fmt.Sprintf("✓ %s = %s", label, kernel.Clip(checked(actual))))
	} else {
		r.Text = kernel.CapMessage(fmt.Sprintf("✗ %s: %s", label, problem))
	}
	run.Check(cell, r)
	return starlark.Bool(r.Passed), nil
}

// checked writes a value as check shows it: a number (or a Value's) as
// words.Number writes it, anything else as Starlark prints it.
func checked(x starlark.Value) string {
	if f, ok := values.AsFloat(x); ok {
		return words.Number(f)
	}
	return kernel.Short(x)
}

// maxCompareDepth is how deep check looks into lists and dicts inside
// lists and dicts: a list that holds itself is not an endless comparison.
const maxCompareDepth = 64

// compare returns "" if actual matches expected, or what differs; depth is
// how far inside lists and dicts it is.
func compare(actual, expected starlark.Value, tol float64, depth int) (string, error) {
	if depth > maxCompareDepth {
		return "", fmt.Errorf("check: the values are nested more than %d deep (does a list hold itself?)", maxCompareDepth)
	}
	if t, ok := torch.TensorOf(actual); ok { // compared as the nested lists it prints as
		actual = torch.ToList(t)
	}
	if t, ok := torch.TensorOf(expected); ok {
		expected = torch.ToList(t)
	}
	if e, ok := values.AsFloat(expected); ok {
		a, ok := values.AsFloat(actual)
		if !ok {
			return fmt.Sprintf("got %s, a %s, expected the number %s", kernel.Short(actual), actual.Type(), words.Number(e)), nil
		}
		if a == e || math.IsNaN(a) && math.IsNaN(e) || math.Abs(a-e) <= tol*math.Max(1, math.Abs(e)) {
			return "", nil
		}
		return fmt.Sprintf("got %s, expected %s", words.Number(a), words.Number(e)), nil
	}
	switch e := expected.(type) {
	case starlark.String, starlark.Bytes:
		// Strings are compared whole: indexing a one-character string
		// gives the string again.
		if eq, err := starlark.Equal(actual, expected); err != nil || eq {
			return "", err
		}
		return fmt.Sprintf("got %s, expected %s", kernel.Short(actual), kernel.Short(expected)), nil
	case *starlark.Dict:
		a, ok := actual.(*starlark.Dict)
		if !ok {
			return fmt.Sprintf("got a %s, expected a dict", actual.Type()), nil
		}
		for _, item := range e.Items() {
			av, found, err := a.Get(item[0])
			if err != nil {
				return "", err
			}
			if !found {
				return fmt.Sprintf("%s is missing", kernel.Short(item[0])), nil
			}
			p, err := compare(av, item[1], tol, depth+1)
			if err != nil || p != "" {
				return fmt.Sprintf("at %s: %s", kernel.Short(item[0]), p), err
			}
		}
		return "", nil
	case starlark.Indexable:
		a, ok := actual.(starlark.Indexable)
		if !ok {
			return fmt.Sprintf("got a %s, expected a %s", actual.Type(), expected.Type()), nil
		}
		if a.Len() != e.Len() {
			return fmt.Sprintf("got %d items, expected %d", a.Len(), e.Len()), nil
		}
		for i := 0; i < e.Len(); i++ {
			p, err := compare(a.Index(i), e.Index(i), tol, depth+1)
			if err != nil || p != "" {
				return fmt.Sprintf("at [%d]: %s", i, p), err
			}
		}
		return "", nil
	}
	eq, err := starlark.Equal(actual, expected)
	if err != nil {
		return "", err
	}
	if eq {
		return "", nil
	}
	return fmt.Sprintf("got %s, expected %s", kernel.Short(actual), kernel.Short(expected)), nil
}

// firstArg returns the text of the first argument of the call at the start
// of code, e.g. "a.grad" from "check(a.grad, 42)".
func firstArg(code string) string {
	open := strings.IndexByte(code, '(')
	if open < 0 {
		return "check"
	}
	depth := 0
	for i := open + 1; i < len(code); i++ {
		switch code[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return strings.TrimSpace(code[open+1 : i])
			}
			depth--
		case ',':
			if depth == 0 {
				return strings.TrimSpace(code[open+1 : i])
			}
		}
	}
	return strings.TrimSpace(code[open+1:])
}

// grad_check compares a derivative with left, right and central finite
// differences at several steps, prints a table and returns it as a dict:
//
//	grad_check(f, at, analytic=None, steps=None)   f is a function of one number
//	grad_check(graph, leaves, out, names, steps=None)
//
// The second form checks d(out)/d(name) for each leaf in names with the
// engine's gradient, and returns a dict of name → table.
func gradCheckBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 0 {
		if fn, ok := args[0].(starlark.Callable); ok {
			var at float64
			var analytic, steps starlark.Value = starlark.None, starlark.None
			if err := starlark.UnpackArgs(b.Name(), args, kwargs, "f", &fn, "at", &at, "analytic?", &analytic, "steps?", &steps); err != nil {
				return nil, err
			}
			hs, err := stepList(steps)
			if err != nil {
				return nil, err
			}
			f := func(x float64) (float64, error) {
				return callNumber(thread, b.Name(), fn, x) // quietly
			}
			a := math.NaN()
			if analytic != starlark.None {
				var ok bool
				if a, ok = values.AsFloat(analytic); !ok {
					return nil, fmt.Errorf("grad_check: analytic must be a number, got %s", analytic.Type())
				}
			}
			c, err := engine.Differences(f, at, a, hs)
			if err != nil {
				return nil, err
			}
			thread.Print(thread, table(c))
			return checkDict(c), nil
		}
	}
	var graph, leaves, names, steps starlark.Value
	var out string
	steps = starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "graph", &graph, "leaves", &leaves, "out", &out, "names", &names, "steps?", &steps); err != nil {
		return nil, err
	}
	_, g, in, err := graphArgs(graph, leaves, "leaves")
	if err != nil {
		return nil, err
	}
	hs, err := stepList(steps)
	if err != nil {
		return nil, err
	}
	var which []string
	if err := each(names, "names", "leaf names", "strings", func(x starlark.Value) bool {
		s, ok := starlark.AsString(x)
		which = append(which, s)
		return ok
	}); err != nil {
		return nil, err
	}
	l := make(map[string]float64, len(in.names))
	for i, name := range in.names {
		l[name] = in.Xs[i]
	}
	checks, err := engine.GradCheck(g, l, out, which, hs)
	if err != nil {
		return nil, err
	}
	res := starlark.NewDict(len(checks))
	for _, c := range checks {
		thread.Print(thread, fmt.Sprintf("d%s/d%s:\n%s", out, c.Name, table(c)))
		res.SetKey(starlark.String(c.Name), checkDict(c))
	}
	return res, nil
}

func stepList(steps starlark.Value) ([]float64, error) {
	if steps == nil || steps == starlark.None {
		return nil, nil
	}
	var hs []float64
	err := each(steps, "steps", "numbers", "numbers", func(x starlark.Value) bool {
		h, ok := starlark.AsFloat(x)
		hs = append(hs, h)
		return ok
	})
	return hs, err
}

// each calls add with each item of x, grad_check's argument arg, which
// must be a list of what; add reports whether the item is one of items.
func each(x starlark.Value, arg, what, items string, add func(starlark.Value) bool) error {
	iter := starlark.Iterate(x)
	if iter == nil {
		return fmt.Errorf("grad_check: %s must be a list of %s, got %s", arg, what, x.Type())
	}
	defer iter.Done()
	var y starlark.Value
	for iter.Next(&y) {
		if !add(y) {
			return fmt.Errorf("grad_check: %s must be %s, got %s", arg, items, y.Type())
		}
	}
	return nil
}

func checkDict(c engine.GradientCheck) *starlark.Dict {
	d := starlark.NewDict(4)
	d.SetKey(starlark.String("analytic"), starlark.Float(c.Analytic))
	rows := make([]starlark.Value, len(c.Rows))
	for i, r := range c.Rows {
		row := starlark.NewDict(6)
		for _, kv := range []struct {
			k string
			v float64
		}{{"step", r.Step}, {"left", r.Left}, {"right", r.Right}, {"central", r.Central}, {"abs_err", r.AbsErr}, {"rel_err", r.RelErr}} {
			row.SetKey(starlark.String(kv.k), starlark.Float(kv.v))
		}
		rows[i] = row
	}
	d.SetKey(starlark.String("rows"), starlark.NewList(rows))
	d.SetKey(starlark.String("kink"), starlark.Bool(c.Kink))
	if n := len(c.Rows); n > 0 {
		d.SetKey(starlark.String("left"), starlark.Float(c.Rows[n-1].Left))
		d.SetKey(starlark.String("right"), starlark.Float(c.Rows[n-1].Right))
		d.SetKey(starlark.String("central"), starlark.Float(c.Rows[n-1].Central))
	}
	return d
}

// table formats a gradient check as aligned text.
func table(c engine.GradientCheck) string {
	var b strings.Builder
	hasAnalytic := !math.IsNaN(c.Analytic)
	fmt.Fprintf(&b, "%-8s %14s %14s %14s", "step", "left", "right", "central")
	if hasAnalytic {
		fmt.Fprintf(&b, " %12s %12s", "abs error", "rel error")
	}
	for _, r := range c.Rows {
		fmt.Fprintf(&b, "\n%-8s %14s %14s %14s", strconv.FormatFloat(r.Step, 'g', -1, 64), tableNumber(r.Left), tableNumber(r.Right), tableNumber(r.Central))
		if hasAnalytic {
			fmt.Fprintf(&b, " %12.3g %12.3g", r.AbsErr, r.RelErr)
		}
	}
	if hasAnalytic {
		fmt.Fprintf(&b, "\nbackward gives %s", words.Number(c.Analytic))
	}
	if c.Kink {
		last := c.Rows[len(c.Rows)-1]
		fmt.Fprintf(&b, "\nkink: the left and right differences tend to %s and %s, so there is no derivative here; the central difference (%s) is neither one-sided limit.",
			tableNumber(last.Left), tableNumber(last.Right), tableNumber(last.Central))
	}
	return b.String()
}

// tableNumber writes a number as grad_check's table does: ten significant
// digits, so that the differences at small steps show where they part.
func tableNumber(x float64) string { return strconv.FormatFloat(x, 'g', 10, 64) }

// callNumber calls a cell's function f with numbers, quietly, and returns
// the number (or Value) it returns; builtin names the built-in calling
// it.
func callNumber(thread *starlark.Thread, builtin string, f starlark.Callable, xs ...float64) (float64, error) {
	args := make(starlark.Tuple, len(xs))
	for i, x := range xs {
		args[i] = starlark.Float(x)
	}
	y, err := kernel.RunOf(thread).CallQuietly(thread, f, args)
	if err != nil {
		return 0, err
	}
	v, ok := values.AsFloat(y)
	if !ok {
		return 0, fmt.Errorf("%s: %s must return a number or a Value, got %s", builtin, f.Name(), y.Type())
	}
	return v, nil
}
