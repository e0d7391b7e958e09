package page_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"gradbook/notebook/page/fakedom"
	"gradbook/notebook/progress"
)

// The save status says what becomes of the learner's typing: it waits
// for a pause, then it is saved; a save that ends while other typing
// still waits for its pause says that, not "Saved".
func TestSaveStatus(t *testing.T) {
	if got := open(t, indexPage).saveStatus(); got != "Progress is saved in this browser." {
		t.Errorf("on the index the save status says %q", got)
	}
	b := open(t, blocks)
	if got := b.saveStatus(); got != "Saved." { // the visit
		t.Errorf("on opening a lesson the save status says %q", got)
	}
	b.typeCode(b.cell("worked"), "a = Value(5.0, \"a\")\nL = a * a\nL.backward()")
	if got := b.saveStatus(); got != "Editing: saved when you pause." {
		t.Errorf("while typing it says %q", got)
	}
	if got := b.keptSource("test-blocks", "worked"); got != "" {
		t.Errorf("typing was saved before its pause: %q", got)
	}
	b.clock.Advance(200 * time.Millisecond)
	b.typeCode(b.cell("double"), "b = L * 3")
	b.wait(200 * time.Millisecond) // the first cell's pause is over, not the second's
	if got := b.keptSource("test-blocks", "worked"); !strings.HasPrefix(got, "a = Value(5.0") {
		t.Errorf("after its pause the first cell keeps %q", got)
	}
	if got := b.saveStatus(); got != "Editing: saved when you pause." {
		t.Errorf("with the second cell's typing still waiting it says %q", got)
	}
	b.wait(200 * time.Millisecond)
	if got := b.saveStatus(); got != "Saved." {
		t.Errorf("once everything is saved it says %q", got)
	}
	if got := b.keptSource("test-blocks", "double"); got != "b = L * 3" {
		t.Errorf("the second cell keeps %q", got)
	}
}

// Leaving the page, or hiding it, saves the typing that waits for its
// pause at once: the page may never come back.
func TestLeavingSavesTyping(t *testing.T) {
	for _, leave := range []struct {
		name string
		do   func(*fakedom.Document)
	}{
		{"pagehide", func(d *fakedom.Document) { d.FireWindow("pagehide", false) }},
		{"hidden", func(d *fakedom.Document) { d.SetHidden(true) }},
	} {
		t.Run(leave.name, func(t *testing.T) {
			b := open(t, blocks)
			b.typeCode(b.cell("double"), "b = L * 4")
			leave.do(b.doc)
			b.p.Settle()
			if got := b.keptSource("test-blocks", "double"); got != "b = L * 4" {
				t.Errorf("the store keeps %q", got)
			}
			if got := b.saveStatus(); got != "Saved." {
				t.Errorf("the save status says %q", got)
			}
		})
	}
}

// Where the browser keeps nothing (no storage, or storage blocked), a
// notice says so, the save status says that nothing is saved, and the
// cells still run.
func TestProgressNotKept(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  func(*bench)
	}{
		{"no storage", func(b *bench) { b.noStore = true }},
		{"storage blocked", func(b *bench) { b.store.Err = errNoDatabase }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := open(t, scratchPage, tc.opt).saveStatus(); got != "Progress is not being saved." {
				t.Errorf("on the scratch page the save status says %q", got)
			}
			b := open(t, blocks, tc.opt)
			b.noticeWith("Your progress will not be kept: this browser does not let this page keep data (private browsing, or storage is blocked). The cells still work.")
			b.typeCode(b.cell("double"), "print('kept?')")
			b.settle()
			if got := b.saveStatus(); got != "Not saved: progress cannot be kept in this browser." {
				t.Errorf("after typing the save status says %q", got)
			}
			if got := out(t, b.run("double")); got != "kept?\n" {
				t.Errorf("the cell shows %q", got)
			}
		})
	}
}

// Progress that cannot be read is left as it is: a notice says so, the
// cells work, and nothing is written over it.
func TestUnreadableProgress(t *testing.T) {
	broken := &brokenStore{}
	b := open(t, blocks, withStorage(opener{broken}))
	b.noticeWith("Your saved progress could not be read: the database is corrupt. The cells still work, and nothing was changed.")
	b.typeCode(b.cell("double"), "print('mine')")
	b.settle()
	if got := out(t, b.run("double")); got != "mine\n" {
		t.Errorf("the cell shows %q", got)
	}
	if broken.writes != 0 {
		t.Errorf("the page wrote %d times to the progress it could not read", broken.writes)
	}
}

// A save that fails says so, in the status and in a notice, and what was
// saved before stays.
func TestSaveFails(t *testing.T) {
	b := open(t, blocks, keptBefore(progress.Record{Kind: progress.KindCell, Lesson: "test-blocks", ID: "double", Source: "print('before')"}))
	b.store.Err = errors.New("the disk is full")
	b.typeCode(b.cell("double"), "print('after')")
	b.settle()
	if got := b.saveStatus(); got != "Not saved." {
		t.Errorf("the save status says %q", got)
	}
	b.noticeWith("Your latest change could not be saved: the disk is full. Everything saved before is still there.")
	b.store.Err = nil
	if got := b.keptSource("test-blocks", "double"); got != "print('before')" {
		t.Errorf("the store keeps %q", got)
	}
}

// Code saved in another tab since this one opened is said once this tab
// saves its own over it, for a cell and for an exercise; this tab's code
// is what is kept.
func TestAnotherTabsChange(t *testing.T) {
	first := open(t, blocks)
	second := open(t, blocks, besides(first))
	second.typeCode(second.cell("double"), "print('second')")
	ex := second.find("#exercise-ex")
	second.typeCode(ex, "def f():\n    return 2")
	second.settle()

	first.typeCode(first.cell("double"), "print('first')")
	first.typeCode(first.find("#exercise-ex"), "def f():\n    return 3")
	first.settle()
	first.noticeWith("Your code for the cell double was also changed in another tab or window: the code on this page is the one saved now. Reload the other tab to see it there.")
	first.noticeWith("Your code for the exercise ex was also changed in another tab or window")
	if got := first.keptSource("test-blocks", "double"); got != "print('first')" {
		t.Errorf("the store keeps %q", got)
	}
	// Saving again over its own code says nothing more.
	first.typeCode(first.cell("double"), "print('first, again')")
	first.settle()
	if n := len(first.notices()); n != 2 {
		t.Errorf("%d notices: %q", n, first.notices())
	}
}

// What the progress says as it opens (records it skipped), what the
// browser lacks, and the notice a page left for its next load are each
// shown once.
func TestNoticesAtOpening(t *testing.T) {
	b := open(t, blocks, func(b *bench) {
		b.store.SaveAll(context.Background(), map[string][]byte{"cell/test-blocks/double": []byte("not a record")})
		b.browser.notices = []string{"This browser cannot run cells off the page.", "This browser cannot run cells off the page."}
		b.browser.session["gradbook-notice"] = "Imported 3 records of progress."
	})
	want := []string{
		"1 record of your saved progress could not be read and is skipped; everything else is restored.",
		"Imported 3 records of progress.",
		"This browser cannot run cells off the page.",
	}
	if got := b.notices(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the notices are %q, want %q", got, want)
	}
	if box := b.find("#notices"); box.HasAttr("hidden") {
		t.Error("the notices are hidden")
	}
	b.reload()
	if got := b.notices(); len(got) != 2 {
		t.Errorf("after a reload the notices are %q: the page's notice for its next load is said again", got)
	}
}

// Progress kept under a lesson's earlier name, and that of cells moved
// from another lesson, follows them: on the lesson's page and on the
// index alike.
func TestProgressOfMovedLessons(t *testing.T) {
	earlier := keptBefore(
		progress.Record{Kind: progress.KindCell, Lesson: "00-test-blocks", ID: "double", Source: "print('from before the rename')"},
		progress.Record{Kind: progress.KindVisit, Lesson: "00-test-blocks", ID: "last", Anchor: "cell-double"},
		progress.Record{Kind: progress.KindCell, Lesson: "05-every-path", ID: "smooth", Source: "print('moved with its cell')"},
	)
	t.Run("lesson pages", func(t *testing.T) {
		b := open(t, blocks, earlier)
		if got := b.code(b.cell("double")); got != "print('from before the rename')" {
			t.Errorf("the renamed lesson's cell holds %q", got)
		}
		if b.record(progress.KindCell, "00-test-blocks", "double") != nil {
			t.Error("the record is still kept under the earlier name")
		}
		c := open(t, "lessons/checking-gradients.html", besides(b))
		if got := c.code(c.cell("smooth")); got != "print('moved with its cell')" {
			t.Errorf("the moved cell holds %q", got)
		}
	})
	t.Run("index", func(t *testing.T) {
		b := open(t, indexPage, earlier)
		if got := b.keptSource("test-blocks", "double"); got != "print('from before the rename')" {
			t.Errorf("the index moved %q", got)
		}
		if got := b.keptSource("checking-gradients", "smooth"); got != "print('moved with its cell')" {
			t.Errorf("the index moved %q", got)
		}
	})
	t.Run("a move that fails", func(t *testing.T) {
		b := open(t, blocks, earlier, func(b *bench) { b.store.Err = errors.New("the disk is full") })
		b.noticeWith("Your saved progress could not all be moved to its new lesson: the disk is full. It is still kept where it was.")
		b.store.Err = nil
		if b.record(progress.KindCell, "00-test-blocks", "double") == nil {
			t.Error("the record under the earlier name is gone")
		}
	})
}

// A cell's saved code and its last run come back with the page: a clean
// run as done, one with an error or a failed check as needing another
// look.
func TestCellsRestored(t *testing.T) {
	b := open(t, blocks, keptBefore(
		progress.Record{Kind: progress.KindCell, Lesson: "test-blocks", ID: "worked", Ran: true, Clean: true},
		progress.Record{Kind: progress.KindCell, Lesson: "test-blocks", ID: "double", Source: "print(nope)", Ran: true},
	), withEditors)
	worked, double := b.cell("worked"), b.cell("double")
	if got := worked.Attr("data-state"); got != "passed" {
		t.Errorf("the clean cell is %q", got)
	}
	if got := fakedom.Find(t, worked, ".cell-state").Text(); got != "✓ done" {
		t.Errorf("the clean cell says %q", got)
	}
	if !strings.HasPrefix(b.code(worked), "a = Value(2.0") {
		t.Errorf("the clean cell holds %q", b.code(worked))
	}
	if got := double.Attr("data-state"); got != "failed" {
		t.Errorf("the cell with an error is %q", got)
	}
	if got := fakedom.Find(t, double, ".cell-state").Text(); got != "✗ needs another look" {
		t.Errorf("the cell with an error says %q", got)
	}
	if got := b.code(double); got != "print(nope)" {
		t.Errorf("the cell holds %q", got)
	}
	if b.doc.Query(".changed") != nil {
		t.Error("a cell offers a new version of code the lesson did not change")
	}
}

// When the lesson's code for a cell or an exercise changed since the
// learner edited it, the page says so above it, with the learner's
// version in the editor: they keep theirs, or take the new one, and
// after a reload the question is not asked again.
func TestNewVersionOfTheLessonsCode(t *testing.T) {
	old := progress.Hash("the lesson's code before")
	for _, tc := range []struct {
		name, sel, kind, id, mine string
	}{
		{"cell", "#cell-double", progress.KindCell, "double", "b = L * 5"},
		{"exercise", "#exercise-ex", progress.KindExercise, "ex", "def f():\n    return 5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			edited := keptBefore(progress.Record{Kind: tc.kind, Lesson: "test-blocks", ID: tc.id, Source: tc.mine, Authored: old, Ran: true, Clean: true})
			for _, keepMine := range []bool{true, false} {
				b := open(t, blocks, edited, withEditors)
				root := b.find(tc.sel)
				box := fakedom.Find(t, root, ".changed")
				if got := fakedom.VisibleText(box); got != "The lesson's code for this cell has changed since you edited it. Your version is in the editor.Keep mine Use the new version" {
					t.Errorf("the page says %q", got)
				}
				if got := b.code(root); got != tc.mine {
					t.Errorf("the editor holds %q", got)
				}
				authored := fakedom.Find(t, root, "textarea.editor").DefaultValue()
				if keepMine {
					b.tap(box, ".keep-mine")
				} else {
					b.tap(box, ".take-new")
				}
				if root.Query(".changed") != nil {
					t.Error("the question stays after its answer")
				}
				want := tc.mine
				if !keepMine {
					want = authored
				}
				if got := b.code(root); got != want {
					t.Errorf("after the answer the editor holds %q, want %q", got, want)
				}
				r := b.record(tc.kind, "test-blocks", tc.id)
				if r.Source != want || r.Authored != progress.Hash(authored) {
					t.Errorf("the store keeps %q from %s", r.Source, r.Authored)
				}
				if !keepMine && (r.Ran || r.Clean) {
					t.Error("the new version keeps the old code's clean run")
				}
				b.reload()
				if b.doc.Query(".changed") != nil {
					t.Error("after a reload the question is asked again")
				}
				if got := b.code(b.find(tc.sel)); got != want {
					t.Errorf("after a reload the editor holds %q", got)
				}
			}
		})
	}
}
