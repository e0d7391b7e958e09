//go:build js && wasm

// Command engine is the Gradbook engine for JavaScript, engine.wasm. site/autodiff.js
// starts it and defines globalThis.autodiff.evaluate and .backward, which
// take the lessons' plain arrays and objects and throw Errors.
//
// The engine is reached through WebAssembly exports (go:wasmexport), which
// cost nanoseconds a call, instead of js.FuncOf callbacks, which cost tens
// of microseconds. The wrapper numbers the names of a graph in JavaScript
// and writes them, with the values, straight into a buffer in the module's
// memory; the engine writes its answer into another buffer. See layout.go
// for the buffer's layout. Nothing here needs a DOM, so the same wasm runs
// in a page, a Web Worker and Node.
package main

//lint:file-ignore U1000 the gb_ functions are WebAssembly exports (go:wasmexport), called from autodiff.js

import (
	"syscall/js"

	"gradbook/engine"
)

func main() {
	js.Global().Set("autodiffCore", map[string]any{"maxNodes": engine.MaxNodes, "headerWords": headerWords})
	select {} // the exports answer for as long as the page lives
}

// input returns the address of an input buffer of at least n bytes, kept
// until the next call to input.
//
//go:wasmexport gb_input
func input(n int32) uintptr { return grow(&in, int(n)) }

// output and outputLen say where the last answer is.
//
//go:wasmexport gb_output
func output() uintptr { return addr(out) }

//go:wasmexport gb_output_len
func outputLen() int32 { return int32(len(out)) }

// evaluate runs a request laid out in the input buffer and returns 0 with
// the node values in the output buffer as float64s, or 1 with an error
// message in it.
//
//go:wasmexport gb_evaluate
func evaluate() int32 { return run(func(r *request) error { return r.evaluate() }) }

// backward is evaluate for a reverse pass: the output holds one gradient
// for each value given.
//
//go:wasmexport gb_backward
func backward() int32 { return run(func(r *request) error { return r.backward() }) }

// evaluateJSON and backwardJSON take the graph and values as JSON text, for
// input that the wrapper could not number itself; the output is JSON text.
//
//go:wasmexport gb_evaluate_json
func evaluateJSON() int32 { return run(func(r *request) error { return r.evaluateJSON() }) }

//go:wasmexport gb_backward_json
func backwardJSON() int32 { return run(func(r *request) error { return r.backwardJSON() }) }
