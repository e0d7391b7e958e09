package page_test

import (
	"slices"
	"testing"

	"gradbook/notebook/page"
	"gradbook/notebook/page/fakedom"
	"gradbook/notebook/progress"
)

// Where no code editor loads, a cell's text box runs it with Shift+Enter,
// Ctrl+Enter or ⌘+Enter; Enter alone is a new line, and other keys are
// the text's.
func TestTextBoxKeys(t *testing.T) {
	b := open(t, blocks)
	c := b.cell("worked")
	for _, k := range []struct {
		key  string
		mods []fakedom.Mod
	}{{"Enter", nil}, {"a", []fakedom.Mod{fakedom.Shift}}, {"Tab", []fakedom.Mod{fakedom.Ctrl}}} {
		if b.press(c, "textarea.editor", k.key, k.mods...) || c.HasAttr("data-state") {
			t.Errorf("%s %v ran the cell", k.key, k.mods)
		}
	}
	for i, mod := range []fakedom.Mod{fakedom.Shift, fakedom.Ctrl, fakedom.Meta} {
		b.typeCode(c, "print("+string(rune('1'+i))+")")
		if !b.press(c, "textarea.editor", "Enter", mod) {
			t.Errorf("Enter with modifier %d was not taken", mod)
		}
		if got, want := out(t, c), string(rune('1'+i))+"\n"; got != want {
			t.Errorf("Enter with modifier %d: the cell shows %q, want %q", mod, got, want)
		}
	}
}

// A code editor takes the text box's place and height, is named for
// screen readers after its cell, tells the cell's keyboard hint, keeps
// the text box's text as it is edited, and runs its cell on Shift+Enter.
func TestCodeEditors(t *testing.T) {
	tall := func(b *bench) {
		for _, area := range b.doc.QueryAll("textarea.editor") {
			fakedom.SetOffsetHeight(area, 96)
		}
	}
	b := open(t, blocks, withEditors, func(b *bench) { b.parsed = tall })
	c := b.cell("worked")
	area := b.within(c, "textarea.editor")
	box := b.within(c, ".code-editor")
	if !area.HasAttr("hidden") || box.Parent() == nil || !box.Parent().Is(area.Parent()) {
		t.Error("the editor is not in the text box's place")
	}
	if got := fakedom.Style(box, "min-height"); got != "96px" {
		t.Errorf("the editor's min-height is %q, not the text box's 96px", got)
	}
	ed := b.editors.in(c)
	if ed.opts.Label != "Code of Cell 1" {
		t.Errorf("the editor is named %q", ed.opts.Label)
	}
	if want := "Shift+Enter or Ctrl+Enter runs the cell. In the code, Tab indents; press Escape, then Tab, to move out of it."; ed.opts.Hint != want {
		t.Errorf("the editor's hint is %q", ed.opts.Hint)
	}
	if got := b.editors.in(b.exercise("ex")); got.opts.Hint != "" || got.opts.Label != "Exercise: your code" {
		t.Errorf("the exercise's editor: name %q, hint %q", got.opts.Label, got.opts.Hint)
	}
	ed.typeIn("print('typed')")
	b.p.Settle()
	if got := area.Value(); got != "print('typed')" {
		t.Errorf("the text box holds %q", got)
	}
	ed.opts.OnRun()
	b.p.Settle()
	if got := out(t, c); got != "typed\n" {
		t.Errorf("Shift+Enter in the editor: the cell shows %q", got)
	}
	b.reload()
	if got := fakedom.Style(b.within(b.cell("worked"), ".code-editor"), "min-height"); got != "96px" {
		t.Errorf("after a reload the editor's min-height is %q", got)
	}
	// A text box the page has not laid out gives its editor no height.
	b = open(t, blocks, withEditors)
	if got := fakedom.Style(b.within(b.cell("worked"), ".code-editor"), "min-height"); got != "" {
		t.Errorf("an editor for a text box of no height has min-height %q", got)
	}
}

// A scratch cell added, or moved, has the keyboard in its code, and each
// editor is named after its cell's place, with and without code editors.
func TestEditorFocusAndNames(t *testing.T) {
	editorsAndTextBoxes(t, func(t *testing.T, opts ...func(*bench)) {
		b := open(t, "scratch.html", opts...)
		b.click("#add-cell")
		cells := b.doc.QueryAll("section.code-cell")
		if len(cells) != 2 {
			t.Fatalf("%d cells after Add a cell", len(cells))
		}
		focused := func(c page.Node) bool {
			if b.editors != nil {
				ed := b.editors.in(c)
				defer func() { ed.focused = false }()
				return ed.focused
			}
			a := b.doc.Active()
			return a != nil && a.Is(b.within(c, "textarea.editor"))
		}
		if !focused(cells[1]) {
			t.Error("the cell added does not have the keyboard")
		}
		b.clickIn(cells[1], "button.move-up")
		if !focused(cells[1]) {
			t.Error("the cell moved up does not have the keyboard")
		}
		if b.editors != nil {
			if got := b.editors.in(cells[1]).label; got != "Code of Cell 1" {
				t.Errorf("the cell moved up is named %q", got)
			}
			if got := b.editors.in(cells[0]).label; got != "Code of Cell 2" {
				t.Errorf("the cell moved down is named %q", got)
			}
		}
	})
}

// A page whose code editors come after it started (on a slow network,
// the editor's file comes after the wasm) runs its cells in their text
// boxes meanwhile, and keeps what the learner typed there: each text box
// becomes an editor holding its text, but the one the learner is typing
// in, which becomes one when they leave it, and the edits survive a
// reload.
func TestEditorsThatComeLate(t *testing.T) {
	b := open(t, blocks)
	c, d := b.cell("worked"), b.cell("double")
	b.typeCode(c, "print(6 * 7)")
	if !b.press(c, "textarea.editor", "Enter", fakedom.Shift) || out(t, c) != "42\n" {
		t.Fatalf("before the editors came, Shift+Enter in the text box gave %q", out(t, c))
	}
	typing := b.within(d, "textarea.editor")
	fakedom.Type(typing, "x = 1") // and it keeps the keyboard
	b.settle()

	eds := &fakeEditors{}
	b.p.UseEditors(eds)
	b.p.Settle()
	ed := eds.in(c)
	if ed == nil || !b.within(c, "textarea.editor").HasAttr("hidden") {
		t.Fatal("the editors came, and the cell kept its text box")
	}
	if ed.Text() != "print(6 * 7)" || ed.opts.Label != "Code of Cell 1" {
		t.Errorf("the editor holds %q, named %q; want the typed code, named after its cell", ed.Text(), ed.opts.Label)
	}
	if eds.in(d) != nil || typing.HasAttr("hidden") {
		t.Error("the text box the learner is typing in became an editor under their typing")
	}
	fakedom.Fire(typing, "blur")
	b.p.Settle()
	if eds.in(d) == nil || eds.in(d).Text() != "x = 1" {
		t.Fatal("the text box the learner left did not become an editor with their text")
	}
	ed.typeIn("print(6 * 8)")
	b.settle()
	b.reload()
	if got := b.within(b.cell("worked"), "textarea.editor").Value(); got != "print(6 * 8)" {
		t.Errorf("after a reload the cell holds %q, not the code typed in its editor", got)
	}
	if got := b.within(b.cell("double"), "textarea.editor").Value(); got != "x = 1" {
		t.Errorf("after a reload the second cell holds %q, not the code typed in its text box", got)
	}
}

// A text box that has the keyboard because the page gave it (the cell a
// shared link opens) becomes an editor as soon as the editors come, and
// the editor takes the keyboard; once the learner has pressed a key in
// it, it waits until they leave it.
func TestEditorsComeToTheBoxThePageFocused(t *testing.T) {
	for _, typed := range []bool{false, true} {
		b := open(t, blocks, sharedAt("double", "print('theirs')"))
		c := b.cell("double")
		box := b.within(c, "textarea.editor")
		if a := b.doc.Active(); a == nil || !a.Is(box) {
			t.Fatal("the shared cell's text box does not have the keyboard")
		}
		if typed {
			b.press(c, "textarea.editor", "ArrowDown")
		}
		eds := &fakeEditors{}
		b.p.UseEditors(eds)
		b.p.Settle()
		ed := eds.in(c)
		if typed {
			if ed != nil || box.HasAttr("hidden") {
				t.Error("the text box the learner pressed a key in became an editor under their hands")
			}
			fakedom.Fire(box, "blur")
			b.p.Settle()
			if ed = eds.in(c); ed == nil {
				t.Fatal("the text box the learner left did not become an editor")
			}
			continue
		}
		if ed == nil || !box.HasAttr("hidden") {
			t.Fatal("the shared cell kept its text box when the editors came")
		}
		if ed.Text() != "print('theirs')" || !ed.focused {
			t.Errorf("the editor holds %q, focused %v; want the shared code, with the keyboard", ed.Text(), ed.focused)
		}
	}
}

// typedEarly types code into text boxes before the page starts (each
// pair a selector and the code), as a learner does while gradbook.wasm
// and the code editor are still on their way; a reload starts without it.
func typedEarly(pairs ...string) func(*bench) {
	return func(b *bench) {
		b.parsed = func(b *bench) {
			b.parsed = nil
			for i := 0; i+1 < len(pairs); i += 2 {
				fakedom.Type(fakedom.Find(b.t, b.doc, pairs[i]), pairs[i+1])
			}
		}
	}
}

// What a learner types into a cell's or an exercise's text box before the
// page comes is carried into the editor, counts as an edit (the save
// status says so, then that it is saved), wins over code kept from an
// earlier visit, and is found again after a reload.
func TestTypedBeforeThePageCame(t *testing.T) {
	editorsAndTextBoxes(t, func(t *testing.T, opts ...func(*bench)) {
		earlier := progress.Record{Kind: progress.KindCell, Lesson: "test-blocks", ID: "double", Source: "print('kept before')"}
		b := open(t, blocks, append(opts, keptBefore(earlier), typedEarly(
			"#cell-worked-src", "print('typed early')",
			"#cell-double-src", "print('typed over')",
			"#exercise-ex textarea.editor", "print('my answer')",
		))...)
		if got := b.saveStatus(); got != "Editing: saved when you pause." {
			t.Errorf("the save status says %q", got)
		}
		want := map[string]string{"worked": "print('typed early')", "double": "print('typed over')"}
		for id, code := range want {
			if got := b.code(b.cell(id)); got != code {
				t.Errorf("the cell %s holds %q, want %q", id, got, code)
			}
		}
		if got := b.code(b.exercise("ex")); got != "print('my answer')" {
			t.Errorf("the exercise holds %q", got)
		}
		b.settle()
		if got := b.saveStatus(); got != "Saved." {
			t.Errorf("the save status says %q", got)
		}
		b.reload()
		for id, code := range want {
			if got := b.code(b.cell(id)); got != code {
				t.Errorf("after a reload the cell %s holds %q, want %q", id, got, code)
			}
		}
		if got := b.code(b.exercise("ex")); got != "print('my answer')" {
			t.Errorf("after a reload the exercise holds %q", got)
		}
		if got := out(t, b.run("worked")); got != "typed early\n" {
			t.Errorf("the cell runs to %q", got)
		}
	})
}

// On the scratch page, code typed into its first cell before the page
// came goes after the cells kept before, and is kept.
func TestTypedBeforeTheScratchPageCame(t *testing.T) {
	b := open(t, scratchPage, scratchCells(2), typedEarly("textarea.editor", "print('typed early')"))
	b.settle()
	if got := b.cellsIn(); !slices.Equal(got, []string{"scratch-1", "scratch-2", "scratch-3"}) {
		t.Fatalf("the scratch page shows %q", got)
	}
	b.reload()
	if got := b.code(b.cell("scratch-3")); got != "print('typed early')" {
		t.Errorf("after a reload the third cell holds %q", got)
	}
}

// Editors that are there when the page starts take every text box's
// place but the one the learner is typing in (since before the page
// came), which they take when the learner leaves it.
func TestEditorsAtStartLeaveTheTypingBoxAlone(t *testing.T) {
	b := open(t, blocks, withEditors, typedEarly("#cell-double-src", "print('typing')"))
	if b.editors.in(b.cell("worked")) == nil {
		t.Fatal("a cell nobody types in kept its text box")
	}
	typing := b.find("#cell-double-src")
	if b.editors.in(b.cell("double")) != nil || typing.HasAttr("hidden") {
		t.Fatal("the text box the learner is typing in became an editor under their typing")
	}
	fakedom.Fire(typing, "blur")
	b.p.Settle()
	if ed := b.editors.in(b.cell("double")); ed == nil || ed.Text() != "print('typing')" {
		t.Fatal("the text box the learner left did not become an editor with their code")
	}
}
