package page

import (
	"strconv"
	"sync/atomic"
)

// codeEditor is the code editor of a cell or an exercise: an Editor
// (CodeMirror) where the page has one, or else the authored textarea
// itself. Its text is what runs and what is saved. A page that starts
// before its Editors have come keeps the textareas until they do
// (UseEditors).
type codeEditor struct {
	area Node // the authored code: the default text, and the editor where there is no other
	box  Node // the Editor's box, nil without one
	ed   Editor
	// typed is set when the learner typed into the text box before the
	// page came (it waits for gradbook.wasm): that is their latest code,
	// carried into the editor, counted as an edit, and kept over what a
	// restore would put back.
	typed bool

	// What the Editor is made with, when it comes.
	on              *handlers
	label           string
	onChange, onRun func()
	focused         atomic.Bool // the textarea has the keyboard
	// byPage is set while the textarea has the keyboard because the page
	// gave it (a shared link's cell, a cell just added), and the learner
	// has not pressed a key in it since: the editor may take its place.
	byPage   atomic.Bool
	released bool // the cell is gone
}

// editorLabel is the accessible name of the code editor of the cell
// labelled cell.
func editorLabel(cell string) string { return "Code of " + cell }

// newEditor gives area an editor, named label for screen readers, its
// keyboard hint the text of the element the textarea names with
// aria-describedby, if any. onChange is called after each edit, onRun on
// Shift+Enter or Ctrl/⌘+Enter, both as work of the page (Do); on owns the
// listeners. Code typed into the text box before the page came is an edit
// too: onChange is called for it at once.
func (p *Page) newEditor(on *handlers, area Node, label string, onChange, onRun func()) *codeEditor {
	e := &codeEditor{area: area, on: on, label: label, onChange: onChange, onRun: onRun, typed: area.Value() != area.DefaultValue()}
	on.after = append(on.after, func() { e.released = true })
	if e.typed {
		defer onChange()
	}
	// A text box the learner is typing in (since before the page came)
	// keeps the keyboard until they leave it: nothing moves under their
	// typing.
	if p.typingIn(area) {
		e.focused.Store(true)
	} else if p.env.Editors != nil {
		p.attach(e)
		return e
	}
	p.editors = append(p.editors, e)
	on.listen(p, area, "input", func(Event) {
		e.byPage.Store(false)
		p.Do(onChange)
	})
	on.listen(p, area, "keydown", func(ev Event) {
		e.byPage.Store(false)
		if ev.Key() != "Enter" || !(ev.Shift() || ev.Ctrl() || ev.Meta()) {
			return
		}
		ev.PreventDefault()
		p.Do(onRun)
	})
	// A text box that has the keyboard when the editors come keeps it
	// until the learner leaves it: nothing moves under their typing.
	on.listen(p, area, "focus", func(Event) { e.focused.Store(true) })
	on.listen(p, area, "blur", func(Event) {
		e.focused.Store(false)
		e.byPage.Store(false)
		p.Do(func() {
			if p.env.Editors != nil && e.ed == nil && !e.released {
				p.attach(e)
			}
		})
	})
	return e
}

// UseEditors gives the page its code editors once they have come (the
// page does not wait for them): every text box becomes an editor holding
// what it holds, the learner's typing included, but one the learner is
// typing in, which becomes one when they leave it. A text box that has
// the keyboard only because the page put it there (and the learner has
// not pressed a key since) becomes an editor at once, and the editor
// takes the keyboard.
func (p *Page) UseEditors(eds Editors) {
	p.Do(func() {
		if p.env.Editors != nil || eds == nil {
			return
		}
		p.env.Editors = eds
		for _, e := range p.editors {
			if e.released {
				continue
			}
			focused := e.focused.Load() || p.typingIn(e.area)
			if focused && !e.byPage.Load() {
				e.focused.Store(true) // its blur attaches it
				continue
			}
			p.attach(e)
			if focused {
				e.ed.Focus()
			}
		}
		p.editors = nil
	})
}

// typingIn reports whether the text box area has the keyboard.
func (p *Page) typingIn(area Node) bool {
	active := p.doc.Active()
	return active != nil && active.Is(area)
}

// attach puts an Editor in e's text box's place.
func (p *Page) attach(e *codeEditor) {
	area := e.area
	e.box = p.doc.Create("div")
	e.box.AddClass(classCodeEditor)
	// As tall as the textarea it replaces: the page does not jump.
	if h := area.OffsetHeight(); h > 0 {
		e.box.SetStyle("min-height", strconv.FormatFloat(h, 'f', 0, 64)+"px")
	}
	area.Parent().InsertBefore(e.box, area)
	opts := EditorOptions{Label: e.label, OnRun: func() { p.Do(e.onRun) }}
	if d := area.Attr("aria-describedby"); d != "" {
		if hint := p.doc.ByID(d); hint != nil {
			opts.Hint = hint.Text()
		}
	}
	// The textarea keeps the editor's text too: what a form, a test or
	// an extension reads there is the code.
	opts.OnChange = func() {
		p.Do(func() {
			area.SetValue(e.Value())
			e.onChange()
		})
	}
	e.ed = p.env.Editors.New(e.box, area.Value(), opts)
	area.SetAttr("hidden", "")
	e.on.after = append(e.on.after, e.ed.Destroy)
}

// Value is the code in the editor.
func (e *codeEditor) Value() string {
	if e.ed != nil {
		return e.ed.Text()
	}
	return e.area.Value()
}

// SetValue replaces the code in the editor.
func (e *codeEditor) SetValue(s string) {
	if e.ed != nil {
		e.ed.SetText(s)
	}
	e.area.SetValue(s)
}

// DefaultValue is the code the lesson wrote.
func (e *codeEditor) DefaultValue() string { return e.area.DefaultValue() }

// Edited reports whether the code is not the lesson's.
func (e *codeEditor) Edited() bool { return e.Value() != e.DefaultValue() }

// Focus puts the keyboard in the editor.
func (e *codeEditor) Focus() {
	if e.ed != nil {
		e.ed.Focus()
		return
	}
	e.byPage.Store(true)
	e.area.Focus()
}

// Mark marks line n (from 1) as the one an error names, until the code
// changes; 0 clears it.
func (e *codeEditor) Mark(n int) {
	if e.ed != nil {
		e.ed.Mark(n)
	}
}

// Label renames the editor for screen readers.
func (e *codeEditor) Label(label string) {
	e.label = label
	if e.ed != nil {
		e.ed.Label(label)
	}
}

// elem is the editor on the page, to put boxes before.
func (e *codeEditor) elem() Node {
	if e.box != nil {
		return e.box
	}
	return e.area
}
