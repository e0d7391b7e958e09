package fakedom

// This file holds the Document and the dispatch of events.

import (
	"sync"
	"sync/atomic"

	"gradbook/notebook/page"
)

// Document is a document in memory, with the window around it: its
// events, whether it is hidden, and a width for every element.
type Document struct {
	node
	mu        sync.Mutex
	window    node // holds the window's listeners
	hidden    bool
	width     float64
	active    *node
	scrolled  *node
	selection string
}

var _ page.Document = (*Document)(nil)

// DefaultWidth is the client width of every element of a new document.
const DefaultWidth = 720

func newDocument() *Document {
	d := &Document{width: DefaultWidth}
	d.node = node{doc: d, kind: documentNode}
	d.window = node{doc: d, kind: windowNode}
	return d
}

func (d *Document) newText(s string) *node { return &node{doc: d, kind: textNode, data: s} }

func (d *Document) newElement(tag string) *node {
	n := &node{doc: d, kind: elementNode, tag: lower(tag)}
	if n.tag == "template" {
		n.content = &node{doc: d, kind: fragmentNode}
	}
	return n
}

// Create makes an element, not yet in the document.
func (d *Document) Create(tag string) page.Node {
	defer d.lock()()
	return d.newElement(tag)
}

// CreateText makes a text node, not yet in the document.
func (d *Document) CreateText(text string) page.Node {
	defer d.lock()()
	return d.newText(text)
}

// ByID returns the first element in the document with that id, or nil.
func (d *Document) ByID(id string) page.Node {
	defer d.lock()()
	var found *node
	d.walk(func(e *node) bool {
		if v, ok := e.attr("id"); ok && v == id {
			found = e
		}
		return found == nil
	})
	return wrap(found)
}

func (d *Document) root() *node {
	for _, c := range d.children {
		if c.isElement("html") {
			return c
		}
	}
	return nil
}

// Root returns the <html> element.
func (d *Document) Root() page.Node {
	defer d.lock()()
	return wrap(d.root())
}

// Body returns the <body> element.
func (d *Document) Body() page.Node {
	defer d.lock()()
	return wrap(d.body())
}

func (d *Document) body() *node {
	if r := d.root(); r != nil {
		for _, c := range r.children {
			if c.isElement("body") {
				return c
			}
		}
	}
	return nil
}

// Hidden reports what SetHidden last set: false for a new document.
func (d *Document) Hidden() bool {
	defer d.lock()()
	return d.hidden
}

// SetHidden hides the page or shows it again (another tab, a closed
// lid), and when that changes fires visibilitychange at the document, as
// a browser does; it bubbles to the window.
func (d *Document) SetHidden(hidden bool) {
	d.mu.Lock()
	changed := d.hidden != hidden
	d.hidden = hidden
	d.mu.Unlock()
	if changed {
		d.dispatch(&d.node, &event{typ: "visibilitychange"})
	}
}

// ListenWindow listens for the window's events: those FireWindow fires,
// and every event fired at a node of the document, which bubbles up to
// the window after the document.
func (d *Document) ListenWindow(typ string, f func(page.Event)) (stop func()) {
	return d.window.Listen(typ, f)
}

// FireWindow fires an event at the window, such as resize, pagehide or
// pageshow (persisted: the page goes into, or comes back from, the
// back/forward cache). Its Target is nil: the window is no Node.
func (d *Document) FireWindow(typ string, persisted bool) {
	d.dispatch(&d.window, &event{typ: typ, persisted: persisted})
}

// SetWidth sets the client width of every element that has none of its
// own (SetClientWidth).
func (d *Document) SetWidth(px float64) {
	defer d.lock()()
	d.width = px
}

// Active returns the element that has the focus (see Focus): the body
// when none has, or when the one that had it has left the document, been
// disabled or hidden (HTML's focus fixup: the keyboard is then nowhere,
// and the next Tab starts from the top).
func (d *Document) Active() page.Node {
	defer d.lock()()
	if d.active != nil && d.active.connected() && !d.active.disabled() && d.active.shown() {
		return d.active
	}
	return wrap(d.body())
}

// Scrolled returns the node last scrolled into view, or nil.
func (d *Document) Scrolled() page.Node {
	defer d.lock()()
	return wrap(d.scrolled)
}

// Selection returns the text the page last selected (Select), "" if
// none.
func (d *Document) Selection() string {
	defer d.lock()()
	return d.selection
}

type listener struct {
	f       func(page.Event)
	removed bool
}

// event is what every listener gets.
type event struct {
	typ               string
	target            *node
	key               string
	shift, ctrl, meta bool
	persisted         bool
	defaultPrevented  atomic.Bool
}

var _ page.Event = (*event)(nil)

func (e *event) Target() page.Node { return wrap(e.target) }
func (e *event) Key() string       { return e.key }
func (e *event) Shift() bool       { return e.shift }
func (e *event) Ctrl() bool        { return e.ctrl }
func (e *event) Meta() bool        { return e.meta }
func (e *event) Persisted() bool   { return e.persisted }
func (e *event) PreventDefault()   { e.defaultPrevented.Store(true) }

// dispatch fires e at target, and reports whether a listener called
// PreventDefault. The event bubbles: it goes to the listeners of the
// target, then of each ancestor, then, from a node in the document, of
// the document and the window, each node's in the order they were added.
// The path and each node's listeners are taken when dispatch starts (a
// listener added meanwhile hears the next event); a listener stopped
// meanwhile is not called. No lock is held while a listener runs.
func (d *Document) dispatch(target *node, e *event) bool {
	d.mu.Lock()
	e.target = target
	var calls []*listener
	for n := target; n != nil; n = n.parent {
		calls = append(calls, n.on[e.typ]...)
		if n == &d.node {
			calls = append(calls, d.window.on[e.typ]...)
		}
	}
	d.mu.Unlock()
	for _, l := range calls {
		d.mu.Lock()
		removed := l.removed
		d.mu.Unlock()
		if !removed {
			l.f(e)
		}
	}
	return e.defaultPrevented.Load()
}
