//go:build js && wasm

package web

import (
	"syscall/js"
)

// handlers owns the event handlers of one part of the page: the page
// itself, or the drawings under a cell. When that part is replaced,
// release removes its handlers and releases their js.Funcs, so that
// re-running a cell does not leak them.
type handlers struct {
	list []handler
	// funcs are js.Funcs handed to JavaScript otherwise than as event
	// listeners, and after are what else to undo (an editor to destroy).
	funcs []js.Func
	after []func()
}

// eventTarget is an element or the window.
type eventTarget interface {
	AddEventListener(typ string, useCapture bool, listener func(*event)) js.Func
	RemoveEventListener(typ string, useCapture bool, listener js.Func)
}

type handler struct {
	el  eventTarget
	typ string
	fn  js.Func
}

// listen calls f for every typ event on el, safely.
func (h *handlers) listen(el eventTarget, typ string, f func(*event)) {
	fn := el.AddEventListener(typ, false, func(ev *event) { safely(func() { f(ev) }) })
	h.list = append(h.list, handler{el, typ, fn})
}

// fn makes a js.Func that calls f safely, on its own goroutine, and is
// released with the others.
func (h *handlers) fn(f func()) js.Func {
	fn := js.FuncOf(func(js.Value, []js.Value) any {
		spawn(f)
		return nil
	})
	h.funcs = append(h.funcs, fn)
	return fn
}

// release removes every handler and releases its js.Func.
func (h *handlers) release() {
	for _, f := range h.after {
		f()
	}
	for _, x := range h.list {
		x.el.RemoveEventListener(x.typ, false, x.fn)
		x.fn.Release()
	}
	for _, fn := range h.funcs {
		fn.Release()
	}
	h.list, h.funcs, h.after = nil, nil, nil
}
