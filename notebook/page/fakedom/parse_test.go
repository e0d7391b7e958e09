package fakedom

import (
	"strings"
	"testing"
)

// body is the markup of the body Parse makes of markup, serialised again.
func body(markup string) string {
	s := HTML(Parse(markup).Body())
	return strings.TrimSuffix(strings.TrimPrefix(s, "<body>"), "</body>")
}

func TestParse(t *testing.T) {
	tests := []struct {
		name, markup, want string
	}{
		{"nested elements and text", `<div><p>a <b>b</b> c</p></div>`, `<div><p>a <b>b</b> c</p></div>`},
		{"double, single and unquoted attributes", `<a href="x" title='it&#39;s' data-n=3 class = "a  b">l</a>`, `<a href="x" title="it's" data-n="3" class="a  b">l</a>`},
		{"bare boolean attributes", `<button disabled>R</button><input type=checkbox checked hidden>`, `<button disabled="">R</button><input type="checkbox" checked="" hidden="">`},
		{"names lower-cased", `<DIV Class="x" DATA-Kind="q"><SPAN>t</SPAN></DIV>`, `<div class="x" data-kind="q"><span>t</span></div>`},
		{"the first of two attributes counts", `<p id="a" id="b">x</p>`, `<p id="a">x</p>`},
		{"void elements", `<p>a<br>b<img src="i.png">c<hr><input value="v">d<wbr>e</p>`, `<p>a<br>b<img src="i.png">c</p><hr><input value="v">d<wbr>e<p></p>`},
		{"void elements written self-closed", `<p>a<br/>b<input type="text" />c</p>`, `<p>a<br>b<input type="text">c</p>`},
		{"self-closing counts in SVG", `<svg viewBox="0 0 10 10"><path d="M0,0L10,5z"/><g class="n"><rect width="3"/></g></svg>`, `<svg viewbox="0 0 10 10"><path d="M0,0L10,5z"></path><g class="n"><rect width="3"></rect></g></svg>`},
		{"but not in HTML", `<div/>inside</div>after`, `<div>inside</div>after`},
		{"comments and the doctype skipped", `<!DOCTYPE html><!-- a note --><p>x<!-- <b>not a tag</b> -->y</p>`, `<p>xy</p>`},
		{"character references", `<p>&amp; &lt; &gt; &quot; &#39; &#65; &#x42; &#X43; &nbsp;&middot; &rarr; &times; &rsquo; &ldquo;&rdquo; &#43;</p>`, "<p>&amp; &lt; &gt; \" ' A B C &nbsp;· → × ’ “” +</p>"},
		{"references in attributes", `<p title="a &amp; b &#34;c&#34; &lt;d&gt;">x</p>`, `<p title="a &amp; b &quot;c&quot; <d>">x</p>`},
		{"a lone < is text", `<p>a < b <3</p>`, `<p>a &lt; b &lt;3</p>`},
		{"script is raw text", `<script type="application/json" class="block-data">{"a":"<b>&amp;</b>"}</script><p>x</p>`, `<script type="application/json" class="block-data">{"a":"<b>&amp;</b>"}</script><p>x</p>`},
		{"script ends at its own end tag only", `<script>if (a</scripts) {}</SCRIPT ><p>x</p>`, `<script>if (a</scripts) {}</script><p>x</p>`},
		{"style is raw text", `<style>p > b { color: red }</style>`, `<style>p > b { color: red }</style>`},
		{"noscript is raw text, as when scripts run", `<noscript><p>Turn scripts on.</p></noscript>`, `<noscript><p>Turn scripts on.</p></noscript>`},
		{"textarea is RCDATA", `<textarea class="editor">if a &lt; b:<b>x</b></textarea>`, `<textarea class="editor">if a &lt; b:&lt;b&gt;x&lt;/b&gt;</textarea>`},
		{"a newline after <textarea> or <pre> is dropped", "<textarea>\nx = 1\n</textarea><pre>\n\ny</pre>", "<textarea>x = 1\n</textarea><pre>\n\ny</pre>"},
		{"an SVG title is no RCDATA", `<svg><title>a <tspan>b</tspan></title><desc>d</desc></svg>`, `<svg><title>a <tspan>b</tspan></title><desc>d</desc></svg>`},
		{"template content", `<template class="test" data-name="t">check(f(), 1)<b>x</b></template>`, `<template class="test" data-name="t">check(f(), 1)<b>x</b></template>`},
		{"an open li closes at the next", `<ul><li>a<li>b<span>c</ul><ol><li>d</ol>`, `<ul><li>a</li><li>b<span>c</span></li></ul><ol><li>d</li></ol>`},
		{"an open p closes at a block", `<p>a<div>b</div><p>c<p>d`, `<p>a</p><div>b</div><p>c</p><p>d</p>`},
		{"but not inside a button", `<p><button><div>b</div></button></p>`, `<p><button><div>b</div></button></p>`},
		{"an open option closes at the next", `<select><option value="1">one<option>two<optgroup label="g"><option>3</select>`, `<select><option value="1">one</option><option>two</option><optgroup label="g"><option>3</option></optgroup></select>`},
		{"an end tag closes what it holds", `<div><span><b>x</div>y`, `<div><span><b>x</b></span></div>y`},
		{"a stray end tag is ignored", `<div>x</span>y</div>`, `<div>xy</div>`},
		{"but a stray </p> makes an empty p", `<div>x</p>y</div>`, `<div>x<p></p>y</div>`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := body(tc.markup); got != tc.want {
				t.Errorf("Parse(%q)\n got %s\nwant %s", tc.markup, got, tc.want)
			}
		})
	}
}

func TestParseWholePage(t *testing.T) {
	doc := Parse("<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>A &amp; B</title></head>\n<body data-page=\"lesson\">\n<main>x</main>\n</body>\n</html>\n")
	if got := doc.Root().Attr("lang"); got != "en" {
		t.Errorf("<html lang> = %q", got)
	}
	if got := doc.Body().Attr("data-page"); got != "lesson" {
		t.Errorf("<body data-page> = %q", got)
	}
	if got := doc.Query("title").Text(); got != "A & B" {
		t.Errorf("title = %q", got)
	}
	if !doc.Root().Parent().Is(doc) || doc.Parent() != nil {
		t.Error("<html>'s parent is not the document, or the document has one")
	}
	// The newline after </body> stays in the body, as in a browser.
	if got := HTML(doc); got != "<html lang=\"en\"><head><meta charset=\"utf-8\"><title>A &amp; B</title></head>\n<body data-page=\"lesson\">\n<main>x</main>\n\n\n</body></html>" {
		t.Errorf("HTML(doc) = %q", got)
	}
}

func TestParseText(t *testing.T) {
	doc := Parse(`<div id="d">a<b>b</b>c</div><script id="s">x &amp; <y></script><textarea id="t">&lt;b&gt;</textarea><template id="tp">in <i>it</i></template>`)
	for _, tc := range []struct{ id, text string }{
		{"d", "abc"},
		{"s", "x &amp; <y>"},
		{"t", "<b>"},
		{"tp", ""}, // a template's content is not its children
	} {
		if got := doc.ByID(tc.id).Text(); got != tc.text {
			t.Errorf("#%s's text = %q, want %q", tc.id, got, tc.text)
		}
	}
	tp := doc.ByID("tp")
	if got := tp.TemplateText(); got != "in it" {
		t.Errorf("TemplateText = %q", got)
	}
	if doc.Query("i") != nil || tp.FirstChild() != nil {
		t.Error("a query reached into a template's content")
	}
	if got := doc.ByID("d").TemplateText(); got != "" {
		t.Errorf("a div's TemplateText = %q", got)
	}
}

func TestSetHTML(t *testing.T) {
	doc := Parse(`<div id="d">old</div><svg id="g"></svg><textarea id="t"></textarea><template id="tp"></template>`)
	d := doc.ByID("d")
	d.SetHTML(`<p class="x">new <b>text</b></p><br/>`)
	if got := HTML(d); got != `<div id="d"><p class="x">new <b>text</b></p><br></div>` {
		t.Errorf("div: %s", got)
	}
	// In an SVG, markup is SVG: self-closing tags close.
	g := doc.ByID("g")
	g.SetHTML(`<g class="node"><rect/><text>a</text></g>`)
	if got := HTML(g); got != `<svg id="g"><g class="node"><rect></rect><text>a</text></g></svg>` {
		t.Errorf("svg: %s", got)
	}
	ta := doc.ByID("t")
	ta.SetHTML(`<b>&amp;</b>`)
	if got := ta.Text(); got != "<b>&</b>" {
		t.Errorf("textarea: %q", got)
	}
	tp := doc.ByID("tp")
	tp.SetHTML(`check(x, 1)`)
	if got := tp.TemplateText(); got != "check(x, 1)" || tp.FirstChild() != nil {
		t.Errorf("template: %q", got)
	}
	d.SetHTML("")
	if d.FirstChild() != nil {
		t.Error("SetHTML(\"\") left children")
	}
}
