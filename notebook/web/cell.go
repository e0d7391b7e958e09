//go:build js && wasm

package web

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"honnef.co/go/js/dom/v2"

	"gradbook/notebook"
	"gradbook/notebook/runner"
)

func (p *Page) wire(el dom.Element) *Cell {
	c := &Cell{page: p, root: el}
	if p.keep != nil {
		c.lesson = p.keep.lesson
	}
	if m, ok := p.placed[el.GetAttribute("data-cell-id")]; ok {
		c.lesson, c.group, c.prefix, c.record = m.lesson, m.group, m.prefix, m.record
	}
	c.run = el.QuerySelector("button.run").(*dom.HTMLButtonElement)
	c.reset = el.QuerySelector("button.reset").(*dom.HTMLButtonElement)
	c.out = el.QuerySelector("output.out")
	c.drawings = el.QuerySelector("div.drawings")
	c.timer = p.doc.CreateElement("span")
	c.timer.SetAttribute("class", "elapsed")
	c.timer.SetAttribute("role", "timer")
	c.timer.SetAttribute("hidden", "")
	c.run.ParentElement().InsertBefore(c.timer, c.run)
	c.on.listen(c.run, "click", func(dom.Event) {
		if c.running != nil {
			p.runner.Stop() // its Run button is a Stop button while it runs
			return
		}
		spawn(func() { p.Run(c) })
	})
	c.on.listen(c.reset, "click", func(dom.Event) { spawn(func() { p.askReset(c) }) })
	if b := button(el, "button.share"); b != nil {
		c.on.listen(b, "click", func(dom.Event) { spawn(func() { p.share(c) }) })
		b.SetDisabled(false)
	}
	area := el.QuerySelector("textarea.editor").(*dom.HTMLTextAreaElement)
	c.editor = p.newEditor(&c.on, area, "Code of "+el.QuerySelector(".cell-label").TextContent(), func() { p.edited(c) }, func() {
		if c.running == nil {
			p.Run(c)
		}
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
// what it prints while it runs, then its result.
func (p *Page) Run(c *Cell) {
	i := p.index(c)
	if i < 0 || c.running != nil {
		return
	}
	p.flushSaves()
	srcs, _ := p.chain(c)
	last := len(srcs) - 1
	c.startRun()
	res, err := p.runner.Do(runner.Job{Cells: srcs}, func(cell int, text string) {
		if cell == last {
			c.stream(text)
		}
	})
	ms := c.endRun()
	r := c.outcome(res, 0, last, err, ms)
	c.show(r)
	c.markError(r, last)
	c.root.SetAttribute("data-ms", strconv.FormatFloat(ms, 'f', 1, 64))
	p.say(fmt.Sprintf("Cell %d %s in %s.", i+1, verdict(r), duration(ms)))
	p.ran(c, r.Passed()) // saving comes after the learner sees the result
}

// outcome is cell k's result in res, or what to show if the job ended
// without one: stopped by the learner, or its runner died. cell is the
// cell's index in the job's sources.
func (c *Cell) outcome(res runner.Result, k, cell int, err error, ms float64) *notebook.CellResult {
	if err == nil && k < len(res.Cells) {
		return &res.Cells[k]
	}
	return &notebook.CellResult{Ran: true, Output: c.streamed.String(), Err: &notebook.CellError{Cell: cell, Msg: endedWithout(err, ms)}}
}

// markError marks, in the editor, the line of c's code that r's error
// names, if the error is in c's own code (cell is c's index in the run),
// and otherwise clears the mark.
func (c *Cell) markError(r *notebook.CellResult, cell int) {
	line := 0
	if e := r.Err; e != nil && !e.Above && e.Where == "" && e.Cell == cell {
		line = e.Line
	}
	c.editor.Mark(line)
}

// duration writes milliseconds for a learner: "42 ms", "3.2 s".
func duration(ms float64) string {
	if ms < 1000 {
		return fmt.Sprintf("%.0f ms", ms)
	}
	return fmt.Sprintf("%.1f s", ms/1000)
}

// startRun shows that c runs: its Run button becomes Stop, and the time
// it has been running counts up beside it.
func (c *Cell) startRun() {
	done := make(chan struct{})
	c.running = done
	c.started = time.Now()
	c.streamed.Reset()
	c.root.SetAttribute("aria-busy", "true")
	c.run.SetTextContent("Stop")
	c.run.Class().Add("stop")
	c.out.Class().Remove("error")
	c.out.SetTextContent("")
	c.timer.SetTextContent("Running…")
	c.timer.RemoveAttribute("hidden")
	go func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				c.timer.SetTextContent(fmt.Sprintf("Running… %.1f s", time.Since(c.started).Seconds()))
			}
		}
	}()
}

// stream shows a line the running cell printed.
func (c *Cell) stream(text string) {
	c.streamed.WriteString(text)
	c.streamed.WriteString("\n")
	c.out.SetTextContent(c.streamed.String())
}

// endRun puts c back at rest and returns how long it ran, in ms.
func (c *Cell) endRun() float64 {
	if c.running != nil {
		close(c.running)
		c.running = nil
	}
	c.root.RemoveAttribute("aria-busy")
	c.run.SetTextContent("Run")
	c.run.Class().Remove("stop")
	c.timer.SetAttribute("hidden", "")
	c.timer.SetTextContent("")
	return time.Since(c.started).Seconds() * 1000
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
		skip := len(lastOfGroup.prefix)
		for _, d := range cells {
			d.startRun()
		}
		res, err := p.runner.Do(runner.Job{Cells: srcs, All: true}, func(cell int, text string) {
			if k := cell - skip; k >= 0 && k < len(cells) {
				cells[k].stream(text)
			}
		})
		for j, d := range cells {
			ms := d.endRun()
			results[d] = d.outcome(res, skip+j, skip+j, err, ms)
		}
		if err != nil {
			break // stopped, or the runner died: the cells below wait
		}
	}
	for _, c := range p.cells {
		if results[c] == nil {
			continue
		}
		c.show(results[c])
		if results[c].Err != nil {
			c.markError(results[c], results[c].Err.Cell)
		}
		if results[c].Passed() {
			passed++
		}
	}
	for _, c := range p.cells {
		if results[c] == nil {
			continue
		}
		if c.shared {
			// Shared code is adopted only when the learner runs that cell
			// or keeps it: Run all shows its result and saves nothing.
			c.mark(results[c].Passed())
			continue
		}
		p.ran(c, results[c].Passed())
	}
	p.say(fmt.Sprintf("Ran all %d cells in %s: %d ran clean.", len(results), duration(time.Since(start).Seconds()*1000), passed))
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
	p.confirmBox(c.root, c.editor.elem(), question, yesLabel, noLabel, yes)
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
	for _, pl := range r.Plots {
		c.page.showPlot(c.drawings, pl)
	}
	for k, d := range r.Drawings {
		newDrawingView(c.page, c.drawings, &c.drawn, d, fmt.Sprintf("%s-d%d", c.root.GetAttribute("data-cell-id"), k+1))
	}
}
