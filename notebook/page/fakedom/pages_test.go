package fakedom_test

import (
	"encoding/json"
	"gradbook/internal/words"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gradbook/engine"
	"gradbook/notebook/block"
	"gradbook/notebook/draw"
	"gradbook/notebook/lesson"
	"gradbook/notebook/lms"
	"gradbook/notebook/page"
	"gradbook/notebook/page/fakedom"
)

// build builds the site of the lessons in dir as the build does, into a
// temporary folder, and returns it with the lessons.
func build(t testing.TB, dir string) (string, []*lesson.Lesson) {
	t.Helper()
	lessons, problems := lesson.Load(dir)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	out := t.TempDir()
	if err := lesson.Build(out, lessons, 0); err != nil {
		t.Fatal(err)
	}
	return out, lessons
}

func read(t testing.TB, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// rendered are the parts of the build that block.Selectors names,
// parsed, by name.
type rendered map[string]page.Node

// of returns the render called where, failing the test where there is
// none.
func (r rendered) of(t *testing.T, where string) page.Node {
	t.Helper()
	n, ok := r[where]
	if !ok {
		t.Fatalf("no render called %q", where)
	}
	return n
}

// renders are the parts of the build that block.Selectors names, parsed:
// the pages of testdata/blocks (one lesson with a block of each kind),
// and each block, the section of its kind in the lesson's page.
func renders(t *testing.T) rendered {
	t.Helper()
	dir, lessons := build(t, "testdata/blocks")
	scorm, err := lesson.SCORMPage(lessons[0], lms.SCORM2004, 0.8)
	if err != nil {
		t.Fatal(err)
	}
	r := rendered{"scorm": fakedom.Parse(string(scorm))}
	for name, file := range map[string]string{"lesson": "lessons/blocks.html", "index": "index.html", "scratch": "scratch.html", "frame": "embed.html"} {
		r[name] = fakedom.Parse(read(t, filepath.Join(dir, file)))
	}
	quiz := func(kind string) string { return block.Kind("quiz") + "[" + block.AttrQuiz + "=" + kind + "]" }
	for name, sel := range map[string]string{
		"cell":         block.Sel("section", block.ClassCodeCell),
		"quiz choice":  quiz("choice"),
		"quiz numeric": quiz("numeric"),
		"quiz open":    quiz("open"),
		"explore":      block.Kind("explore"),
		"exercise":     block.Kind("exercise"),
	} {
		r[name] = fakedom.Find(t, r.of(t, "lesson"), sel)
	}
	return r
}

// Every selector the page reads is written where the page looks for it,
// as notebook/lesson's markup_test.go checks with its own reader: a
// selector is found in a block when the block's section matches it or
// holds an element that does.
func TestPageFindsWhatTheBuildWrites(t *testing.T) {
	r := renders(t)
	for _, s := range block.Selectors {
		for _, where := range s.In {
			n := r.of(t, where)
			self := n.Closest(s.Sel)
			if n.Query(s.Sel) == nil && (self == nil || !self.Is(n)) {
				t.Errorf("the page looks for %s in the %s, which has none", s.Sel, where)
			}
		}
	}
}

// What a test reads of a block is what a learner would see in a browser.
func TestBlocksReadBack(t *testing.T) {
	r := renders(t)
	cell := r.of(t, "cell")
	ed := fakedom.Find(t, cell, block.Sel("textarea", block.ClassEditor))
	if got := ed.Value(); got != "a = Value(2.0, \"a\")\nL = a * a\nL.backward()\nprint(a.grad)" || ed.DefaultValue() != got {
		t.Errorf("the editor holds %q", got)
	}
	if run := fakedom.Find(t, cell, block.Sel("button", block.ClassRun)); !run.HasAttr("disabled") {
		t.Error("Run is enabled before the notebook is ready")
	}
	// The choice quiz: its radio buttons are one group; a click checks
	// one, and the choice's feedback is hidden until the page shows it.
	choice := r.of(t, "quiz choice")
	radios := choice.QueryAll(block.SelRadio)
	if len(radios) != 2 {
		t.Fatalf("%d radio buttons", len(radios))
	}
	fakedom.Click(radios[1])
	fakedom.Click(radios[0])
	if !radios[0].Checked() || radios[1].Checked() {
		t.Error("the radio buttons are not one group")
	}
	if got := fakedom.VisibleText(choice); strings.Contains(got, "Yes.") || !strings.Contains(got, "Two.") {
		t.Errorf("the choice quiz shows %q", got)
	}
	// The exercise's hidden tests are in templates.
	tests := r.of(t, "exercise").QueryAll(block.Sel("template", block.ClassTest))
	if len(tests) != 1 || tests[0].TemplateText() != "check(f(), 1)" || tests[0].Attr(block.AttrName) != "f gives one" {
		t.Errorf("the exercise's tests: %d", len(tests))
	}
	// The numeric quiz's data is JSON, as the build wrote it, and its
	// worked solution is hidden until it is answered.
	numeric := r.of(t, "quiz numeric")
	var data struct{ Expected []float64 }
	if err := json.Unmarshal([]byte(fakedom.Find(t, numeric, block.Sel("script", block.ClassBlockData)).Text()), &data); err != nil || len(data.Expected) != 1 || data.Expected[0] != 3 {
		t.Errorf("the numeric quiz's data: %+v, %v", data, err)
	}
	if got := fakedom.VisibleText(numeric); strings.Contains(got, "It is 3.") || !strings.Contains(got, "dL/dw with w = 2") {
		t.Errorf("the numeric quiz shows %q", got)
	}
	// The prediction folds what follows it, up to the next heading.
	fold := fakedom.Find(t, r.of(t, "lesson"), block.Of(block.ClassFold))
	if got := fold.Attr(block.AttrPredicts); got != "guess" || !strings.Contains(fakedom.VisibleText(fold), "It is 4") || fold.Query(block.Kind("explore")) != nil {
		t.Errorf("the fold waits for %q and shows %q", got, fakedom.VisibleText(fold))
	}
}

var startTag = regexp.MustCompile(`<[a-zA-Z]`)

// Every page the build makes of the real lessons parses to a tree that
// serialises back to itself, with as many elements as the markup has
// start tags: none lost to a wrong end, none a browser would not make.
func TestRealPages(t *testing.T) {
	dir, _ := build(t, "../../../site/lessons")
	files, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join(dir, "lessons", "*.html"))
	files = append(files, more...)
	if len(files) < 16 {
		t.Fatalf("only %d pages", len(files))
	}
	for _, file := range files {
		src := read(t, file)
		doc := fakedom.Parse(src)
		out := fakedom.HTML(doc)
		if again := fakedom.HTML(fakedom.Parse(out)); again != out {
			t.Errorf("%s does not serialise back to itself", file)
		}
		if got, want := len(startTag.FindAllString(out, -1)), len(startTag.FindAllString(src, -1)); got != want {
			t.Errorf("%s: %d elements from %d start tags", file, got, want)
		}
		if doc.Body() == nil || doc.Query("head > title") == nil || doc.Body().Attr(block.AttrPage) == "" && !strings.Contains(file, "proxy") {
			t.Errorf("%s: no body, title or page kind", file)
		}
	}
}

// A drawing as a cell shows it: the SVG and its controls, set into the
// cell's drawings, read back as a learner would use them.
func TestDrawing(t *testing.T) {
	a, b, c := engine.NewValue(2, "a"), engine.NewValue(-3, "b"), engine.NewValue(10, "c")
	e := a.Mul(b)
	e.Label = "e"
	L := e.Add(c).Mul(e)
	L.Label = "L"
	L.Backward()
	d := draw.Value(L, nil)
	doc := fakedom.Parse(block.CodeCellHTML("c", 1, "x = 1"))
	drawings := fakedom.Find(t, doc, block.Sel("div", block.ClassDrawings))
	markup := d.SVG(draw.View{ID: "c-d1"}) + d.ControlsHTML("c-d1")
	drawings.SetHTML(markup)
	if got, want := len(startTag.FindAllString(fakedom.HTML(drawings), -1)), 1+len(startTag.FindAllString(markup, -1)); got != want {
		t.Errorf("%d elements from %d start tags", got, want)
	}
	svg := fakedom.Find(t, drawings, "svg.graph")
	if fakedom.VisibleText(svg) == "" || strings.Contains(fakedom.VisibleText(svg), svg.Query("desc").Text()) {
		t.Error("the drawing shows no text, or shows its description")
	}
	if n := svg.Query(`g[data-name="a"]`); n == nil || !strings.Contains(n.Text(), words.Rounded(a.Grad)) {
		t.Errorf("a's box does not show its gradient %s", words.Rounded(a.Grad))
	}
	if !fakedom.Find(t, drawings, block.Of(draw.ClassStepBack)).HasAttr("disabled") {
		t.Error("Step back is enabled at the start")
	}
	// A learner ticks the overwrite bug by its label, and picks a value
	// to see its paths.
	overwrite := fakedom.Find(t, drawings, "input."+draw.ClassOverwrite)
	var heard []string
	drawings.Listen("change", func(e page.Event) { heard = append(heard, e.Target().Attr("class")) })
	fakedom.Click(overwrite.Closest("label"))
	paths := fakedom.Find(t, drawings, "select."+draw.ClassPathsFrom)
	if paths.Value() != "" {
		t.Errorf("paths from %q before a choice", paths.Value())
	}
	opts := paths.QueryAll("option")
	fakedom.Choose(paths, opts[len(opts)-1].Value())
	if !overwrite.Checked() || strings.Join(heard, " ") != draw.ClassOverwrite+" "+draw.ClassPathsFrom || paths.Value() == "" {
		t.Errorf("after the learner's choices: checked %v, heard %v, paths from %q", overwrite.Checked(), heard, paths.Value())
	}
}

// The largest page the build makes of the real lessons, parsed, and each
// selector of the page contract looked for in it.
func BenchmarkLessonPage(b *testing.B) {
	dir, _ := build(b, "../../../site/lessons")
	files, _ := filepath.Glob(filepath.Join(dir, "lessons", "*.html"))
	var src string
	for _, f := range files {
		if s := read(b, f); len(s) > len(src) {
			src = s
		}
	}
	b.Run("Parse", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			fakedom.Parse(src)
		}
	})
	doc := fakedom.Parse(src)
	b.Run("QueryAll", func(b *testing.B) {
		for b.Loop() {
			for _, s := range block.Selectors {
				doc.QueryAll(s.Sel)
			}
		}
	})
}
