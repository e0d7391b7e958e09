//go:build js && wasm

package web

import (
	"syscall/js"
)

// This file is the page's binding to the DOM: the few calls the page
// makes, each one line over syscall/js. (A general binding with a type
// per element and event cost gradbook.wasm about 1 MB of code, a tenth
// of the program, for the sixty methods the page calls.)

// element is a DOM node: an element, a text node, a document fragment or
// the document itself. A nil *element is a node that is not there, as
// querySelector's null.
type element struct{ v js.Value }

// wrap returns v as an element, or nil for null and undefined.
func wrap(v js.Value) *element {
	if v.IsNull() || v.IsUndefined() {
		return nil
	}
	return &element{v}
}

// document is the page's document.
func document() *element { return wrap(js.Global().Get("document")) }

// window is the page's window, for its events.
func window() *element { return wrap(js.Global()) }

// Underlying is the JavaScript value.
func (e *element) Underlying() js.Value { return e.v }

// Get reads a property of the node.
func (e *element) Get(prop string) js.Value { return e.v.Get(prop) }

func (e *element) QuerySelector(sel string) *element {
	return wrap(e.v.Call("querySelector", sel))
}

func (e *element) QuerySelectorAll(sel string) []*element {
	list := e.v.Call("querySelectorAll", sel)
	out := make([]*element, list.Length())
	for i := range out {
		out[i] = &element{list.Index(i)}
	}
	return out
}

// GetElementByID finds an element of the document by its id.
func (e *element) GetElementByID(id string) *element {
	return wrap(e.v.Call("getElementById", id))
}

func (e *element) CreateElement(tag string) *element { return &element{e.v.Call("createElement", tag)} }
func (e *element) CreateTextNode(text string) *element {
	return &element{e.v.Call("createTextNode", text)}
}
func (e *element) DocumentElement() *element { return wrap(e.v.Get("documentElement")) }
func (e *element) Body() *element            { return wrap(e.v.Get("body")) }

func (e *element) GetAttribute(name string) string {
	v := e.v.Call("getAttribute", name)
	if v.IsNull() {
		return ""
	}
	return v.String()
}
func (e *element) SetAttribute(name, value string) { e.v.Call("setAttribute", name, value) }
func (e *element) HasAttribute(name string) bool   { return e.v.Call("hasAttribute", name).Bool() }
func (e *element) RemoveAttribute(name string)     { e.v.Call("removeAttribute", name) }
func (e *element) ID() string                      { return e.v.Get("id").String() }
func (e *element) SetID(id string)                 { e.v.Set("id", id) }

func (e *element) TextContent() string          { return e.v.Get("textContent").String() }
func (e *element) SetTextContent(text string)   { e.v.Set("textContent", text) }
func (e *element) SetInnerHTML(markup string)   { e.v.Set("innerHTML", markup) }
func (e *element) AppendChild(child *element)   { e.v.Call("appendChild", child.v) }
func (e *element) InsertBefore(n, ref *element) { e.v.Call("insertBefore", n.v, ref.value()) }
func (e *element) Remove()                      { e.v.Call("remove") }
func (e *element) ParentElement() *element      { return wrap(e.v.Get("parentElement")) }
func (e *element) ParentNode() *element         { return wrap(e.v.Get("parentNode")) }
func (e *element) FirstChild() *element         { return wrap(e.v.Get("firstChild")) }
func (e *element) FirstElementChild() *element  { return wrap(e.v.Get("firstElementChild")) }

// value is the node's JavaScript value, or null for a node not there.
func (e *element) value() js.Value {
	if e == nil {
		return js.Null()
	}
	return e.v
}

// Class is the element's class list.
func (e *element) Class() classList { return classList{e.v.Get("classList")} }

// classList is an element's classes.
type classList struct{ v js.Value }

func (c classList) Add(name string)           { c.v.Call("add", name) }
func (c classList) Remove(name string)        { c.v.Call("remove", name) }
func (c classList) Contains(name string) bool { return c.v.Call("contains", name).Bool() }

// Form controls and other elements' own properties.
func (e *element) Value() string          { return e.v.Get("value").String() }
func (e *element) SetValue(s string)      { e.v.Set("value", s) }
func (e *element) DefaultValue() string   { return e.v.Get("defaultValue").String() }
func (e *element) Checked() bool          { return e.v.Get("checked").Bool() }
func (e *element) SetChecked(on bool)     { e.v.Set("checked", on) }
func (e *element) SetDisabled(off bool)   { e.v.Set("disabled", off) }
func (e *element) SetType(t string)       { e.v.Set("type", t) }
func (e *element) SetReadOnly(ro bool)    { e.v.Set("readOnly", ro) }
func (e *element) Focus()                 { e.v.Call("focus") }
func (e *element) Select()                { e.v.Call("select") }
func (e *element) Click()                 { e.v.Call("click") }
func (e *element) Content() *element      { return wrap(e.v.Get("content")) } // a template's
func (e *element) Files() js.Value        { return e.v.Get("files") }         // a file input's
func (e *element) Is(other *element) bool { return other != nil && e.v.Equal(other.v) }

// AddEventListener calls listener for every typ event on the node; the
// returned js.Func is for RemoveEventListener, which releases nothing.
func (e *element) AddEventListener(typ string, useCapture bool, listener func(*event)) js.Func {
	fn := js.FuncOf(func(_ js.Value, args []js.Value) any {
		listener(&event{args[0]})
		return nil
	})
	e.v.Call("addEventListener", typ, fn, useCapture)
	return fn
}

func (e *element) RemoveEventListener(typ string, useCapture bool, fn js.Func) {
	e.v.Call("removeEventListener", typ, fn, useCapture)
}

// event is a DOM event.
type event struct{ v js.Value }

func (ev *event) Target() *element { return wrap(ev.v.Get("target")) }
func (ev *event) PreventDefault()  { ev.v.Call("preventDefault") }

// A keyboard event's key and modifiers ("" and false for other events).
func (ev *event) Key() string {
	if k := ev.v.Get("key"); k.Type() == js.TypeString {
		return k.String()
	}
	return ""
}
func (ev *event) ShiftKey() bool { return ev.v.Get("shiftKey").Truthy() }
func (ev *event) CtrlKey() bool  { return ev.v.Get("ctrlKey").Truthy() }
func (ev *event) MetaKey() bool  { return ev.v.Get("metaKey").Truthy() }

// Closest is the element or its nearest ancestor that sel matches.
func (e *element) Closest(sel string) *element {
	if e.v.Get("closest").Type() != js.TypeFunction {
		return nil // a text node
	}
	return wrap(e.v.Call("closest", sel))
}
