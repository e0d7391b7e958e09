package page_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gradbook/notebook/page"
	"gradbook/notebook/page/fakedom"
	"gradbook/notebook/progress"
)

// This file adds to the test bench what the tests of quizzes, folds,
// exercises, explore blocks, drawings and plots need: progress saved
// before the page opens, a page as an older or broken build wrote it,
// and the learner's ways with those blocks.

// The pages these tests open, besides test-blocks.html.
const (
	drawings  = "lessons/a-drawings.html"
	exercises = "lessons/a-exercises.html"
)

// rewritten opens the page as a build other than this one wrote it: each
// pair of strings, old and new, is replaced in its markup, and each old
// must be there.
func rewritten(pairs ...string) func(*bench) {
	return func(b *bench) {
		data, err := os.ReadFile(filepath.Join(built(b.t), b.file))
		if err != nil {
			b.t.Fatal(err)
		}
		markup := string(data)
		for i := 0; i+1 < len(pairs); i += 2 {
			if !strings.Contains(markup, pairs[i]) {
				b.t.Fatalf("%s has no %q to replace", b.file, pairs[i])
			}
			markup = strings.Replace(markup, pairs[i], pairs[i+1], 1)
		}
		b.markup = markup
	}
}

// within returns the node sel matches inside root, failing if none does.
func (b *bench) within(root page.Node, sel string) page.Node {
	b.t.Helper()
	return fakedom.Find(b.t, root, sel)
}

// clickIn clicks the node sel matches inside root and waits for what it
// starts.
func (b *bench) clickIn(root page.Node, sel string) {
	b.t.Helper()
	fakedom.Click(b.within(root, sel))
	b.p.Settle()
}

// typeInto types text into the field sel matches inside root and waits
// for what it starts.
func (b *bench) typeInto(root page.Node, sel, text string) {
	b.t.Helper()
	fakedom.Type(b.within(root, sel), text)
	b.p.Settle()
}

// press presses key on the node sel matches inside root and waits for
// what it starts; it reports whether the page took the key.
func (b *bench) press(root page.Node, sel, key string, mods ...fakedom.Mod) bool {
	b.t.Helper()
	took := fakedom.Key(b.within(root, sel), key, mods...)
	b.p.Settle()
	return took
}

// shown reports whether the learner can see the node sel matches inside
// root.
func (b *bench) shown(root page.Node, sel string) bool {
	b.t.Helper()
	return fakedom.VisibleText(b.within(root, sel)) != ""
}

// record is the progress the page saved for a kind of record and id on
// its lesson, read back from the store as the next page would.
func (b *bench) record(kind, lesson, id string) *progress.Record {
	b.t.Helper()
	b.p.Settle()
	prog, err := progress.Open(context.Background(), b.store)
	if err != nil {
		b.t.Fatal(err)
	}
	return prog.Get(kind, lesson, id)
}

// resize changes the width of the window's every column to px, as a
// learner turning a phone or dragging a window's edge does, and waits
// until the page has fitted its drawings again.
func (b *bench) resize(px float64) {
	b.doc.SetWidth(px)
	b.doc.FireWindow("resize", false)
	b.p.Settle()
	b.wait(150 * time.Millisecond)
}

// escape presses Escape while what runs in root (a cell, an exercise)
// runs, until it stops: the key stops the runner only once the job has
// reached it, a moment after the page says it runs.
func (b *bench) escape(root page.Node) {
	b.t.Helper()
	waitFor(b.t, func() bool { return root.Attr("aria-busy") == "true" })
	waitFor(b.t, func() bool {
		fakedom.Key(b.doc.Body(), "Escape")
		return !root.HasAttr("aria-busy")
	})
	b.p.Settle()
}
