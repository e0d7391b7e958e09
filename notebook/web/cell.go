//go:build js && wasm

package web

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"honnef.co/go/js/dom/v2"

	"gradbook/notebook"
)

func (p *Page) wire(el dom.Element) *Cell {
	c := &Cell{page: p, root: el}
	if p.keep != nil {
		c.lesson = p.keep.lesson
	}
	if m, ok := p.placed[el.GetAttribute("data-cell-id")]; ok {
		c.lesson, c.group, c.prefix, c.record = m.lesson, m.group, m.prefix, m.record
	}
	c.editor = el.QuerySelector("textarea.editor").(*dom.HTMLTextAreaElement)
	c.run = el.QuerySelector("button.run").(*dom.HTMLButtonElement)
	c.reset = el.QuerySelector("button.reset").(*dom.HTMLButtonElement)
	c.out = el.QuerySelector("output.out")
	c.drawings = el.QuerySelector("div.drawings")
	c.on.listen(c.run, "click", func(dom.Event) { spawn(func() { p.Run(c) }) })
	c.on.listen(c.reset, "click", func(dom.Event) { spawn(func() { p.askReset(c) }) })
	if b := button(el, "button.share"); b != nil {
		c.on.listen(b, "click", func(dom.Event) { spawn(func() { p.share(c) }) })
		b.SetDisabled(false)
	}
	c.on.listen(c.editor, "input", func(dom.Event) { spawn(func() { p.edited(c) }) })
	c.on.listen(c.editor, "keydown", func(ev dom.Event) {
		k, ok := ev.(*dom.KeyboardEvent)
		if !ok || k.Key() != "Enter" || !(k.ShiftKey() || k.CtrlKey() || k.MetaKey()) {
			return
		}
		ev.PreventDefault()
		spawn(func() { p.Run(c) })
	})
	if p.scratch {
		p.addScratchControls(c)
	}
	c.run.SetDisabled(false)
	c.reset.SetDisabled(false)
	return c
}

// index returns c's position among the page's cells.
func (p *Page) index(c *Cell) int {
	for i, d := range p.cells {
		if d == c {
			return i
		}
	}
	return -1
}

// chain returns the cells c runs after, with c last: the cells above it in
// its group, after the group's hidden prefix.
func (p *Page) chain(c *Cell) (srcs []string, cells []*Cell) {
	srcs = append(srcs, c.prefix...)
	for _, d := range p.cells {
		if d.group != c.group {
			continue
		}
		srcs = append(srcs, d.editor.Value())
		cells = append(cells, d)
		if d == c {
			break
		}
	}
	return srcs, cells
}

// Run runs c with the cells above it, as they are written now, and shows
// its result.
func (p *Page) Run(c *Cell) {
	i := p.index(c)
	if i < 0 {
		return
	}
	p.flushSaves()
	start := time.Now()
	c.root.SetAttribute("aria-busy", "true")
	srcs, _ := p.chain(c)
	res := notebook.RunOne(srcs, len(srcs)-1)
	last := &res
	c.show(last)
	c.root.RemoveAttribute("aria-busy")
	ms := time.Since(start).Seconds() * 1000
	c.root.SetAttribute("data-ms", strconv.FormatFloat(ms, 'f', 1, 64))
	p.say(fmt.Sprintf("Cell %d %s in %.0f ms.", i+1, verdict(last), ms))
	p.ran(c, last.Passed()) // saving comes after the learner sees the result
}

// flushSaves saves every edit still waiting for its debounce before a run,
// so that nothing typed is lost if the run never comes back.
func (p *Page) flushSaves() {
	if p.keep != nil {
		p.keep.flush()
	}
}

// RunAll runs every cell in order and shows every result.
func (p *Page) RunAll() {
	if len(p.cells) == 0 {
		return
	}
	p.flushSaves()
	start := time.Now()
	passed := 0
	results := map[*Cell]*notebook.CellResult{}
	for _, c := range p.cells {
		if results[c] != nil {
			continue
		}
		// The last cell of c's group runs the whole group.
		var lastOfGroup *Cell
		for _, d := range p.cells {
			if d.group == c.group {
				lastOfGroup = d
			}
		}
		srcs, cells := p.chain(lastOfGroup)
		res := notebook.Run(srcs, len(srcs)-1)
		for j, d := range cells {
			results[d] = &res[len(lastOfGroup.prefix)+j]
		}
	}
	for _, c := range p.cells {
		c.show(results[c])
		if results[c].Passed() {
			passed++
		}
	}
	for _, c := range p.cells {
		if c.shared {
			// Shared code is adopted only when the learner runs that cell
			// or keeps it: Run all shows its result and saves nothing.
			c.mark(results[c].Passed())
			continue
		}
		p.ran(c, results[c].Passed())
	}
	p.say(fmt.Sprintf("Ran all %d cells in %.0f ms: %d ran clean.", len(p.cells), time.Since(start).Seconds()*1000, passed))
}

func verdict(r *notebook.CellResult) string {
	switch {
	case r.Err != nil:
		return "stopped with an error"
	case !r.Passed():
		return "ran, with failed checks"
	}
	return "ran"
}

// askReset resets the cell, asking first if the learner changed its code.
func (p *Page) askReset(c *Cell) {
	if c.editor.Value() == c.editor.DefaultValue() {
		c.Reset()
		return
	}
	p.confirmIn(c, "Replace your code with the lesson's original code?", "Reset the cell", "Keep my code", func() {
		c.Reset()
		if p.scratch {
			p.saveScratch()
		} else {
			p.forget("cell", c.lesson, p.cellID(c))
		}
	})
}

// confirmIn asks, inside the cell, before throwing away the learner's code.
func (p *Page) confirmIn(c *Cell, question, yesLabel, noLabel string, yes func()) {
	p.confirmBox(c.root, c.editor, question, yesLabel, noLabel, yes)
}

// confirmBox asks a question inside root, before the element before.
func (p *Page) confirmBox(root dom.Element, before dom.Element, question, yesLabel, noLabel string, yes func()) {
	p.ask(root, before, question, yesLabel, noLabel, yes, nil)
}

// ask shows a question with two answers inside root, before the element
// before (at the end if before is nil), and calls yes or no (either may be
// nil) once the learner picks one. The box owns its handlers and releases
// them when it goes.
func (p *Page) ask(root dom.Element, before dom.Element, question, yesLabel, noLabel string, yes, no func()) {
	if old := root.QuerySelector(".confirm"); old != nil {
		old.Remove()
	}
	box := p.doc.CreateElement("div")
	box.SetAttribute("class", "confirm")
	box.SetAttribute("role", "alertdialog")
	box.SetAttribute("aria-label", question)
	box.SetInnerHTML(fmt.Sprintf(`<p>%s</p><button type="button" class="confirm-yes">%s</button> <button type="button" class="confirm-no">%s</button>`, escape(question), escape(yesLabel), escape(noLabel)))
	if before != nil {
		root.InsertBefore(box, before)
	} else {
		root.AppendChild(box)
	}
	box.QuerySelector(".confirm-no").(*dom.HTMLButtonElement).Focus()
	on := &handlers{}
	answer := func(f func()) func(dom.Event) {
		return func(dom.Event) {
			spawn(func() {
				on.release()
				box.Remove()
				if f != nil {
					f()
				}
			})
		}
	}
	on.listen(box.QuerySelector(".confirm-no"), "click", answer(no))
	on.listen(box.QuerySelector(".confirm-yes"), "click", answer(yes))
}

// Reset puts the authored source back and clears the output.
func (c *Cell) Reset() {
	c.editor.SetValue(c.editor.DefaultValue())
	c.out.SetTextContent("")
	c.out.Class().Remove("error")
	c.drawn.release()
	c.drawings.SetInnerHTML("")
	c.root.RemoveAttribute("data-state")
	if s := c.root.QuerySelector(".cell-state"); s != nil {
		s.SetTextContent("")
	}
	c.page.say("The cell is back to its original code.")
}

// show displays a cell's result: its output, its error, and its drawings.
func (c *Cell) show(r *notebook.CellResult) {
	text := r.Output
	state := "passed"
	switch {
	case r.Err != nil:
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		text += r.Err.Error()
		state = "error"
		c.out.Class().Add("error")
	case !r.Passed():
		state = "failed"
		c.out.Class().Remove("error")
	default:
		c.out.Class().Remove("error")
	}
	if text == "" {
		text = "(ran; nothing printed)"
	}
	c.out.SetTextContent(text)
	c.root.SetAttribute("data-state", state)
	c.drawn.release()
	c.drawings.SetInnerHTML("")
	for k, d := range r.Drawings {
		newDrawingView(c.page, c.drawings, &c.drawn, d, fmt.Sprintf("%s-d%d", c.root.GetAttribute("data-cell-id"), k+1))
	}
}
