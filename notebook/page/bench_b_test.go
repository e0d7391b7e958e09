package page_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"gradbook/notebook/lesson"
	"gradbook/notebook/lms"
	"gradbook/notebook/page"
	"gradbook/notebook/page/fakedom"
	"gradbook/notebook/progress"
)

// This file adds to the test bench what the tests of saving, the
// progress panel, scratch cells, sharing, the index, course pages and
// the LMS need: progress kept before the page opens, a second tab on the
// same storage, stores that fail, files to import, and course pages
// written in the test.

// The pages these tests open, besides test-blocks.html.
const (
	indexPage   = "index.html"
	scratchPage = "scratch.html"
	framePage   = "embed.html"
)

// besides opens the page in another tab of the browser of other: the
// same storage and clock, a session of its own.
func besides(other *bench) func(*bench) {
	return func(b *bench) {
		b.store, b.clock = other.store, other.clock
	}
}

// withEnv changes the page's environment before it starts.
func withEnv(f func(*page.Env)) func(*bench) {
	return func(b *bench) { b.env = f }
}

// withStorage gives the page s in place of the browser's storage.
func withStorage(s page.Storage) func(*bench) {
	return withEnv(func(e *page.Env) { e.Storage = s })
}

// coursePage opens markup, a course page written in the test, in place of
// a page of the built site.
func coursePage(markup string) func(*bench) {
	return func(b *bench) { b.markup = markup }
}

// keptSource is the code the store keeps for a lesson's cell, "" for
// none.
func (b *bench) keptSource(lesson, id string) string {
	b.t.Helper()
	if r := b.record(progress.KindCell, lesson, id); r != nil {
		return r.Source
	}
	return ""
}

// saveStatus is what the page's save status says.
func (b *bench) saveStatus() string { return b.doc.ByID("save-status").Text() }

// noticeWith returns the page's notice that holds part, failing if none
// does.
func (b *bench) noticeWith(part string) string {
	b.t.Helper()
	ns := b.doc.QueryAll("p.notice")
	for _, n := range ns {
		if strings.Contains(n.Text(), part) {
			return n.Text()
		}
	}
	var all []string
	for _, n := range ns {
		all = append(all, n.Text())
	}
	b.t.Fatalf("no notice says %q; the notices: %q", part, all)
	return ""
}

// noNotices fails unless the page shows no notice.
func (b *bench) noNotices() {
	b.t.Helper()
	var all []string
	for _, n := range b.doc.QueryAll("p.notice") {
		all = append(all, n.Text())
	}
	if len(all) > 0 {
		b.t.Errorf("the page shows notices: %q", all)
	}
}

// choose chooses a file in the file input sel, as a learner does, and
// waits for what that starts.
func (b *bench) choose(sel string, f page.File) {
	b.t.Helper()
	b.browser.mu.Lock()
	b.browser.chosen = f
	b.browser.mu.Unlock()
	fakedom.Fire(b.find(sel), "change")
	b.p.Settle()
}

// tap clicks the node sel matches inside root, as a learner does, and
// waits for what that starts.
func (b *bench) tap(root page.Node, sel string) {
	b.t.Helper()
	fakedom.Click(fakedom.Find(b.t, root, sel))
	b.p.Settle()
}

// answer clicks the answer of the question asked inside root (yes or
// no) and waits for what that starts.
func (b *bench) answer(root page.Node, yes bool) {
	b.t.Helper()
	sel := ".confirm .confirm-no"
	if yes {
		sel = ".confirm .confirm-yes"
		b.armed()
	}
	fakedom.Click(fakedom.Find(b.t, root, sel))
	b.p.Settle()
}

// armed waits until a question's yes answer takes a click, as a learner
// who reads it does.
func (b *bench) armed() {
	b.wait(page.AskArm)
}

// reloadedSaying reloads the page as the page asked (after a reset or
// an import) and returns the notice the reloaded page shows first.
func (b *bench) reloadedSaying() string {
	b.t.Helper()
	b.p.Settle()
	if !b.browser.reloaded {
		b.t.Fatal("the page did not reload")
	}
	b.reload()
	ns := b.notices()
	if len(ns) == 0 {
		b.t.Fatal("the reloaded page says nothing")
	}
	return ns[0]
}

// cellsIn are the ids of the code cells on the page, in order.
func (b *bench) cellsIn() []string {
	var ids []string
	for _, c := range b.doc.QueryAll("section.code-cell") {
		ids = append(ids, c.Attr("data-cell-id"))
	}
	return ids
}

// opener is a browser's storage that opens one store whatever the
// database's name.
type opener struct{ store progress.Store }

func (o opener) Open(string) (progress.Store, error) { return o.store, nil }

// brokenStore is a store whose records cannot be read: its Load fails,
// and it counts what the page tried to write to it.
type brokenStore struct {
	mu     sync.Mutex
	writes int
}

var errUnreadable = errors.New("the database is corrupt")

func (s *brokenStore) Load(context.Context) (map[string][]byte, error) {
	return nil, errUnreadable
}

func (s *brokenStore) Save(context.Context, string, []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes++
	return nil
}

// packaged holds the lessons a SCORM package's pages are made of:
// Gradbook's and testdata/lessons, loaded once.
var packaged struct {
	once     sync.Once
	lessons  []*lesson.Lesson
	problems []*lesson.Error
}

// scormPage is a lesson's page as a SCORM package of version ("2004",
// "1.2") writes it, with a passing score (0 for none).
func scormPage(t testing.TB, slug, version string, passing float64) string {
	t.Helper()
	packaged.once.Do(func() {
		packaged.lessons, packaged.problems = lesson.Load("../../site/lessons", "testdata/lessons")
	})
	if len(packaged.problems) > 0 {
		t.Fatal(packaged.problems)
	}
	for _, l := range packaged.lessons {
		if l.Slug == slug {
			b, err := lesson.SCORMPage(l, lms.Version(version), passing)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
	}
	t.Fatalf("no lesson %s", slug)
	return ""
}
