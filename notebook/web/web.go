//go:build js && wasm

// Package web brings a notebook page to life in the browser: it wires the
// markup that the build rendered to the pure-Go packages (notebook, draw,
// block, progress) and shows what they answer. It only converts; running,
// drawing, grading and the progress rules are tested natively there.
//
// The page never runs learners' code itself: runner.go sends each run or
// check to the runner, this same wasm in a Web Worker (package runner),
// shows the lines it prints as they come, and stops it, or replaces it
// when it dies, by ending the worker.
//
// One file per job: web.go the page, cell.go a code cell (run, stop,
// reset, output), editor.go the code editor (CodeMirror from
// site/editor.js, or the textarea), runner.go the runner's client,
// plotview.go a plot, drawing.go a drawing with its controls, handlers.go the owner
// that releases a view's js.Funcs when it is replaced, kinds.go with
// quiz.go, explore.go and exercise.go the block kinds (each reads its
// block's data from the JSON beside it), keeper.go the progress keeper
// (debounced saves, flushed on pagehide), restore.go putting cells' saved
// work back, scratch.go the scratch page, panel.go export, import, resets
// and storage, completion.go the index's completion, idb.go the IndexedDB
// Store, lms.go a SCORM package's link to its LMS, embed.go cells in
// other sites' pages, share.go share links,
// promise.go JavaScript promises and session storage, safe.go recovery
// from panics.
package web

import (
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"gradbook/notebook/block"
	"gradbook/notebook/runner"
)

// Page is a notebook page: its code cells in order.
type Page struct {
	doc     *element
	body    *element
	status  *element
	cells   []*Cell
	scratch bool
	// embedded is true on a course page (embed.js): the page's ids and
	// classes are not Gradbook's.
	embedded bool
	nextID   int
	deleted  []string       // scratch cells deleted since the last save
	views    []*drawingView // the drawings shown now, fitted again when the window resizes
	keep     *keeper
	lms      *lmsLink             // on a SCORM package's lesson: its LMS
	placed   map[string]placement // embedded cells, by cell id
	on       handlers             // the page's handlers, kept for its lifetime
	runner   *runner.Client       // runs the cells, off the page's thread
	editors  js.Value             // site/editor.js, or undefined: cells keep their textareas
	unshown  []string             // notices given before there was a place to show them
}

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
	root       *element
	editor     *codeEditor
	run        *element
	reset      *element
	out        *element
	drawings   *element
	on         handlers // the cell's own handlers, released when it is deleted
	drawn      handlers // the handlers of the drawings shown now
	// While the cell runs: running is closed when it ends, timer shows for
	// how long, streamed holds what it printed so far.
	running  chan struct{}
	ticking  chan struct{} // closed when its time stops counting
	started  time.Time
	timer    *element
	streamed strings.Builder
	controls []*element // a scratch cell's Move up, Move down and Delete
}

// Run starts the page, reporting a failure on the page rather than
// stopping the wasm.
func Run() { safely(func() { Start() }) }

// Start finds the page's cells and wires them. It returns once the page is
// ready; handlers run on their own goroutines.
func Start() *Page {
	doc := document()
	p := &Page{doc: doc, body: doc.Body()}
	// On a course page, every id and class is the course's own: Gradbook
	// reads and writes only inside the boxes it puts its cells in.
	base := doc.DocumentElement().GetAttribute(block.AttrBase)
	p.embedded = base != ""
	if !p.embedded {
		p.status = doc.GetElementByID(block.IDStatus)
	}
	p.runner = newRunnerClient(p.notice)
	p.editors = loadEditors()
	// Drawings fit their column again when the window's width settles.
	var resized *time.Timer
	p.on.listen(window(), "resize", func(*event) {
		if resized != nil {
			resized.Stop()
		}
		resized = time.AfterFunc(150*time.Millisecond, func() { spawn(p.relayoutAll) })
	})
	// Escape stops whatever runs, as the Stop button of a running cell does.
	p.on.listen(doc, "keydown", func(ev *event) {
		if ev.Key() == "Escape" && p.runner.Busy() {
			p.runner.Stop()
		}
	})
	kind := p.body.GetAttribute(block.AttrPage)
	p.scratch = kind == "scratch"
	p.connectLMS() // first: the LMS says whose progress it is
	p.startProgress()
	cells := block.Sel("section", block.ClassCodeCell)
	if p.embedded {
		p.embed(base)
		cells = block.Of(block.ClassEmbed) + " " + cells
	} else if kind == "frame" {
		p.frame()
	}
	for _, el := range doc.QuerySelectorAll(cells) {
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
		p.showCompletion()
	}
	if kind == "lesson" {
		spawn(func() { p.visit(p.keep.get("visit", "last").Anchor) })
	}
	p.lms.changed() // what the restored progress comes to
	if b := doc.GetElementByID(block.IDRunAll); b != nil && !p.embedded {
		p.listen(b, "click", func(*event) { spawn(func() { p.RunAll() }) })
		b.SetDisabled(false)
	}
	if b := doc.GetElementByID(block.IDAddCell); b != nil && !p.embedded {
		p.listen(b, "click", func(*event) { spawn(func() { p.addCell("") }) })
		b.SetDisabled(false)
	}
	for _, msg := range p.unshown {
		p.notice(msg)
	}
	p.unshown = nil
	if p.embedded {
		p.say("Ready.")
	} else {
		p.say("Ready: Run a cell, or Run all.")
	}
	// When the cells became runnable, in ms since navigation, for figures.
	at := js.Global().Get("performance").Call("now").Float()
	p.body.SetAttribute(block.AttrReadyAt, strconv.FormatFloat(at, 'f', 1, 64))
	p.body.SetAttribute(block.AttrNotebook, "ready")
	return p
}

func (p *Page) listen(el *element, typ string, f func(*event)) { p.on.listen(el, typ, f) }

func (p *Page) say(s string) {
	if p.status != nil {
		p.status.SetTextContent(s)
	}
}
