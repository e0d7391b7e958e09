package fakedom

import (
	"slices"
	"strings"
	"testing"

	"gradbook/notebook/page"
)

const formFixture = `<form id="f">
<input id="text" value="start"><input id="bare"><input id="cb" type="checkbox"><input id="cb-on" type="checkbox" checked value="yes">
<input id="ra" type="radio" name="g" checked><input id="rb" type="radio" name="g"><input id="other" type="radio" name="h">
<textarea id="ta">
x = 1</textarea>
<select id="sel"><option value="">(choose)</option><optgroup label="L"><option value="1">one</option><option>  two
 words </option></optgroup></select>
<select id="pre"><option value="a">A</option><option value="b" selected>B</option></select>
<select id="off"><option disabled>no</option><option value="y">yes</option></select>
<button id="btn" value="go">Go</button><output id="out">shown</output>
</form><input id="ra2" type="radio" name="g" checked>`

func TestValues(t *testing.T) {
	doc := Parse(formFixture)
	for _, tc := range []struct{ id, value, defaultValue string }{
		{"text", "start", "start"},
		{"bare", "", ""},
		{"cb", "on", ""},
		{"cb-on", "yes", "yes"},
		{"ta", "x = 1", "x = 1"},
		{"sel", "", ""},
		{"pre", "b", ""},
		{"off", "y", ""},
		{"btn", "go", ""},
		{"out", "shown", ""},
		{"f", "", ""},
	} {
		n := doc.ByID(tc.id)
		if got := n.Value(); got != tc.value {
			t.Errorf("#%s: Value = %q, want %q", tc.id, got, tc.value)
		}
		if got := n.DefaultValue(); got != tc.defaultValue {
			t.Errorf("#%s: DefaultValue = %q, want %q", tc.id, got, tc.defaultValue)
		}
	}
	// Setting the value leaves the markup as it was.
	ta := doc.ByID("ta")
	ta.SetValue("y = 2")
	if ta.Value() != "y = 2" || ta.DefaultValue() != "x = 1" || ta.Text() != "x = 1" {
		t.Errorf("textarea after SetValue: %q, default %q, text %q", ta.Value(), ta.DefaultValue(), ta.Text())
	}
	in := doc.ByID("text")
	in.SetAttr("value", "attr")
	if in.Value() != "attr" {
		t.Errorf("an input not yet set follows its attribute: %q", in.Value())
	}
	in.SetValue("typed")
	in.SetAttr("value", "attr2")
	if in.Value() != "typed" || in.DefaultValue() != "attr2" || in.Attr("value") != "attr2" {
		t.Errorf("input after SetValue: %q, default %q", in.Value(), in.DefaultValue())
	}
	// A select's value is its selected option's; setting it selects one.
	sel := doc.ByID("sel")
	sel.SetValue("two words")
	if got := sel.Value(); got != "two words" {
		t.Errorf("select = %q, want the option's text, spaces collapsed", got)
	}
	sel.SetValue("1")
	if got := sel.Value(); got != "1" || VisibleText(sel) != "one" {
		t.Errorf("select = %q, showing %q", got, VisibleText(sel))
	}
	sel.SetValue("none of them")
	if got := sel.Value(); got != "" {
		t.Errorf("select set to no option's value = %q", got)
	}
}

func TestChecked(t *testing.T) {
	doc := Parse(formFixture)
	checked := func() (ids []string) {
		for _, n := range doc.QueryAll("input") {
			if n.Checked() {
				ids = append(ids, n.Attr("id"))
			}
		}
		return ids
	}
	if got := checked(); !slices.Equal(got, []string{"cb-on", "ra", "ra2"}) {
		t.Errorf("checked from the markup: %v", got)
	}
	doc.ByID("cb").SetChecked(true)
	doc.ByID("cb-on").SetChecked(false)
	// A radio button unchecks the others of its name in its form only.
	doc.ByID("rb").SetChecked(true)
	if got := checked(); !slices.Equal(got, []string{"cb", "rb", "ra2"}) {
		t.Errorf("after SetChecked: %v", got)
	}
	if doc.ByID("cb").HasAttr("checked") {
		t.Error("SetChecked wrote the attribute")
	}
	if doc.ByID("ta").Checked() {
		t.Error("a textarea is checked")
	}
}

func TestDisabledAndHidden(t *testing.T) {
	doc := Parse(`<button id="b">Run</button><p id="p" hidden>x</p>`)
	b := doc.ByID("b")
	b.SetDisabled(true)
	if !b.HasAttr("disabled") || HTML(b) != `<button id="b" disabled="">Run</button>` {
		t.Errorf("SetDisabled(true): %s", HTML(b))
	}
	b.SetDisabled(false)
	if b.HasAttr("disabled") {
		t.Error("SetDisabled(false) left the attribute")
	}
	p := doc.ByID("p")
	if !p.HasAttr("hidden") || p.Attr("hidden") != "" {
		t.Error("the hidden attribute is not kept as an attribute")
	}
	p.RemoveAttr("HIDDEN")
	if p.HasAttr("hidden") {
		t.Error("RemoveAttr is case-sensitive")
	}
}

func TestClasses(t *testing.T) {
	doc := Parse(`<p id="p" class="a  b a">x</p><p id="q">y</p>`)
	p, q := doc.ByID("p"), doc.ByID("q")
	if !p.HasClass("a") || !p.HasClass("b") || p.HasClass("c") || p.HasClass("a b") {
		t.Error("HasClass")
	}
	p.AddClass("c")
	if got := p.Attr("class"); got != "a b c" {
		t.Errorf("AddClass: class=%q", got)
	}
	p.RemoveClass("a")
	if got := p.Attr("class"); got != "b c" || p.HasClass("a") {
		t.Errorf("RemoveClass: class=%q", got)
	}
	q.RemoveClass("a")
	if q.HasAttr("class") {
		t.Error("RemoveClass made a class attribute")
	}
	q.AddClass("z")
	if got := q.Attr("class"); got != "z" || len(doc.QueryAll(".z")) != 1 {
		t.Errorf("AddClass on none: class=%q", got)
	}
}

func TestTree(t *testing.T) {
	doc := Parse(`<ul id="u"><li id="a">a</li><li id="b">b</li><li id="c">c</li></ul><div id="d"></div>`)
	u, a, b, c, d := doc.ByID("u"), doc.ByID("a"), doc.ByID("b"), doc.ByID("c"), doc.ByID("d")
	order := func(n page.Node) string { return strings.Join(ids(n.QueryAll("li")), " ") }
	u.InsertBefore(c, a)
	if got := order(u); got != "c a b" {
		t.Errorf("InsertBefore(c, a): %s", got)
	}
	u.Append(c)
	if got := order(u); got != "a b c" {
		t.Errorf("Append(c): %s", got)
	}
	u.InsertBefore(b, b)
	u.InsertBefore(a, nil)
	if got := order(u); got != "b c a" {
		t.Errorf("InsertBefore(b, b), then (a, nil): %s", got)
	}
	d.Append(b)
	if got := order(u) + " | " + order(d); got != "c a | b" || !b.Parent().Is(d) {
		t.Errorf("moved to another parent: %s", got)
	}
	b.Remove()
	if b.Parent() != nil || doc.ByID("b") != nil || d.FirstChild() != nil {
		t.Error("Remove left the node in the document")
	}
	made := doc.Create("LI")
	made.SetAttr("id", "m")
	made.Append(doc.CreateText("made"))
	u.InsertBefore(made, u.FirstChild())
	if got := HTML(u); got != `<ul id="u"><li id="m">made</li><li id="c">c</li><li id="a">a</li></ul>` {
		t.Errorf("a made node: %s", got)
	}
	if !doc.ByID("m").Is(made) || made.Is(a) || made.Is(nil) || !doc.Is(doc.Root().Parent()) {
		t.Error("Is")
	}
	// FirstChild counts text nodes; SetText replaces the children.
	if got := a.FirstChild(); got == nil || got.Text() != "a" || got.FirstChild() != nil || !got.Parent().Is(a) {
		t.Error("FirstChild of an li is not its text")
	}
	u.SetText("gone <b>")
	if got := HTML(u); got != `<ul id="u">gone &lt;b&gt;</ul>` {
		t.Errorf("SetText: %s", got)
	}
	u.FirstChild().SetText("text")
	u.SetText("")
	if u.FirstChild() != nil || u.Text() != "" {
		t.Error("SetText(\"\") left a child")
	}
	if doc.Text() != "" {
		t.Errorf("the document's Text is %q, not textContent's null", doc.Text())
	}
}

func TestTreeMistakesPanic(t *testing.T) {
	doc := Parse(`<div id="p"><div id="c"></div></div><div id="o"></div>`)
	p, c, o := doc.ByID("p"), doc.ByID("c"), doc.ByID("o")
	for name, f := range map[string]func(){
		"a node into itself":         func() { p.Append(p) },
		"a node into its descendant": func() { c.Append(p) },
		"before a node of another":   func() { o.InsertBefore(doc.Create("p"), c) },
		"a node of another document": func() { o.Append(Parse("<b>x</b>").Query("b")) },
		"SetHTML on the document":    func() { doc.SetHTML("<p>") },
		"a child of a text node":     func() { doc.CreateText("t").Append(doc.Create("p")) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil || !strings.HasPrefix(r.(string), "fakedom: ") {
					t.Errorf("no clear panic: %v", r)
				}
			}()
			f()
		})
	}
}

func TestDocument(t *testing.T) {
	doc := Parse(`<!DOCTYPE html><html><head><title>t</title></head><body id="b"><p id="x">1</p><p id="x">2</p></body></html>`)
	if doc.Root().Query("title").Text() != "t" || doc.Body().Attr("id") != "b" {
		t.Error("Root or Body")
	}
	if got := doc.ByID("x").Text(); got != "1" {
		t.Errorf("ByID finds the first: %q", got)
	}
	if doc.ByID("y") != nil {
		t.Error("ByID found one that is not there")
	}
	// A block's markup alone goes into the body of a page.
	frag := Parse(`<section class="cell">x</section>`)
	if frag.Body() == nil || !frag.Query("section").Parent().Is(frag.Body()) || frag.Query("head") == nil {
		t.Errorf("a fragment's page: %s", HTML(frag))
	}
}

func TestFocus(t *testing.T) {
	doc := Parse(`<button id="b">x</button><button id="off" disabled>x</button><input id="in"><p id="p">x</p><p id="tab" tabindex="-1">x</p>
<div hidden><button id="hid">x</button></div><a id="a" href="#x">x</a><a id="noref">x</a><details><summary id="s">s</summary><button id="inside">x</button></details>`)
	active := func() string { return doc.Active().Attr("id") }
	if !doc.Active().Is(doc.Body()) {
		t.Error("nothing focused, and Active is not the body")
	}
	for _, tc := range []struct {
		id        string
		focusable bool
	}{{"b", true}, {"off", false}, {"in", true}, {"p", false}, {"tab", true}, {"hid", false}, {"a", true}, {"noref", false}, {"s", true}, {"inside", false}} {
		doc.ByID("b").Focus()
		doc.ByID(tc.id).Focus()
		if got := active() == tc.id; got != tc.focusable {
			t.Errorf("Focus on #%s: active is #%s", tc.id, active())
		}
	}
	doc.ByID("b").Focus()
	doc.ByID("b").SetDisabled(true)
	if !doc.Active().Is(doc.Body()) {
		t.Error("the focused button was disabled, and is still active")
	}
	doc.ByID("b").SetDisabled(false)
	doc.ByID("b").Focus()
	doc.ByID("b").SetAttr("hidden", "")
	if !doc.Active().Is(doc.Body()) {
		t.Error("the focused button was hidden, and is still active")
	}
	doc.ByID("in").Focus()
	doc.ByID("in").Remove()
	if !doc.Active().Is(doc.Body()) {
		t.Error("the focused element left the document, and is still active")
	}
	in := doc.Create("input")
	in.SetValue("share link")
	doc.Body().Append(in)
	in.Select()
	if doc.Selection() != "share link" || !doc.Active().Is(in) {
		t.Errorf("Select: selection %q, active %s", doc.Selection(), HTML(doc.Active()))
	}
}

func TestGeometry(t *testing.T) {
	doc := Parse(`<div id="col">text<svg id="g"></svg></div><div id="h" hidden><p id="in">x</p></div>`)
	col, g := doc.ByID("col"), doc.ByID("g")
	if col.ClientWidth() != DefaultWidth || g.ScrollWidth() != DefaultWidth || g.OffsetHeight() != 0 {
		t.Errorf("defaults: %v %v %v", col.ClientWidth(), g.ScrollWidth(), g.OffsetHeight())
	}
	doc.SetWidth(390)
	SetScrollWidth(g, 500)
	SetOffsetHeight(g, 80)
	SetTop(g, 1200)
	if col.ClientWidth() != 390 || g.ClientWidth() != 390 || g.ScrollWidth() != 500 || g.OffsetHeight() != 80 || g.Rect() != (page.Rect{Top: 1200, Width: 390}) {
		t.Errorf("set: %v %v %v %v %+v", col.ClientWidth(), g.ClientWidth(), g.ScrollWidth(), g.OffsetHeight(), g.Rect())
	}
	SetClientWidth(col, 300)
	if col.ClientWidth() != 300 || col.ScrollWidth() != 300 || g.ClientWidth() != 390 {
		t.Errorf("a node's own width: %v %v %v", col.ClientWidth(), col.ScrollWidth(), g.ClientWidth())
	}
	// What is not shown has no size.
	made := doc.Create("div")
	SetClientWidth(made, 10)
	for _, n := range []page.Node{doc.ByID("h"), doc.ByID("in"), made, col.FirstChild()} {
		if n.ClientWidth() != 0 || n.ScrollWidth() != 0 || n.Rect() != (page.Rect{}) {
			t.Errorf("%s has a size: %v", HTML(n), n.ClientWidth())
		}
	}
	g.SetScrollLeft(120)
	g.SetStyle("max-width", "100%")
	g.ScrollIntoView()
	if ScrollLeft(g) != 120 || Style(g, "max-width") != "100%" || Style(g, "width") != "" || !doc.Scrolled().Is(g) {
		t.Errorf("kept: %v %q %v", ScrollLeft(g), Style(g, "max-width"), doc.Scrolled())
	}
}

func TestVisibleText(t *testing.T) {
	doc := Parse(`<section id="s">Shown <span hidden>hidden</span><template>tmpl</template><script>js()</script><style>p{}</style>` +
		`<svg><title>tip</title><desc>about</desc><text>1.5</text></svg><details><summary>More</summary>folded</details>` +
		`<details open><summary>Open</summary>unfolded</details><textarea>old</textarea><select><option>A</option><option selected>B</option></select> end</section>` +
		`<div id="h" hidden><p id="in">x</p></div>`)
	doc.Query("textarea").SetValue("new")
	if got := VisibleText(doc.ByID("s")); got != "Shown 1.5MoreOpenunfoldednewB end" {
		t.Errorf("VisibleText = %q", got)
	}
	if got := VisibleText(doc.ByID("in")); got != "" {
		t.Errorf("inside a hidden element: %q", got)
	}
	if got := VisibleText(doc.Create("p")); got != "" {
		t.Errorf("out of the document: %q", got)
	}
	if got := doc.ByID("s").Text(); !strings.Contains(got, "hidden") || !strings.Contains(got, "js()") || !strings.Contains(got, "old") {
		t.Errorf("Text is not textContent: %q", got)
	}
}

// tb is a testing.TB that records a failure instead of stopping.
type tb struct {
	testing.TB
	failed string
}

func (t *tb) Helper()                      {}
func (t *tb) Fatalf(f string, args ...any) { t.failed = f }

func TestFind(t *testing.T) {
	doc := Parse(`<p class="x">y</p>`)
	fake := &tb{TB: t}
	if n := Find(fake, doc, "p.x"); n == nil || n.Text() != "y" || fake.failed != "" {
		t.Error("Find did not find p.x")
	}
	if n := Find(fake, doc, "p.z"); n != nil || fake.failed == "" {
		t.Error("Find did not fail the test")
	}
}
