//go:build js && wasm

package web

import (
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"gradbook/notebook/page"
)

// This file is page.Node, page.Event and page.Document over the browser's
// DOM, through honnef.co/go/js/dom/v2. Every node is a
// dom.BasicHTMLElement made here: dom/v2's own wrapping (WrapElement, and
// the methods that return elements) picks a type per tag from sixty,
// which keeps every one of those types' methods in gradbook.wasm (150 KB
// of its gzipped download); the page needs none of them.

// node is a DOM node: an element or a text node.
type node struct{ *dom.BasicHTMLElement }

var _ page.Node = (*node)(nil)

// wrap returns v as a node, or nil (a page.Node that is not there) for
// null and undefined.
func wrap(v js.Value) page.Node {
	if v.IsNull() || v.IsUndefined() {
		return nil
	}
	return &node{&dom.BasicHTMLElement{BasicElement: &dom.BasicElement{BasicNode: &dom.BasicNode{Value: v}}}}
}

// jsOf is a page.Node's JavaScript value, null for none.
func jsOf(n page.Node) js.Value {
	if n, ok := n.(*node); ok && n != nil {
		return n.Underlying()
	}
	return js.Null()
}

func (n *node) Query(sel string) page.Node { return wrap(n.Call("querySelector", sel)) }

func (n *node) QueryAll(sel string) []page.Node {
	list := n.Call("querySelectorAll", sel)
	out := make([]page.Node, list.Length())
	for i := range out {
		out[i] = wrap(list.Index(i))
	}
	return out
}

func (n *node) Closest(sel string) page.Node {
	if n.Get("closest").Type() != js.TypeFunction {
		return nil // a text node
	}
	return wrap(n.Call("closest", sel))
}

func (n *node) Parent() page.Node       { return wrap(n.Get("parentNode")) }
func (n *node) FirstChild() page.Node   { return wrap(n.Get("firstChild")) }
func (n *node) Is(other page.Node) bool { return other != nil && n.Equal(jsOf(other)) }

func (n *node) Attr(name string) string {
	v := n.Call("getAttribute", name)
	if v.IsNull() {
		return ""
	}
	return v.String()
}
func (n *node) HasAttr(name string) bool        { return n.HasAttribute(name) }
func (n *node) SetAttr(name, value string)      { n.SetAttribute(name, value) }
func (n *node) RemoveAttr(name string)          { n.RemoveAttribute(name) }
func (n *node) HasClass(name string) bool       { return n.Class().Contains(name) }
func (n *node) AddClass(name string)            { n.Class().Add(name) }
func (n *node) RemoveClass(name string)         { n.Class().Remove(name) }
func (n *node) Text() string                    { return n.TextContent() }
func (n *node) SetText(text string)             { n.SetTextContent(text) }
func (n *node) SetHTML(markup string)           { n.SetInnerHTML(markup) }
func (n *node) TemplateText() string            { return n.Get("content").Get("textContent").String() }
func (n *node) Append(child page.Node)          { n.Call("appendChild", jsOf(child)) }
func (n *node) InsertBefore(c, ref page.Node)   { n.Call("insertBefore", jsOf(c), jsOf(ref)) }
func (n *node) Remove()                         { n.Call("remove") }
func (n *node) Value() string                   { return n.Get("value").String() }
func (n *node) SetValue(v string)               { n.Set("value", v) }
func (n *node) DefaultValue() string            { return n.Get("defaultValue").String() }
func (n *node) Checked() bool                   { return n.Get("checked").Bool() }
func (n *node) SetChecked(on bool)              { n.Set("checked", on) }
func (n *node) SetDisabled(off bool)            { n.Set("disabled", off) }
func (n *node) Select()                         { n.Call("select") }
func (n *node) ClientWidth() float64            { return n.Get("clientWidth").Float() }
func (n *node) ScrollWidth() float64            { return n.Get("scrollWidth").Float() }
func (n *node) SetScrollLeft(x float64)         { n.Set("scrollLeft", x) }
func (n *node) SetStyle(property, value string) { n.Style().SetProperty(property, value, "") }

func (n *node) Rect() page.Rect {
	r := n.GetBoundingClientRect()
	return page.Rect{Top: r.Top(), Width: r.Width()}
}

func (n *node) ScrollIntoView() {
	n.Call("scrollIntoView", map[string]any{"block": "center"})
}

// Listen calls f for every typ event on the node, until stop.
func (n *node) Listen(typ string, f func(page.Event)) (stop func()) {
	return listen(n.Underlying(), typ, f)
}

// listen adds f as target's listener of typ events; stop removes it and
// releases its js.Func.
func listen(target js.Value, typ string, f func(page.Event)) (stop func()) {
	fn := js.FuncOf(func(_ js.Value, args []js.Value) any {
		f(&event{&dom.KeyboardEvent{BasicEvent: &dom.BasicEvent{Value: args[0]}}})
		return nil
	})
	target.Call("addEventListener", typ, fn)
	return func() {
		target.Call("removeEventListener", typ, fn)
		fn.Release()
	}
}

// event is a DOM event; a keyboard event's key and modifiers are "" and
// false on other events.
type event struct{ *dom.KeyboardEvent }

func (ev *event) Target() page.Node { return wrap(ev.Get("target")) }
func (ev *event) Key() string {
	if k := ev.Get("key"); k.Type() == js.TypeString {
		return k.String()
	}
	return ""
}
func (ev *event) Shift() bool     { return ev.Get("shiftKey").Truthy() }
func (ev *event) Ctrl() bool      { return ev.Get("ctrlKey").Truthy() }
func (ev *event) Meta() bool      { return ev.Get("metaKey").Truthy() }
func (ev *event) Persisted() bool { return ev.Get("persisted").Truthy() }

// document is the page's document.
type document struct {
	*node
	win js.Value
}

var _ page.Document = (*document)(nil)

func newDocument() *document {
	d := wrap(js.Global().Get("document")).(*node)
	return &document{node: d, win: js.Global()}
}

func (d *document) Create(tag string) page.Node      { return wrap(d.Call("createElement", tag)) }
func (d *document) CreateText(text string) page.Node { return wrap(d.Call("createTextNode", text)) }
func (d *document) ByID(id string) page.Node         { return wrap(d.Call("getElementById", id)) }
func (d *document) Active() page.Node                { return wrap(d.Get("activeElement")) }
func (d *document) Body() page.Node                  { return wrap(d.Get("body")) }
func (d *document) Root() page.Node                  { return wrap(d.Get("documentElement")) }
func (d *document) Hidden() bool                     { return d.Get("hidden").Truthy() }
func (d *document) ListenWindow(typ string, f func(page.Event)) func() {
	return listen(d.win, typ, f)
}
