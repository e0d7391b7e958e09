package page_test

import (
	"regexp"
	"strings"
	"testing"

	"gradbook/notebook/page"
	"gradbook/notebook/page/fakedom"
)

// A plot under a cell has its title, its picture, a summary in words and
// the plot as a table, folded; a plot without a title has no caption.
func TestPlotUnderACell(t *testing.T) {
	b, c := openRan(t, drawings, "plots")
	fig := b.within(c, "figure.plot")
	if got := fakedom.VisibleText(b.within(fig, "figcaption")); got != "Loss" {
		t.Errorf("the plot's caption is %q", got)
	}
	if fig.Query(".plot-box svg.plot") == nil {
		t.Error("the plot has no picture")
	}
	if got := fakedom.VisibleText(b.within(fig, ".plot-summary")); got != "loss goes from 3 to 1.2 over 4 steps." {
		t.Errorf("the summary says %q", got)
	}
	table := b.within(fig, "details")
	if got := fakedom.VisibleText(table); got != "The plot as a table" {
		t.Errorf("folded, the table shows %q", got)
	}
	b.clickIn(table, "summary")
	rows := tableRows(table)
	if len(rows) != 2 || rows[0] != "series|points|first|lowest (at)|highest (at)|last" || rows[1] != "loss|4|3|1.2 (3)|3 (0)|1.2" {
		t.Errorf("opened, the table has %q", rows)
	}
	if len(table.QueryAll("th")) != 6 {
		t.Error("the table's first row is not its header")
	}
	b.typeCode(c, "plot([1.0])")
	b.run("plots")
	figs := c.QueryAll("figure.plot")
	if len(figs) != 1 || figs[0].Query("figcaption") != nil {
		t.Errorf("run again with a plot without a title: %d plots, caption %v", len(figs), figs[0].Query("figcaption") != nil)
	}
}

// What a cell prints in columns keeps its lines whole in a box of its
// own, apart from the prose around it.
func TestTableInAnOutput(t *testing.T) {
	b, c := openRan(t, drawings, "plots")
	o := b.within(c, "output.out")
	tables := o.QueryAll("span.table")
	if len(tables) != 1 || tables[0].Text() != "step  loss\n0     3.0\n1     2.0\n" {
		t.Fatalf("the tables: %d, %q", len(tables), fakedom.HTML(o))
	}
	if tables[0].Attr("tabindex") != "0" {
		t.Error("a printed table, which may scroll sideways, cannot have the keyboard")
	}
	if got := out(t, c); got != "step  loss\n0     3.0\n1     2.0\ndone\n" {
		t.Errorf("the output reads %q", got)
	}
	b.typeCode(c, `print("prose  with a gap")`+"\n"+`print("and more")`)
	b.run("plots")
	if o.Query("span.table") != nil || out(t, c) != "prose  with a gap\nand more\n" {
		t.Errorf("one line with a gap is a table: %s", fakedom.HTML(o))
	}
}

// Run all shows each cell's own output, plots and drawings, and says
// how many ran clean.
func TestRunAllShowsEachResult(t *testing.T) {
	b := open(t, drawings)
	b.click("#run-all")
	if got := b.status(); !regexp.MustCompile(`^Ran all 5 cells in \d+ ms: 5 ran clean\.$`).MatchString(got) {
		t.Errorf("status %q", got)
	}
	for id, want := range map[string]struct{ plots, drawings int }{"reuse": {0, 1}, "mlp": {0, 1}, "plots": {1, 0}, "single": {0, 1}, "values": {0, 1}} {
		c := b.cell(id)
		if p, d := len(c.QueryAll("figure.plot")), len(c.QueryAll("figure.drawing")); p != want.plots || d != want.drawings {
			t.Errorf("%s shows %d plots and %d drawings", id, p, d)
		}
	}
	if got := b.cell("reuse").Query("figure.drawing").Attr("id"); got != "reuse-d1" {
		t.Errorf("the drawing's id is %q", got)
	}
	b.click("#run-all")
	if n := len(b.cell("reuse").QueryAll("figure.drawing")); n != 1 {
		t.Errorf("after Run all again reuse shows %d drawings", n)
	}
}

// Run all shows an error in the cell that has it, its line marked, and
// the cells below say they did not run because of it; a runner that dies
// says so in every cell of its job.
func TestRunAllWithAnError(t *testing.T) {
	b, mlp := openTyped(t, drawings, "mlp", "x = 1\nprint(x.nope)", withEditors)
	b.click("#run-all")
	if got := b.status(); !regexp.MustCompile(`^Ran all 5 cells in \d+ ms: 1 ran clean\.$`).MatchString(got) {
		t.Errorf("status %q", got)
	}
	if got := out(t, mlp); got != "cell 2, line 2\n    print(x.nope)\nError: int has no .nope field or method" || mlp.Attr("data-state") != "error" {
		t.Errorf("the cell with the error shows %q, state %q", got, mlp.Attr("data-state"))
	}
	if got := b.editors.in(mlp).mark; got != 2 {
		t.Errorf("line %d is marked, want 2", got)
	}
	if got := out(t, b.cell("plots")); got != "not run: cell 2 above has an error; fix it first" {
		t.Errorf("the cell below shows %q", got)
	}
	if b.editors.in(b.cell("plots")).mark != 0 {
		t.Error("a cell that did not run has a line marked")
	}
	if got := out(t, b.cell("reuse")); got != "4.0\n" {
		t.Errorf("the cell above shows %q", got)
	}

	b.typeCode(mlp, "L = 1")
	b.typeCode(b.cell("values"), "die()")
	b.click("#run-all")
	if got := b.status(); !regexp.MustCompile(`^Ran all 5 cells in \d+ ms: 0 ran clean\.$`).MatchString(got) {
		t.Errorf("status %q", got)
	}
	for _, id := range []string{"reuse", "values"} {
		if got := out(t, b.cell(id)); !strings.Contains(got, "the runner stopped (fatal error: out of memory) and was started again") {
			t.Errorf("%s shows %q", id, got)
		}
	}
	b.typeCode(b.cell("values"), "print('back')")
	b.click("#run-all")
	if got := out(t, b.cell("values")); got != "back\n" {
		t.Errorf("the next Run all shows %q", got)
	}
}

// Run all on a scratch notebook without cells does nothing, and says
// nothing.
func TestRunAllWithoutCells(t *testing.T) {
	b := open(t, "scratch.html")
	b.click("#cells button.delete") // empty: deleted without a question
	if n := len(b.doc.QueryAll("section.code-cell")); n != 0 {
		t.Fatalf("%d cells left", n)
	}
	before := b.status()
	b.click("#run-all")
	if got := b.status(); got != before || len(b.notices()) > 0 {
		t.Errorf("Run all without cells: status %q, notices %q", got, b.notices())
	}
}

// While Run all runs, the status line says so, and which cell it is at:
// not "Ready" for the seconds a long lesson takes.
func TestRunAllSaysWhatRuns(t *testing.T) {
	b := open(t, drawings)
	b.typeCode(b.cell("values"), "hold()")
	b.settle()
	fakedom.Click(fakedom.Find(t, b.doc, "#run-all"))
	waitFor(t, func() bool { return b.cell("values").Attr("aria-busy") == "true" })
	if got := b.status(); got != "Running all 5 cells…" {
		t.Errorf("while Run all runs the status says %q", got)
	}
	fakedom.Click(fakedom.Find(t, b.cell("values"), "button.run")) // Stop
	b.p.Settle()
	if got := b.status(); !strings.HasPrefix(got, "Ran all 5 cells") {
		t.Errorf("after Stop the status says %q", got)
	}
}

// A histogram of two layers shows under the cell as a plot does: its
// caption, its picture with a legend, a summary with each layer's count,
// mean, standard deviation and saturation, and its bins as a table.
func TestHistogramUnderACell(t *testing.T) {
	b, c := openRan(t, drawings, "plots")
	b.typeCode(c, `hist({"layer 1": [-1, -0.99, 0, 0.5, 0.98, 1], "layer 2": [-0.5, 0, 0, 0.5]}, bins=4, title="tanh outputs", saturated=0.97)`)
	b.run("plots")
	fig := b.within(c, "figure.plot")
	if got := fakedom.VisibleText(b.within(fig, "figcaption")); got != "tanh outputs" {
		t.Errorf("the histogram's caption is %q", got)
	}
	if svg := fig.Query(".plot-box svg.plot"); svg == nil || len(svg.QueryAll("polyline")) != 2 || svg.Query("g.legend") == nil {
		t.Error("the histogram has no picture of two outlines with a legend")
	}
	want := "A histogram in 4 bins from -1 to 1. layer 1: 6 numbers, mean 0.08167, standard deviation 0.9111, 66.67% beyond ±0.97; layer 2: 4 numbers, mean 0, standard deviation 0.4082, 0.00% beyond ±0.97."
	if got := fakedom.VisibleText(b.within(fig, ".plot-summary")); got != want {
		t.Errorf("the summary says %q", got)
	}
	table := b.within(fig, "details")
	b.clickIn(table, "summary")
	rows := tableRows(table)
	if got := strings.Join(rows, "\n"); got != "from|to|layer 1|layer 2\n-1|-0.5|2|0\n-0.5|0|0|1\n0|0.5|1|2\n0.5|1|3|1" {
		t.Errorf("opened, the table has\n%s", got)
	}
}

// tableRows returns the rows of the table in node, each its cells' text
// joined by "|".
func tableRows(node page.Node) []string {
	var rows []string
	for _, tr := range node.QueryAll("tr") {
		var cells []string
		for _, td := range tr.QueryAll("th, td") {
			cells = append(cells, td.Text())
		}
		rows = append(rows, strings.Join(cells, "|"))
	}
	return rows
}
