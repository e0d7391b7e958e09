package library

// This file is the numbers' built-ins: Starlark's math module, and round
// as Python 3 rounds.

import (
	"fmt"
	gomath "math"
	"strconv"

	"go.starlark.net/lib/math"
	"go.starlark.net/starlark"

	"gradbook/internal/words"
	"gradbook/notebook/values"
)

// mathModule is Starlark's math module, as cells have it.
var mathModule = math.Module

// round(x) rounds to the nearest integer (halves to even, as Python 3);
// round(x, n) to n decimal places.
func roundBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	var n starlark.Value = starlark.None
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x, &n); err != nil {
		return nil, err
	}
	f, ok := values.AsFloat(x)
	if !ok {
		return nil, fmt.Errorf("round: want a number, got %s", x.Type())
	}
	if n == starlark.None {
		if gomath.IsNaN(f) || gomath.IsInf(f, 0) {
			return nil, fmt.Errorf("round: cannot round %s to an integer", words.Number(f))
		}
		return starlark.NumberToInt(starlark.Float(gomath.RoundToEven(f)))
	}
	digits, err := starlark.AsInt32(n)
	if err != nil {
		return nil, fmt.Errorf("round: the number of digits must be an integer")
	}
	if digits < 0 || digits > 17 {
		return nil, fmt.Errorf("round: the number of digits must be between 0 and 17, got %d", digits)
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', digits, 64), 64)
	return starlark.Float(r), nil
}
