//go:build js && wasm

// Command gradbook is the notebook's WebAssembly, gradbook.wasm:
// site/gradbook.js starts it on every lesson page and on the scratch page,
// where it is the page's side (package web, over package page), and again
// in a Web Worker, where it runs the cells (package runner's Runner,
// served by worker.go).
package main

import (
	"syscall/js"

	"gradbook/notebook/web"
)

func main() {
	if js.Global().Get("document").IsUndefined() {
		serve() // in the worker: runs jobs until the page ends it
		return
	}
	web.Run()
	select {} // handlers run for as long as the page lives
}
