package page

import (
	"fmt"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"gradbook/notebook/block"
)

// Env is everything a page runs over: its document and the browser's
// services. Package web makes the real one; tests make fakes.
type Env struct {
	Doc     Document
	Clock   Clock
	Browser Browser
	Runner  Runner
	Editors Editors // nil: the cells keep their text boxes until UseEditors
	Storage Storage // nil: nothing is kept
	// LMS connects a SCORM package's lesson to its LMS (lms.go, built
	// with the lms tag); nil elsewhere.
	LMS func(p *Page) LMS
}

// The kinds of page (<body data-page>).
const (
	KindLesson  = "lesson"
	KindIndex   = "index"
	KindScratch = "scratch"
	KindFrame   = "frame" // embed.html: cells asked for by the address
)

// Page is a notebook page brought to life: its code cells in order, its
// blocks, the learner's progress, and its link to an LMS.
//
// Its state has one owner: work on it runs one piece at a time, under the
// page's lock (Do), as the browser's single thread runs it; a piece that
// waits (for the runner, the storage, the clipboard) lets go of the lock
// meanwhile (unlocked), so that the page keeps answering.
type Page struct {
	env     Env
	doc     Document
	clock   Clock
	browser Browser
	runner  Runner

	mu    sync.Mutex
	tasks sync.WaitGroup

	body, status Node
	cells        []*Cell
	kind         string
	scratch      bool
	// embedded is true on a course page (embed.js): the page's ids and
	// classes are not Gradbook's.
	embedded  bool
	nextID    int
	quizzes   []*quiz
	exercises []*exercise
	deleted   []string       // scratch cells deleted since the last save
	views     []*drawingView // the drawings shown now, fitted again when the window resizes
	editors   []*codeEditor  // text boxes waiting for the code editors (UseEditors)
	keep      *keeper
	lms       LMS
	placed    map[string]placement // embedded cells, by cell id
	on        handlers             // the page's handlers, kept for its lifetime
	unshown   []string             // notices given before there was a place to show them
	resized   func() bool          // stops the pending relayout after a resize
}

// Start finds the page's cells and blocks and wires them. It returns once
// the page is ready; the work its handlers start runs on goroutines.
func Start(env Env) *Page {
	if env.Clock == nil {
		env.Clock = RealClock{}
	}
	p := &Page{env: env, doc: env.Doc, clock: env.Clock, browser: env.Browser, runner: env.Runner}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.safely(p.start)
	return p
}

func (p *Page) start() {
	doc := p.doc
	p.body = doc.Body()
	// On a course page, every id and class is the course's own: Gradbook
	// reads and writes only inside the boxes it puts its cells in.
	base := doc.Root().Attr(block.AttrBase)
	p.embedded = base != ""
	if !p.embedded {
		p.status = doc.ByID(block.IDStatus)
	}
	// Drawings fit their column again when the window's width settles.
	p.on.add(doc.ListenWindow("resize", func(Event) {
		p.Do(func() {
			if p.resized != nil {
				p.resized()
			}
			p.resized = p.clock.AfterFunc(150*time.Millisecond, func() { p.Do(p.relayoutAll) })
		})
	}))
	// Escape stops whatever runs, as the Stop button of a running cell does.
	p.listen(doc, "keydown", func(ev Event) {
		if ev.Key() == "Escape" && p.runner.Busy() {
			p.runner.Stop()
		}
	})
	p.kind = p.body.Attr(block.AttrPage)
	p.scratch = p.kind == KindScratch
	switch {
	case p.embedded || p.body.Attr(block.AttrLMS) == "":
	case p.env.LMS != nil:
		p.lms = p.env.LMS(p) // first: the LMS says whose progress it is
	default:
		p.notice("This lesson was packaged for an LMS, but its gradbook.wasm cannot report to one: nothing you do here reaches the LMS, and your work is kept in this browser only. Build the package again with go run serve.go -scorm.")
	}
	p.startProgress()
	cells := block.SelCodeCells
	if p.embedded {
		p.embed(base)
		cells = block.SelEmbeddedCells
	} else if p.kind == KindFrame {
		p.frame()
	}
	for _, el := range doc.QueryAll(cells) {
		c := p.wire(el)
		p.cells = append(p.cells, c)
		p.restoreCell(c)
	}
	p.nextID = len(p.cells) + 1
	if p.scratch {
		p.restoreScratch()
	}
	p.openShared()
	if !p.embedded {
		p.wireFolds()
		p.wireKinds()
		p.wirePanel()
		p.wireDownload()
		p.showCompletion()
	}
	if p.kind == KindLesson {
		p.Do(func() { p.visit(p.keep.get("visit", "last").Anchor) })
	}
	p.lmsChanged() // what the restored progress comes to
	if b := doc.ByID(block.IDRunAll); b != nil && !p.embedded {
		p.listen(b, "click", func(Event) { p.Do(p.RunAll) })
		b.SetDisabled(false)
	}
	if b := doc.ByID(block.IDAddCell); b != nil && !p.embedded {
		p.listen(b, "click", func(Event) { p.Do(func() { p.addCell("") }) })
		b.SetDisabled(false)
	}
	for _, msg := range p.unshown {
		p.notice(msg)
	}
	p.unshown = nil
	p.sayReady()
	// When the cells became runnable, in ms since navigation, for figures.
	p.body.SetAttr(block.AttrReadyAt, strconv.FormatFloat(p.browser.SinceStart(), 'f', 1, 64))
	p.body.SetAttr(block.AttrNotebook, "ready")
}

// sayReady says in the status line that the cells can run.
func (p *Page) sayReady() {
	if p.embedded {
		p.say("Ready.")
	} else {
		p.say("Ready: Run a cell, or Run all.")
	}
}

// Do runs f on its own goroutine, under the page's lock: every change to
// the page's state goes through it. A panic in f becomes a notice.
func (p *Page) Do(f func()) {
	p.tasks.Add(1)
	go func() {
		defer p.tasks.Done()
		p.mu.Lock()
		defer p.mu.Unlock()
		p.safely(f)
	}()
}

// unlocked runs f without the page's lock, from work under it: f waits
// (for the runner, the storage), and the page keeps answering meanwhile.
func (p *Page) unlocked(f func()) {
	p.mu.Unlock()
	defer p.mu.Lock()
	f()
}

// Settle waits until every piece of work started so far has ended,
// those it started included: for tests.
func (p *Page) Settle() { p.tasks.Wait() }

// safely runs f, reporting a panic on the page instead of dying of it.
func (p *Page) safely(f func()) {
	defer func() {
		if r := recover(); r != nil {
			println("gradbook: recovered:", fmt.Sprint(r), string(debug.Stack()))
			p.report(fmt.Sprint(r))
		}
	}()
	f()
}

// report shows an internal error in the page's notices, if it has some.
func (p *Page) report(msg string) {
	defer func() { recover() }()
	p.notice("Something went wrong inside Gradbook (" + msg + "). Your work is safe; the page keeps working.")
}

// guard makes a listener that reports a panic of f instead of dying of
// it: the report waits for the page's lock, the listener does not.
func (p *Page) guard(f func(Event)) func(Event) {
	return func(ev Event) {
		defer func() {
			if r := recover(); r != nil {
				println("gradbook: recovered:", fmt.Sprint(r), string(debug.Stack()))
				p.Do(func() { p.report(fmt.Sprint(r)) })
			}
		}()
		f(ev)
	}
}

// listen calls f for every typ event on el for the page's lifetime.
func (p *Page) listen(el Node, typ string, f func(Event)) { p.on.listen(p, el, typ, f) }

func (p *Page) say(s string) {
	if p.status != nil {
		p.status.SetText(s)
	}
}

// Notice tells the learner something from outside the page's work (the
// runner's client), as work of the page.
func (p *Page) Notice(msg string) { p.Do(func() { p.notice(msg) }) }
