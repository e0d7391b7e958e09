package page_test

import (
	"errors"
	"strings"
	"testing"

	"gradbook/notebook/page"
	"gradbook/notebook/page/fakedom"
	"gradbook/notebook/progress"
)

// sharedAt opens the page at the link that shares code for the cell id.
func sharedAt(id, code string) func(*bench) {
	link := page.ShareLink("http://127.0.0.1/"+blocks, id, code)
	return at(link[strings.Index(link, "#"):])
}

// Share copies a link to the cell's code as it is now, and shows it to
// copy by hand; sharing again shows the new link in the same place.
func TestShareCopiesALink(t *testing.T) {
	b, c := openTyped(t, blocks, "double", "print('look')")
	b.tap(c, "button.share")
	link := page.ShareLink("http://127.0.0.1/"+blocks, "double", "print('look')")
	if got := fakedom.Find(t, c, ".share-box input").Value(); got != link {
		t.Errorf("the link shown is %q, want %q", got, link)
	}
	if got := b.doc.Selection(); got != link {
		t.Errorf("the page selected %q, not the link", got)
	}
	if got := fakedom.VisibleText(fakedom.Find(t, c, ".share-box")); got != "Link to this code  Copied." {
		t.Errorf("the box says %q", got)
	}
	if got := b.browser.copied; len(got) != 1 || got[0] != link {
		t.Errorf("copied %q", got)
	}
	b.typeCode(c, "print('look again')")
	b.tap(c, "button.share")
	if n := len(c.QueryAll(".share-box")); n != 1 {
		t.Errorf("%d share boxes", n)
	}
	if got := fakedom.Find(t, c, ".share-box input").Value(); got != page.ShareLink("http://127.0.0.1/"+blocks, "double", "print('look again')") {
		t.Errorf("the second link is %q", got)
	}

	// Where the clipboard refuses, the link is there to copy by hand.
	b.browser.copyErr = errors.New("not allowed")
	b.tap(c, "button.share")
	if got := fakedom.Find(t, c, ".share-state").Text(); got != "" {
		t.Errorf("a refused copy says %q", got)
	}
	if b.doc.Selection() == "" || fakedom.Find(t, c, ".share-box input").Value() != b.doc.Selection() {
		t.Error("the link is not selected to copy by hand")
	}
}

// A shared link opens the cell with the shared code, brings the learner
// to it, and keeps their own version: typing into the shared code saves
// nothing, Back to my version puts theirs back, and Keep the shared code
// makes it theirs.
func TestSharedLink(t *testing.T) {
	mine := keptBefore(progress.Record{Kind: progress.KindCell, Lesson: "test-blocks", ID: "double", Source: "print('mine')"})
	open1 := func(t *testing.T) (*bench, page.Node) {
		b := open(t, blocks, mine, sharedAt("double", "print('theirs')"))
		return b, b.cell("double")
	}
	t.Run("shown", func(t *testing.T) {
		b, c := open1(t)
		if got := b.code(c); got != "print('theirs')" {
			t.Errorf("the cell holds %q", got)
		}
		if got := fakedom.VisibleText(fakedom.Find(t, c, ".shared")); got != "This cell shows code shared with you through a link. Your own version is kept until you run this code or keep it.Keep the shared code Back to my version" {
			t.Errorf("the cell says %q", got)
		}
		if s := b.doc.Scrolled(); s == nil || !s.Is(c) {
			t.Errorf("the page scrolled to %v, not the shared cell", s)
		}
		if a := b.doc.Active(); a.Closest("section") == nil || !a.Closest("section").Is(c) {
			t.Error("the focus is not in the shared cell")
		}
		b.typeCode(c, "print('theirs, changed')")
		b.settle()
		if got := b.keptSource("test-blocks", "double"); got != "print('mine')" {
			t.Errorf("typing into shared code saved %q", got)
		}
	})
	for _, tc := range []struct{ name, typed, button, code, kept string }{
		{"back to mine", "print('theirs, changed')", ".back-to-mine", "print('mine')", "print('mine')"},
		{"keep", "", ".keep-shared", "print('theirs')", "print('theirs')"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, c := open1(t)
			if tc.typed != "" {
				b.typeCode(c, tc.typed)
			}
			b.tap(c, tc.button)
			if got := b.code(c); got != tc.code {
				t.Errorf("the cell holds %q", got)
			}
			if c.Query(".shared") != nil {
				t.Error("the shared code's box stays")
			}
			b.settle()
			if got := b.keptSource("test-blocks", "double"); got != tc.kept {
				t.Errorf("the store keeps %q", got)
			}
		})
	}
	// ran opens the link, runs the cell as run does, and checks that the
	// shared code ran.
	ran := func(t *testing.T, run func(*bench)) (*bench, page.Node) {
		t.Helper()
		b, c := open1(t)
		run(b)
		if got := out(t, c); got != "theirs\n" {
			t.Errorf("the cell shows %q", got)
		}
		return b, c
	}
	t.Run("run adopts it", func(t *testing.T) {
		b, c := ran(t, func(b *bench) { b.run("double") })
		if c.Query(".shared") != nil {
			t.Error("the shared code's box stays after its run")
		}
		if r := b.record(progress.KindCell, "test-blocks", "double"); r.Source != "print('theirs')" || !r.Ran {
			t.Errorf("the store keeps %+v", r)
		}
	})
	t.Run("run all does not", func(t *testing.T) {
		b, c := ran(t, func(b *bench) { b.click("#run-all") })
		if got := fakedom.Find(t, c, ".cell-state").Text(); got != "✓ done" {
			t.Errorf("the cell's state says %q", got)
		}
		if c.Query(".shared") == nil {
			t.Error("Run all took the shared code's box away")
		}
		if got := b.keptSource("test-blocks", "double"); got != "print('mine')" {
			t.Errorf("the store keeps %q", got)
		}
	})
}

// A link that shares code for no cell of the page, or that is broken,
// says so; an ordinary address says nothing.
func TestSharedLinkToNoCell(t *testing.T) {
	b := open(t, blocks, sharedAt("nowhere", "print(1)"))
	b.noticeWith("The shared link does not match a cell on this page.")
	b = open(t, blocks, at("#share=double"))
	b.noticeWith("The shared link does not match a cell on this page.")
	b = open(t, blocks, at("#cell-double"))
	b.noNotices()
	if b.doc.Query(".shared") != nil {
		t.Error("an ordinary address shows shared code")
	}
}
