//go:build js && wasm

package web

import (
	"fmt"
	"strconv"
	"time"

	"gradbook/notebook/block"
	"gradbook/notebook/kernel"
	"gradbook/notebook/page"
	"gradbook/notebook/runner"
)

func (p *Page) wire(el *element) *Cell {
	c := &Cell{page: p, root: el}
	if p.keep != nil {
		c.lesson = p.keep.lesson
	}
	if m, ok := p.placed[el.GetAttribute(block.AttrCellID)]; ok {
		c.lesson, c.group, c.prefix, c.record = m.lesson, m.group, m.prefix, m.record
	}
	c.run = el.QuerySelector(block.Sel("button", block.ClassRun))
	c.reset = el.QuerySelector(block.Sel("button", block.ClassReset))
	c.out = el.QuerySelector(block.Sel("output", block.ClassOut))
	c.drawings = el.QuerySelector(block.Sel("div", block.ClassDrawings))
	c.timer = p.doc.CreateElement("span")
	c.timer.SetAttribute("class", classElapsed)
	c.timer.SetAttribute("role", "timer")
	c.timer.SetAttribute("hidden", "")
	c.run.ParentElement().InsertBefore(c.timer, c.run)
	c.on.listen(c.run, "click", func(*event) {
		if c.running != nil {
			p.runner.Stop() // its Run button is a Stop button while it runs
			return
		}
		spawn(func() { p.Run(c) })
	})
	c.on.listen(c.reset, "click", func(*event) { spawn(func() { p.askReset(c) }) })
	if b := button(el, block.Sel("button", block.ClassShare)); b != nil {
		c.on.listen(b, "click", func(*event) { spawn(func() { p.share(c) }) })
		b.SetDisabled(false)
	}
	area := el.QuerySelector(block.Sel("textarea", block.ClassEditor))
	c.editor = p.newEditor(&c.on, area, "Code of "+el.QuerySelector(block.Of(block.ClassCellLabel)).TextContent(), func() { p.edited(c) }, func() {
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

// members are the page's cells as a run plans them (page.Member).
func (p *Page) members() []page.Member {
	ms := make([]page.Member, len(p.cells))
	for i, c := range p.cells {
		ms[i] = page.Member{Group: c.group, Prefix: c.prefix, Source: c.editor.Value()}
	}
	return ms
}

// Run runs c with the cells above it, as they are written now, and shows
// what it prints while it runs, then its result.
func (p *Page) Run(c *Cell) {
	i := p.index(c)
	if i < 0 || c.running != nil {
		return
	}
	p.flushSaves()
	srcs, _ := page.Chain(p.members(), i)
	last := len(srcs) - 1
	c.startRun()
	res, err := p.runner.Do(runner.Job{Cells: srcs}, kernel.Hooks{Line: func(cell int, text string) {
		if cell == last {
			c.stream(text)
		}
	}})
	ms := c.endRun()
	r := page.Outcome(res, 0, last, err, c.streamed.String(), ms)
	c.show(r, last)
	c.root.SetAttribute(block.AttrMS, strconv.FormatFloat(ms, 'f', 1, 64))
	p.fresh(c)
	p.say(fmt.Sprintf("Cell %d %s in %s.", i+1, page.Verdict(r), page.Duration(ms)))
	p.ran(c, r.Passed()) // saving comes after the learner sees the result
}

// startRun shows that c runs: its Run button becomes Stop, and the time
// it has been running counts up beside it.
func (c *Cell) startRun() {
	c.running = make(chan struct{})
	c.streamed.Reset()
	c.root.SetAttribute("aria-busy", "true")
	c.run.SetTextContent("Stop")
	c.run.Class().Add(classStop)
	c.out.Class().Remove(classError)
	c.out.SetTextContent("")
	c.timer.RemoveAttribute("hidden")
	c.begin()
}

// begin starts the count of c's time running.
func (c *Cell) begin() {
	c.pause()
	done := make(chan struct{})
	c.ticking = done
	c.started = time.Now()
	c.timer.SetTextContent("Running…")
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

// wait shows that c will run once the cells above it have (Run all).
func (c *Cell) wait() {
	c.pause()
	c.timer.SetTextContent("Waiting…")
}

// pause stops the count of c's time, as its turn ends.
func (c *Cell) pause() {
	if c.ticking != nil {
		close(c.ticking)
		c.ticking = nil
	}
}

// stream shows a line the running cell printed, appended to what it
// printed before.
func (c *Cell) stream(text string) {
	c.streamed.WriteString(text)
	c.streamed.WriteString("\n")
	c.out.AppendChild(c.page.doc.CreateTextNode(text + "\n"))
}

// endRun puts c back at rest and returns how long it ran, in ms.
func (c *Cell) endRun() float64 {
	c.pause()
	if c.running != nil {
		close(c.running)
		c.running = nil
	}
	c.root.RemoveAttribute("aria-busy")
	c.run.SetTextContent("Run")
	c.run.Class().Remove(classStop)
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
	results := map[*Cell]*kernel.CellResult{}
	// Run all stops at a prediction not yet made: the cells after it show
	// its answer.
	members := p.members()
	waiting := ""
	for i, c := range p.cells {
		if q := c.folded(); q != "" {
			members, waiting = members[:i], q
			break
		}
	}
	for _, job := range page.PlanRunAll(members) {
		cells := make([]*Cell, len(job.Members))
		for j, k := range job.Members {
			cells[j] = p.cells[k]
			cells[j].startRun()
			cells[j].wait() // its own time starts when its turn comes
		}
		var current *Cell
		res, err := p.runner.Do(runner.Job{Cells: job.Srcs, All: true}, kernel.Hooks{
			Line: func(cell int, text string) {
				if k := cell - job.Skip; k >= 0 && k < len(cells) {
					cells[k].stream(text)
				}
			},
			Start: func(cell int) {
				if k := cell - job.Skip; k >= 0 && k < len(cells) {
					if current != nil {
						current.pause()
					}
					current = cells[k]
					current.begin()
				}
			},
		})
		for j, d := range cells {
			ms := d.endRun()
			results[d] = page.Outcome(res, job.Skip+j, job.Skip+j, err, d.streamed.String(), ms)
			if r := results[d]; r.Ran && err == nil {
				d.root.SetAttribute(block.AttrMS, strconv.FormatFloat(r.MS, 'f', 1, 64))
			}
		}
		if err != nil {
			break // stopped, or the runner died: the cells below wait
		}
	}
	for _, c := range p.cells {
		if r := results[c]; r != nil {
			c.show(r, -1)
			if r.Passed() {
				passed++
			}
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
		p.fresh(c)
		p.ran(c, results[c].Passed())
	}
	msg := fmt.Sprintf("Ran all %d cells in %s: %d ran clean.", len(results), page.Duration(time.Since(start).Seconds()*1000), passed)
	if waiting != "" {
		msg = fmt.Sprintf("Ran the %d cells above the prediction in %s: %d ran clean. Make the prediction, or skip it, to run the rest.", len(results), page.Duration(time.Since(start).Seconds()*1000), passed)
		if q := p.doc.GetElementByID("quiz-" + waiting); q != nil {
			q.Underlying().Call("scrollIntoView", map[string]any{"block": "center"})
		}
	}
	p.say(msg)
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
func (p *Page) confirmBox(root *element, before *element, question, yesLabel, noLabel string, yes func()) {
	p.ask(root, before, question, yesLabel, noLabel, yes, nil)
}

// ask shows a question with two answers inside root, before the element
// before (at the end if before is nil), and calls yes or no (either may be
// nil) once the learner picks one. The box owns its handlers and releases
// them when it goes.
func (p *Page) ask(root *element, before *element, question, yesLabel, noLabel string, yes, no func()) {
	if old := root.QuerySelector(block.Of(classConfirm)); old != nil {
		old.Remove()
	}
	box := p.doc.CreateElement("div")
	box.SetAttribute("class", classConfirm)
	box.SetAttribute("role", "alertdialog")
	box.SetAttribute("aria-label", question)
	box.SetInnerHTML(fmt.Sprintf(`<p>%s</p><button type="button" class="%s">%s</button> <button type="button" class="%s">%s</button>`, escape(question), classConfirmYes, escape(yesLabel), classConfirmNo, escape(noLabel)))
	if before != nil {
		root.InsertBefore(box, before)
	} else {
		root.AppendChild(box)
	}
	noButton, yesButton := box.QuerySelector(block.Of(classConfirmNo)), box.QuerySelector(block.Of(classConfirmYes))
	noButton.Focus()
	on := &handlers{}
	answer := func(f func()) func(*event) {
		return func(*event) {
			spawn(func() {
				on.release()
				box.Remove()
				if f != nil {
					f()
				}
			})
		}
	}
	on.listen(noButton, "click", answer(no))
	on.listen(yesButton, "click", answer(yes))
}

// Reset puts the authored source back and clears the output.
func (c *Cell) Reset() {
	c.editor.SetValue(c.editor.DefaultValue())
	c.out.SetTextContent("")
	c.out.Class().Remove(classError)
	c.drawn.release()
	c.drawings.SetInnerHTML("")
	c.root.RemoveAttribute(block.AttrState)
	if s := c.root.QuerySelector(block.Of(block.ClassCellState)); s != nil {
		s.SetTextContent("")
	}
	c.page.say("The cell is back to its original code.")
}

// show displays a cell's result: its output, its error, and its drawings;
// cell is the cell's index in its run (-1: the error's own).
func (c *Cell) show(r *kernel.CellResult, cell int) {
	if cell < 0 && r.Err != nil {
		cell = r.Err.Cell
	}
	s := page.Show(r, cell)
	if !c.page.scratch && c.editor.Value() != c.editor.DefaultValue() {
		s = page.ShowEdited(r, cell) // the learner's experiment
	}
	c.root.SetAttribute(block.AttrState, s.State)
	c.page.showResult(r, s, c.root.GetAttribute(block.AttrCellID), c.out, c.drawings, &c.drawn, c.editor)
}

// showResult shows a run's result in a cell or an exercise (id): the
// text page.Show gives, the error's line marked in the editor, and the
// plots and drawings. It is the one place a result reaches the page.
func (p *Page) showResult(r *kernel.CellResult, s page.Shown, id string, out, drawings *element, drawn *handlers, editor *codeEditor) {
	p.setOutput(out, s.Text)
	if s.State == page.Error {
		out.Class().Add(classError)
	} else {
		out.Class().Remove(classError)
	}
	editor.Mark(s.Mark)
	drawn.release()
	drawings.SetInnerHTML("")
	for _, pl := range r.Plots {
		p.showPlot(drawings, pl)
	}
	for k, d := range r.Drawings {
		newDrawingView(p, drawings, drawn, d, fmt.Sprintf("%s-d%d", id, k+1))
	}
}

// setOutput shows a run's text in out: prose as text, which wraps, and
// each table (page.Pieces) in a row box of its own that keeps its lines
// whole and scrolls sideways.
func (p *Page) setOutput(out *element, text string) {
	out.SetTextContent("")
	for _, piece := range page.Pieces(text) {
		if !piece.Table {
			out.AppendChild(p.doc.CreateTextNode(piece.Text))
			continue
		}
		t := p.doc.CreateElement("span")
		t.SetAttribute("class", classTable)
		t.SetTextContent(piece.Text)
		out.AppendChild(t)
	}
}

// staleBelow marks the cells after c, in its group, that show a result:
// c changed, so what they show may no longer be what they would give.
func (p *Page) staleBelow(c *Cell) {
	below := false
	for _, d := range p.cells {
		if d == c {
			below = true
			continue
		}
		if below && d.group == c.group && d.root.HasAttribute(block.AttrState) && !d.root.HasAttribute(block.AttrStale) {
			d.root.SetAttribute(block.AttrStale, "true")
			if s := d.root.QuerySelector(block.Of(block.ClassCellState)); s != nil {
				s.SetTextContent("out of date: a cell above changed")
			}
		}
	}
}

// fresh clears c's out-of-date mark: it has run again.
func (p *Page) fresh(c *Cell) {
	c.root.RemoveAttribute(block.AttrStale)
}
