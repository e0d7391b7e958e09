//go:build js && wasm

// Command gradbook is the notebook's WebAssembly, gradbook.wasm:
// site/gradbook.js starts it on every lesson page and on the scratch page,
// where it is the page's side (package web, over package page), and again
// in a Web Worker, where it runs the cells (package runner's Runner,
// served by worker.go), with the matrix-product kernels of package
// wasm/kernels compiled into its memory.
package main

import (
	"syscall/js"

	"gradbook/notebook/web"
	"gradbook/wasm/kernels"
)

func main() {
	if js.Global().Get("document").IsUndefined() {
		// In the worker: the kernels, then jobs until the page ends it.
		r := js.Global().Get("gradbookRunner")
		r.Set("kernels", kernels.Install(r.Get("memory")))
		serve()
		return
	}
	web.Run()
	select {} // handlers run for as long as the page lives
}
