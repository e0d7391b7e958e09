package fakedom

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"gradbook/internal/testlog"
	"gradbook/notebook/page"
)

// recorder collects what listeners heard, as "where:type" lines.
type recorder struct{ testlog.Log }

// on listens for each type at n, recording where and what it heard, and
// the target's id.
func (r *recorder) on(n page.Node, where string, types ...string) {
	for _, typ := range types {
		n.Listen(typ, func(e page.Event) { r.Add(where + ":" + typ + "@" + id(e.Target())) })
	}
}

func (r *recorder) take() string { return strings.Join(r.Take(), " ") }

func id(n page.Node) string {
	if n == nil {
		return "window"
	}
	if v := n.Attr("id"); v != "" {
		return v
	}
	return "?"
}

func TestBubbling(t *testing.T) {
	doc := Parse(`<section id="s"><div id="bar"><button id="run"><span id="label">Run</span></button></div></section>`)
	var r recorder
	r.on(doc.ByID("label"), "label", "click")
	r.on(doc.ByID("run"), "run", "click")
	r.on(doc.ByID("run"), "run2", "click")
	r.on(doc.ByID("s"), "section", "click", "keydown")
	r.on(doc, "doc", "click")
	doc.ListenWindow("click", func(e page.Event) { r.Add("window:click@" + id(e.Target())) })
	Click(doc.ByID("label"))
	if got := r.take(); got != "label:click@label run:click@label run2:click@label section:click@label doc:click@label window:click@label" {
		t.Errorf("a click bubbles in this order: %s", got)
	}
	// A node out of the document: its own listeners and its ancestors'.
	lone := doc.Create("div")
	b := doc.Create("button")
	lone.Append(b)
	r.on(lone, "lone", "click")
	b.Click()
	if got := r.take(); got != "lone:click@?" {
		t.Errorf("out of the document: %s", got)
	}
}

func TestStopAndListenDuringDispatch(t *testing.T) {
	doc := Parse(`<button id="b">x</button>`)
	b := doc.ByID("b")
	var r recorder
	var stopSecond func()
	b.Listen("click", func(page.Event) {
		r.Add("first")
		stopSecond()                                                     // stopped before its turn: not called
		b.Listen("click", func(page.Event) { r.Add("added meanwhile") }) // hears the next click
	})
	stopSecond = b.Listen("click", func(page.Event) { r.Add("second") })
	stopThird := b.Listen("click", func(page.Event) { r.Add("third") })
	b.Click()
	if got := r.take(); got != "first third" {
		t.Errorf("first click: %s", got)
	}
	stopThird()
	stopThird() // twice is harmless
	b.Click()
	if got := r.take(); got != "first added meanwhile" {
		t.Errorf("second click: %s", got)
	}
}

func TestClickControls(t *testing.T) {
	doc := Parse(`<div id="d">
<label id="lab"><input id="cb" type="checkbox"> Overwrite</label>
<input id="ra" type="radio" name="q" checked><input id="rb" type="radio" name="q">
<label id="for" for="ra">A</label><label id="forNothing" for="none">?</label>
<button id="off" disabled>x</button><fieldset id="fs" disabled><legend><button id="inLegend">x</button></legend><button id="inSet">x</button></fieldset>
<details id="det"><summary id="sum">More</summary><p>folded</p></details>
</div>`)
	var r recorder
	for _, n := range doc.QueryAll("input, button, summary, label") {
		r.on(n, id(n), "click", "input", "change")
	}
	state := func() string {
		return fmt.Sprintf("cb=%v ra=%v rb=%v", doc.ByID("cb").Checked(), doc.ByID("ra").Checked(), doc.ByID("rb").Checked())
	}
	// The checkbox's listeners see it toggled already.
	doc.ByID("cb").Listen("click", func(e page.Event) { r.Add(fmt.Sprintf("checked:%v", e.Target().Checked())) })
	// click clicks the node with id, and checks what the listeners heard
	// and the controls' state after.
	click := func(name, id, heard, want string) {
		t.Helper()
		Click(doc.ByID(id))
		if got := r.take(); got != heard {
			t.Errorf("%s: heard\n %s\nwant\n %s", name, got, heard)
		}
		if got := state(); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	changes := []struct {
		name, click, heard, state string
	}{
		{"a checkbox", "cb", "cb:click@cb checked:true lab:click@cb cb:input@cb lab:input@cb cb:change@cb lab:change@cb", "cb=true ra=true rb=false"},
		{"a label, which clicks its control", "lab", "lab:click@lab cb:click@cb checked:false lab:click@cb cb:input@cb lab:input@cb cb:change@cb lab:change@cb", "cb=false ra=true rb=false"},
		{"a radio button", "rb", "rb:click@rb rb:input@rb rb:change@rb", "cb=false ra=false rb=true"},
		{"a radio button already checked", "rb", "rb:click@rb", "cb=false ra=false rb=true"},
		{"a label for a radio button", "for", "for:click@for ra:click@ra ra:input@ra ra:change@ra", "cb=false ra=true rb=false"},
	}
	for _, tc := range changes {
		click(tc.name, tc.click, tc.heard, tc.state)
	}
	// A label for nothing, and a button, disabled or not, change no
	// control.
	for _, tc := range []struct{ name, click, heard string }{
		{"a label for nothing", "forNothing", "forNothing:click@forNothing"},
		{"a disabled button", "off", ""},
		{"a button in a disabled fieldset", "inSet", ""},
		{"a button in its first legend", "inLegend", "inLegend:click@inLegend"},
	} {
		click(tc.name, tc.click, tc.heard, "cb=false ra=true rb=false")
	}
	// A summary opens and closes its details.
	det := doc.ByID("det")
	doc.ByID("sum").Click()
	if !det.HasAttr("open") || !strings.Contains(VisibleText(det), "folded") {
		t.Error("a click on the summary did not open the details")
	}
	Click(doc.ByID("sum"))
	if det.HasAttr("open") || VisibleText(det) != "More" {
		t.Error("a second click did not close the details")
	}
}

// A listener that prevents a click's default puts the checkbox or radio
// button back, and no input or change follows.
func TestClickPrevented(t *testing.T) {
	doc := Parse(`<input id="cb" type="checkbox"><input id="ra" type="radio" name="q" checked><input id="rb" type="radio" name="q">`)
	var r recorder
	for _, n := range doc.QueryAll("input") {
		r.on(n, id(n), "input", "change")
	}
	doc.Listen("click", func(e page.Event) { e.PreventDefault() })
	Click(doc.ByID("cb"))
	Click(doc.ByID("rb"))
	if doc.ByID("cb").Checked() || !doc.ByID("ra").Checked() || doc.ByID("rb").Checked() {
		t.Error("a prevented click changed a control")
	}
	if got := r.take(); got != "" {
		t.Errorf("a prevented click fired %s", got)
	}
}

func TestType(t *testing.T) {
	doc := Parse(`<section id="s"><textarea id="ta">x = 1</textarea><input id="in" class="answer-input"><input id="ro" readonly value="r"><input id="off" disabled></section>`)
	var r recorder
	doc.ByID("s").Listen("input", func(e page.Event) { r.Add("input@" + id(e.Target()) + "=" + e.Target().Value()) })
	Type(doc.ByID("ta"), "x = 2")
	if got := r.take(); got != "input@ta=x = 2" || !doc.Active().Is(doc.ByID("ta")) {
		t.Errorf("typing into the textarea: %s, active %s", got, id(doc.Active()))
	}
	Type(doc.ByID("in"), "-3")
	Type(doc.ByID("ro"), "no")
	Type(doc.ByID("off"), "no")
	if got := r.take(); got != "input@in=-3" || doc.ByID("ro").Value() != "r" || doc.ByID("off").Value() != "" {
		t.Errorf("typing into the others: %s", got)
	}
	for _, sel := range []string{"section", "textarea", `input[type=checkbox]`} {
		n := doc.ByID("s")
		if sel != "section" {
			n = doc.Create("input")
			n.SetAttr("type", "checkbox")
		}
		func() {
			defer func() {
				if msg, _ := recover().(string); !strings.Contains(msg, "takes no typing") {
					t.Errorf("Type into %s: %q", HTML(n), msg)
				}
			}()
			Type(n, "x")
		}()
	}
}

func TestKey(t *testing.T) {
	doc := Parse(`<div id="cell"><textarea id="ed"></textarea></div>`)
	var r recorder
	doc.ByID("cell").Listen("keydown", func(e page.Event) {
		r.Add(fmt.Sprintf("%s shift=%v ctrl=%v meta=%v @%s", e.Key(), e.Shift(), e.Ctrl(), e.Meta(), id(e.Target())))
		if e.Key() == "Enter" && e.Shift() {
			e.PreventDefault()
		}
	})
	doc.Listen("keydown", func(e page.Event) { r.Add("doc " + e.Key()) })
	if !Key(doc.ByID("ed"), "Enter", Shift) {
		t.Error("Shift+Enter's default was not prevented")
	}
	if Key(doc.ByID("ed"), "Enter", Ctrl, Meta) || Key(doc.ByID("ed"), "a") {
		t.Error("a default was prevented")
	}
	want := "Enter shift=true ctrl=false meta=false @ed doc Enter Enter shift=false ctrl=true meta=true @ed doc Enter a shift=false ctrl=false meta=false @ed doc a"
	if got := r.take(); got != want {
		t.Errorf("heard %s", got)
	}
	Fire(doc.ByID("ed"), "keydown")
	if got := r.take(); got != " shift=false ctrl=false meta=false @ed doc " {
		t.Errorf("Fire: %s", got)
	}
}

func TestChoose(t *testing.T) {
	doc := Parse(`<select id="paths"><option value="">(choose a value)</option><optgroup label="g"><option value="3">w</option></optgroup></select><select id="off" disabled><option value="1">1</option></select>`)
	var r recorder
	r.on(doc, "doc", "input", "change")
	doc.ByID("paths").Listen("change", func(e page.Event) { r.Add("value=" + e.Target().Value()) })
	Choose(doc.ByID("paths"), "3")
	Choose(doc.ByID("off"), "1")
	if got := r.take(); got != "doc:input@paths value=3 doc:change@paths" || doc.ByID("paths").Value() != "3" {
		t.Errorf("Choose: %s", got)
	}
	defer func() {
		if msg, _ := recover().(string); !strings.Contains(msg, `Choose "4"`) {
			t.Errorf("Choose of a value no option has: %q", msg)
		}
	}()
	Choose(doc.ByID("paths"), "4")
}

func TestWindow(t *testing.T) {
	doc := Parse(`<p>x</p>`)
	var r recorder
	for _, typ := range []string{"pagehide", "pageshow", "resize", "visibilitychange"} {
		doc.ListenWindow(typ, func(e page.Event) {
			r.Add(fmt.Sprintf("window:%s persisted=%v hidden=%v @%s", typ, e.Persisted(), doc.Hidden(), id(e.Target())))
		})
	}
	r.on(doc, "doc", "visibilitychange", "pagehide")
	doc.FireWindow("pagehide", true)
	doc.FireWindow("pageshow", false)
	doc.FireWindow("resize", false)
	if got := r.take(); got != "window:pagehide persisted=true hidden=false @window window:pageshow persisted=false hidden=false @window window:resize persisted=false hidden=false @window" {
		t.Errorf("FireWindow: %s", got)
	}
	doc.SetHidden(true)
	doc.SetHidden(true) // no change, no event
	doc.SetHidden(false)
	want := "doc:visibilitychange@? window:visibilitychange persisted=false hidden=true @? doc:visibilitychange@? window:visibilitychange persisted=false hidden=false @?"
	if got := r.take(); got != want {
		t.Errorf("SetHidden: %s", got)
	}
}

// Listeners read and change the document while the page's goroutines do
// too: with the race detector, this finds a lock held while a listener
// runs (a deadlock) or a field read without it.
func TestConcurrentUse(t *testing.T) {
	doc := Parse(`<main id="m"><section class="cell"><button class="run">Run</button><output class="out"></output></section></main>`)
	run := doc.Query("button.run")
	run.Listen("click", func(e page.Event) {
		cell := e.Target().Closest("section.cell")
		out := cell.Query("output.out")
		out.SetText(out.Text() + "x")
		cell.AddClass("ran")
		doc.Body().Append(doc.Create("p"))
	})
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				_ = VisibleText(doc.Body())
				_ = len(doc.QueryAll("p"))
				doc.ByID("m").SetAttr("data-state", "busy")
				_ = HTML(doc.Query("section"))
			}
		})
	}
	for range 200 {
		Click(run)
	}
	close(stop)
	wg.Wait()
	if got := doc.Query("output.out").Text(); len(got) != 200 || len(doc.QueryAll("body > p")) != 200 {
		t.Errorf("after 200 clicks: %d x, %d p", len(got), len(doc.QueryAll("body > p")))
	}
	if !slices.Contains(strings.Fields(doc.Query("section").Attr("class")), "ran") {
		t.Error("the class was not added")
	}
}
