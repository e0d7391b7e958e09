package fakedom

// This file holds the selector engine: the subset of CSS selectors that
// page.Node names, and no more.

import (
	"fmt"
	"slices"
	"strings"
)

// selector is a comma list of chains.
type selector []chain

// chain is compound selectors joined by combinators: comb[i] (' ' for a
// descendant, '>' for a child) stands between parts[i] and parts[i+1].
type chain struct {
	parts []compound
	comb  []byte
}

type compound struct {
	tag     string // "" or "*" for any
	ids     []string
	classes []string
	attrs   []attrTest
}

type attrTest struct {
	name, value string
	hasValue    bool
}

// selParser reads a selector; bad panics with where it stopped.
type selParser struct {
	s string
	i int
}

func (p *selParser) bad(what string) {
	panic(fmt.Sprintf("fakedom: unsupported selector %q: %s at byte %d (fakedom knows tags, *, #id, .class, [attr], [attr=value], descendant and > combinators, and comma lists)", p.s, what, p.i))
}

func (p *selParser) spaces() bool {
	start := p.i
	for p.i < len(p.s) && isSpace(p.s[p.i]) {
		p.i++
	}
	return p.i > start
}

func (p *selParser) more() bool { return p.i < len(p.s) }

func isNameByte(c byte) bool {
	return isLetter(c) || '0' <= c && c <= '9' || c == '-' || c == '_' || c >= 0x80
}

func (p *selParser) name() string {
	start := p.i
	for p.more() && isNameByte(p.s[p.i]) {
		p.i++
	}
	if p.i == start {
		p.bad("a name expected")
	}
	return p.s[start:p.i]
}

// parseSelector parses sel, or panics saying what it does not support.
func parseSelector(sel string) selector {
	p := &selParser{s: sel}
	var list selector
	for {
		p.spaces()
		list = append(list, p.chain())
		if !p.more() {
			return list
		}
		p.i++ // the comma the chain stopped at
	}
}

func (p *selParser) chain() chain {
	c := chain{parts: []compound{p.compound()}}
	for {
		space := p.spaces()
		switch {
		case !p.more() || p.s[p.i] == ',':
			return c
		case p.s[p.i] == '>':
			p.i++
			p.spaces()
			c.comb = append(c.comb, '>')
		case space:
			c.comb = append(c.comb, ' ')
		default:
			p.bad(fmt.Sprintf("%q", p.s[p.i]))
		}
		c.parts = append(c.parts, p.compound())
	}
}

func (p *selParser) compound() compound {
	var c compound
	start := p.i
	if p.more() && p.s[p.i] == '*' {
		p.i++
		c.tag = "*"
	} else if p.more() && isNameByte(p.s[p.i]) {
		c.tag = lower(p.name())
	}
	for p.more() {
		switch p.s[p.i] {
		case '#':
			p.i++
			c.ids = append(c.ids, p.name())
		case '.':
			p.i++
			c.classes = append(c.classes, p.name())
		case '[':
			p.i++
			c.attrs = append(c.attrs, p.attr())
		default:
			if p.i == start {
				p.bad("a selector expected")
			}
			return c
		}
	}
	if p.i == start {
		p.bad("a selector expected")
	}
	return c
}

func (p *selParser) attr() attrTest {
	p.spaces()
	a := attrTest{name: lower(p.name())}
	p.spaces()
	if p.more() && p.s[p.i] == '=' {
		p.i++
		p.spaces()
		a.hasValue = true
		if p.more() && (p.s[p.i] == '"' || p.s[p.i] == '\'') {
			q := p.s[p.i]
			k := strings.IndexByte(p.s[p.i+1:], q)
			if k < 0 {
				p.bad("an unclosed quote")
			}
			a.value = p.s[p.i+1 : p.i+1+k]
			if strings.Contains(a.value, `\`) {
				p.bad("an escape")
			}
			p.i += k + 2
		} else {
			a.value = p.name()
		}
		p.spaces()
	}
	if !p.more() || p.s[p.i] != ']' {
		p.bad("] expected (of the attribute operators, only = is known)")
	}
	p.i++
	return a
}

func (s selector) matches(e *node) bool {
	return slices.ContainsFunc(s, func(c chain) bool { return c.matchAt(e, len(c.parts)-1) })
}

// matchAt reports whether e matches parts[k] with what comes before it
// matching e's ancestors. Ancestors outside the node a query starts from
// count, as in a browser.
func (c chain) matchAt(e *node, k int) bool {
	if !c.parts[k].matches(e) {
		return false
	}
	if k == 0 {
		return true
	}
	for a := e.parent; a.isElement(); a = a.parent {
		if c.matchAt(a, k-1) {
			return true
		}
		if c.comb[k-1] == '>' {
			return false
		}
	}
	return false
}

func (c compound) matches(e *node) bool {
	if c.tag != "" && c.tag != "*" && c.tag != e.tag {
		return false
	}
	for _, id := range c.ids {
		if v, _ := e.attr("id"); v != id {
			return false
		}
	}
	for _, class := range c.classes {
		if !e.hasClass(class) {
			return false
		}
	}
	for _, a := range c.attrs {
		if v, ok := e.attr(a.name); !ok || a.hasValue && v != a.value {
			return false
		}
	}
	return true
}
