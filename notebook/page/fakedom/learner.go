package fakedom

// This file holds what a test does as a learner would (click, type,
// press keys, choose), each firing the events a browser fires, in its
// order, and what it reads back.

import (
	"fmt"
	"strings"
	"testing"

	"gradbook/notebook/page"
)

// Click clicks n as a learner does, or as the browser's click() does: on
// a disabled control nothing happens. Otherwise a click bubbles from n,
// and unless a listener prevents its default, the browser's action
// follows:
//   - a checkbox is toggled and a radio button checked (the others of
//     its group unchecked) before the click, so that its listeners see
//     the new state, and put back if the default is prevented; then
//     input and change fire at it (at a radio button, only if it was
//     not checked);
//   - a label clicks its control;
//   - a details' summary opens or closes it (no toggle event fires).
//
// No mouse or focus events fire, and nothing is submitted or followed.
func Click(n page.Node) { click(nodeOf(n)) }

func click(n *node) {
	d := n.doc
	d.mu.Lock()
	if n.disabled() {
		d.mu.Unlock()
		return
	}
	act := n.activated()
	var undo func()
	changed := true
	if act.checkable() {
		was := act.isChecked()
		if act.isRadio() {
			var before *node
			for _, r := range act.group() {
				if r.isChecked() {
					before = r
				}
			}
			changed = !was
			act.setChecked(true)
			undo = func() {
				act.setChecked(false)
				if before != nil {
					before.setChecked(true)
				}
			}
		} else {
			act.setChecked(!was)
			undo = func() { act.setChecked(was) }
		}
	}
	d.mu.Unlock()
	if d.dispatch(n, &event{typ: "click"}) {
		if undo != nil {
			defer act.lock()()
			undo()
		}
		return
	}
	switch {
	case act.checkable():
		if changed {
			d.dispatch(act, &event{typ: "input"})
			d.dispatch(act, &event{typ: "change"})
		}
	case act.isElement("label"):
		d.mu.Lock()
		c := act.control()
		d.mu.Unlock()
		if c != nil && c != n {
			click(c)
		}
	case act.isElement("summary"):
		defer act.lock()()
		switch details := act.parent; {
		case !details.isElement("details"): // a listener moved it
		case details.hasAttr("open"):
			details.removeAttr("open")
		default:
			details.setAttr("open", "")
		}
	}
}

// activated is the element whose action a click at n takes: n or its
// nearest ancestor with one (a checkbox, a radio button, a label, a
// details' summary), unless another control comes first; nil for none.
func (n *node) activated() *node {
	for e := n; e.isElement(); e = e.parent {
		switch {
		case e.checkable() || e.isElement("label"):
			return e
		case e.isElement("summary") && e.parent.isElement("details") && e.parent.summary() == e:
			return e
		case e.isElement("button", "input", "select", "textarea") || e.isElement("a") && e.hasAttr("href"):
			return nil
		}
	}
	return nil
}

// labelable are the elements a label can be for.
func (n *node) labelable() bool {
	if n.isElement("input") {
		t, _ := n.attr("type")
		return !strings.EqualFold(t, "hidden")
	}
	return n.isElement("button", "meter", "output", "progress", "select", "textarea")
}

// control is a label's control: the element its for attribute names,
// else the first labelable element inside it.
func (n *node) control() *node {
	var found *node
	if id, ok := n.attr("for"); ok {
		n.doc.walk(func(e *node) bool {
			if v, _ := e.attr("id"); v == id {
				found = e
			}
			return found == nil
		})
		if !found.labelable() {
			return nil
		}
		return found
	}
	n.walk(func(e *node) bool {
		if e.labelable() {
			found = e
		}
		return found == nil
	})
	return found
}

// Type puts text in an input or a textarea as a learner does who
// selects all it holds and types: the field gets the focus, then the
// value, then an input event bubbles from it. A disabled or read-only
// field takes nothing. Typing into anything else panics.
func Type(n page.Node, text string) {
	m := nodeOf(n)
	d := m.doc
	d.mu.Lock()
	what := fmt.Sprintf("<%s>", m.tag)
	typable := m.isElement("input", "textarea") && !m.checkable()
	editable := typable && !m.disabled() && !m.hasAttr("readonly")
	if editable {
		m.focus()
		m.setValue(text)
	}
	d.mu.Unlock()
	if !typable {
		panic("fakedom: Type into " + what + ", which takes no typing (Click a checkbox or radio button, Choose a select's option)")
	}
	if editable {
		d.dispatch(m, &event{typ: "input"})
	}
}

// Mod is a modifier key held during Key.
type Mod uint8

// The modifiers an event reports.
const (
	Shift Mod = 1 << iota
	Ctrl
	Meta
)

// Key presses a key (a KeyboardEvent's key: "Enter", "Escape", "a") on
// n: a keydown bubbles from it. It reports whether a listener prevented
// the default; the default itself (a newline, a click on a button) is
// not done.
func Key(n page.Node, key string, mods ...Mod) (prevented bool) {
	var m Mod
	for _, x := range mods {
		m |= x
	}
	t := nodeOf(n)
	return t.doc.dispatch(t, &event{typ: "keydown", key: key, shift: m&Shift != 0, ctrl: m&Ctrl != 0, meta: m&Meta != 0})
}

// Choose picks the option of a select that has value, as a learner does:
// the select takes the value, then input and change bubble from it. A
// disabled select takes nothing; a value none of its options has
// panics.
func Choose(sel page.Node, value string) {
	s := nodeOf(sel)
	d := s.doc
	d.mu.Lock()
	ok, off := false, s.disabled()
	for _, o := range s.options() {
		ok = ok || o.val() == value
	}
	if ok && !off {
		s.setValue(value)
	}
	d.mu.Unlock()
	if !ok {
		panic(fmt.Sprintf("fakedom: Choose %q: the <%s> has no option of that value", value, s.tag))
	}
	if !off {
		d.dispatch(s, &event{typ: "input"})
		d.dispatch(s, &event{typ: "change"})
	}
}

// Fire fires an event of type typ at n, which bubbles as click, input,
// change and keydown do.
func Fire(n page.Node, typ string) {
	t := nodeOf(n)
	t.doc.dispatch(t, &event{typ: typ})
}

// VisibleText is what a learner can read of n: the text of its subtree,
// as Text, without what is not shown (elements with the hidden
// attribute, <template>, <script>, <style>, <noscript>, <head>, an SVG's
// <title> and <desc>, a closed <details> but for its summary), with a
// textarea's value in place of its text and a select's chosen option in
// place of all of them. It is "" when n itself is not shown, or not in
// the document. Styles are not applied.
func VisibleText(n page.Node) string {
	m := nodeOf(n)
	defer m.lock()()
	if !m.shown() {
		return ""
	}
	var b strings.Builder
	m.visible(&b)
	return b.String()
}

func (n *node) visible(b *strings.Builder) {
	switch {
	case n.hides():
	case n.kind == textNode:
		b.WriteString(n.data)
	case n.isElement("textarea"):
		b.WriteString(n.val())
	case n.isElement("select"):
		if o := n.selected(); o != nil {
			b.WriteString(o.text())
		}
	default:
		for _, c := range n.children {
			c.visible(b)
		}
	}
}

// Find returns the first element below in that sel matches, and fails
// the test when there is none.
func Find(t testing.TB, in page.Node, sel string) page.Node {
	t.Helper()
	n := in.Query(sel)
	if n == nil {
		markup := HTML(in)
		if len(markup) > 600 {
			markup = markup[:600] + "…"
		}
		t.Fatalf("nothing matches %s in %s", sel, markup)
	}
	return n
}

func setGeometry(n page.Node, field func(*node) **float64, px float64) {
	m := nodeOf(n)
	defer m.lock()()
	*field(m) = &px
}

// SetClientWidth sets a node's client width, in place of the document's.
func SetClientWidth(n page.Node, px float64) {
	setGeometry(n, func(m *node) **float64 { return &m.clientWidth }, px)
}

// SetScrollWidth sets a node's scroll width, in place of its client
// width.
func SetScrollWidth(n page.Node, px float64) {
	setGeometry(n, func(m *node) **float64 { return &m.scrollWidth }, px)
}

// SetOffsetHeight sets a node's height.
func SetOffsetHeight(n page.Node, px float64) {
	setGeometry(n, func(m *node) **float64 { return &m.offsetHeight }, px)
}

// SetTop sets a node's top on the screen, its Rect's.
func SetTop(n page.Node, px float64) {
	setGeometry(n, func(m *node) **float64 { return &m.top }, px)
}

// Style returns a style property the page set (SetStyle), "" if none.
func Style(n page.Node, property string) string {
	m := nodeOf(n)
	defer m.lock()()
	return m.style[property]
}

// ScrollLeft returns what the page last set with SetScrollLeft.
func ScrollLeft(n page.Node) float64 {
	m := nodeOf(n)
	defer m.lock()()
	return m.scrollLeft
}
