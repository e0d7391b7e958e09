package page_test

import (
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"gradbook/notebook/kernel"
	"gradbook/notebook/page"
	"gradbook/notebook/page/fakedom"
	"gradbook/notebook/runner"
)

const blocks = "lessons/test-blocks.html"

// A cell runs with the cells above it, shows what it printed, says so in
// the status line, and its code and its clean run survive a reload.
func TestRunACell(t *testing.T) {
	for _, editors := range []bool{false, true} {
		name := "text boxes"
		var opts []func(*bench)
		if editors {
			name, opts = "editors", []func(*bench){withEditors}
		}
		t.Run(name, func(t *testing.T) {
			b := open(t, blocks, opts...)
			if got := b.doc.Body().Attr("data-notebook"); got != "ready" {
				t.Fatalf("the page is %q, not ready", got)
			}
			if got := b.status(); got != "Ready: Run a cell, or Run all." {
				t.Errorf("status %q", got)
			}
			c := b.run("double")
			if got := out(t, c); got != "b is 8.0\n✓ b = 8\n" {
				t.Errorf("the cell shows %q", got)
			}
			if got := c.Attr("data-state"); got != "passed" {
				t.Errorf("state %q", got)
			}
			if got := b.status(); !regexp.MustCompile(`^Cell 2 ran in \d+ ms: cell 1 ran first, as no state after it is kept yet\.$`).MatchString(got) {
				t.Errorf("status %q", got)
			}
			if got := fakedom.Find(t, c, ".cell-state").Text(); got != "✓ done" {
				t.Errorf("cell state %q", got)
			}
			c = b.typedAndReloaded(c, "b = L * 3\nprint('b is', b.value)")
			if got := c.Attr("data-state"); got != "passed" {
				t.Errorf("after a reload the cell's state is %q", got)
			}
			c = b.run("double")
			if got := out(t, c); got != "b is 12.0\n" {
				t.Errorf("the edited cell shows %q", got)
			}
		})
	}
}

// An error names the line, marks it in the editor and the status says
// so; a lesson's cell whose check no longer holds after an edit is the
// learner's experiment.
func TestErrorsAndExperiments(t *testing.T) {
	b, c := openTyped(t, blocks, "double", "b = L * 2\nprint(b.nope)", withEditors)
	b.run("double")
	if got := out(t, c); !strings.Contains(got, "line 2") || c.Attr("data-state") != "error" {
		t.Errorf("the error shows %q, state %q", got, c.Attr("data-state"))
	}
	if got := b.editors.in(c).mark; got != 2 {
		t.Errorf("line %d marked, want 2", got)
	}
	if got := b.status(); !strings.HasPrefix(got, "Cell 2 stopped with an error in ") {
		t.Errorf("status %q", got)
	}
	if got := fakedom.Find(t, c, ".cell-state").Text(); got != "✗ needs another look" {
		t.Errorf("cell state %q", got)
	}
	b.typeCode(c, "b = L * 3\ncheck(b.value, 8, label=\"b\")")
	b.run("double")
	if got := out(t, c); got != "• b: the lesson expects 8; yours gives 12\n" || c.Attr("data-state") != "changed" {
		t.Errorf("the experiment shows %q, state %q", got, c.Attr("data-state"))
	}
	if got := fakedom.Find(t, c, ".cell-state").Text(); got != "your version" {
		t.Errorf("cell state %q", got)
	}
}

// Run all runs every cell above the prediction not yet made, each with
// its own result, and says how many ran clean; once the prediction is
// made it runs them all.
func TestRunAllStopsAtAPrediction(t *testing.T) {
	b := open(t, blocks)
	b.click("#run-all")
	if got := b.status(); !regexp.MustCompile(`^Ran the 2 cells above the prediction in \d+ ms: 2 ran clean\. Make the prediction, or skip it, to run the rest\.$`).MatchString(got) {
		t.Errorf("status %q", got)
	}
	if got := out(t, b.cell("worked")); got != "4.0\n" {
		t.Errorf("worked shows %q", got)
	}
	if got := b.cell("after").Attr("data-state"); got != "" {
		t.Errorf("the cell after the prediction ran: %q", got)
	}
	if s := b.doc.Scrolled(); s == nil || s.Attr("data-cell-id") != "guess" {
		t.Errorf("the page scrolled to %v, not the prediction", s)
	}
	fold := b.find(".after-prediction")
	if fold.HasClass("open") {
		t.Fatal("the fold is open before the prediction")
	}
	b.click(`#quiz-guess input[value="0"]`)
	b.click("#quiz-guess button.answer")
	if !fold.HasClass("open") {
		t.Fatal("the fold did not open once the prediction was made")
	}
	b.click("#run-all")
	if got := b.status(); !regexp.MustCompile(`^Ran all 3 cells in \d+ ms: 3 ran clean\.$`).MatchString(got) {
		t.Errorf("status %q", got)
	}
	if got := out(t, b.cell("after")); got != "after 2.0\n" {
		t.Errorf("after shows %q", got)
	}
	for _, id := range []string{"worked", "double", "after"} {
		if b.cell(id).Attr("data-ms") == "" {
			t.Errorf("%s has no time of its own", id)
		}
	}
}

// A change to a cell marks the cells below it that show a result as out
// of date, until they run again.
func TestStaleBelow(t *testing.T) {
	b := open(t, blocks)
	b.click("#run-all")
	b.typeCode(b.cell("worked"), "a = Value(3.0, \"a\")\nL = a * a\nL.backward()")
	double := b.cell("double")
	if got := double.Attr("data-stale"); got != "true" {
		t.Errorf("the cell below is not out of date: %q", got)
	}
	if got := fakedom.Find(t, double, ".cell-state").Text(); got != "out of date: a cell above changed" {
		t.Errorf("its state says %q", got)
	}
	b.run("double")
	if double.HasAttr("data-stale") {
		t.Error("a cell run again is still out of date")
	}
	if got := out(t, double); got != "b is 18.0\n✗ b: got 18, expected 8\n" {
		t.Errorf("it shows %q", got)
	}
}

// runsAgain checks that the next run of the cell with id works, as after
// a stop or a runner's death.
func (b *bench) runsAgain(id string) {
	b.t.Helper()
	b.typeCode(b.cell(id), "print('again')")
	if got := out(b.t, b.run(id)); got != "again\n" {
		b.t.Errorf("the next run shows %q", got)
	}
}

// Stop ends a run that would go on for ever; the cell says how long it
// ran, and the next run works; Escape stops too.
func TestStopAndEscape(t *testing.T) {
	b, c := openTyped(t, blocks, "double", "hold()")
	b.settle() // saved: the only timer left is the count's
	fakedom.Click(fakedom.Find(t, c, "button.run"))
	waitFor(t, func() bool { return c.Attr("aria-busy") == "true" })
	run := fakedom.Find(t, c, "button.run")
	if run.Text() != "Stop" {
		t.Errorf("the Run button says %q while it runs", run.Text())
	}
	timer := fakedom.Find(t, c, ".elapsed")
	// Each tick sets the next as work of the page: the clock moves on
	// once it has.
	for _, want := range []string{"Running… 0.1 s", "Running… 0.2 s", "Running… 0.3 s"} {
		waitFor(t, func() bool { return b.clock.Pending() == 1 })
		b.clock.Advance(100 * time.Millisecond)
		waitFor(t, func() bool { return timer.Text() == want })
	}
	b.clock.Advance(50 * time.Millisecond)
	fakedom.Click(run) // the page's work ends with the run: Settle can wait again
	b.p.Settle()
	if got := out(t, c); !strings.Contains(got, "stopped after 350 ms, as you asked") {
		t.Errorf("after Stop the cell shows %q", got)
	}
	if run.Text() != "Run" || c.HasAttr("aria-busy") {
		t.Error("the cell is still running")
	}
	fakedom.Click(run)
	b.escape(c)
	if got := out(t, c); !strings.Contains(got, "as you asked") {
		t.Errorf("after Escape the cell shows %q", got)
	}
	b.runsAgain("double")
}

// A runner that dies takes only its job: the cell says why, and the next
// run gets a fresh runner.
func TestRunnerDies(t *testing.T) {
	b, c := openTyped(t, blocks, "double", "die()")
	b.run("double")
	if got := out(t, c); !strings.Contains(got, "the runner stopped (fatal error: out of memory) and was started again") {
		t.Errorf("the cell shows %q", got)
	}
	b.runsAgain("double")
}

// A cell that prints more than a run may (25,000 lines, 1.5 MB) shows
// the first megabyte and says the rest was cut; showing it costs the page
// work in proportion to the text (it took 7.8 GB of allocations and 7.6 s
// when each line was added to all the text before it), and the next run
// works.
func TestManyLinesAreCutAndCheap(t *testing.T) {
	b, c := openTyped(t, blocks, "double", `for i in range(25000):`+"\n"+`    print("line", i, "y" * 50)`)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.run("double")
	runtime.ReadMemStats(&after)
	got := out(t, c)
	if !strings.HasPrefix(got, "line 0 yyy") || !strings.HasSuffix(got, "\n… output truncated: a run may print at most 1 MB.\n") || len(got) > kernel.OutputBound(kernel.MaxOutput) {
		t.Errorf("the cell shows %d bytes ending %q", len(got), got[max(0, len(got)-80):])
	}
	// In blocks of about 16 KB, whole lines each: a browser lays out the
	// blocks in view.
	blocks := c.QueryAll("output.out span.chunk")
	for _, bl := range blocks {
		if n := len(bl.Text()); n > 16<<10 || !strings.HasSuffix(bl.Text(), "\n") {
			t.Errorf("a block of %d bytes ending %q", n, bl.Text()[max(0, n-20):])
		}
	}
	if len(blocks) < 60 {
		t.Errorf("%d blocks", len(blocks))
	}
	// The run itself (the runner is in this process) allocates about 20 MB.
	if mb := (after.TotalAlloc - before.TotalAlloc) >> 20; mb > 200 {
		t.Errorf("running and showing 1 MB of lines allocated %d MB", mb)
	}
	b.typeCode(c, "print('next')")
	if got := out(t, b.run("double")); got != "next\n" {
		t.Errorf("the next run shows %q", got)
	}
}

// floodRunner is a runner that sends far more than a run may print: 5 MB
// of lines, then (once released) a result whose output is 5 MB too.
type floodRunner struct{ release chan struct{} }

func (f floodRunner) Do(job runner.Job, ev kernel.Hooks) (runner.Result, error) {
	line := strings.Repeat("é", 49) + "!" // 99 bytes, and a newline
	for range 50_000 {
		ev.Line(len(job.Cells)-1, line)
	}
	<-f.release
	all := strings.Repeat(line+"\n", 50_000)
	return runner.Result{Cells: []kernel.CellResult{{Ran: true, Output: all}}}, nil
}
func (floodRunner) Stop()      {}
func (floodRunner) Busy() bool { return false }

// Whatever a runner sends, the page holds and shows no more than a run may
// print, while the cell runs and after, and says that the rest was cut.
func TestThePageCapsWhatARunnerSends(t *testing.T) {
	flood := floodRunner{release: make(chan struct{})}
	b := open(t, blocks, withEnv(func(e *page.Env) { e.Runner = flood }))
	var released sync.Once
	release := func() { released.Do(func() { close(flood.release) }) }
	t.Cleanup(release) // before the bench's Settle, should the test fail
	c := b.cell("double")
	fakedom.Click(fakedom.Find(t, c, "button.run"))
	notice := "… output truncated: a run may print at most 1 MB.\n"
	o := fakedom.Find(t, c, "output.out")
	waitFor(t, func() bool { return strings.HasSuffix(o.Text(), notice) })
	if got := o.Text(); len(got) > kernel.OutputBound(kernel.MaxOutput) || !utf8.ValidString(got) {
		t.Errorf("while it runs the cell shows %d bytes (valid UTF-8: %v), more than a run may print", len(got), utf8.ValidString(got))
	}
	// In blocks of at most 16 KB: a browser lays out the last as lines come.
	chunks := o.QueryAll("span.chunk")
	for _, ch := range chunks {
		if n := len(ch.Text()); n > 16<<10 {
			t.Errorf("a block of %d bytes", n)
		}
	}
	if len(chunks) < 60 {
		t.Errorf("%d blocks", len(chunks))
	}
	release()
	b.p.Settle()
	if got := out(t, c); len(got) > kernel.OutputBound(kernel.MaxOutput) || !strings.HasSuffix(got, "!\n"+notice) || !utf8.ValidString(got) {
		t.Errorf("the cell shows %d bytes ending %q", len(got), got[max(0, len(got)-80):])
	}
}

// Reset puts the lesson's code back, asking first when the learner
// changed it; keeping one's code keeps it.
func TestReset(t *testing.T) {
	b := open(t, blocks)
	c := b.cell("double")
	original := b.typedOver(c, "print('mine')")
	fakedom.Click(fakedom.Find(t, c, "button.reset"))
	b.p.Settle()
	box := fakedom.Find(t, c, ".confirm")
	if got := fakedom.VisibleText(box); !strings.Contains(got, "Replace your code with the lesson's original code?") {
		t.Errorf("the question is %q", got)
	}
	if a := b.doc.Active(); a == nil || a.Text() != "Keep my code" {
		t.Errorf("the focus is on %v, not the safe answer", a)
	}
	fakedom.Click(fakedom.Find(t, box, ".confirm-no"))
	b.p.Settle()
	if got := b.code(c); got != "print('mine')" || c.Query(".confirm") != nil {
		t.Errorf("after Keep my code the cell holds %q", got)
	}
	// A click that lands on the yes answer as soon as it shows (a double
	// click a framing page aimed there) does nothing; read, it resets.
	fakedom.Click(fakedom.Find(t, c, "button.reset"))
	b.p.Settle()
	b.click("#cell-double .confirm-yes")
	if got := b.code(c); got != "print('mine')" {
		t.Errorf("a click on Reset the cell as it showed reset the cell to %q", got)
	}
	b.armed()
	b.click("#cell-double .confirm-yes")
	if got := b.code(c); got != original {
		t.Errorf("after Reset the cell holds %q", got)
	}
	b.settle()
	b.reload()
	if got := b.code(b.cell("double")); got != original {
		t.Errorf("after a reload the reset cell holds %q", got)
	}
}

// waitFor waits, a little at a time, until ok.
func waitFor(t testing.TB, ok func() bool) {
	t.Helper()
	if !eventually(ok) {
		t.Fatal("gave up waiting")
	}
}

// eventually waits, a little at a time, until ok, and reports whether it
// came to be within five seconds.
func eventually(ok func() bool) bool {
	for range 500 {
		if ok() {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}
