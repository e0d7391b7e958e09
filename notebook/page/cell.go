package page

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"gradbook/notebook/block"
	"gradbook/notebook/kernel"
	"gradbook/notebook/runner"
)

// Cell is one code cell on the page.
type Cell struct {
	page *Page
	// lesson names the cell's lesson in the progress records; group names
	// the cells it runs after (the cells above it in its group, after
	// prefix, the hidden cells of its lesson when embedded alone).
	lesson string
	group  string
	prefix []string
	record string // the cell's id in the progress records, if not its own
	shared bool   // showing code from a share link, not yet kept
	// keepShared ends the showing of shared code, keeping it in the editor.
	keepShared func()
	root       Node
	editor     *codeEditor
	run        Node
	reset      Node
	out        Node
	drawings   Node
	on         handlers // the cell's own listeners, released when it is deleted
	drawn      handlers // the listeners of the drawings shown now
	// While the cell runs: running is set, started is when its time
	// began to count, tick stops the count, streamed is what it printed
	// so far.
	running  bool
	started  time.Time
	tick     func() bool
	ticks    int // which count is current: a stopped count's last tick does nothing
	timer    Node
	streamed printed
	controls []Node // a scratch cell's Move up, Move down and Delete
}

func (p *Page) wire(el Node) *Cell {
	c := &Cell{page: p, root: el}
	if p.keep != nil {
		c.lesson = p.keep.lesson
	}
	if m, ok := p.placed[el.Attr(block.AttrCellID)]; ok {
		c.lesson, c.group, c.prefix, c.record = m.lesson, m.group, m.prefix, m.record
	}
	c.run = el.Query(block.Sel("button", block.ClassRun))
	c.reset = el.Query(block.Sel("button", block.ClassReset))
	c.out = el.Query(block.Sel("output", block.ClassOut))
	c.drawings = el.Query(block.Sel("div", block.ClassDrawings))
	c.streamed = printed{out: c.out, doc: p.doc}
	c.timer = p.elem("span", classElapsed, "", "role", "timer", "hidden", "")
	c.run.Parent().InsertBefore(c.timer, c.run)
	c.on.listen(p, c.run, "click", func(Event) {
		p.Do(func() {
			if c.running {
				p.runner.Stop() // its Run button is a Stop button while it runs
				return
			}
			p.Run(c)
		})
	})
	c.on.listen(p, c.reset, "click", func(Event) { p.Do(func() { p.askReset(c) }) })
	if b := el.Query(block.Sel("button", block.ClassShare)); b != nil {
		c.on.listen(p, b, "click", func(Event) { p.Do(func() { p.share(c) }) })
		b.SetDisabled(false)
	}
	area := el.Query(block.Sel("textarea", block.ClassEditor))
	c.editor = p.newEditor(&c.on, area, editorLabel(el.Query(block.Of(block.ClassCellLabel)).Text()), func() { p.edited(c) }, func() {
		if !c.running {
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

// members are the page's cells as a run plans them.
func (p *Page) members() []Member {
	ms := make([]Member, len(p.cells))
	for i, c := range p.cells {
		ms[i] = Member{Group: c.group, Prefix: c.prefix, Source: c.editor.Value()}
	}
	return ms
}

// do runs a job on the runner, without the page's lock while it runs.
// Its hooks are called back as work of the page, in the order the runner
// called them, and all of them have been before do returns.
func (p *Page) do(job runner.Job, hooks kernel.Hooks) (res runner.Result, err error) {
	var in inbox
	locked := kernel.Hooks{}
	if hooks.Line != nil {
		locked.Line = func(cell int, text string) { in.post(p, func() { hooks.Line(cell, text) }) }
	}
	if hooks.Start != nil {
		locked.Start = func(cell int) { in.post(p, func() { hooks.Start(cell) }) }
	}
	p.unlocked(func() {
		res, err = p.runner.Do(job, locked)
		in.wait()
	})
	return res, err
}

// inbox delivers a job's events to the page in the order they come:
// one piece of work at a time drains it, under the page's lock.
type inbox struct {
	mu       sync.Mutex
	queue    []func()
	draining bool
	done     sync.WaitGroup
}

func (in *inbox) post(p *Page, f func()) {
	in.mu.Lock()
	in.queue = append(in.queue, f)
	start := !in.draining
	in.draining = true
	if start {
		in.done.Add(1)
	}
	in.mu.Unlock()
	if start {
		p.Do(func() { in.drain(p) })
	}
}

// drain delivers what waits, each event guarded on its own, until
// nothing does.
func (in *inbox) drain(p *Page) {
	for {
		in.mu.Lock()
		q := in.queue
		in.queue = nil
		if len(q) == 0 {
			in.draining = false
			in.mu.Unlock()
			in.done.Done()
			return
		}
		in.mu.Unlock()
		for _, f := range q {
			p.safely(f)
		}
	}
}

// wait waits until every event posted so far has been delivered.
func (in *inbox) wait() { in.done.Wait() }

// Run runs c with the cells above it, as they are written now, and shows
// what it prints while it runs, then its result.
func (p *Page) Run(c *Cell) {
	i := p.index(c)
	if i < 0 || c.running {
		return
	}
	p.flushSaves()
	srcs, _ := Chain(p.members(), i)
	last := len(srcs) - 1
	c.startRun()
	res, err := p.do(runner.Job{Cells: srcs}, kernel.Hooks{Line: func(cell int, text string) {
		if cell == last && c.running {
			c.stream(text)
		}
	}})
	ms := c.endRun()
	r := Outcome(res, 0, last, err, c.streamed.String(), ms)
	c.show(r, last)
	c.root.SetAttr(block.AttrMS, strconv.FormatFloat(ms, 'f', 1, 64))
	p.fresh(c)
	if r.Above != "" {
		// Say why it took the time the cells above took.
		p.say(fmt.Sprintf("Cell %d %s in %s: %s.", i+1, Verdict(r), Duration(ms), r.Above))
	} else {
		p.say(fmt.Sprintf("Cell %d %s in %s.", i+1, Verdict(r), Duration(ms)))
	}
	p.ran(c, r.Passed()) // saving comes after the learner sees the result
}

// startRun shows that c runs: its Run button becomes Stop, and the time
// it has been running counts up beside it.
func (c *Cell) startRun() {
	c.running = true
	c.streamed.reset()
	c.root.SetAttr("aria-busy", "true")
	c.run.SetText("Stop")
	c.run.AddClass(classStop)
	c.out.RemoveClass(classError)
	c.timer.RemoveAttr("hidden")
	c.begin()
}

// begin starts the count of c's time running.
func (c *Cell) begin() {
	c.pause()
	c.started = c.page.clock.Now()
	c.timer.SetText("Running…")
	c.ticks++
	c.next(c.ticks)
}

// next shows the time c has run in 100 ms, if count n is still current.
func (c *Cell) next(n int) {
	p := c.page
	c.tick = p.clock.AfterFunc(100*time.Millisecond, func() {
		p.Do(func() {
			if c.ticks != n || c.tick == nil {
				return
			}
			c.timer.SetText(fmt.Sprintf("Running… %.1f s", p.clock.Now().Sub(c.started).Seconds()))
			c.next(n)
		})
	})
}

// wait shows that c will run once the cells above it have (Run all).
func (c *Cell) wait() {
	c.pause()
	c.timer.SetText("Waiting…")
}

// pause stops the count of c's time, as its turn ends.
func (c *Cell) pause() {
	if c.tick != nil {
		c.tick()
		c.tick = nil
	}
}

// stream shows a line the running cell printed, appended to what it
// printed before.
func (c *Cell) stream(text string) { c.streamed.add(text) }

// endRun puts c back at rest and returns how long it ran, in ms.
func (c *Cell) endRun() float64 {
	c.pause()
	c.running = false
	c.root.RemoveAttr("aria-busy")
	c.run.SetText("Run")
	c.run.RemoveClass(classStop)
	c.timer.SetAttr("hidden", "")
	c.timer.SetText("")
	return c.page.clock.Now().Sub(c.started).Seconds() * 1000
}

// flushSaves saves every edit still waiting for its debounce before a run,
// so that nothing typed is lost if the run never comes back.
func (p *Page) flushSaves() {
	if p.keep != nil {
		p.unlocked(p.keep.flush)
	}
}

// RunAll runs every cell in order and shows every result. It stops above
// a prediction not yet made: the cells after it show its answer.
func (p *Page) RunAll() {
	if len(p.cells) == 0 {
		return
	}
	p.flushSaves()
	start := p.clock.Now()
	members := p.members()
	waiting := ""
	for i, c := range p.cells {
		if q := c.folded(); q != "" {
			members, waiting = members[:i], q
			break
		}
	}
	running := fmt.Sprintf("Running all %d cells", len(members))
	if waiting != "" {
		running = fmt.Sprintf("Running the %d cells above the prediction", len(members))
	}
	p.say(running + "…")
	results := map[*Cell]*kernel.CellResult{}
	for _, job := range PlanRunAll(members) {
		if err := p.runBatch(job, results, running); err != nil {
			break // stopped, or the runner died: the cells below wait
		}
	}
	passed := 0
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
	took := Duration(p.clock.Now().Sub(start).Seconds() * 1000)
	if waiting == "" {
		p.say(fmt.Sprintf("Ran all %d cells in %s: %d ran clean.", len(results), took, passed))
		return
	}
	p.say(fmt.Sprintf("Ran the %d cells above the prediction in %s: %d ran clean. Make the prediction, or skip it, to run the rest.", len(results), took, passed))
	if q := withAttr(p.doc.QueryAll(block.Kind(block.KindQuiz)), block.AttrCellID, waiting); q != nil {
		q.ScrollIntoView()
	}
}

// runBatch runs one batch of Run all: its cells wait their turn, each counts
// its own time, and each gets its result in results; the status line says
// running, and the cell whose turn it is.
func (p *Page) runBatch(job Batch, results map[*Cell]*kernel.CellResult, running string) error {
	cells := make([]*Cell, len(job.Members))
	for j, k := range job.Members {
		cells[j] = p.cells[k]
		cells[j].startRun()
		cells[j].wait() // its own time starts when its turn comes
	}
	at := func(cell int) *Cell {
		if k := cell - job.Skip; k >= 0 && k < len(cells) {
			return cells[k]
		}
		return nil
	}
	var current *Cell
	res, err := p.do(runner.Job{Cells: job.Srcs, All: true}, kernel.Hooks{
		Line: func(cell int, text string) {
			if c := at(cell); c != nil && c.running {
				c.stream(text)
			}
		},
		Start: func(cell int) {
			if c := at(cell); c != nil && c.running {
				if current != nil {
					current.pause()
				}
				current = c
				current.begin()
				p.say(fmt.Sprintf("%s: Cell %d…", running, p.index(c)+1))
			}
		},
	})
	for j, d := range cells {
		ms := d.endRun()
		r := Outcome(res, job.Skip+j, job.Skip+j, err, d.streamed.String(), ms)
		results[d] = r
		if r.Ran && err == nil {
			d.root.SetAttr(block.AttrMS, strconv.FormatFloat(r.MS, 'f', 1, 64))
		}
	}
	return err
}

// askReset resets the cell, asking first if the learner changed its code.
func (p *Page) askReset(c *Cell) {
	if !c.editor.Edited() {
		c.Reset()
		return
	}
	p.ask(c.root, c.editor.elem(), "Replace your code with the lesson's original code?", "Reset the cell", "Keep my code", func() {
		c.Reset()
		if p.scratch {
			p.saveScratch()
		} else {
			p.forget(kindCell, c.lesson, p.cellID(c))
		}
	}, nil)
}

// Reset puts the authored source back and clears the output.
func (c *Cell) Reset() {
	c.editor.SetValue(c.editor.DefaultValue())
	c.out.SetText("")
	c.out.RemoveClass(classError)
	c.drawn.release()
	c.drawings.SetText("")
	c.root.RemoveAttr(block.AttrState)
	if s := c.root.Query(block.Of(block.ClassCellState)); s != nil {
		s.SetText("")
	}
	c.page.say("The cell is back to its original code.")
}

// show displays a cell's result: its output, its error, and its drawings;
// cell is the cell's index in its run (-1: the error's own).
func (c *Cell) show(r *kernel.CellResult, cell int) {
	if cell < 0 && r.Err != nil {
		cell = r.Err.Cell
	}
	s := Show(r, cell)
	if !c.page.scratch && c.editor.Edited() {
		s = ShowEdited(r, cell) // the learner's experiment
	}
	c.root.SetAttr(block.AttrState, s.State)
	c.page.showResult(r, s, c.root.Attr(block.AttrCellID), c.out, c.drawings, &c.drawn, c.editor)
}

// showResult shows a run's result in a cell or an exercise (id): the
// text Show gives, the error's line marked in the editor, and the plots
// and drawings. It is the one place a result reaches the page.
func (p *Page) showResult(r *kernel.CellResult, s Shown, id string, out, drawings Node, drawn *handlers, editor *codeEditor) {
	p.setOutput(out, s.Text)
	if s.State == Error {
		out.AddClass(classError)
	} else {
		out.RemoveClass(classError)
	}
	editor.Mark(s.Mark)
	drawn.release()
	drawings.SetText("")
	for _, pl := range r.Plots {
		p.showPlot(drawings, pl)
	}
	for k, d := range r.Drawings {
		p.newDrawingView(drawings, drawn, d, fmt.Sprintf("%s-d%d", id, k+1))
	}
}

// setOutput shows a run's text in out: prose as text, which wraps, and
// each table (Pieces) in a row box of its own that keeps its lines whole
// and scrolls sideways. Prose longer than chunkSize goes into blocks of
// about that size, cut between lines, as streamed lines do: a browser
// lays out only the blocks in view.
func (p *Page) setOutput(out Node, text string) {
	out.SetText("")
	for _, piece := range Pieces(text) {
		switch {
		case piece.Table:
			// Focusable: a table that scrolls sideways scrolls with the keys too.
			out.Append(p.elem("span", classTable, piece.Text, "tabindex", "0", "role", "group", "aria-label", "A table the cell printed"))
		case len(piece.Text) <= chunkSize:
			out.Append(p.doc.CreateText(piece.Text))
		default:
			for rest := piece.Text; rest != ""; {
				n := len(rest)
				if n > chunkSize {
					if i := strings.LastIndexByte(rest[:chunkSize], '\n'); i >= 0 {
						n = i + 1
					} else if i := strings.IndexByte(rest[chunkSize:], '\n'); i >= 0 {
						n = chunkSize + i + 1
					}
				}
				out.Append(p.elem("span", classChunk, rest[:n]))
				rest = rest[n:]
			}
		}
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
		if below && d.group == c.group && d.root.HasAttr(block.AttrState) && !d.root.HasAttr(block.AttrStale) {
			d.root.SetAttr(block.AttrStale, "true")
			if s := d.root.Query(block.Of(block.ClassCellState)); s != nil {
				s.SetText("out of date: a cell above changed")
			}
		}
	}
}

// fresh clears c's out-of-date mark: it has run again.
func (p *Page) fresh(c *Cell) {
	c.root.RemoveAttr(block.AttrStale)
}
