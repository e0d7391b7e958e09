package page_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"gradbook/notebook/page"
	"gradbook/notebook/page/fakedom"
	"gradbook/notebook/progress"
)

// exported is the file a learner exported from a browser where they had
// done what records say.
func exported(t *testing.T, records ...progress.Record) file {
	t.Helper()
	b := open(t, blocks, keptBefore(records...))
	b.click("#progress-panel summary")
	b.click("#export-progress")
	name := "gradbook-progress-2026-12-02.json"
	data, ok := b.browser.downloads[name]
	if !ok {
		t.Fatalf("no %s among the downloads", name)
	}
	if got := b.saveStatus(); got != "Exported your progress to a file." {
		t.Errorf("after the export the save status says %q", got)
	}
	return file{data: data}
}

func cellRecord(id, source string) progress.Record {
	return progress.Record{Kind: progress.KindCell, Lesson: "test-blocks", ID: id, Source: source}
}

// A learner exports their progress in one browser and imports it in
// another: the page reloads, says how much it imported, and shows it.
func TestExportAndImport(t *testing.T) {
	f := exported(t, cellRecord("double", "print('exported')"), progress.Record{Kind: progress.KindQuiz, Lesson: "test-blocks", ID: "choice", Answer: "1", Passed: true})
	if !strings.Contains(string(f.data), `"gradbook":"progress"`) {
		t.Errorf("the export is %s", f.data)
	}
	b := open(t, blocks)
	b.choose("#import-progress", f)
	if got := b.reloadedSaying(); got != "Imported 3 records of progress." { // and the visit
		t.Errorf("after the import the page says %q", got)
	}
	if got := b.code(b.cell("double")); got != "print('exported')" {
		t.Errorf("the imported cell holds %q", got)
	}
	if got := b.find("#quiz-choice").Attr("data-state"); got != "right" {
		t.Errorf("the imported quiz is %q", got)
	}
}

// A file that is not a progress file, one too large, or one that cannot
// be read is refused, and nothing changes; choosing no file does
// nothing.
func TestImportRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    page.File
		says string
	}{
		{"not progress", file{data: []byte(`{"gradbook":"notes"}`)}, "this file cannot be imported: it is not a Gradbook progress file. Nothing was changed."},
		{"not JSON", file{data: []byte("hello")}, "this file cannot be imported: it is not a Gradbook progress file (json: expected a value at byte 1). Nothing was changed."},
		{"too large", file{data: make([]byte, 6_000_000)}, "This file cannot be imported: it is 6 MB, and at most 5 MB can be imported. Nothing was changed."},
		{"unreadable", file{err: errors.New("the file was moved")}, "The file could not be read: the file was moved. Nothing was changed."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := open(t, blocks, keptBefore(cellRecord("double", "print('mine')")))
			b.choose("#import-progress", tc.f)
			b.noticeWith(tc.says)
			if b.browser.reloaded {
				t.Error("the page reloaded")
			}
			if got := b.keptSource("test-blocks", "double"); got != "print('mine')" {
				t.Errorf("the store keeps %q", got)
			}
		})
	}
	b := open(t, blocks)
	b.choose("#import-progress", nil)
	b.noNotices()
	if b.browser.reloaded {
		t.Error("choosing no file reloaded the page")
	}
}

// Where the file has other code for cells than the code saved here, the
// learner is asked which to keep, the safe answer first; everything else
// in the file is imported either way.
func TestImportConflicts(t *testing.T) {
	theirs := []progress.Record{
		cellRecord("worked", "print('their worked')"),
		cellRecord("double", "print('their double')"),
		{Kind: progress.KindQuiz, Lesson: "test-blocks", ID: "choice", Answer: "1", Passed: true},
	}
	mine := keptBefore(cellRecord("worked", "print('my worked')"), cellRecord("double", "print('my double')"))
	for _, keepMine := range []bool{true, false} {
		f := exported(t, theirs...)
		b := open(t, blocks, mine)
		b.click("#progress-panel summary")
		b.choose("#import-progress", f)
		panel := b.find("#progress-panel")
		if got := b.text("#progress-panel .confirm p"); got != "The file has other code than yours for 2 cells (double in test-blocks, worked in test-blocks). Keep your code, or take the file's? Everything else in the file is imported either way." {
			t.Errorf("the question: %q", got)
		}
		if a := b.doc.Active(); a.Text() != "Keep mine" {
			t.Errorf("the focus is on %q", a.Text())
		}
		if b.keptSource("test-blocks", "double") != "print('my double')" {
			t.Error("the import began before the answer")
		}
		b.answer(panel, !keepMine)
		if got := b.reloadedSaying(); got != "Imported 4 records of progress." { // and the visit
			t.Errorf("after the import the page says %q", got)
		}
		want := "print('their double')"
		if keepMine {
			want = "print('my double')"
		}
		if got := b.code(b.cell("double")); got != want {
			t.Errorf("keeping mine %v, the cell holds %q, want %q", keepMine, got, want)
		}
		if got := b.find("#quiz-choice").Attr("data-state"); got != "right" {
			t.Errorf("the imported quiz is %q", got)
		}
	}
}

// The question names at most three cells, then how many more.
func TestImportManyConflicts(t *testing.T) {
	var theirs, mine []progress.Record
	for _, id := range []string{"worked", "double", "after"} {
		theirs = append(theirs, cellRecord(id, "print('theirs')"))
		mine = append(mine, cellRecord(id, "print('mine')"))
	}
	theirs = append(theirs, progress.Record{Kind: progress.KindExercise, Lesson: "test-blocks", ID: "ex", Source: "def f():\n    return 9"})
	mine = append(mine, progress.Record{Kind: progress.KindExercise, Lesson: "test-blocks", ID: "ex", Source: "def f():\n    return 8"})
	f := exported(t, theirs...)
	b := open(t, blocks, keptBefore(mine...))
	b.click("#progress-panel summary")
	b.choose("#import-progress", f)
	if got := b.text("#progress-panel .confirm p"); !strings.HasPrefix(got, "The file has other code than yours for 4 cells (after in test-blocks, double in test-blocks, worked in test-blocks, and 1 more).") {
		t.Errorf("the question: %q", got)
	}
}

// An import the store cannot save says so, and the page does not reload.
func TestImportNotSaved(t *testing.T) {
	f := exported(t, cellRecord("double", "print('exported')"))
	b := open(t, blocks)
	b.store.Err = errors.New("the disk is full")
	b.choose("#import-progress", f)
	b.noticeWith("The import was not fully saved: the disk is full")
	if b.browser.reloaded {
		t.Error("the page reloaded")
	}
	if got := b.saveStatus(); got != "Not saved." {
		t.Errorf("the save status says %q", got)
	}
}

// Reset this lesson and Reset everything ask first; Cancel keeps all,
// and a reset reloads the page, which says what was reset.
func TestResets(t *testing.T) {
	kept := keptBefore(cellRecord("double", "print('mine')"), progress.Record{Kind: progress.KindCell, Lesson: "fan-out", ID: "square", Source: "print('elsewhere')"})
	for _, tc := range []struct {
		button, question, says string
		otherKept              bool
	}{
		{"#reset-lesson", "Reset this lesson? Your code, answers and ticks in it are deleted.Reset the lesson Cancel", "This lesson is reset.", true},
		{"#reset-all", "Reset everything? All your progress in every lesson is deleted. Export it first if you may want it back.Reset everything Cancel", "All your progress is reset.", false},
	} {
		t.Run(tc.button, func(t *testing.T) {
			b := open(t, blocks, kept)
			panel := b.find("#progress-panel")
			b.click("#progress-panel summary")
			b.click(tc.button)
			if got := b.text("#progress-panel .confirm"); got != tc.question {
				t.Errorf("the question: %q", got)
			}
			if a := b.doc.Active(); a.Text() != "Cancel" {
				t.Errorf("the focus is on %q", a.Text())
			}
			b.answer(panel, false)
			if b.browser.reloaded || b.keptSource("test-blocks", "double") != "print('mine')" {
				t.Fatal("Cancel reset")
			}
			b.click(tc.button)
			b.answer(panel, true)
			if got := b.reloadedSaying(); got != tc.says {
				t.Errorf("after the reset the page says %q", got)
			}
			if got := b.code(b.cell("double")); got != "b = L * 2\nprint(\"b is\", b.value)\ncheck(b.value, 8, label=\"b\")" {
				t.Errorf("after the reset the cell holds %q", got)
			}
			if kept := b.keptSource("fan-out", "square") != ""; kept != tc.otherKept {
				t.Errorf("another lesson's progress kept: %v", kept)
			}
		})
	}
	t.Run("failed", func(t *testing.T) {
		b := open(t, blocks, kept)
		b.store.Err = errors.New("the disk is full")
		b.click("#reset-lesson")
		b.answer(b.find("#progress-panel"), true)
		b.noticeWith("The reset did not finish: the disk is full")
		if b.browser.reloaded {
			t.Error("the page reloaded")
		}
	})
}

// The panel says how much storage the site uses, and whether the browser
// keeps it.
func TestStorageEstimate(t *testing.T) {
	for _, tc := range []struct {
		e    page.Estimate
		says string
	}{
		{page.Estimate{Usage: 1_234_567, Quota: 300_000_000, Persisted: true}, "Using 1.2 MB of about 300 MB this browser allows here. The browser keeps it until you delete it."},
		{page.Estimate{Usage: 2_000, Quota: 1e9}, "Using 2 kB of about 1.0 GB this browser allows here. The browser may clear it if space runs low."},
	} {
		b := open(t, blocks, func(b *bench) { b.browser.estimate = &tc.e })
		b.click("#progress-panel summary")
		if got := b.text("#storage-estimate"); got != tc.says {
			t.Errorf("the panel says %q, want %q", got, tc.says)
		}
	}
	if got := open(t, blocks).find("#storage-estimate").Text(); got != "" {
		t.Errorf("where the browser says nothing, the panel says %q", got)
	}
	// A frame has no panel: it says nothing of the estimate.
	e := page.Estimate{Usage: 2_000, Quota: 1e9}
	b := open(t, framePage, at("?lesson=test-blocks&cell=double"), func(b *bench) { b.browser.estimate = &e })
	if got := fakedom.VisibleText(b.doc.Body()); strings.Contains(got, "Using") {
		t.Errorf("the frame says %q", got)
	}
}

// heldStore is a store whose SaveAll number n waits until it is let go:
// a large import's later transaction, still under way.
type heldStore struct {
	*progress.MemStore
	mu      sync.Mutex
	calls   int
	n       int
	waiting chan struct{}
	release chan struct{}
}

func (s *heldStore) SaveAll(ctx context.Context, values map[string][]byte) error {
	s.mu.Lock()
	s.calls++
	held := s.calls == s.n
	s.mu.Unlock()
	if held {
		close(s.waiting)
		<-s.release
	}
	return s.MemStore.SaveAll(ctx, values)
}

// A large import says how far it has come while it is saved.
func TestLargeImportSaysHowFar(t *testing.T) {
	recs := make([]*progress.Record, 5001)
	for i := range recs {
		recs[i] = &progress.Record{V: progress.Version, Kind: progress.KindCell, Lesson: "a-large-course", ID: fmt.Sprintf("c%d", i+1), Source: "print(1)", Updated: 1}
	}
	f := file{data: progress.FileOf(recs)}
	var store *heldStore
	b := open(t, blocks, func(b *bench) {
		store = &heldStore{MemStore: b.store, n: 2, waiting: make(chan struct{}), release: make(chan struct{})}
		b.env = func(e *page.Env) { e.Storage = opener{store} }
	})
	b.click("#progress-panel summary")
	b.browser.chosen = f
	fakedom.Fire(b.find("#import-progress"), "change")
	<-store.waiting // the first 5,000 are saved, the last one is being saved
	var once sync.Once
	release := func() { once.Do(func() { close(store.release) }) }
	t.Cleanup(release) // before the bench's, which waits for the page
	if !eventually(func() bool { return b.saveStatus() == "Importing… 5000 of 5001 records saved." }) {
		t.Fatalf("while the import is saved the status says %q", b.saveStatus())
	}
	release()
	if got := b.reloadedSaying(); got != "Imported 5001 records of progress." {
		t.Errorf("after the import the page says %q", got)
	}
}
