//go:build js && wasm

// Command notebook is the notebook's WebAssembly: site/notebook.js starts
// it on every lesson page and on the scratch page, where it is the page's
// side (package web), and again in a Web Worker, where it runs the cells
// (package runner).
package main

import (
	"syscall/js"

	"gradbook/notebook/runner"
	"gradbook/notebook/web"
)

func main() {
	if js.Global().Get("document").IsUndefined() {
		runner.Serve() // in the worker: runs jobs until the page ends it
		return
	}
	web.Run()
	select {} // handlers run for as long as the page lives
}
