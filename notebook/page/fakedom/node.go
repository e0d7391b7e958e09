package fakedom

// This file holds the node: an element, a text node or the document
// itself, and its methods of page.Node.

import (
	"fmt"
	"slices"
	"strings"

	"gradbook/notebook/page"
)

type kind uint8

const (
	elementNode kind = iota
	textNode
	documentNode
	fragmentNode // a <template>'s content
	windowNode   // holds the window's listeners
)

type attr struct{ name, value string }

// node is every node of a Document. Its fields are guarded by the
// document's mutex: each exported method takes it, and the unexported
// ones expect it taken. The exported methods are page.Node's, and do
// what its documentation says; those with more to say say it here.
type node struct {
	doc      *Document
	kind     kind
	tag      string // an element's name, lower case
	attrs    []attr
	data     string // a text node's text
	parent   *node
	children []*node
	content  *node // a <template>'s content
	foreign  bool  // an element of SVG or MathML
	on       map[string][]*listener

	// What a form control holds once it has been set: nil while its
	// markup decides (the value and checked attributes, a textarea's
	// text, a select's options' selected attributes).
	value   *string
	checked *bool
	chosen  **node // a select's selected option, nil inside for none

	// Geometry as the test set it (nil: the document's default), and
	// what the page set.
	clientWidth, scrollWidth, offsetHeight, top *float64
	scrollLeft                                  float64
	style                                       map[string]string
}

var _ page.Node = (*node)(nil)

// nodeOf returns the node behind one of this package's page.Nodes.
func nodeOf(n page.Node) *node {
	switch n := n.(type) {
	case *node:
		return n
	case *Document:
		return &n.node
	case nil:
		return nil
	}
	panic(fmt.Sprintf("fakedom: %T is not a node of a fakedom document", n))
}

// wrap returns n as a page.Node: nil for none (never a nil *node) and
// for the window, the Document for the document's node.
func wrap(n *node) page.Node {
	switch {
	case n == nil:
		return nil
	case n.kind == documentNode:
		return n.doc
	case n.kind == windowNode:
		return nil
	}
	return n
}

func (n *node) lock() func() {
	n.doc.mu.Lock()
	return n.doc.mu.Unlock
}

func (n *node) isElement(tags ...string) bool {
	return n != nil && n.kind == elementNode && (len(tags) == 0 || slices.Contains(tags, n.tag))
}

// walk calls f on each element below n in document order (not inside a
// template's content), until f returns false.
func (n *node) walk(f func(*node) bool) bool {
	for _, c := range n.children {
		if c.kind == elementNode && (!f(c) || !c.walk(f)) {
			return false
		}
	}
	return true
}

func (n *node) Query(sel string) page.Node {
	s := parseSelector(sel)
	defer n.lock()()
	var found *node
	n.walk(func(e *node) bool {
		if s.matches(e) {
			found = e
		}
		return found == nil
	})
	return wrap(found)
}

func (n *node) QueryAll(sel string) []page.Node {
	s := parseSelector(sel)
	defer n.lock()()
	var all []page.Node
	n.walk(func(e *node) bool {
		if s.matches(e) {
			all = append(all, e)
		}
		return true
	})
	return all
}

func (n *node) Closest(sel string) page.Node {
	s := parseSelector(sel)
	defer n.lock()()
	for e := n; e.isElement(); e = e.parent {
		if s.matches(e) {
			return e
		}
	}
	return nil
}

func (n *node) Parent() page.Node {
	defer n.lock()()
	return wrap(n.parent)
}

func (n *node) FirstChild() page.Node {
	defer n.lock()()
	if len(n.children) == 0 {
		return nil
	}
	return n.children[0]
}

func (n *node) Is(other page.Node) bool { return n == nodeOf(other) }

func (n *node) Attr(name string) string {
	defer n.lock()()
	v, _ := n.attr(name)
	return v
}

func (n *node) attr(name string) (string, bool) {
	name = strings.ToLower(name)
	for _, a := range n.attrs {
		if a.name == name {
			return a.value, true
		}
	}
	return "", false
}

func (n *node) HasAttr(name string) bool {
	defer n.lock()()
	_, ok := n.attr(name)
	return ok
}

func (n *node) SetAttr(name, value string) {
	defer n.lock()()
	n.setAttr(name, value)
}

func (n *node) setAttr(name, value string) {
	if n.kind != elementNode {
		return
	}
	name = strings.ToLower(name)
	for i := range n.attrs {
		if n.attrs[i].name == name {
			n.attrs[i].value = value
			return
		}
	}
	n.attrs = append(n.attrs, attr{name, value})
}

func (n *node) RemoveAttr(name string) {
	defer n.lock()()
	n.removeAttr(name)
}

func (n *node) removeAttr(name string) {
	name = strings.ToLower(name)
	n.attrs = slices.DeleteFunc(n.attrs, func(a attr) bool { return a.name == name })
}

func (n *node) HasClass(name string) bool {
	defer n.lock()()
	return n.hasClass(name)
}

func (n *node) hasClass(name string) bool {
	v, _ := n.attr("class")
	return slices.Contains(strings.Fields(v), name)
}

func (n *node) AddClass(name string) { n.updateClasses(name, true) }

func (n *node) RemoveClass(name string) { n.updateClasses(name, false) }

// updateClasses adds or removes a class as classList does: the attribute
// is written again as the list of its classes, each once.
func (n *node) updateClasses(name string, add bool) {
	defer n.lock()()
	v, had := n.attr("class")
	var list []string
	for _, c := range strings.Fields(v) {
		if !slices.Contains(list, c) && (add || c != name) {
			list = append(list, c)
		}
	}
	if add && !slices.Contains(list, name) {
		list = append(list, name)
	}
	if had || len(list) > 0 {
		n.setAttr("class", strings.Join(list, " "))
	}
}

// Text is textContent: a text node's text, the text of every text node
// below an element (a template's content is not below it), and "" for
// the document, whose textContent is null.
func (n *node) Text() string {
	defer n.lock()()
	return n.text()
}

func (n *node) text() string {
	switch n.kind {
	case textNode:
		return n.data
	case documentNode:
		return ""
	}
	var b strings.Builder
	n.eachText(func(t *node) { b.WriteString(t.data) })
	return b.String()
}

func (n *node) eachText(f func(*node)) {
	for _, c := range n.children {
		if c.kind == textNode {
			f(c)
		} else {
			c.eachText(f)
		}
	}
}

func (n *node) SetText(text string) {
	defer n.lock()()
	switch n.kind {
	case textNode:
		n.data = text
	case elementNode:
		n.removeChildren()
		if text != "" {
			n.insert(n.doc.newText(text), nil)
		}
	}
}

// SetHTML parses markup as innerHTML does, in the node's context: inside
// an <svg> it is SVG, inside a <textarea> or <script> it is text. On a
// <template> it replaces the content.
func (n *node) SetHTML(markup string) {
	if n.kind != elementNode {
		panic("fakedom: SetHTML on a document or text node, which has no innerHTML")
	}
	defer n.lock()()
	target := n
	if n.content != nil {
		target = n.content
	}
	target.removeChildren()
	n.doc.parseInto(target, n, markup)
}

func (n *node) TemplateText() string {
	defer n.lock()()
	if n.content == nil {
		return ""
	}
	return n.content.text()
}

func (n *node) removeChildren() {
	for _, c := range n.children {
		c.parent = nil
	}
	n.children = nil
}

func (n *node) Append(child page.Node) { n.InsertBefore(child, nil) }

// InsertBefore moves c before ref, one of n's children, or to the end for
// a nil ref. As in a browser, a node cannot go inside itself, and ref
// must be a child of n: either mistake panics.
func (n *node) InsertBefore(child, ref page.Node) {
	defer n.lock()()
	c, r := nodeOf(child), nodeOf(ref)
	if c.doc != n.doc {
		panic("fakedom: InsertBefore: the node belongs to another document")
	}
	if n.kind == textNode {
		panic("fakedom: InsertBefore: a text node has no children (HierarchyRequestError)")
	}
	for a := n; a != nil; a = a.parent {
		if a == c {
			panic("fakedom: InsertBefore: a node cannot go inside itself (HierarchyRequestError)")
		}
	}
	if r != nil && r.parent != n {
		panic("fakedom: InsertBefore: the reference node is not a child of this node (NotFoundError)")
	}
	if r == c {
		r = c.nextSibling()
	}
	n.insert(c, r)
}

// insert puts c before ref (at the end for nil), taking it from where it
// was.
func (n *node) insert(c, ref *node) {
	c.detach()
	i := len(n.children)
	if ref != nil {
		i = slices.Index(n.children, ref)
	}
	n.children = slices.Insert(n.children, i, c)
	c.parent = n
}

func (n *node) nextSibling() *node {
	if n.parent == nil {
		return nil
	}
	sib := n.parent.children
	if i := slices.Index(sib, n); i+1 < len(sib) {
		return sib[i+1]
	}
	return nil
}

func (n *node) detach() {
	if p := n.parent; p != nil {
		p.children = slices.DeleteFunc(p.children, func(c *node) bool { return c == n })
		n.parent = nil
	}
}

func (n *node) Remove() {
	defer n.lock()()
	n.detach()
}

// connected reports whether n is in its document.
func (n *node) connected() bool {
	for a := n; a != nil; a = a.parent {
		if a.kind == documentNode {
			return true
		}
	}
	return false
}

// Value is a form control's: an input's value (its attribute until set;
// "on" for a checkbox or radio without one), a textarea's (its text
// until set), a select's selected option's, an option's (its value
// attribute, else its text), a button's value attribute, an output's
// text. Other nodes have "".
func (n *node) Value() string {
	defer n.lock()()
	return n.val()
}

func (n *node) val() string {
	switch {
	case n.isElement("input", "textarea") && n.value != nil:
		return *n.value
	case n.isElement("input"):
		if v, ok := n.attr("value"); ok || !n.checkable() {
			return v
		}
		return "on"
	case n.isElement("textarea", "output"):
		return n.text()
	case n.isElement("select"):
		if o := n.selected(); o != nil {
			return o.val()
		}
		return ""
	case n.isElement("option"):
		if v, ok := n.attr("value"); ok {
			return v
		}
		return strings.Join(strings.Fields(n.text()), " ")
	case n.isElement("button"):
		v, _ := n.attr("value")
		return v
	}
	return ""
}

// SetValue sets a control's value; on a select it selects the first
// option of that value, or none when no option has it.
func (n *node) SetValue(v string) {
	defer n.lock()()
	n.setValue(v)
}

func (n *node) setValue(v string) {
	switch {
	case n.isElement("input", "textarea"):
		n.value = &v
	case n.isElement("select"):
		var o *node
		for _, opt := range n.options() {
			if opt.val() == v {
				o = opt
				break
			}
		}
		n.chosen = &o
	case n.isElement("option", "button"):
		n.setAttr("value", v)
	case n.isElement("output"):
		n.removeChildren()
		n.insert(n.doc.newText(v), nil)
	}
}

func (n *node) options() []*node {
	var opts []*node
	n.walk(func(e *node) bool {
		if e.tag == "option" {
			opts = append(opts, e)
		}
		return true
	})
	return opts
}

// selected is a select's selected option: the one chosen, if it is still
// one of its options; else the last with a selected attribute; else the
// first that is not disabled.
func (n *node) selected() *node {
	opts := n.options()
	if n.chosen != nil && (*n.chosen == nil || slices.Contains(opts, *n.chosen)) {
		return *n.chosen
	}
	var first, last *node
	for _, o := range opts {
		if _, ok := o.attr("selected"); ok {
			last = o
		}
		if _, off := o.attr("disabled"); first == nil && !off {
			first = o
		}
	}
	if last != nil {
		return last
	}
	return first
}

func (n *node) DefaultValue() string {
	defer n.lock()()
	switch {
	case n.isElement("textarea"):
		return n.text()
	case n.isElement("input"):
		v, _ := n.attr("value")
		return v
	}
	return ""
}

func (n *node) checkable() bool {
	if !n.isElement("input") {
		return false
	}
	t, _ := n.attr("type")
	t = strings.ToLower(t)
	return t == "checkbox" || t == "radio"
}

func (n *node) isRadio() bool {
	t, _ := n.attr("type")
	return n.isElement("input") && strings.EqualFold(t, "radio")
}

// Checked is an input's checkedness: its checked attribute until set.
func (n *node) Checked() bool {
	defer n.lock()()
	return n.isChecked()
}

func (n *node) isChecked() bool {
	if n.checked != nil {
		return *n.checked
	}
	_, ok := n.attr("checked")
	return n.isElement("input") && ok
}

// SetChecked sets an input's checkedness; checking a radio button
// unchecks the others of its group, as in a browser.
func (n *node) SetChecked(on bool) {
	defer n.lock()()
	n.setChecked(on)
}

func (n *node) setChecked(on bool) {
	if !n.isElement("input") {
		return
	}
	if on && n.isRadio() {
		for _, r := range n.group() {
			off := false
			r.checked = &off
		}
	}
	n.checked = &on
}

// group is a radio button's group: the radio buttons of its name in its
// form (or outside every form) in the same tree, itself included.
func (n *node) group() []*node {
	name, _ := n.attr("name")
	if name == "" {
		return []*node{n}
	}
	root := n
	for root.parent != nil {
		root = root.parent
	}
	form := n.form()
	var g []*node
	root.walk(func(e *node) bool {
		if e.isRadio() && e.form() == form {
			if v, _ := e.attr("name"); v == name {
				g = append(g, e)
			}
		}
		return true
	})
	return g
}

func (n *node) form() *node {
	for a := n.parent; a != nil; a = a.parent {
		if a.isElement("form") {
			return a
		}
	}
	return nil
}

// SetDisabled adds the disabled attribute, or removes it when off is
// false.
func (n *node) SetDisabled(off bool) {
	defer n.lock()()
	if off {
		n.setAttr("disabled", "")
	} else {
		n.removeAttr("disabled")
	}
}

// disabled reports whether n is a form control that is disabled, by its
// attribute or a disabled fieldset around it (outside its first legend).
func (n *node) disabled() bool {
	if !n.isElement("button", "input", "select", "textarea", "option", "optgroup") {
		return false
	}
	if _, ok := n.attr("disabled"); ok {
		return true
	}
	for c, a := n, n.parent; a != nil; c, a = a, a.parent {
		if a.isElement("fieldset") && a.hasAttr("disabled") {
			legend := slices.IndexFunc(a.children, func(k *node) bool { return k.isElement("legend") })
			if legend < 0 || a.children[legend] != c {
				return true
			}
		}
	}
	return false
}

func (n *node) hasAttr(name string) bool {
	_, ok := n.attr(name)
	return ok
}

// Focus makes the node the document's active element if a browser would
// let it have the focus: a control that is not disabled, a link, a
// summary or an element with a tabindex, shown on the page. No focus
// events are fired.
func (n *node) Focus() {
	defer n.lock()()
	n.focus()
}

func (n *node) focus() {
	focusable := n.isElement("button", "input", "select", "textarea", "summary") && !n.disabled() ||
		n.isElement("a") && n.hasAttr("href") || n.isElement() && n.hasAttr("tabindex")
	if focusable && n.shown() {
		n.doc.active = n
	}
}

// Select focuses an input or textarea and selects its whole value, which
// Document.Selection then reports, as a copy would take it.
func (n *node) Select() {
	defer n.lock()()
	if n.isElement("input", "textarea") {
		n.focus()
		n.doc.selection = n.val()
	}
}

// Click clicks the node as the browser's click() does (see Click).
func (n *node) Click() { click(n) }

// shown reports whether a browser would render n: in the document, with
// nothing around it that is hidden (see VisibleText).
func (n *node) shown() bool {
	for c := n; c != nil; c = c.parent {
		if c.hides() {
			return false
		}
	}
	return n.connected()
}

// hides reports whether a node is not rendered, taking only itself and
// its parent into account: it has the hidden attribute, it is one of the
// elements never rendered, or it is inside a closed <details> and not
// its summary.
func (n *node) hides() bool {
	if n.hasAttr("hidden") || n.isElement("head", "script", "style", "noscript", "template", "title", "desc") {
		return true
	}
	p := n.parent
	return p.isElement("details") && !p.hasAttr("open") && p.summary() != n
}

// summary is a details' first summary, which opens and closes it.
func (n *node) summary() *node {
	for _, c := range n.children {
		if c.isElement("summary") {
			return c
		}
	}
	return nil
}

func (n *node) geometry(set *float64, fallback float64) float64 {
	if n.kind != elementNode || !n.shown() {
		return 0
	}
	if set != nil {
		return *set
	}
	return fallback
}

// ClientWidth is the document's width (Document.SetWidth) or the node's
// own (SetClientWidth); 0 for a node that is not shown, as in a browser.
func (n *node) ClientWidth() float64 {
	defer n.lock()()
	return n.geometry(n.clientWidth, n.doc.width)
}

// ScrollWidth is the node's client width unless a test set it
// (SetScrollWidth).
func (n *node) ScrollWidth() float64 {
	defer n.lock()()
	return n.geometry(n.scrollWidth, n.geometry(n.clientWidth, n.doc.width))
}

// OffsetHeight is 0 unless a test set it (SetOffsetHeight).
func (n *node) OffsetHeight() float64 {
	defer n.lock()()
	return n.geometry(n.offsetHeight, 0)
}

// Rect is the node's top (0 unless a test set it, SetTop) and client
// width.
func (n *node) Rect() page.Rect {
	defer n.lock()()
	return page.Rect{Top: n.geometry(n.top, 0), Width: n.geometry(n.clientWidth, n.doc.width)}
}

func (n *node) SetScrollLeft(x float64) {
	defer n.lock()()
	n.scrollLeft = x
}

func (n *node) SetStyle(property, value string) {
	defer n.lock()()
	if n.style == nil {
		n.style = map[string]string{}
	}
	n.style[property] = value
}

// ScrollIntoView records the node as the one last scrolled to
// (Document.Scrolled).
func (n *node) ScrollIntoView() {
	defer n.lock()()
	n.doc.scrolled = n
}

func (n *node) Listen(typ string, f func(page.Event)) (stop func()) {
	defer n.lock()()
	l := &listener{f: f}
	if n.on == nil {
		n.on = map[string][]*listener{}
	}
	n.on[typ] = append(n.on[typ], l)
	return func() {
		defer n.lock()()
		l.removed = true
		n.on[typ] = slices.DeleteFunc(n.on[typ], func(x *listener) bool { return x == l })
	}
}
