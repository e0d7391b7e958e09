//go:build js && wasm

// Command notebook is the notebook's WebAssembly: site/notebook.js starts
// it on every lesson page and on the scratch page, where it is the page's
// side (package web), and again in a Web Worker, where it runs the cells
// (package runner).
package main

import (
	"runtime/debug"
	"syscall/js"

	"gradbook/notebook/runner"
	"gradbook/notebook/web"
)

func main() {
	if js.Global().Get("document").IsUndefined() {
		// A cell's arithmetic makes garbage fast over a small live heap
		// (a training step's graph), and in WebAssembly every collection
		// runs on the cell's own thread: collecting at five times the
		// live heap rather than twice takes a plain training step about
		// a third less time (at nine times, more: the memory grows). The
		// run's heap limit (notebook.MaxHeap) still collects before the
		// heap outgrows it.
		debug.SetGCPercent(400)
		runner.Serve() // in the worker: runs jobs until the page ends it
		return
	}
	web.Run()
	select {} // handlers run for as long as the page lives
}
