package page_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"gradbook/notebook/page/fakedom"
	"gradbook/notebook/progress"
)

// course is a course page as its author writes it, with the Gradbook
// site at base: README's snippet, with <html data-gradbook-base> as
// embed.js sets it, and ids and classes of the course's own.
func course(base, cells string) string {
	return `<!doctype html>
<html lang="en" data-gradbook-base="` + base + `">
<head><title>Backprop, the course</title></head>
<body>
<h1>Week 1</h1>
<p id="notebook-status">The course's own status</p>
<div id="notices">The course's own notices</div>
<button id="run-all" disabled>The course's own button</button>
` + cells + `
</body>
</html>`
}

// gradbookSite is where the course pages find the Gradbook site.
const gradbookSite = "http://127.0.0.1/"

// embedded are the ids of the cells Gradbook placed on a course page, in
// order.
func (b *bench) embedded() []string {
	var ids []string
	for _, c := range b.doc.QueryAll(".gradbook-embed section.code-cell") {
		ids = append(ids, c.Attr("data-cell-id"))
	}
	return ids
}

// notes are what a course page says about its cells (.gradbook-error).
func (b *bench) notes() []string { return b.texts(".gradbook-error") }

// Inline cells on a course page form one notebook in page order; a cell
// taken from a lesson runs after that lesson's cells above it; the cells
// have a status line of their own under the first, and leave the
// course's ids alone; the learner's work comes back after a reload.
func TestCoursePage(t *testing.T) {
	b := open(t, "course.html", coursePage(course(gradbookSite, `
<pre class="gradbook-cell">
x = 20
print(x)
</pre>
<p>A cell of a lesson:</p>
<div class="gradbook-cell" data-lesson="test-blocks" data-cell="double"></div>
<pre class="gradbook-cell" data-id="twice">print(x * 2)</pre>`)))
	if got := b.embedded(); !slices.Equal(got, []string{"inline-1", "test-blocks--double", "twice"}) {
		t.Fatalf("the cells placed: %q", got)
	}
	line := b.find(".gradbook-embed .gradbook-status")
	if first := b.doc.Query(".gradbook-embed"); !line.Parent().Is(first) {
		t.Error("the status line is not in the first cell")
	}
	if got := fakedom.VisibleText(line); got != "Ready. Progress is saved in this browser." {
		t.Errorf("the status line says %q", got)
	}
	if got := b.code(b.cell("inline-1")); got != "x = 20\nprint(x)" {
		t.Errorf("the inline cell holds %q", got)
	}
	if got := out(t, b.run("twice")); got != "40\n" {
		t.Errorf("the second inline cell shows %q", got)
	}
	if got := out(t, b.run("test-blocks--double")); got != "b is 8.0\n✓ b = 8\n" {
		t.Errorf("the lesson's cell shows %q", got)
	}
	if got := b.text(".gradbook-saved"); got != "Saved." {
		t.Errorf("the saved status says %q", got)
	}
	if got := b.text("#notebook-status") + b.text("#notices") + b.find("#run-all").Text(); got != "The course's own statusThe course's own noticesThe course's own button" {
		t.Errorf("the course's own elements say %q", got)
	}
	if !b.find("#run-all").HasAttr("disabled") {
		t.Error("the course's own button was wired")
	}

	b.typeCode(b.cell("twice"), "print(x * 3)")
	b.typeCode(b.cell("test-blocks--double"), "print('from the course')")
	b.settle()
	b.reload()
	if got := b.code(b.cell("twice")); got != "print(x * 3)" {
		t.Errorf("after a reload the inline cell holds %q", got)
	}
	if got := b.code(b.cell("test-blocks--double")); got != "print('from the course')" {
		t.Errorf("after a reload the lesson's cell holds %q", got)
	}
	// The lesson's cell keeps its work as the lesson's: the lesson's page
	// on the same site shows it.
	lesson := open(t, blocks, besides(b))
	if got := lesson.code(lesson.cell("double")); got != "print('from the course')" {
		t.Errorf("the lesson's page holds %q", got)
	}
}

// Two cells of one id on a course page each keep their own work, and the
// page says so to its author; two copies of one lesson cell each run as
// the lesson's does.
func TestCoursePageCellsOfOneID(t *testing.T) {
	b := open(t, "course.html", coursePage(course(gradbookSite, `
<pre class="gradbook-cell" data-id="same">print(1)</pre>
<pre class="gradbook-cell" data-id="same">print(2)</pre>
<pre class="gradbook-cell" data-id="same">print(3)</pre>
<div class="gradbook-cell" data-lesson="test-blocks" data-cell="after"></div>
<div class="gradbook-cell" data-lesson="test-blocks" data-cell="after"></div>`)))
	if got := b.embedded(); !slices.Equal(got, []string{"same", "same-2", "same-3", "test-blocks--after", "test-blocks--after-2"}) {
		t.Fatalf("the cells placed: %q", got)
	}
	want := []string{
		`Gradbook: another cell on this page is called "same", so this one keeps its work as "same-2". Give each cell its own data-id.`,
		`Gradbook: another cell on this page is called "same", so this one keeps its work as "same-3". Give each cell its own data-id.`,
		`Gradbook: this page shows the cell "after" of "test-blocks" twice: both keep the learner's work as one, the lesson's.`,
	}
	if got := b.notes(); !slices.Equal(got, want) {
		t.Errorf("the page says %q, want %q", got, want)
	}
	for _, id := range []string{"test-blocks--after", "test-blocks--after-2"} {
		if got := out(t, b.run(id)); got != "after 2.0\n" {
			t.Errorf("%s shows %q, as the lesson's cell does not", id, got)
		}
	}
	b.typeCode(b.cell("same"), "print('one')")
	b.typeCode(b.cell("same-2"), "print('two')")
	b.settle()
	b.reload()
	if got := b.code(b.cell("same")) + " " + b.code(b.cell("same-2")) + " " + b.code(b.cell("same-3")); got != "print('one') print('two') print(3)" {
		t.Errorf("after a reload the cells hold %q", got)
	}
}

// A lesson cell a course page names that the site does not have, or
// names by its lesson or its id alone, says so in its place (it was an
// empty cell); where cells.json is not found, every lesson cell says
// so, and the inline cells still run.
func TestCoursePageCellsMissing(t *testing.T) {
	b := open(t, "course.html", coursePage(course(gradbookSite, `
<div class="gradbook-cell" data-lesson="no-such-lesson" data-cell="x"></div>
<div class="gradbook-cell" data-lesson="test-blocks" data-cell="no-such-cell"></div>
<div class="gradbook-cell" data-lesson="test-blocks"></div>
<div class="gradbook-cell" data-cell="double"></div>
<pre class="gradbook-cell">print('inline')</pre>`)))
	want := []string{
		`Gradbook: there is no lesson "no-such-lesson".`,
		`Gradbook: lesson "test-blocks" has no cell "no-such-cell".`,
		`Gradbook: say which cell of "test-blocks" to show, with data-cell.`,
		`Gradbook: say which lesson the cell "double" is in, with data-lesson.`,
	}
	if got := b.notes(); !slices.Equal(got, want) {
		t.Errorf("the page says %q, want %q", got, want)
	}
	if got := b.embedded(); !slices.Equal(got, []string{"inline-1"}) {
		t.Errorf("the cells placed: %q", got)
	}
	if n := len(b.doc.QueryAll(".gradbook-cell")); n != 0 {
		t.Errorf("%d of the course's cell elements are left as they were", n)
	}

	b = open(t, "course.html", coursePage(course(gradbookSite+"nowhere/", `
<div class="gradbook-cell" data-lesson="test-blocks" data-cell="worked"></div>
<div class="gradbook-cell" data-lesson="test-blocks" data-cell="double"></div>
<pre class="gradbook-cell">print('inline')</pre>`)))
	notFound := "Gradbook: http://127.0.0.1/nowhere/cells.json was not found (404): upload the whole exported folder, next to embed.js."
	if got := b.notes(); !slices.Equal(got, []string{notFound, notFound}) {
		t.Errorf("the page says %q", got)
	}
	if got := out(t, b.run("inline-1")); got != "inline\n" {
		t.Errorf("the inline cell shows %q", got)
	}
}

// On a course page, notices go in a box at the top of the first cell,
// even those given before the cells were placed; a course page whose
// every cell is missing shows its notes and nothing else.
func TestCoursePageNotices(t *testing.T) {
	cells := `<pre class="gradbook-cell">print(1)</pre><pre class="gradbook-cell">print(2)</pre>`
	b := open(t, "course.html", coursePage(course(gradbookSite, cells)), func(b *bench) {
		b.noStore = true
		b.browser.notices = []string{"This browser lacks something."}
	})
	first := b.doc.Query(".gradbook-embed")
	box := first.FirstChild()
	if box == nil || !box.HasClass("notices") {
		t.Fatalf("the first cell begins with %v", box)
	}
	var got []string
	for _, n := range box.QueryAll("p.notice") {
		got = append(got, n.Text())
	}
	if len(got) != 2 || !strings.HasPrefix(got[0], "Your progress will not be kept") || got[1] != "This browser lacks something." {
		t.Errorf("the notices: %q", got)
	}
	if n := len(b.doc.QueryAll(".notices")); n != 1 {
		t.Errorf("%d notice boxes", n)
	}
	if got := b.text(".gradbook-saved"); got != "Progress is not being saved." {
		t.Errorf("the saved status says %q", got)
	}

	b = open(t, "course.html", coursePage(course(gradbookSite, `<div class="gradbook-cell" data-lesson="no-such-lesson" data-cell="x"></div>`)), func(b *bench) { b.noStore = true })
	if got := b.notes(); len(got) != 1 {
		t.Errorf("the page says %q", got)
	}
	if b.doc.Query(".gradbook-status") != nil || b.doc.Query(".notices") != nil {
		t.Error("a page without cells has a status line or notices")
	}
}

// embed.html shows the cell its address asks for, after the cells above
// it in its lesson, or every cell of a lesson; a lesson asked for by an
// earlier name keeps its progress under the name it has now.
func TestFrame(t *testing.T) {
	b := open(t, framePage, at("?lesson=test-blocks&cell=double"))
	if got := b.cellsIn(); !slices.Equal(got, []string{"double"}) {
		t.Fatalf("the frame shows %q", got)
	}
	if got := out(t, b.run("double")); got != "b is 8.0\n✓ b = 8\n" {
		t.Errorf("the cell shows %q", got)
	}
	if got := b.status(); !strings.HasPrefix(got, "Cell 1 ran in ") {
		t.Errorf("status %q", got)
	}

	b = open(t, framePage, at("?lesson=test-blocks"))
	if got := b.cellsIn(); !slices.Equal(got, []string{"worked", "double", "after"}) {
		t.Fatalf("the frame shows %q", got)
	}
	if got := out(t, b.run("double")); got != "b is 8.0\n✓ b = 8\n" {
		t.Errorf("the lesson's second cell shows %q", got)
	}

	earlier := keptBefore(progress.Record{Kind: progress.KindCell, Lesson: "00-test-blocks", ID: "double", Source: "print('kept under the old name')"})
	b = open(t, framePage, at("?lesson=00-test-blocks&cell=double"), earlier)
	if got := b.code(b.cell("double")); got != "print('kept under the old name')" {
		t.Errorf("the frame by the earlier name holds %q", got)
	}
	if b.record(progress.KindCell, "00-test-blocks", "double") != nil || b.keptSource("test-blocks", "double") != "print('kept under the old name')" {
		t.Error("the progress did not move to the lesson's name")
	}
	b.typeCode(b.cell("double"), "print('mine')")
	b.settle()
	if got := b.keptSource("test-blocks", "double"); got != "print('mine')" {
		t.Errorf("the store keeps %q", got)
	}

	b = open(t, framePage, at("?lesson=00-test-blocks&cell=double"), earlier, func(b *bench) { b.store.Err = errors.New("the disk is full") })
	b.noticeWith("Your saved progress could not all be moved to the lesson's new name: the disk is full. It is still kept where it was.")
}

// The frame's address is read as a browser reads it: a name's first
// value, + as a space, %XX escapes, a bad escape as it is.
func TestFrameAddress(t *testing.T) {
	for _, tc := range []struct{ query, says string }{
		{"", "Say which lesson to show: embed.html?lesson=…&cell=…"},
		{"?cell=double", "Say which lesson to show: embed.html?lesson=…&cell=…"},
		{"?lesson=no+such%20lesson", `There is no lesson "no such lesson".`},
		{"?lesson=%zz%4", `There is no lesson "%zz%4".`},
		{"?lesson=no-such-lesson&cell=x", `This cell cannot be shown: there is no lesson "no-such-lesson".`},
		{"?lesson=test-blocks&cell=no-such-cell", `This cell cannot be shown: lesson "test-blocks" has no cell "no-such-cell".`},
	} {
		b := open(t, framePage, at(tc.query))
		if got := b.notices(); len(got) != 1 || got[0] != tc.says {
			t.Errorf("%q: the frame says %q, want %q", tc.query, got, tc.says)
		}
		if got := b.cellsIn(); len(got) != 0 {
			t.Errorf("%q: the frame shows %q", tc.query, got)
		}
	}
	b := open(t, framePage, at("?&lesson=test%2Dblocks&lesson=fan-out&cell=dou%62l%65"))
	if got := b.cellsIn(); !slices.Equal(got, []string{"double"}) {
		t.Errorf("the frame shows %q", got)
	}
	b = open(t, framePage, at("?lesson=test%2dblocks&cell=worked"))
	if got := b.cellsIn(); !slices.Equal(got, []string{"worked"}) {
		t.Errorf("the frame shows %q", got)
	}
}

// A frame whose cells cannot be fetched says so.
func TestFrameCellsNotLoaded(t *testing.T) {
	b := open(t, framePage, at("?lesson=test-blocks&cell=double"), func(b *bench) {
		b.browser.fetchErr = errors.New("cells.json was not found (404): upload the whole exported folder")
	})
	b.noticeWith("The cells could not be loaded: cells.json was not found (404): upload the whole exported folder")
	if got := b.cellsIn(); len(got) != 0 {
		t.Errorf("the frame shows %q", got)
	}
}
