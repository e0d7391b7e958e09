package kernel

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"gradbook/internal/words"
)

// This file writes values as Starlark's str does, without recursion:
// Starlark's own writer calls itself once per level of nesting, and data
// nested twenty thousand deep (x = [x] in a loop) overflows the
// browser's stack, which kills the WebAssembly runtime rather than the
// cell. Cells' str, repr and print are these (env.go), and built-ins
// that quote a learner's value in a message use Format.

// MaxText is the longest text str and repr make, so that a list that
// holds one list many times over (x = [x, x], forty times, is a
// thousand billion items as text) is an error, not a run that never
// ends.
const MaxText = 64 << 20

// Format writes x as Starlark's str writes it (a string with its
// quotes), or the first max bytes of that and false when it is longer.
// It uses a stack of its own, so any depth of nesting is fine, and a
// list or dict that holds itself is written "[...]" or "{...}", as
// Starlark writes it.
func Format(x starlark.Value, max int) (string, bool) {
	var b strings.Builder
	ok := format(&b, x, max)
	return b.String(), ok
}

// Short is x as a message quotes it: clipped as Clip clips, and written
// no further than that.
func Short(x starlark.Value) string {
	s, _ := Format(x, maxValue)
	return Clip(s)
}

// format writes x into b until it holds more than max bytes, and reports
// whether it wrote all of it.
func format(b *strings.Builder, x starlark.Value, max int) bool {
	// A task is text to write, a value to write, or the end of a list or
	// dict being written (path holds those being written, as Starlark's
	// path does, to find one that holds itself).
	type task struct {
		text string
		x    starlark.Value
		end  starlark.Value
	}
	path := map[starlark.Value]int{}
	stack := []task{{x: x}}
	for len(stack) > 0 {
		if b.Len() > max {
			return false
		}
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch {
		case t.end != nil:
			path[t.end]--
			continue
		case t.x == nil:
			b.WriteString(t.text)
			continue
		}
		// items pushes the tasks that write elems between open and close,
		// separated by commas, in the order they are written.
		items := func(open, close string, elems []starlark.Value, holder starlark.Value) {
			b.WriteString(open)
			if holder != nil {
				path[holder]++
				stack = append(stack, task{end: holder})
			}
			stack = append(stack, task{text: close})
			for i := len(elems) - 1; i >= 0; i-- {
				stack = append(stack, task{x: elems[i]})
				if i > 0 {
					stack = append(stack, task{text: ", "})
				}
			}
		}
		switch x := t.x.(type) {
		case starlark.String:
			b.WriteString(syntax.Quote(string(x), false))
		case *starlark.List:
			if path[x] > 0 {
				b.WriteString("[...]")
				continue
			}
			elems := make([]starlark.Value, x.Len())
			for i := range elems {
				elems[i] = x.Index(i)
			}
			items("[", "]", elems, x)
		case starlark.Tuple:
			if len(x) == 1 {
				items("(", ",)", x, nil)
			} else {
				items("(", ")", x, nil)
			}
		case *starlark.Dict:
			if path[x] > 0 {
				b.WriteString("{...}")
				continue
			}
			b.WriteString("{")
			path[x]++
			stack = append(stack, task{end: x}, task{text: "}"})
			kvs := x.Items()
			for i := len(kvs) - 1; i >= 0; i-- {
				stack = append(stack, task{x: kvs[i][1]}, task{text: ": "}, task{x: kvs[i][0]})
				if i > 0 {
					stack = append(stack, task{text: ", "})
				}
			}
		case *starlark.Set:
			elems := make([]starlark.Value, 0, x.Len())
			it := x.Iterate()
			var e starlark.Value
			for it.Next(&e) {
				elems = append(elems, e)
			}
			it.Done()
			items("set([", "])", elems, nil)
		default:
			b.WriteString(x.String())
		}
	}
	return b.Len() <= max
}

// container reports whether x is one of Starlark's values whose text
// nests: Starlark's own str would recurse into it.
func container(x starlark.Value) bool {
	switch x.(type) {
	case *starlark.List, starlark.Tuple, *starlark.Dict, *starlark.Set:
		return true
	}
	return false
}

// text is str(x) for a container, or the error of one too long.
func text(fn string, x starlark.Value) (starlark.String, error) {
	s, ok := Format(x, MaxText)
	if !ok {
		return "", fmt.Errorf("%s: the text would be longer than %s (does a list hold the same list many times over?)", fn, words.Bytes(MaxText))
	}
	return starlark.String(s), nil
}

// strBuiltin is Starlark's str, writing containers with Format.
func strBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 1 && len(kwargs) == 0 && container(args[0]) {
		return text("str", args[0])
	}
	return starlark.Call(thread, starlark.Universe["str"], args, kwargs)
}

// reprBuiltin is Starlark's repr, writing containers with Format.
func reprBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 1 && len(kwargs) == 0 && container(args[0]) {
		return text("repr", args[0])
	}
	return starlark.Call(thread, starlark.Universe["repr"], args, kwargs)
}

// printBuiltin is Starlark's print, writing containers with Format: no
// more of a value than the run may print (MaxOutput) is written.
func printBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	sep := " "
	if err := starlark.UnpackArgs("print", nil, kwargs, "sep?", &sep); err != nil {
		return nil, err
	}
	var out strings.Builder
	for i, v := range args {
		if i > 0 {
			out.WriteString(sep)
		}
		switch v := v.(type) {
		case starlark.String:
			out.WriteString(string(v))
		case starlark.Bytes:
			out.WriteString(string(v))
		default:
			if out.Len() <= MaxOutput {
				format(&out, v, MaxOutput)
			}
		}
	}
	thread.Print(thread, out.String())
	return starlark.None, nil
}
