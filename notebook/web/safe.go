//go:build js && wasm

package web

import (
	"fmt"
	"runtime/debug"
	"syscall/js"

	"gradbook/notebook/block"
)

// A panic in any goroutine would stop the wasm, and every cell with it.
// Every handler and every goroutine of the page runs through safely or
// spawn, which turn a panic into a notice instead.

// spawn runs f on its own goroutine, safely.
func spawn(f func()) {
	go safely(f)
}

// safely runs f, reporting a panic on the page instead of dying of it.
func safely(f func()) {
	defer func() {
		if r := recover(); r != nil {
			println("gradbook: recovered:", fmt.Sprint(r), string(debug.Stack()))
			report(fmt.Sprint(r))
		}
	}()
	f()
}

// report shows an internal error in the page's notices, if it has some.
func report(msg string) {
	defer func() { recover() }()
	doc := js.Global().Get("document")
	box := doc.Call("getElementById", block.IDNotices)
	if box.IsNull() || box.IsUndefined() {
		return
	}
	p := doc.Call("createElement", "p")
	p.Set("className", classNotice)
	p.Set("textContent", "Something went wrong inside Gradbook ("+msg+"). Your work is safe; the page keeps working.")
	box.Call("appendChild", p)
	box.Call("removeAttribute", "hidden")
}
