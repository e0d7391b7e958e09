//go:build js && wasm

// Command wasm is the Gradbook engine for JavaScript. It registers the
// engine's entry points as globalThis.autodiffCore; site/autodiff.js wraps
// them as globalThis.autodiff.evaluate and .backward, which take the
// lessons' plain arrays and objects and throw Errors. It needs no DOM: the
// same wasm runs in a page, a Web Worker and Node.
//
// The wrapper does the conversion in JavaScript, where it is cheap: it
// numbers the names once and hands over a few typed arrays and strings, so
// a large graph crosses the boundary in a handful of calls rather than
// several per node.
package main

import (
	"bytes"
	"fmt"
	"strings"
	"syscall/js"
	"unsafe"

	"gradbook/engine"
)

var (
	errorCtor   = js.Global().Get("Error")
	float64Ctor = js.Global().Get("Float64Array")
	uint8Ctor   = js.Global().Get("Uint8Array")
)

func main() {
	core := js.Global().Get("Object").New()
	core.Set("evaluate", export(evaluate))
	core.Set("backward", export(backward))
	core.Set("evaluateJSON", export(evaluateJSON))
	core.Set("backwardJSON", export(backwardJSON))
	core.Set("maxNodes", engine.MaxNodes)
	js.Global().Set("autodiffCore", core)
	select {}
}

// export turns f into a JavaScript function that never takes the Go
// runtime down: an error or a panic becomes a returned Error object, which
// autodiff.js throws.
func export(f func(args []js.Value) (any, error)) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) (result any) {
		defer func() {
			if r := recover(); r != nil {
				result = errorCtor.New(fmt.Sprintf("autodiff: bad call: %v", r))
			}
		}()
		v, err := f(args)
		if err != nil {
			return errorCtor.New(err.Error())
		}
		return v
	})
}

// The last graph compiled, reused when the next call sends the same one.
var last struct {
	names, ops string
	code, k    []byte
	tape       *engine.Tape
}

// tape compiles the encoded graph in args[0:5]: names joined by NUL and
// their count, op names joined by NUL, and the bytes of the Int32Array code
// and the Float64Array constants (see engine.Encoded).
func tape(args []js.Value) (*engine.Tape, error) {
	names, ops := args[0].String(), args[2].String()
	n := args[3].Get("byteLength").Int() / 20
	if n > engine.MaxNodes {
		return nil, fmt.Errorf("%w: the graph has %d nodes; at most %d are allowed", engine.ErrTooLarge, n, engine.MaxNodes)
	}
	code, k := copyBytes(args[3]), copyBytes(args[4])
	if last.tape != nil && names == last.names && ops == last.ops && bytes.Equal(code, last.code) && bytes.Equal(k, last.k) {
		return last.tape, nil
	}
	e := engine.Encoded{
		Names: split(names, args[1].Int()),
		Ops:   split(ops, -1),
		Code:  view[int32](code),
		K:     view[float64](k),
	}
	if e.Names == nil && args[1].Int() > 0 {
		return nil, fmt.Errorf("%w: a name contains a NUL character", engine.ErrSyntax)
	}
	t, err := engine.CompileEncoded(e)
	if err != nil {
		return nil, err
	}
	last.names, last.ops, last.code, last.k, last.tape = names, ops, code, k, t
	return t, nil
}

// bound decodes values handed over as args[i:i+4]: the Int32Array of name
// ids, the Float64Array of values, and the names that have no id, joined
// by NUL, with their count.
func bound(args []js.Value, i int) (engine.Bound, error) {
	b := engine.Bound{
		IDs:   view[int32](copyBytes(args[i])),
		Xs:    view[float64](copyBytes(args[i+1])),
		Extra: split(args[i+2].String(), args[i+3].Int()),
	}
	if b.Extra == nil && args[i+3].Int() > 0 {
		return b, fmt.Errorf("%w: a leaf's name contains a NUL character", engine.ErrSyntax)
	}
	return b, nil
}

// evaluate(names, count, ops, code, k, ids, xs, extra, extraCount) returns
// a Float64Array of the node values, in graph order.
func evaluate(args []js.Value) (any, error) {
	t, err := tape(args)
	if err != nil {
		return nil, err
	}
	b, err := bound(args, 5)
	if err != nil {
		return nil, err
	}
	vals, err := t.Load(b, true)
	if err != nil {
		return nil, err
	}
	if err := t.Forward(vals); err != nil {
		return nil, err
	}
	return float64Array(vals[t.NumLeaves():]), nil
}

// backward(names, count, ops, code, k, ids, xs, extra, extraCount, outID,
// outName) returns a Float64Array of gradients, one for each value given.
func backward(args []js.Value) (any, error) {
	t, err := tape(args)
	if err != nil {
		return nil, err
	}
	b, err := bound(args, 5)
	if err != nil {
		return nil, err
	}
	vals, err := t.Load(b, false)
	if err != nil {
		return nil, err
	}
	grads, err := t.Gradients(vals, b, int32(args[9].Int()), args[10].String(), engine.Accumulate)
	if err != nil {
		return nil, err
	}
	return float64Array(grads), nil
}

// evaluateJSON(graphText, leavesText) is evaluate for graphs that the
// wrapper could not encode itself: the engine parses them and says what is
// wrong.
func evaluateJSON(args []js.Value) (any, error) {
	out, err := engine.EvaluateJSON([]byte(args[0].String()), []byte(args[1].String()))
	return string(out), err
}

// backwardJSON(graphText, valuesText, out) is backward on JSON text.
func backwardJSON(args []js.Value) (any, error) {
	out, err := engine.BackwardJSON([]byte(args[0].String()), []byte(args[1].String()), args[2].String())
	return string(out), err
}

// split splits s at NUL into count parts; count -1 means any. It returns
// nil if there are more parts than count (a part contained a NUL).
func split(s string, count int) []string {
	if count == 0 {
		return []string{}
	}
	parts := strings.Split(s, "\x00")
	if count >= 0 && len(parts) != count {
		return nil
	}
	return parts
}

// copyBytes copies a typed array's bytes into Go.
func copyBytes(a js.Value) []byte {
	n := a.Get("byteLength").Int()
	buf := make([]byte, n, n+8)
	if n > 0 {
		js.CopyBytesToGo(buf, uint8Ctor.New(a.Get("buffer"), a.Get("byteOffset"), n))
	}
	return buf
}

// view reinterprets little-endian bytes (WebAssembly is little-endian) as
// a slice of T, copying only if b is not aligned for T.
func view[T int32 | float64](b []byte) []T {
	size := int(unsafe.Sizeof(T(0)))
	n := len(b) / size
	if n == 0 {
		return []T{}
	}
	if uintptr(unsafe.Pointer(&b[0]))%uintptr(size) != 0 {
		out := make([]T, n)
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), n*size), b)
		return out
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), n)
}

// float64Array copies xs into a new JavaScript Float64Array.
func float64Array(xs []float64) js.Value {
	arr := float64Ctor.New(len(xs))
	if len(xs) > 0 {
		b := unsafe.Slice((*byte)(unsafe.Pointer(&xs[0])), len(xs)*8)
		js.CopyBytesToJS(uint8Ctor.New(arr.Get("buffer")), b)
	}
	return arr
}
