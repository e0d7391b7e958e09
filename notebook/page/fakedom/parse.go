package fakedom

// This file holds the HTML tokenizer and tree builder, for the build's own
// markup (well formed, written by Go), and the serialiser (HTML).

import (
	"html"
	"slices"
	"strings"

	"gradbook/notebook/page"
)

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

var (
	voids = set("area base br col embed hr img input link meta source track wbr")
	// Raw text is everything up to the element's end tag, not decoded;
	// noscript is raw text because scripts run.
	rawText = set("script style noscript iframe noembed noframes xmp")
	// RCDATA is decoded, but holds no tags.
	rcdata = set("textarea title")
	// A start tag of one of these closes an open <p>, as in a browser.
	closesP = set("address article aside blockquote details div dl fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr main menu nav ol p pre section table ul li")
	// An open <p> or <li> is not closed from outside these.
	scopes = set("button table td th caption template html ul ol select svg math")
)

// lower lower-cases ASCII letters only, so that indices stay valid.
func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// Parse reads a whole page. Markup without an <html> element (a block,
// a fragment) is put in the <body> of an otherwise empty page.
func Parse(markup string) *Document {
	d := newDocument()
	d.parseInto(&d.node, &d.node, markup)
	if d.root() == nil {
		htm, head, body := d.newElement("html"), d.newElement("head"), d.newElement("body")
		for len(d.children) > 0 {
			body.insert(d.children[0], nil)
		}
		htm.insert(head, nil)
		htm.insert(body, nil)
		d.insert(htm, nil)
	}
	// A document holds no text, only its <html>.
	d.children = slices.DeleteFunc(d.children, func(c *node) bool { return c.kind == textNode })
	return d
}

// builder builds a tree from markup's tokens.
type builder struct {
	doc  *Document
	open []*node // the open elements; open[0] is where the markup goes
}

func (b *builder) top() *node { return b.open[len(b.open)-1] }

// place is where the next node goes: the top element, or a template's
// content.
func (b *builder) place() *node {
	if t := b.top(); t.content != nil {
		return t.content
	}
	return b.top()
}

// parseInto parses markup into target's children, as innerHTML does in
// the context of ctx: target itself, or the template whose content
// target is.
func (d *Document) parseInto(target, ctx *node, markup string) {
	if ctx.isElement() && !ctx.foreign && (rawText[ctx.tag] || rcdata[ctx.tag]) {
		if rcdata[ctx.tag] {
			markup = html.UnescapeString(markup)
		}
		if markup != "" {
			target.insert(d.newText(markup), nil)
		}
		return
	}
	// The builder's stack starts with a stand-in for the context, whose
	// children then move to target.
	holder := &node{doc: d, kind: elementNode, tag: ctx.tag, foreign: ctx.foreign}
	b := &builder{doc: d, open: []*node{holder}}
	lowered := lower(markup)
	for i := 0; i < len(markup); {
		rest := markup[i:]
		switch {
		case !strings.HasPrefix(rest, "<"):
			j := strings.IndexByte(rest, '<')
			if j < 0 {
				j = len(rest)
			}
			b.text(html.UnescapeString(rest[:j]))
			i += j
		case strings.HasPrefix(rest, "<!--"):
			i += skipPast(rest, 4, "-->")
		case len(rest) > 1 && (rest[1] == '!' || rest[1] == '?'): // a doctype
			i += skipPast(rest, 2, ">")
		case len(rest) > 2 && rest[1] == '/' && isLetter(rest[2]):
			end := skipPast(rest, 2, ">")
			b.end(lower(tagName(rest[2:])))
			i += end
		case len(rest) > 1 && isLetter(rest[1]):
			n, self, used := b.startTag(rest)
			i += used
			if !n.foreign && (rawText[n.tag] || rcdata[n.tag]) {
				k := endOfText(lowered[i:], n.tag)
				t := markup[i : i+k]
				if rcdata[n.tag] {
					t = html.UnescapeString(t)
				}
				b.text(t)
				i += k + skipPast(markup[i+k:], 0, ">")
				b.open = b.open[:len(b.open)-1]
			} else if self || voids[n.tag] && !n.foreign {
				b.open = b.open[:len(b.open)-1]
			}
		default:
			b.text("<")
			i++
		}
	}
	for len(holder.children) > 0 {
		target.insert(holder.children[0], nil)
	}
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// skipPast returns the length of s up to the end of the first end after
// from, or all of it.
func skipPast(s string, from int, end string) int {
	if k := strings.Index(s[from:], end); k >= 0 {
		return from + k + len(end)
	}
	return len(s)
}

// tagName is the name at the start of s.
func tagName(s string) string {
	i := 0
	for i < len(s) && !isSpace(s[i]) && s[i] != '/' && s[i] != '>' {
		i++
	}
	return s[:i]
}

// endOfText is where a raw text or RCDATA element's text ends in s (lower
// case): at its end tag, or the end of s.
func endOfText(s, tag string) int {
	for from := 0; ; {
		k := strings.Index(s[from:], "</"+tag)
		if k < 0 {
			return len(s)
		}
		k += from
		if after := k + 2 + len(tag); after == len(s) || isSpace(s[after]) || s[after] == '/' || s[after] == '>' {
			return k
		}
		from = k + 1
	}
}

// startTag reads the start tag at the start of s, opens its element, and
// returns it, whether the tag closes itself (/>, which counts in SVG and
// MathML only, as in a browser), and the tag's length.
func (b *builder) startTag(s string) (n *node, self bool, used int) {
	name := tagName(s[1:])
	i := 1 + len(name)
	var attrs []attr
	for i < len(s) && s[i] != '>' {
		if isSpace(s[i]) || s[i] == '/' {
			self = s[i] == '/' && i+1 < len(s) && s[i+1] == '>'
			i++
			continue
		}
		j := i + 1 // an attribute's name may start with "="
		for j < len(s) && !isSpace(s[j]) && s[j] != '/' && s[j] != '>' && s[j] != '=' {
			j++
		}
		a := attr{name: lower(s[i:j])}
		for j < len(s) && isSpace(s[j]) {
			j++
		}
		if j < len(s) && s[j] == '=' {
			j++
			for j < len(s) && isSpace(s[j]) {
				j++
			}
			var v string
			v, j = attrValue(s, j)
			a.value = html.UnescapeString(v)
		}
		if !hasAttr(attrs, a.name) { // the first of two of a name counts
			attrs = append(attrs, a)
		}
		i = j
	}
	n = b.start(lower(name), attrs)
	return n, self && n.foreign, min(i+1, len(s))
}

func hasAttr(attrs []attr, name string) bool {
	for _, a := range attrs {
		if a.name == name {
			return true
		}
	}
	return false
}

// attrValue reads a quoted or unquoted value at s[i:].
func attrValue(s string, i int) (string, int) {
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		if k := strings.IndexByte(s[i+1:], s[i]); k >= 0 {
			return s[i+1 : i+1+k], i + 2 + k
		}
		return s[i+1:], len(s)
	}
	j := i
	for j < len(s) && !isSpace(s[j]) && s[j] != '>' {
		j++
	}
	return s[i:j], j
}

// start opens an element, first closing what its start tag closes in a
// browser: an open <p> before a block, an <li> before another, an
// <option> before another or an <optgroup>.
func (b *builder) start(tag string, attrs []attr) *node {
	parent := b.top()
	foreign := tag == "svg" || tag == "math" ||
		parent.foreign && parent.tag != "foreignobject" && parent.tag != "desc" && parent.tag != "title"
	if !foreign {
		switch {
		case tag == "li":
			b.closeOpen("li")
		case tag == "option" || tag == "optgroup":
			if b.top().tag == "option" {
				b.open = b.open[:len(b.open)-1]
			}
		}
		if closesP[tag] {
			b.closeOpen("p")
		}
	}
	n := b.doc.newElement(tag)
	n.attrs, n.foreign = attrs, foreign
	b.place().insert(n, nil)
	b.open = append(b.open, n)
	return n
}

// closeOpen closes the open element tag, and those inside it, unless one
// of the scopes comes first.
func (b *builder) closeOpen(tag string) {
	for i := len(b.open) - 1; i > 0 && !scopes[b.open[i].tag]; i-- {
		if b.open[i].tag == tag {
			b.open = b.open[:i]
			return
		}
	}
}

// end closes the nearest open element of an end tag, and those inside it.
// An end tag with none open is ignored (but </p> makes an empty p), as
// are </body> and </html>, after which a browser goes on adding to the
// body.
func (b *builder) end(tag string) {
	if tag == "body" || tag == "html" {
		return
	}
	for i := len(b.open) - 1; i > 0; i-- {
		if b.open[i].tag == tag {
			b.open = b.open[:i]
			return
		}
	}
	if tag == "p" { // a browser makes an empty one
		b.start("p", nil)
		b.open = b.open[:len(b.open)-1]
	}
}

// text adds text to the open element, after text already there. A
// newline just after the start tag of a textarea or pre is dropped, as
// in a browser, and so is white space at the start of <html>.
func (b *builder) text(s string) {
	p := b.place()
	if len(p.children) == 0 && p.isElement("textarea", "pre", "listing") && !p.foreign {
		s = strings.TrimPrefix(s, "\n")
	}
	if p.isElement("html") && len(p.children) == 0 && strings.TrimLeft(s, " \t\n\r\f") == "" {
		return // a browser keeps no white space before <head>
	}
	if s == "" {
		return
	}
	if k := len(p.children); k > 0 && p.children[k-1].kind == textNode {
		p.children[k-1].data += s
		return
	}
	p.insert(b.doc.newText(s), nil)
}

// HTML serialises a node as a browser's outerHTML does (a document or a
// text node, as its markup): attribute values in double quotes, text
// escaped, void elements without an end tag, a template with its content.
// It is for golden files and failure messages.
func HTML(n page.Node) string {
	m := nodeOf(n)
	defer m.lock()()
	var b strings.Builder
	m.writeHTML(&b)
	return b.String()
}

var (
	textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\u00a0", "&nbsp;")
	attrEscaper = strings.NewReplacer("&", "&amp;", `"`, "&quot;", "\u00a0", "&nbsp;")
)

func (n *node) writeHTML(b *strings.Builder) {
	switch n.kind {
	case textNode:
		if p := n.parent; p.isElement() && !p.foreign && rawText[p.tag] {
			b.WriteString(n.data)
		} else {
			textEscaper.WriteString(b, n.data)
		}
		return
	case elementNode:
		b.WriteString("<" + n.tag)
		for _, a := range n.attrs {
			b.WriteString(" " + a.name + `="`)
			attrEscaper.WriteString(b, a.value)
			b.WriteString(`"`)
		}
		b.WriteString(">")
		if voids[n.tag] && !n.foreign {
			return
		}
	}
	kids := n.children
	if n.content != nil {
		kids = n.content.children
	}
	if len(kids) > 0 && kids[0].kind == textNode && strings.HasPrefix(kids[0].data, "\n") && n.isElement("textarea", "pre", "listing") {
		b.WriteString("\n")
	}
	for _, c := range kids {
		c.writeHTML(b)
	}
	if n.kind == elementNode {
		b.WriteString("</" + n.tag + ">")
	}
}
