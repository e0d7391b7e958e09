package page_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"gradbook/notebook/page"
	"gradbook/notebook/page/fakedom"
)

// drawing runs the cell with id on the drawings page and returns its
// first drawing.
func (b *bench) drawing(id string) page.Node {
	b.t.Helper()
	return b.within(b.run(id), "figure.drawing")
}

// picture is what the learner reads in a drawing's picture.
func (b *bench) picture(fig page.Node) string {
	b.t.Helper()
	return fakedom.VisibleText(b.within(fig, ".svg-box"))
}

// stepText is what a drawing says of its step.
func (b *bench) stepText(fig page.Node) string {
	b.t.Helper()
	return fakedom.VisibleText(b.within(fig, ".step-text"))
}

// off reports whether the button sel matches in fig is off.
func (b *bench) off(fig page.Node, sel string) bool {
	b.t.Helper()
	return b.within(fig, sel).HasAttr("disabled")
}

// folded are the keys of a drawing's folded groups, in drawing order.
func folded(fig page.Node) []string {
	var keys []string
	for _, g := range fig.QueryAll("g.group.folded") {
		keys = append(keys, g.Attr("data-group"))
	}
	return keys
}

// Step walks the reverse pass a node at a time, with what each step adds
// to each input's gradient; Step back goes back, Whole pass shows the
// finished pass, and each button works only where it can.
func TestStepThroughTheReversePass(t *testing.T) {
	b := open(t, drawings)
	fig := b.drawing("reuse")
	if got := b.stepText(fig); got != "The reverse pass visits 2 nodes, from c back. Press Step to follow it." {
		t.Errorf("before a step the drawing says %q", got)
	}
	if !b.off(fig, "button.step-back") || !b.off(fig, "button.step-all") || b.off(fig, "button.step") {
		t.Error("at the start Step back or Whole pass works, or Step does not")
	}
	steps := []struct{ text, picture string }{
		{"Step 1 of 2: at c (add), gradient 1. b.grad += 1 × 1 = 1 → 1. b.grad += 1 × 1 = 1 → 2.", "··11avalue 2grad 0b = addvalue 4grad 2c = addvalue 8grad 1"},
		{"Step 2 of 2: at b (add), gradient 2. a.grad += 2 × 1 = 2 → 2. a.grad += 2 × 1 = 2 → 4.", "2211avalue 2grad 4b = addvalue 4grad 2c = addvalue 8grad 1"},
	}
	for i, s := range steps {
		b.clickIn(fig, "button.step")
		if got := fig.Attr("data-step"); got != string(rune('1'+i)) {
			t.Errorf("after %d Steps the drawing is at step %s", i+1, got)
		}
		if got := b.stepText(fig); got != s.text {
			t.Errorf("step %d says %q", i+1, got)
		}
		if got := b.picture(fig); got != s.picture {
			t.Errorf("step %d shows %q", i+1, got)
		}
	}
	if !b.off(fig, "button.step") || b.off(fig, "button.step-back") || b.off(fig, "button.step-all") {
		t.Error("at the last step Step works, or Step back or Whole pass does not")
	}
	b.clickIn(fig, "button.step") // off: nothing happens
	b.clickIn(fig, "button.step-back")
	if fig.Attr("data-step") != "1" || b.stepText(fig) != steps[0].text {
		t.Errorf("Step back: step %s, %q", fig.Attr("data-step"), b.stepText(fig))
	}
	b.clickIn(fig, "button.step-all")
	if fig.Attr("data-step") != "0" || b.picture(fig) != "2211avalue 2grad 4b = addvalue 4grad 2c = addvalue 8grad 1" {
		t.Errorf("Whole pass: step %s, %q", fig.Attr("data-step"), b.picture(fig))
	}
	if !b.off(fig, "button.step-back") || !b.off(fig, "button.step-all") {
		t.Error("after Whole pass Step back or Whole pass works")
	}
	b.clickIn(fig, "figcaption") // nothing to do there
	if fig.Attr("data-step") != "0" {
		t.Errorf("a click on the caption moved the drawing to step %s", fig.Attr("data-step"))
	}
}

// Each classic bug shows its gradients beside the right ones, one bug at
// a time: checking one unchecks the others, and unchecking it shows the
// right gradients alone again.
func TestBugToggles(t *testing.T) {
	b := open(t, drawings)
	fig := b.drawing("reuse")
	right := b.picture(fig)
	toggle := func(class string) page.Node { return b.within(fig, "input."+class) }
	bugs := []struct{ class, picture string }{
		{"overwrite", "2211avalue 2grad 4bug: 1b = addvalue 4grad 2bug: 1c = addvalue 8grad 1"},
		{"twice", "2211avalue 2grad 42nd call: 8b = addvalue 4grad 22nd call: 4c = addvalue 8grad 12nd call: 2"},
		{"recursive", "2211avalue 2grad 4recursive: 8b = addvalue 4grad 2recursive: 2 (sent on 2×)c = addvalue 8grad 1"},
	}
	for _, bug := range bugs {
		fakedom.Click(toggle(bug.class).Closest("label")) // the toggle's words
		b.p.Settle()
		if got := b.picture(fig); got != bug.picture {
			t.Errorf("%s shows %q", bug.class, got)
		}
		for _, other := range bugs {
			if on := toggle(other.class).Checked(); on != (other.class == bug.class) {
				t.Errorf("with %s on, %s is checked: %v", bug.class, other.class, on)
			}
		}
	}
	b.clickIn(fig, "input.recursive")
	if got := b.picture(fig); got != right {
		t.Errorf("with every bug off the drawing shows %q", got)
	}
	b.clickIn(fig, "input.twice")
	b.clickIn(fig, "button.step")
	if got := b.picture(fig); !strings.Contains(got, "2nd call") || fig.Attr("data-step") != "1" {
		t.Errorf("a step with a bug on shows %q", got)
	}
}

// A drawing whose recursive pass gives the same gradients as the right
// one has no toggle for it.
func TestNoRecursiveToggleWhereItChangesNothing(t *testing.T) {
	b := open(t, blocks)
	fig := b.within(b.run("worked"), "figure.drawing")
	if fig.Query("input.recursive") != nil || fig.Query("input.overwrite") == nil {
		t.Error("the toggles are not the two that change something")
	}
	b.clickIn(fig, "input.overwrite")
	b.clickIn(fig, "input.twice")
	if b.within(fig, "input.overwrite").Checked() || !strings.Contains(b.picture(fig), "2nd call") {
		t.Errorf("with two toggles, twice on: overwrite checked %v, %q", b.within(fig, "input.overwrite").Checked(), b.picture(fig))
	}
}

// The Paths from menu lists every path from a value to the output with
// its product, and their sum, the gradient; the path is marked in the
// drawing; choosing no value takes them away.
func TestPathsMenu(t *testing.T) {
	b := open(t, drawings)
	fig := b.drawing("reuse")
	before := fakedom.HTML(b.within(fig, ".svg-box"))
	fakedom.Choose(b.within(fig, "select.paths-from"), "0")
	b.p.Settle()
	want := "4 paths from a to c:" +
		"a → b (input 1) → c (input 1): 1 × 1 = 1a → b (input 1) → c (input 2): 1 × 1 = 1" +
		"a → b (input 2) → c (input 1): 1 × 1 = 1a → b (input 2) → c (input 2): 1 × 1 = 1" +
		"Sum of the paths: 4 = ∂c/∂a."
	if got := fakedom.VisibleText(b.within(fig, ".paths")); got != want {
		t.Errorf("the paths from a:\n%q\nwant\n%q", got, want)
	}
	if fakedom.HTML(b.within(fig, ".svg-box")) == before {
		t.Error("the paths are not marked in the drawing")
	}
	fakedom.Choose(b.within(fig, "select.paths-from"), "1")
	b.p.Settle()
	if got := fakedom.VisibleText(b.within(fig, ".paths")); !strings.HasPrefix(got, "2 paths from b to c:") {
		t.Errorf("the paths from b: %q", got)
	}
	fakedom.Choose(b.within(fig, "select.paths-from"), "")
	b.p.Settle()
	if got := fakedom.VisibleText(b.within(fig, ".paths")); got != "" || fakedom.HTML(b.within(fig, ".svg-box")) != before {
		t.Errorf("with no value chosen the paths say %q, and the drawing is marked", got)
	}
}

// A graph of over 40 values is drawn folded, a box per neuron; a click
// on a group's box opens it, so does the Open menu, and Fold every group
// folds them again. Step stops once per run of steps inside a folded
// group.
func TestFoldedGraph(t *testing.T) {
	b := open(t, drawings)
	fig := b.drawing("mlp")
	all := []string{"L", "L1 neuron 1", "L1 neuron 2", "L1 neuron 3", "L1 neuron 4"}
	if got := folded(fig); !slices.Equal(got, all) {
		t.Fatalf("folded: %q", got)
	}
	if !b.off(fig, "button.fold-all") {
		t.Error("Fold every group works with every group folded")
	}
	b.clickIn(fig, "button.step")
	if got := b.stepText(fig); got != "Steps 1 to 4 of 34 are inside L, folded: the gradient 1 at L flows back through 16 values. L1 neuron 4 receives 0.35893. Open the group to follow each step." || fig.Attr("data-step") != "4" {
		t.Errorf("the first stop, step %s: %q", fig.Attr("data-step"), got)
	}
	b.clickIn(fig, "button.step")
	if fig.Attr("data-step") != "10" {
		t.Errorf("the second stop is step %s", fig.Attr("data-step"))
	}
	b.clickIn(fig, "button.step-back")
	if fig.Attr("data-step") != "4" {
		t.Errorf("Step back goes to step %s", fig.Attr("data-step"))
	}
	b.clickIn(fig, "button.step-all")

	// A click on a folded group, on any part of its box.
	for _, g := range fig.QueryAll("g.group.folded") {
		if g.Attr("data-group") == "L1 neuron 2" {
			fakedom.Click(fakedom.Find(t, g, "text"))
		}
	}
	b.p.Settle()
	if got := folded(fig); !slices.Equal(got, []string{"L", "L1 neuron 1", "L1 neuron 3", "L1 neuron 4"}) {
		t.Errorf("after a click on L1 neuron 2, folded: %q", got)
	}
	if b.off(fig, "button.fold-all") {
		t.Error("Fold every group does not work with a group open")
	}
	groups := b.within(fig, "select.group-open")
	fakedom.Choose(groups, "L")
	b.p.Settle()
	if got := folded(fig); !slices.Equal(got, []string{"L1 neuron 1", "L1 neuron 3", "L1 neuron 4"}) {
		t.Errorf("after Open L, folded: %q", got)
	}
	if groups.Value() != "" {
		t.Errorf("the Open menu still says %q", groups.Value())
	}
	b.clickIn(fig, "button.step")
	if got := b.stepText(fig); !strings.HasPrefix(got, "Step 1 of 34: at L (tanh)") || fig.Attr("data-step") != "1" {
		t.Errorf("in the open group Step stops at step %s: %q", fig.Attr("data-step"), got)
	}
	for _, key := range []string{"L", ""} { // open already, and the menu's own line
		fakedom.Choose(groups, key)
		b.p.Settle()
		if got := folded(fig); len(got) != 3 {
			t.Errorf("after choosing %q, folded: %q", key, got)
		}
	}
	b.clickIn(fig, "button.fold-all")
	if got := folded(fig); !slices.Equal(got, all) || !b.off(fig, "button.fold-all") {
		t.Errorf("after Fold every group, folded: %q", got)
	}
}

// You do the backward pass: before each step the learner types what it
// adds to each input's gradient, and the drawing judges each number,
// naming the usual slips, until the whole pass is done; turned off, the
// drawing is as before.
func TestYouDoTheBackwardPass(t *testing.T) {
	b := open(t, drawings)
	fig := b.drawing("reuse")
	b.clickIn(fig, "button.step")
	b.clickIn(fig, "input.practice")
	if got := b.stepText(fig); got != "Do the reverse pass yourself: for each step, type what it adds to the gradient of each input, then check it." {
		t.Errorf("the drawing says %q", got)
	}
	if fig.Attr("data-step") != "0" || !b.off(fig, "button.step") {
		t.Errorf("the pass does not start over, or Step works: step %s", fig.Attr("data-step"))
	}
	blanks := b.within(fig, ".blanks")
	ask := func() string { return fakedom.VisibleText(fakedom.Find(t, blanks, "p")) }
	inputs := func() []page.Node { return blanks.QueryAll("input.blank-input") }
	verdicts := func() []string {
		var vs []string
		for _, v := range blanks.QueryAll(".blank-verdict") {
			vs = append(vs, v.Text())
		}
		return vs
	}
	if got := ask(); got != "Step 1 of 2, at c: what does it add to the gradient of each input?" {
		t.Errorf("the first question: %q", got)
	}
	if a := b.doc.Active(); a == nil || !a.Is(inputs()[0]) {
		t.Error("the keyboard is not in the first blank")
	}
	for _, label := range blanks.QueryAll("label") {
		if label.Text() != "b.grad += " {
			t.Errorf("a blank is labelled %q", label.Text())
		}
	}
	fakedom.Type(inputs()[0], "1")
	fakedom.Type(inputs()[1], "one")
	fakedom.Fire(inputs()[1], "change") // the learner leaves the field
	b.clickIn(blanks, "button.check-step")
	if got := verdicts(); got[0] != "Right: the gradient at c, 1, times the local derivative ∂c/∂b = 1, is 1." || got[1] != "Type a number." {
		t.Errorf("the verdicts: %q", got)
	}
	if fig.Attr("data-step") != "0" {
		t.Errorf("a step half right moved on to %s", fig.Attr("data-step"))
	}
	fakedom.Type(inputs()[1], "1")
	b.clickIn(blanks, "button.check-step")
	if fig.Attr("data-step") != "1" || b.stepText(fig) != "Step 1 of 2: at c (add), gradient 1. b.grad += 1 × 1 = 1 → 1. b.grad += 1 × 1 = 1 → 2." {
		t.Errorf("a right step: step %s, %q", fig.Attr("data-step"), b.stepText(fig))
	}
	if got := ask(); got != "Step 2 of 2, at b: what does it add to the gradient of each input?" {
		t.Errorf("the second question: %q", got)
	}
	for _, c := range []struct{ typed, why string }{
		{"1", "That is the local derivative ∂b/∂a alone."},
		{"-2", "The size is right, the sign is not"},
		{"7", "Not yet: the contribution is the gradient that has reached b (2) times the local derivative ∂b/∂a."},
	} {
		fakedom.Type(inputs()[0], c.typed)
		fakedom.Type(inputs()[1], "2")
		b.clickIn(blanks, "button.check-step")
		if got := verdicts()[0]; !strings.HasPrefix(got, c.why) {
			t.Errorf("%s: %q", c.typed, got)
		}
	}
	b.clickIn(fig, "button.step-back")
	if fig.Attr("data-step") != "0" || ask() != "Step 1 of 2, at c: what does it add to the gradient of each input?" {
		t.Errorf("Step back while doing the pass: step %s, %q", fig.Attr("data-step"), ask())
	}
	for _, want := range []string{"1", "2"} {
		for _, in := range inputs() {
			fakedom.Type(in, want)
		}
		b.clickIn(blanks, "button.check-step")
	}
	if got := fakedom.VisibleText(blanks); got != "You did the whole reverse pass: every gradient is in the drawing." || fig.Attr("data-step") != "2" {
		t.Errorf("at the end, step %s: %q", fig.Attr("data-step"), got)
	}
	b.clickIn(fig, "input.practice")
	if fakedom.VisibleText(blanks) != "" || fig.Attr("data-step") != "0" || b.off(fig, "button.step") {
		t.Errorf("turned off: blanks %q, step %s", fakedom.VisibleText(blanks), fig.Attr("data-step"))
	}
	if got := b.stepText(fig); got != "The reverse pass visits 2 nodes, from c back. Press Step to follow it." {
		t.Errorf("turned off, the drawing says %q", got)
	}
}

// A value computed from nothing has a drawing without controls, which
// says there is no reverse pass; a graph drawn without an output has no
// steps and no gradients.
func TestDrawingsWithoutAReversePass(t *testing.T) {
	b := open(t, drawings)
	fig := b.drawing("single")
	if fig.Query(".controls") != nil || fig.Query("input.practice") != nil {
		t.Error("a single value's drawing has controls")
	}
	if got := b.stepText(fig); got != "k is not computed from other values: there is no reverse pass to step through." {
		t.Errorf("it says %q", got)
	}
	fig = b.drawing("values")
	if fig.Query(".controls") != nil || fig.Query("input.practice") != nil || b.stepText(fig) != "" {
		t.Errorf("a drawing without an output has controls, or says %q", b.stepText(fig))
	}
	if got := b.picture(fig); got != "avalue 2bvalue 3p = mulvalue 6" {
		t.Errorf("it shows %q", got)
	}
}

// A drawing fits its column: left to right where that reads, top to
// bottom in a narrow one, and a box that still does not fit scrolls
// sideways and says so.
func TestDrawingLayout(t *testing.T) {
	b := open(t, drawings)
	svg := func(fig page.Node) page.Node { return b.within(fig, "svg.graph") }
	fig := b.drawing("mlp")
	if got := svg(fig).Attr("data-layout"); got != "horizontal" {
		t.Errorf("in a 720 px column the drawing is %s", got)
	}
	if got := fakedom.Style(svg(fig), "min-width"); got != svg(fig).Attr("data-min-width")+"px" {
		t.Errorf("its min-width is %q, not %spx", got, svg(fig).Attr("data-min-width"))
	}
	if fig.HasAttr("data-scrolls") {
		t.Error("a drawing that fits scrolls")
	}
	b.doc.SetWidth(390)
	fig = b.drawing("mlp")
	if got := svg(fig).Attr("data-layout"); got != "vertical" {
		t.Errorf("in a 390 px column the drawing is %s", got)
	}
	if got := fakedom.Style(svg(fig), "min-width"); got != "288px" {
		t.Errorf("top to bottom its min-width is %q", got)
	}
	// At 200 px nothing fits: the box is as wide as the drawing's
	// minimum, and scrolls.
	b.doc.SetWidth(200)
	fig = b.run("mlp").Query("figure.drawing")
	box := b.within(fig, ".svg-box")
	fakedom.SetScrollWidth(box, 288)
	b.resize(200)
	if got := fig.Attr("data-scrolls"); got != "true" {
		t.Errorf("a drawing wider than its box: data-scrolls %q", got)
	}
	fakedom.SetScrollWidth(box, 200)
	b.resize(720)
	if fig.HasAttr("data-scrolls") || svg(fig).Attr("data-layout") != "horizontal" {
		t.Errorf("widened again: scrolls %q, %s", fig.Attr("data-scrolls"), svg(fig).Attr("data-layout"))
	}
}

// When the window's width settles after a resize, every drawing is
// fitted to its column again, keeping its step; the drawings of a cell
// run again are the only ones fitted, not those it replaced.
func TestRelayoutAfterAResize(t *testing.T) {
	b := open(t, drawings)
	reuse, mlp := b.drawing("reuse"), b.drawing("mlp")
	b.clickIn(mlp, "button.step")
	layout := func(fig page.Node) string { return b.within(fig, "svg.graph").Attr("data-layout") }
	b.doc.SetWidth(250)
	b.doc.FireWindow("resize", false)
	b.p.Settle()
	b.wait(100 * time.Millisecond)
	if layout(reuse) != "horizontal" {
		t.Error("the drawings were fitted before the width settled")
	}
	b.doc.FireWindow("resize", false) // still moving: the wait starts again
	b.p.Settle()
	b.wait(100 * time.Millisecond)
	if layout(reuse) != "horizontal" {
		t.Error("the drawings were fitted while the width was still changing")
	}
	b.wait(50 * time.Millisecond)
	if layout(reuse) != "vertical" || layout(mlp) != "vertical" {
		t.Errorf("150 ms after the last resize: %s and %s", layout(reuse), layout(mlp))
	}
	if mlp.Attr("data-step") != "4" {
		t.Errorf("the relayout lost the step: %s", mlp.Attr("data-step"))
	}
	b.run("reuse") // its old drawing goes
	b.resize(720)
	if got := layout(reuse); got != "vertical" {
		t.Errorf("a drawing no longer shown was fitted again: %s", got)
	}
	if got := layout(b.within(b.cell("reuse"), "figure.drawing")); got != "horizontal" {
		t.Errorf("the new drawing is %s", got)
	}
}

// Step scrolls the node it is at into view: sideways in the drawing's
// box, which is narrower than the drawing, and the page when the node
// is below the window.
func TestStepScrollsToItsNode(t *testing.T) {
	b := open(t, drawings, func(b *bench) { b.browser.height = 120 })
	fig := b.drawing("mlp")
	box := b.within(fig, ".svg-box")
	fakedom.SetClientWidth(box, 200)
	scrolls := func() []float64 {
		b.browser.mu.Lock()
		defer b.browser.mu.Unlock()
		return slices.Clone(b.browser.scrolled)
	}
	b.clickIn(fig, "button.step") // at L, on the right
	right := fakedom.ScrollLeft(box)
	if right <= 0 {
		t.Errorf("the box did not scroll sideways to the output: %v", right)
	}
	for range 5 {
		b.clickIn(fig, "button.step")
	}
	if left := fakedom.ScrollLeft(box); left >= right {
		t.Errorf("stepping back towards the inputs the box scrolled from %v to %v", right, left)
	}
	scrolled := scrolls()
	if len(scrolled) == 0 {
		t.Fatal("the page never scrolled to a step's node below the window")
	}
	for _, dy := range scrolled {
		if dy <= 0 {
			t.Errorf("to a node below the window the page scrolled by %v", dy)
		}
	}
	b.clickIn(fig, "button.step-all")
	if len(scrolls()) != len(scrolled) {
		t.Error("the whole pass scrolled the page")
	}
	b.browser.height = 2000 // a window that shows the whole drawing
	b.clickIn(fig, "button.step")
	if len(scrolls()) != len(scrolled) {
		t.Error("a step whose node is in the window scrolled the page")
	}
}

// Each drawing's controls are its own: two cells' drawings step apart,
// and their controls' ids are apart too.
func TestDrawingsOfTwoCells(t *testing.T) {
	b := open(t, drawings)
	reuse, mlp := b.drawing("reuse"), b.drawing("mlp")
	b.clickIn(reuse, "button.step")
	if reuse.Attr("data-step") != "1" || mlp.Attr("data-step") != "0" {
		t.Errorf("one Step moved both: %s and %s", reuse.Attr("data-step"), mlp.Attr("data-step"))
	}
	b.clickIn(mlp, "input.overwrite")
	if b.within(reuse, "input.overwrite").Checked() || strings.Contains(b.picture(reuse), "bug:") {
		t.Error("a toggle of one drawing turned on the other's")
	}
	if a, m := b.within(reuse, "input.overwrite").Attr("id"), b.within(mlp, "input.overwrite").Attr("id"); a != "reuse-d1-overwrite" || m != "mlp-d1-overwrite" {
		t.Errorf("the toggles' ids are %q and %q", a, m)
	}
}

// Reset of a cell whose code is the lesson's asks nothing: its output,
// its state and its drawings go.
func TestResetTakesAwayDrawings(t *testing.T) {
	b, c := openRan(t, drawings, "reuse")
	b.clickIn(c, "button.reset")
	if c.Query(".confirm") != nil {
		t.Error("Reset of the lesson's own code asks first")
	}
	if out(t, c) != "" || c.HasAttr("data-state") || c.Query("figure.drawing") != nil {
		t.Errorf("after Reset the cell shows %q, state %q, drawings %d", out(t, c), c.Attr("data-state"), len(c.QueryAll("figure.drawing")))
	}
	if got := b.status(); got != "The cell is back to its original code." {
		t.Errorf("the status says %q", got)
	}
}

// A drawing whose column is hidden (a course page's other tab) keeps its
// layout and its scroll when the window resizes meanwhile: it has no
// width to fit.
func TestHiddenDrawingKeepsItsPlace(t *testing.T) {
	b := open(t, drawings)
	fig := b.drawing("mlp")
	box := b.within(fig, ".svg-box")
	fakedom.SetClientWidth(box, 200)
	b.clickIn(fig, "button.step")
	left := fakedom.ScrollLeft(box)
	if left <= 0 {
		t.Fatalf("the box did not scroll sideways: %v", left)
	}
	fakedom.SetClientWidth(box, 0)
	b.resize(0)
	if got := b.within(fig, "svg.graph").Attr("data-layout"); got != "horizontal" {
		t.Errorf("hidden, the drawing was laid out %s", got)
	}
	if got := fakedom.ScrollLeft(box); got != left || fig.HasAttr("data-scrolls") {
		t.Errorf("hidden, the box scrolled from %v to %v, scrolls %q", left, got, fig.Attr("data-scrolls"))
	}
}

// "You do the backward pass" starts with nothing given away: the picture
// shows the output's gradient, 1, and 0 for the rest, no contribution on
// any edge, and the table no gradient but those; each right step then
// shows what it earned.
func TestPracticeStartsWithoutTheAnswers(t *testing.T) {
	b := open(t, drawings)
	fig := b.drawing("reuse")
	b.clickIn(fig, "input.practice")
	if got := b.picture(fig); got != "····avalue 2grad 0b = addvalue 4grad 0c = addvalue 8grad 1" {
		t.Errorf("at the start the picture shows %q", got)
	}
	table := func() string { return b.within(fig, "table.graph-table").Text() }
	if got := table(); got != "namecomputed asvalue∂c/∂value, so faraleaf20badd(a, a)40cadd(b, b)81" {
		t.Errorf("at the start the table reads %q", got)
	}
	blanks := b.within(fig, ".blanks")
	for _, in := range blanks.QueryAll("input.blank-input") {
		fakedom.Type(in, "1")
	}
	b.clickIn(blanks, "button.check-step")
	if got := b.picture(fig); got != "··11avalue 2grad 0b = addvalue 4grad 2c = addvalue 8grad 1" {
		t.Errorf("after the first step the picture shows %q", got)
	}
	if got := table(); got != "namecomputed asvalue∂c/∂value, so faraleaf20badd(a, a)42cadd(b, b)81" {
		t.Errorf("after the first step the table reads %q", got)
	}
	b.clickIn(fig, "input.practice")
	if got := b.picture(fig); got != "2211avalue 2grad 4b = addvalue 4grad 2c = addvalue 8grad 1" {
		t.Errorf("turned off, the picture shows %q", got)
	}
	if got := table(); got != "namecomputed asvalue∂c/∂valuealeaf24badd(a, a)42cadd(b, b)81" {
		t.Errorf("turned off, the table reads %q", got)
	}
}

// Where two values have the same label (two products without names),
// the question and the blanks say which is meant.
func TestPracticeNamesNodesApart(t *testing.T) {
	b := open(t, drawings)
	b.typeCode(b.cell("reuse"), "a, b = Value(2.0, \"a\"), Value(3.0, \"b\")\nc, e = Value(4.0, \"c\"), Value(5.0, \"e\")\nL = a * b + c * e\nL.backward()")
	fig := b.drawing("reuse")
	b.clickIn(fig, "input.practice")
	blanks := b.within(fig, ".blanks")
	var labels []string
	for _, l := range blanks.QueryAll("label") {
		labels = append(labels, l.Text())
	}
	if want := []string{"mul (the first, value 6).grad += ", "mul (the second, value 20).grad += "}; !slices.Equal(labels, want) {
		t.Errorf("the blanks of the first step are labelled %q, want %q", labels, want)
	}
	for _, in := range blanks.QueryAll("input.blank-input") {
		fakedom.Type(in, "1")
	}
	b.clickIn(blanks, "button.check-step")
	if got := fakedom.VisibleText(fakedom.Find(t, blanks, "p")); got != "Step 2 of 3, at mul (the second, value 20): what does it add to the gradient of each input?" {
		t.Errorf("the second question: %q", got)
	}
}

// The buttons that step through the pass keep the keyboard: one that
// turns itself off (Step at the last step, Whole pass, Step back at the
// start) hands the focus to the one that goes on from there, instead of
// dropping it to the page.
func TestStepButtonsKeepTheKeyboard(t *testing.T) {
	b := open(t, drawings)
	fig := b.drawing("reuse")
	press := func(sel string) {
		t.Helper()
		btn := b.within(fig, sel)
		btn.Focus()
		if a := b.doc.Active(); !a.Is(btn) {
			t.Fatalf("%s cannot have the focus", sel)
		}
		b.clickIn(fig, sel)
	}
	focused := func(after, want string) {
		t.Helper()
		if a := b.doc.Active(); !a.Is(b.within(fig, want)) {
			t.Errorf("after %s the focus is on %s, want %s", after, fakedom.HTML(a), want)
		}
	}
	press("button.step")
	focused("the first Step", "button.step")
	press("button.step")
	focused("the last Step", "button.step-all")
	press("button.step-all")
	focused("Whole pass", "button.step")
	press("button.step")
	press("button.step-back")
	focused("Step back to the start", "button.step")
}
