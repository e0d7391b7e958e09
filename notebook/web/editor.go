//go:build js && wasm

package web

import (
	"strconv"
	"syscall/js"
	"time"
)

// codeEditor is the code editor of a cell or an exercise: CodeMirror
// (site/editor.js, through its small interface: create, text, setText,
// focus, mark, destroy) where it loaded, or else the authored textarea
// itself. Its text is what runs and what is saved.
type codeEditor struct {
	area *element // the authored code: the default text, and the editor where CodeMirror is missing
	box  *element // CodeMirror's box, nil where it is missing
	cm   js.Value
}

// loadEditors waits for gradbook.js's import of site/editor.js, for at
// most a few seconds, and returns the module, or undefined: the cells
// then keep their textareas.
func loadEditors() js.Value {
	promise, ok := global("gradbookEditor")
	if !ok {
		return js.Undefined()
	}
	ch := make(chan js.Value, 1)
	go func() {
		m, err := await(promise)
		if err != nil || !m.Truthy() {
			m = js.Undefined()
		}
		ch <- m
	}()
	select {
	case m := <-ch:
		return m
	case <-time.After(5 * time.Second):
		return js.Undefined()
	}
}

// newEditor gives area an editor, named label for screen readers, its
// keyboard hint the text of the element the textarea names with
// aria-describedby, if any. onChange is called
// after each edit, onRun on Shift+Enter or Ctrl/⌘+Enter; on owns the
// handlers.
func (p *Page) newEditor(on *handlers, area *element, label string, onChange, onRun func()) *codeEditor {
	e := &codeEditor{area: area}
	if !p.editors.Truthy() {
		on.listen(area, "input", func(*event) { spawn(onChange) })
		on.listen(area, "keydown", func(ev *event) {
			if ev.Key() != "Enter" || !(ev.ShiftKey() || ev.CtrlKey() || ev.MetaKey()) {
				return
			}
			ev.PreventDefault()
			spawn(onRun)
		})
		return e
	}
	e.box = p.doc.CreateElement("div")
	e.box.SetAttribute("class", classCodeEditor)
	// As tall as the textarea it replaces: the page does not jump. (Set
	// through the CSSOM: the CSP refuses style attributes.)
	if h := area.Get("offsetHeight").Int(); h > 0 {
		e.box.Underlying().Get("style").Call("setProperty", "min-height", strconv.Itoa(h)+"px")
	}
	area.ParentNode().InsertBefore(e.box, area)
	opts := js.Global().Get("Object").New()
	opts.Set("label", label)
	if d := area.GetAttribute("aria-describedby"); d != "" {
		if hint := p.doc.GetElementByID(d); hint != nil {
			opts.Set("hint", hint.TextContent())
		}
	}
	// The textarea keeps the editor's text too: what a form, a test or
	// an extension reads there is the code.
	opts.Set("onChange", on.fn(func() {
		area.SetValue(e.Value())
		onChange()
	}))
	opts.Set("onRun", on.fn(onRun))
	e.cm = p.editors.Call("create", e.box.Underlying(), area.Value(), opts)
	area.SetAttribute("hidden", "")
	on.after = append(on.after, func() { e.cm.Call("destroy") })
	return e
}

// Value is the code in the editor.
func (e *codeEditor) Value() string {
	if e.box != nil {
		return e.cm.Call("text").String()
	}
	return e.area.Value()
}

// SetValue replaces the code in the editor.
func (e *codeEditor) SetValue(s string) {
	if e.box != nil {
		e.cm.Call("setText", s)
	}
	e.area.SetValue(s)
}

// DefaultValue is the code the lesson wrote.
func (e *codeEditor) DefaultValue() string { return e.area.DefaultValue() }

// Focus puts the keyboard in the editor.
func (e *codeEditor) Focus() {
	if e.box != nil {
		e.cm.Call("focus")
		return
	}
	e.area.Focus()
}

// Mark marks line n (from 1) as the one an error names, until the code
// changes; 0 clears it. Every run calls it, and in the editor a run ends
// an undo step.
func (e *codeEditor) Mark(n int) {
	if e.box != nil {
		e.cm.Call("mark", n)
	}
}

// Label renames the editor for screen readers.
func (e *codeEditor) Label(label string) {
	if e.box != nil {
		e.cm.Call("label", label)
	}
}

// elem is the editor on the page, to put boxes before.
func (e *codeEditor) elem() *element {
	if e.box != nil {
		return e.box
	}
	return e.area
}
