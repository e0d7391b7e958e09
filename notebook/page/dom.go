package page

import (
	"time"
)

// This file declares what the page's logic needs of the browser: a
// document of nodes, its events, a clock and a few services of the
// window. Package web implements them over the real DOM (with
// honnef.co/go/js/dom/v2); package page/fakedom implements them in
// memory, so that every flow of the page is tested natively, as
// net/http's handlers are with httptest.

// Node is an element or a text node of the page's document. A nil Node is
// a node that is not there, as querySelector's null.
//
// Selectors are the page contract's (notebook/block's markup.go, the
// drawings' in notebook/draw): a tag, #id, .class, [attr] and
// [attr=value], in compounds, with descendant and child (>) combinators
// and comma lists. Data (an id from storage, a value from an address)
// never becomes part of a selector: find by a contract's selector, then
// compare the attribute in Go.
type Node interface {
	// Query returns the first descendant that sel matches, or nil;
	// QueryAll every one, in document order.
	Query(sel string) Node
	QueryAll(sel string) []Node
	// Closest returns the node itself or its nearest ancestor that sel
	// matches, or nil (always nil for a text node).
	Closest(sel string) Node
	Parent() Node
	FirstChild() Node
	// Is reports whether other is this same node.
	Is(other Node) bool

	Attr(name string) string // "" when it has none
	HasAttr(name string) bool
	SetAttr(name, value string)
	RemoveAttr(name string)
	HasClass(name string) bool
	AddClass(name string)
	RemoveClass(name string)

	// Text is the node's text content, SetText replaces its children by
	// one text node. SetHTML replaces them by markup, which is always
	// the build's own (package block's, draw's and plot's writers, with
	// every text escaped), never data.
	Text() string
	SetText(text string)
	SetHTML(markup string)
	// TemplateText is the text of a <template>'s content.
	TemplateText() string

	// Append moves child to the end of this node's children;
	// InsertBefore moves n before ref, one of them (at the end if ref is
	// nil). Remove takes the node out of the document.
	Append(child Node)
	InsertBefore(n, ref Node)
	Remove()

	// Form controls.
	Value() string
	SetValue(v string)
	DefaultValue() string // a textarea's authored text, an input's value attribute
	Checked() bool
	SetChecked(on bool)
	SetDisabled(off bool)

	Focus()
	Select() // an input's text, to copy
	Click()

	// Geometry, in CSS pixels; 0 where the node is not laid out.
	ClientWidth() float64
	ScrollWidth() float64
	OffsetHeight() float64
	Rect() Rect
	SetScrollLeft(x float64)
	// SetStyle sets one property through the CSSOM (the pages' CSP
	// refuses style attributes).
	SetStyle(property, value string)
	// ScrollIntoView scrolls the page so that the node is in the middle
	// of the window.
	ScrollIntoView()

	// Listen calls f for every typ event at or below the node, until
	// the function it returns is called. f runs inside the browser's
	// event: it reads the event and starts work (Page.Do), and never
	// waits.
	Listen(typ string, f func(Event)) (stop func())
}

// Rect is a node's box on the screen.
type Rect struct {
	Top, Width float64
}

// Event is a DOM event as a listener sees it.
type Event interface {
	Target() Node
	// Key and the modifiers are a keyboard event's ("" and false for
	// other events).
	Key() string
	Shift() bool
	Ctrl() bool
	Meta() bool
	PreventDefault()
	// Persisted is a pagehide or pageshow event's: the page goes into,
	// or comes back from, the back/forward cache.
	Persisted() bool
}

// Document is the page's document.
type Document interface {
	Node
	Create(tag string) Node
	CreateText(text string) Node
	ByID(id string) Node
	Body() Node
	Root() Node // <html>
	// Active is the element that has the keyboard (the body when none
	// has).
	Active() Node
	// Hidden reports whether the page is hidden (another tab, a closed
	// lid).
	Hidden() bool
	// ListenWindow listens for the window's events: resize, pagehide,
	// pageshow, visibilitychange.
	ListenWindow(typ string, f func(Event)) (stop func())
}

// Clock is the time the page's logic keeps: real in the browser, moved
// by hand in tests.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f on its own goroutine after d, unless stop is
	// called first; stop reports whether it stopped the call.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// RealClock is the clock of the standard library.
type RealClock struct{}

// Now is time.Now.
func (RealClock) Now() time.Time { return time.Now() }

// AfterFunc is time.AfterFunc.
func (RealClock) AfterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
