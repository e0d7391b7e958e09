//go:build js && wasm

package web

import (
	"syscall/js"
	"time"

	"gradbook/notebook/page"
)

// editors is page.Editors over site/editor.js, CodeMirror behind a small
// interface: create, text, setText, focus, mark, label, destroy.
type editors struct{ module js.Value }

// loadEditors waits a moment for gradbook.js's import of site/editor.js
// (which starts once gradbook.wasm has come) and returns it, or nil and
// a channel that gives it once it has come (nil if it could not load:
// the cells then keep their textareas). The moment is long enough for an
// editor already in the browser's cache, so that a page opened again
// starts with its editors; on a slow network the editor is still on its
// way, and the page does not wait for it: its cells run in their text
// boxes until it comes (page.UseEditors).
func loadEditors() (page.Editors, <-chan page.Editors) {
	promise, ok := global("gradbookEditor")
	if !ok {
		return nil, nil
	}
	ch := make(chan page.Editors, 1)
	go func() {
		m, err := await(promise)
		if err != nil || !m.Truthy() {
			ch <- nil
			return
		}
		ch <- editors{m}
	}()
	select {
	case eds := <-ch:
		return eds, nil
	case <-time.After(20 * time.Millisecond):
		return nil, ch
	}
}

func (e editors) New(box page.Node, text string, o page.EditorOptions) page.Editor {
	opts := js.Global().Get("Object").New()
	opts.Set("label", o.Label)
	if o.Hint != "" {
		opts.Set("hint", o.Hint)
	}
	ed := &editor{}
	ed.funcs = []js.Func{callback(o.OnChange), callback(o.OnRun)}
	opts.Set("onChange", ed.funcs[0])
	opts.Set("onRun", ed.funcs[1])
	ed.cm = e.module.Call("create", jsOf(box), text, opts)
	return ed
}

// callback makes f a js.Func; f starts its work on its own (page.Do).
func callback(f func()) js.Func {
	return js.FuncOf(func(js.Value, []js.Value) any {
		f()
		return nil
	})
}

// editor is one CodeMirror editor.
type editor struct {
	cm    js.Value
	funcs []js.Func
}

func (e *editor) Text() string     { return e.cm.Call("text").String() }
func (e *editor) SetText(s string) { e.cm.Call("setText", s) }
func (e *editor) Focus()           { e.cm.Call("focus") }
func (e *editor) Mark(n int)       { e.cm.Call("mark", n) }
func (e *editor) Label(l string)   { e.cm.Call("label", l) }
func (e *editor) Destroy() {
	e.cm.Call("destroy")
	for _, f := range e.funcs {
		f.Release()
	}
}
