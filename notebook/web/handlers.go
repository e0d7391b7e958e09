//go:build js && wasm

package web

import (
	"syscall/js"

	"honnef.co/go/js/dom/v2"
)

// handlers owns the event handlers of one part of the page: the page
// itself, or the drawings under a cell. When that part is replaced,
// release removes its handlers and releases their js.Funcs, so that
// re-running a cell does not leak them.
type handlers struct {
	list []handler
}

// eventTarget is an element or the window.
type eventTarget interface {
	AddEventListener(typ string, useCapture bool, listener func(dom.Event)) js.Func
	RemoveEventListener(typ string, useCapture bool, listener js.Func)
}

type handler struct {
	el  eventTarget
	typ string
	fn  js.Func
}

// listen calls f for every typ event on el, safely.
func (h *handlers) listen(el eventTarget, typ string, f func(dom.Event)) {
	fn := el.AddEventListener(typ, false, func(ev dom.Event) { safely(func() { f(ev) }) })
	h.list = append(h.list, handler{el, typ, fn})
}

// release removes every handler and releases its js.Func.
func (h *handlers) release() {
	for _, x := range h.list {
		x.el.RemoveEventListener(x.typ, false, x.fn)
		x.fn.Release()
	}
	h.list = nil
}
