package page_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"gradbook/notebook/page"
	"gradbook/notebook/page/fakedom"
	"gradbook/notebook/runner"
)

// A page that is ready says so: in the status line, in its body's
// data-notebook (which Playwright's specs wait for), with when it became
// ready, and with its buttons on; Escape with nothing running does
// nothing.
func TestReady(t *testing.T) {
	b := open(t, blocks)
	body := b.doc.Body()
	if body.Attr("data-notebook") != "ready" || body.Attr("data-ready-at") != "123.4" {
		t.Errorf("the body says data-notebook=%q data-ready-at=%q", body.Attr("data-notebook"), body.Attr("data-ready-at"))
	}
	if b.find("#run-all").HasAttr("disabled") {
		t.Error("Run all is off")
	}
	fakedom.Key(body, "Escape")
	b.p.Settle()
	if got := b.status(); got != "Ready: Run a cell, or Run all." {
		t.Errorf("after Escape the status says %q", got)
	}
	if b := open(t, scratchPage); b.find("#add-cell").HasAttr("disabled") {
		t.Error("Add a cell is off")
	}
}

// The drawings fit their column again once the window's width settles:
// a resize waits for a pause, and a resize during the pause waits anew.
func TestResizeFitsDrawingsAgain(t *testing.T) {
	b := open(t, blocks)
	b.doc.SetWidth(150)
	c := b.cell("worked")
	b.typeCode(c, "a = Value(1.0, \"a\")\nb = a * 2\nc = b + 1\nd = c * 3\ne = d + 1\nf = e * e\ng = f + a\nL = g * 2\nL.backward()")
	b.run("worked")
	width := func() string { return fakedom.Style(fakedom.Find(t, c, ".drawing svg"), "min-width") }
	narrow := width()
	b.doc.SetWidth(3000)
	b.doc.FireWindow("resize", false)
	b.p.Settle()
	b.clock.Advance(100 * time.Millisecond)
	b.doc.FireWindow("resize", false)
	b.p.Settle()
	b.clock.Advance(100 * time.Millisecond)
	if got := width(); got != narrow {
		t.Errorf("the drawing was laid out again during the pause: %s, then %s", narrow, got)
	}
	b.wait(50 * time.Millisecond)
	if got := width(); got == narrow {
		t.Errorf("after the pause the drawing is still laid out for the narrow window (%s)", got)
	}
}

// A lesson packaged for an LMS, in a build that cannot report to one,
// says so, and works.
func TestPackagedLessonWithoutLMS(t *testing.T) {
	b := open(t, blocks, coursePage(scormPage(t, "test-blocks", "2004", 0)))
	b.noticeWith("This lesson was packaged for an LMS, but its gradbook.wasm cannot report to one: nothing you do here reaches the LMS, and your work is kept in this browser only. Build the package again with go run serve.go -scorm.")
	if got := out(t, b.run("worked")); got != "4.0\n" {
		t.Errorf("the cell shows %q", got)
	}
}

// throwingBrowser is a browser whose file input and download throw, as
// a JavaScript call that fails does in syscall/js.
type throwingBrowser struct{ page.Browser }

func (throwingBrowser) Chosen(page.Node) (page.File, bool) { panic("TypeError: files is null") }
func (throwingBrowser) Download(string, string, []byte)    { panic("SecurityError: download blocked") }

// Something that goes wrong inside the page, in a listener or in the work
// it starts, is said in a notice, and the page keeps working.
func TestAPanicIsANotice(t *testing.T) {
	b := open(t, blocks, withEnv(func(e *page.Env) { e.Browser = throwingBrowser{e.Browser} }))
	b.click("#progress-panel summary")
	b.choose("#import-progress", file{data: []byte("{}")})
	b.noticeWith("Something went wrong inside Gradbook (TypeError: files is null). Your work is safe; the page keeps working.")
	b.click("#export-progress")
	b.noticeWith("Something went wrong inside Gradbook (SecurityError: download blocked). Your work is safe; the page keeps working.")
	if got := out(t, b.run("worked")); got != "4.0\n" {
		t.Errorf("after it the cell shows %q", got)
	}
}

// A page given only its document, its browser and a runner runs on the
// real clock, keeps nothing, and works.
func TestTheLeastEnvironment(t *testing.T) {
	b := open(t, blocks, withEnv(func(e *page.Env) { e.Clock, e.Storage = nil, nil }))
	b.noticeWith("Your progress will not be kept")
	if got := out(t, b.run("worked")); got != "4.0\n" {
		t.Errorf("the cell shows %q", got)
	}
	if got := b.status(); !strings.HasPrefix(got, "Cell 1 ran in ") {
		t.Errorf("the status says %q", got)
	}
}

// noWorkers is a browser where no Web Worker can start.
type noWorkers struct{}

func (noWorkers) Start(func(runner.Message), func(string, bool)) (runner.Worker, error) {
	return nil, errNoWorker
}

var errNoWorker = errors.New("the page's CSP forbids workers made from blob: addresses")

// earlyNotices takes the runner's notices for a page, keeping those that
// come before the page exists until it does, as package web does.
type earlyNotices struct {
	mu    sync.Mutex
	p     *page.Page
	early []string
}

func (n *earlyNotices) notice(msg string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.p == nil {
		n.early = append(n.early, msg)
		return
	}
	n.p.Notice(msg)
}

func (n *earlyNotices) started(p *page.Page) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.p = p
	for _, msg := range n.early {
		p.Notice(msg)
	}
}

// Where no worker can start, the runner's notice says so, whether it
// comes before the page is ready or after, and the cells run on the page.
func TestRunnerNoticeBeforeReady(t *testing.T) {
	notices := &earlyNotices{}
	b := open(t, blocks, withEnv(func(e *page.Env) { e.Runner = runner.NewClient(noWorkers{}, notices.notice) }))
	notices.started(b.p)
	if got := out(t, b.run("worked")); got != "4.0\n" {
		t.Errorf("the cell shows %q", got)
	}
	b.noticeWith("Cells run on the page itself here, since no worker could start (the page's CSP forbids workers made from blob: addresses): a long run holds the page up until it ends.")
}
