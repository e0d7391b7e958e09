package page_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gradbook/notebook/kernel"
	"gradbook/notebook/lesson"
	"gradbook/notebook/page"
	"gradbook/notebook/page/fakedom"
	"gradbook/notebook/progress"
	"gradbook/notebook/runner"
)

// This file is the page's test bench: the site built once, as the build
// writes it, and a page started on one of its pages in a fake browser (a
// fakedom document, a clock moved by hand, storage in memory, and a
// runner whose workers are goroutines), which a test then uses as a
// learner does.

// site is the site built from Gradbook's lessons and testdata/lessons.
var site struct {
	once sync.Once
	dir  string
	err  error
}

// built returns the folder of the built site.
func built(t testing.TB) string {
	t.Helper()
	site.once.Do(func() {
		lessons, problems := lesson.Load("../../site/lessons", "testdata/lessons")
		if len(problems) > 0 {
			site.err = fmt.Errorf("%v", problems)
			return
		}
		site.dir, site.err = os.MkdirTemp("", "gradbook-page-test-")
		if site.err == nil {
			site.err = lesson.Build(site.dir, lessons, 0)
		}
	})
	if site.err != nil {
		t.Fatal(site.err)
	}
	return site.dir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if site.dir != "" {
		os.RemoveAll(site.dir)
	}
	os.Exit(code)
}

// bench is one browser tab on the built site, and what outlives a
// reload of it: its storage, its session storage, its clock.
type bench struct {
	t       testing.TB
	file    string // the page, in the built site
	markup  string // or the page itself (a course page)
	doc     *fakedom.Document
	clock   *fakedom.Clock
	browser *fakeBrowser
	store   *progress.MemStore
	env     func(*page.Env) // a test's changes to the page's environment, before it starts
	workers *workerHost
	editors *fakeEditors // nil: the cells keep their text boxes
	noStore bool         // the browser keeps nothing
	lms     func(*page.Page) page.LMS
	parsed  func(*bench) // after the page is parsed, before it starts: the layout a browser gives it
	p       *page.Page
}

// open starts the page file of the built site ("lessons/chain-rule.html")
// in a fresh browser.
func open(t testing.TB, file string, opts ...func(*bench)) *bench {
	t.Helper()
	b := &bench{t: t, file: file, clock: fakedom.NewClock(time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)), store: progress.NewMemStore(), workers: &workerHost{}}
	b.browser = &fakeBrowser{session: map[string]string{}, site: built(t), height: 800}
	b.browser.location.Pathname = "/" + file
	b.browser.location.Href = "http://127.0.0.1/" + file
	for _, o := range opts {
		o(b)
	}
	b.start()
	t.Cleanup(func() { b.p.Settle() })
	return b
}

// keptBefore opens the page over progress kept before it: an earlier
// visit's, an earlier build's or version of the lesson, another
// browser's, or imported.
func keptBefore(records ...progress.Record) func(*bench) {
	return func(b *bench) {
		prog, err := progress.Open(context.Background(), b.store)
		if err != nil {
			b.t.Fatal(err)
		}
		prog.Now = b.clock.Now
		for _, r := range records {
			if err := prog.Put(context.Background(), r); err != nil {
				b.t.Fatal(err)
			}
		}
	}
}

// withEditors gives the page code editors (CodeMirror's stand-in).
func withEditors(b *bench) { b.editors = &fakeEditors{} }

// at opens the page at an address with a query or fragment.
func at(suffix string) func(*bench) {
	return func(b *bench) {
		b.browser.location.Href += suffix
		if q, ok := strings.CutPrefix(suffix, "?"); ok {
			b.browser.location.Search = "?" + strings.SplitN(q, "#", 2)[0]
		}
		if _, h, ok := strings.Cut(suffix, "#"); ok {
			b.browser.location.Hash = "#" + h
		}
	}
}

func (b *bench) start() {
	markup := b.markup
	if markup == "" {
		data, err := os.ReadFile(filepath.Join(b.browser.site, b.file))
		if err != nil {
			b.t.Fatal(err)
		}
		markup = string(data)
	}
	b.doc = fakedom.Parse(markup)
	if b.parsed != nil {
		b.parsed(b)
	}
	var storage page.Storage = memStorage{b}
	if b.noStore {
		storage = nil
	}
	var editors page.Editors
	if b.editors != nil {
		editors = b.editors
	}
	env := page.Env{Doc: b.doc, Clock: b.clock, Browser: b.browser, Storage: storage, Editors: editors, LMS: b.lms}
	env.Runner = runner.NewClient(b.workers, func(msg string) {
		b.p.Notice(msg)
	})
	if b.env != nil {
		b.env(&env)
	}
	b.p = page.Start(env)
	b.p.Settle()
}

// reload starts the page again in the same browser: its storage and
// session storage stay.
func (b *bench) reload() {
	b.t.Helper()
	b.p.Settle()
	b.browser.reloaded = false
	b.start()
}

// settle waits until the page's work is done, moving the clock past the
// saves waiting for a pause.
func (b *bench) settle() {
	b.p.Settle()
	for range 5 {
		b.wait(time.Second)
	}
}

// wait moves the clock on by d and waits for the work that starts.
func (b *bench) wait(d time.Duration) {
	b.clock.Advance(d)
	b.p.Settle()
}

// find returns the node sel matches on the page, failing if none does.
func (b *bench) find(sel string) page.Node {
	b.t.Helper()
	return fakedom.Find(b.t, b.doc, sel)
}

// click clicks the node sel matches and waits for what it starts.
func (b *bench) click(sel string) {
	b.t.Helper()
	fakedom.Click(b.find(sel))
	b.p.Settle()
}

// text is what the learner sees of the node sel matches.
func (b *bench) text(sel string) string {
	b.t.Helper()
	return fakedom.VisibleText(b.find(sel))
}

// cell returns the code cell with id.
func (b *bench) cell(id string) page.Node {
	b.t.Helper()
	for _, c := range b.doc.QueryAll("section.code-cell") {
		if c.Attr("data-cell-id") == id {
			return c
		}
	}
	b.t.Fatalf("no cell %s on %s", id, b.file)
	return nil
}

// status is what the page's status line says.
func (b *bench) status() string { return b.doc.ByID("notebook-status").Text() }

// texts are the texts of the elements that match sel, in page order.
func (b *bench) texts(sel string) []string {
	var out []string
	for _, n := range b.doc.QueryAll(sel) {
		out = append(out, n.Text())
	}
	return out
}

// notices are the page's notices, in order.
func (b *bench) notices() []string { return b.texts("#notices p.notice") }

// memStorage is the bench's storage: one MemStore per database name.
type memStorage struct{ b *bench }

func (s memStorage) Open(name string) (progress.Store, error) {
	if s.b.store.Err != nil && errors.Is(s.b.store.Err, errNoDatabase) {
		return nil, s.b.store.Err
	}
	s.b.browser.database = name
	return s.b.store, nil
}

var errNoDatabase = errors.New("this browser does not let this page keep data (private browsing, or storage is blocked)")

// fakeBrowser is the window's services, in memory, recording what the
// page asked of them.
type fakeBrowser struct {
	mu        sync.Mutex
	site      string
	location  page.Location
	session   map[string]string
	notices   []string
	copied    []string
	copyErr   error
	downloads map[string][]byte
	chosen    page.File
	reloaded  bool
	scrolled  []float64
	height    float64
	estimate  *page.Estimate
	database  string
	fetchErr  error
}

func (f *fakeBrowser) Location() page.Location { return f.location }
func (f *fakeBrowser) SessionPut(key, value string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.session[key] = value
}
func (f *fakeBrowser) SessionTake(key string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	v := f.session[key]
	delete(f.session, key)
	return v
}
func (f *fakeBrowser) Notices() []string { return f.notices }
func (f *fakeBrowser) Copy(text string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.copied = append(f.copied, text)
	return f.copyErr
}
func (f *fakeBrowser) Download(filename, mime string, data []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.downloads == nil {
		f.downloads = map[string][]byte{}
	}
	f.downloads[filename] = data
}
func (f *fakeBrowser) Chosen(page.Node) (page.File, bool) { return f.chosen, f.chosen != nil }
func (f *fakeBrowser) Reload() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reloaded = true
}
func (f *fakeBrowser) ScrollBy(dy float64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.scrolled = append(f.scrolled, dy)
}
func (f *fakeBrowser) Height() float64 { return f.height }
func (f *fakeBrowser) Estimate() (page.Estimate, bool) {
	if f.estimate == nil {
		return page.Estimate{}, false
	}
	return *f.estimate, true
}
func (f *fakeBrowser) SinceStart() float64 { return 123.4 }
func (f *fakeBrowser) Fetch(url string) ([]byte, error) {
	if f.fetchErr != nil {
		return nil, f.fetchErr
	}
	name := strings.TrimPrefix(url, "http://127.0.0.1/")
	b, err := os.ReadFile(filepath.Join(f.site, name))
	if err != nil {
		return nil, fmt.Errorf("%s was not found (404): upload the whole exported folder, next to embed.js", url)
	}
	return b, nil
}

// file is a file the learner chose.
type file struct {
	data []byte
	err  error
}

func (f file) Size() float64         { return float64(len(f.data)) }
func (f file) Read() ([]byte, error) { return f.data, f.err }

// workerHost starts runners as goroutines, each with a runner.Runner of
// its own, as the page's Web Workers are; a job a test holds ("hold()"
// as its last cell's first line, or an exercise's code's) runs until the
// runner is stopped, and "die()" kills its runner.
type workerHost struct {
	mu      sync.Mutex
	started int
}

func (h *workerHost) Start(message func(runner.Message), died func(string, bool)) (runner.Worker, error) {
	h.mu.Lock()
	h.started++
	h.mu.Unlock()
	return &worker{message: message, died: died, r: runner.New(), stopped: make(chan struct{})}, nil
}

type worker struct {
	message func(runner.Message)
	died    func(string, bool)
	r       *runner.Runner
	once    sync.Once
	stopped chan struct{}
}

func (w *worker) Post(id int, job runner.Job) {
	go func() {
		last := job.Source // an exercise's code, for its check
		if len(job.Cells) > 0 {
			last = job.Cells[len(job.Cells)-1]
		}
		switch {
		case strings.HasPrefix(last, "hold()"):
			<-w.stopped
			return
		case strings.HasPrefix(last, "die()"):
			w.died("fatal error: out of memory", true)
			return
		}
		res := w.r.Do(job, kernel.Hooks{
			Line: func(cell int, line string) {
				w.send(runner.Message{ID: id, Lines: []runner.Line{{Cell: cell, Text: line}}})
			},
			Start: func(cell int) { w.send(runner.Message{ID: id, Begins: true, Cell: cell}) },
		})
		w.send(runner.Message{ID: id, Result: &res})
	}()
}

func (w *worker) send(m runner.Message) {
	select {
	case <-w.stopped:
	default:
		w.message(m)
	}
}

func (w *worker) Stop() { w.once.Do(func() { close(w.stopped) }) }

// fakeEditors makes fakeEditors, CodeMirror's stand-ins: a test types
// into one with typeIn.
type fakeEditors struct {
	mu   sync.Mutex
	list []*fakeEditor
}

func (e *fakeEditors) New(box page.Node, text string, o page.EditorOptions) page.Editor {
	e.mu.Lock()
	defer e.mu.Unlock()
	ed := &fakeEditor{box: box, text: text, opts: o}
	e.list = append(e.list, ed)
	return ed
}

// in returns the editor of the cell or exercise root.
func (e *fakeEditors) in(root page.Node) *fakeEditor {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, ed := range e.list {
		if b := ed.box.Closest("section"); b != nil && b.Is(root) && !ed.destroyed {
			return ed
		}
	}
	return nil
}

type fakeEditor struct {
	mu        sync.Mutex
	box       page.Node
	text      string
	opts      page.EditorOptions
	mark      int
	label     string
	focused   bool
	destroyed bool
}

func (e *fakeEditor) Text() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.text
}
func (e *fakeEditor) SetText(s string) { e.locked(func() { e.text = s }) }
func (e *fakeEditor) Focus()           { e.locked(func() { e.focused = true }) }
func (e *fakeEditor) Mark(n int)       { e.locked(func() { e.mark = n }) }
func (e *fakeEditor) Label(l string)   { e.locked(func() { e.label = l }) }
func (e *fakeEditor) Destroy()         { e.locked(func() { e.destroyed = true }) }

// locked does f with the editor's fields to itself.
func (e *fakeEditor) locked(f func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	f()
}

// typeIn replaces the editor's text as the learner's typing does.
func (e *fakeEditor) typeIn(text string) {
	e.SetText(text)
	e.opts.OnChange()
}

// typeCode types code into the cell or exercise root: in its editor, or
// its text box.
func (b *bench) typeCode(root page.Node, code string) {
	b.t.Helper()
	if b.editors != nil {
		b.editors.in(root).typeIn(code)
	} else {
		fakedom.Type(fakedom.Find(b.t, root, "textarea.editor"), code)
	}
	b.p.Settle()
}

// openRan opens the page file and runs its cell with id.
func openRan(t testing.TB, file, id string, opts ...func(*bench)) (*bench, page.Node) {
	t.Helper()
	b := open(t, file, opts...)
	return b, b.run(id)
}

// openTyped opens the page file and types code into its cell with id.
func openTyped(t testing.TB, file, id, code string, opts ...func(*bench)) (*bench, page.Node) {
	t.Helper()
	b := open(t, file, opts...)
	c := b.cell(id)
	b.typeCode(c, code)
	return b, c
}

// typedOver types code into the cell or exercise root in place of the
// code it holds, and lets the save go out; it returns the code replaced.
func (b *bench) typedOver(root page.Node, code string) string {
	b.t.Helper()
	was := b.code(root)
	b.typeCode(root, code)
	b.settle()
	return was
}

// typedAndReloaded types code into the cell or exercise root, lets the
// save go out, reloads the page and returns root as the page shows it
// now, holding that code.
func (b *bench) typedAndReloaded(root page.Node, code string) page.Node {
	b.t.Helper()
	b.typedOver(root, code)
	if got := b.saveStatus(); got != "Saved." {
		b.t.Errorf("save status %q", got)
	}
	id := root.Attr("id")
	b.reload()
	root = b.find("#" + id)
	if got := b.code(root); got != code {
		b.t.Errorf("after a reload #%s holds %q", id, got)
	}
	return root
}

// code is the code in the cell or exercise root: in its editor, or in its
// text box where it has none (yet: the learner is typing in it).
func (b *bench) code(root page.Node) string {
	if b.editors != nil {
		if ed := b.editors.in(root); ed != nil {
			return ed.Text()
		}
	}
	return fakedom.Find(b.t, root, "textarea.editor").Value()
}

// run runs the cell with id with its Run button and waits for its
// result.
func (b *bench) run(id string) page.Node {
	b.t.Helper()
	c := b.cell(id)
	fakedom.Click(fakedom.Find(b.t, c, "button.run"))
	b.p.Settle()
	return c
}

// out is what a cell or exercise shows in its output.
func out(t testing.TB, root page.Node) string {
	return fakedom.VisibleText(fakedom.Find(t, root, "output.out"))
}
