package runner

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"gradbook/internal/testlog"
	"gradbook/notebook/kernel"
)

// fakeHost starts fakeWorkers, which run jobs with a Runner each, the way
// a Web Worker running this wasm does, and can be told to fail.
type fakeHost struct {
	mu      sync.Mutex
	started int
	// failStart makes Start fail; dieEarly makes the next n runners die
	// before their program starts.
	failStart error
	dieEarly  int
	workers   []*fakeWorker
}

type fakeWorker struct {
	mu      sync.Mutex
	message func(Message)
	died    func(string, bool)
	runner  *Runner
	stopped bool
	// block holds jobs until released: a job that runs for ever.
	block chan struct{}
	// dieOn makes a job whose first cell is this source kill the runner.
	dieOn string
}

func (h *fakeHost) Start(message func(Message), died func(string, bool)) (Worker, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.failStart != nil {
		return nil, h.failStart
	}
	h.started++
	w := &fakeWorker{message: message, died: died, runner: New(), block: make(chan struct{}), dieOn: "die()"}
	h.workers = append(h.workers, w)
	if h.dieEarly > 0 {
		h.dieEarly--
		w.stopped = true // a runner that never starts answers nothing
		go died("the runner could not start", false)
	}
	return w, nil
}

func (h *fakeHost) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.started
}

func (w *fakeWorker) Post(id int, job Job) {
	if len(job.Cells) > 0 && job.Cells[0] == "unsendable()" {
		panic("jsvalue: cannot send a chan int") // as a job that cannot be a message
	}
	w.mu.Lock()
	dead := w.stopped
	w.mu.Unlock()
	if dead {
		return
	}
	go func() {
		if len(job.Cells) > 0 && job.Cells[0] == "forever()" {
			<-w.block
			return
		}
		if len(job.Cells) > 0 && job.Cells[0] == "flood()" {
			// A runner that sends far more than a run may print: 5 MB of
			// lines, then a line of 3 MB.
			line := strings.Repeat("y", 99)
			for range 50 {
				w.send(Message{ID: id, Lines: slices.Repeat([]Line{{Text: line}}, 1000)})
			}
			w.send(Message{ID: id, Lines: []Line{{Text: strings.Repeat("z", 3_000_000)}}})
			w.send(Message{ID: id, Result: &Result{Cells: []kernel.CellResult{{Ran: true}}}})
			return
		}
		if len(job.Cells) > 0 && job.Cells[0] == w.dieOn {
			w.died("fatal error: out of memory", true)
			return
		}
		r := w.runner.Do(job, kernel.Hooks{
			Line:  func(cell int, line string) { w.send(Message{ID: id, Lines: []Line{{Cell: cell, Text: line}}}) },
			Start: func(cell int) { w.send(Message{ID: id, Begins: true, Cell: cell}) },
		})
		w.send(Message{ID: id, Result: &r})
	}()
}

func (w *fakeWorker) send(m Message) {
	w.mu.Lock()
	stopped := w.stopped
	w.mu.Unlock()
	if !stopped {
		w.message(m)
	}
}

func (w *fakeWorker) Stop() {
	w.mu.Lock()
	w.stopped = true
	w.mu.Unlock()
}

func output(t *testing.T, r Result, err error) string {
	t.Helper()
	if err != nil {
		t.Fatalf("the job failed: %v", err)
	}
	if len(r.Cells) != 1 {
		t.Fatalf("%d results, want 1", len(r.Cells))
	}
	return r.Cells[0].Output
}

// The page's side takes no more lines from a runner than a run may
// print, whatever the runner sends: the line that goes past the cap is
// passed on for the page to cut, and none after it.
func TestClientTakesNoMoreThanARunMayPrint(t *testing.T) {
	c := NewClient(&fakeHost{}, nil)
	passed, lines := 0, 0
	if _, err := c.Do(Job{Cells: []string{"flood()"}}, kernel.Hooks{Line: func(_ int, text string) {
		passed += len(text) + 1
		lines++
	}}); err != nil {
		t.Fatal(err)
	}
	if want := kernel.MaxOutput/100 + 1; passed > kernel.MaxOutput+100 || lines != want {
		t.Errorf("the client passed on %d lines of %d bytes, want %d lines of at most %d", lines, passed, want, kernel.MaxOutput+100)
	}
}

func TestClientRunsJobsAndStreamsLines(t *testing.T) {
	c := NewClient(&fakeHost{}, nil)
	var lines []string
	var started []int
	r, err := c.Do(Job{Cells: []string{"x = 6", "print(x * 7)\nprint('done')"}}, kernel.Hooks{
		Line: func(cell int, text string) {
			if cell == 1 {
				lines = append(lines, text)
			}
		},
		Start: func(cell int) { started = append(started, cell) },
	})
	if got := output(t, r, err); got != "42\ndone\n" {
		t.Errorf("output %q", got)
	}
	if strings.Join(lines, "|") != "42|done" {
		t.Errorf("streamed %q", lines)
	}
	if len(started) != 2 || started[0] != 0 || started[1] != 1 {
		t.Errorf("cells began: %v", started)
	}
	if c.Busy() {
		t.Error("busy after the job ended")
	}
}

// Stop ends a job that would never end, the next job goes to a fresh
// runner and works, and a job sent at once after Stop does not wait for
// the runner that was ended.
func TestClientStopStartsAFreshRunner(t *testing.T) {
	h := &fakeHost{}
	c := NewClient(h, nil)
	done := make(chan error, 1)
	go func() {
		_, err := c.Do(Job{Cells: []string{"forever()"}}, kernel.Hooks{})
		done <- err
	}()
	waitFor(t, c.Busy)
	c.Stop()
	if err := <-done; !errors.Is(err, ErrStopped) {
		t.Fatalf("a stopped job ends with %v, want ErrStopped", err)
	}
	r, err := c.Do(Job{Cells: []string{"print(1 + 1)"}}, kernel.Hooks{})
	if got := output(t, r, err); got != "2\n" {
		t.Errorf("after Stop: %q", got)
	}
	if h.count() != 2 {
		t.Errorf("%d runners started, want 2", h.count())
	}
}

// A runner that dies of its job fails that job with the reason, and the
// next job runs on a fresh runner: however often that happens, jobs never
// move to the page.
func TestClientReplacesARunnerThatDies(t *testing.T) {
	h := &fakeHost{}
	var n testlog.Log
	c := NewClient(h, n.Add)
	for i := range 5 {
		_, err := c.Do(Job{Cells: []string{"die()"}}, kernel.Hooks{})
		var died *DiedError
		if !errors.As(err, &died) || died.Why != "fatal error: out of memory" {
			t.Fatalf("death %d: %v", i+1, err)
		}
	}
	r, err := c.Do(Job{Cells: []string{"print('alive')"}}, kernel.Hooks{})
	if got := output(t, r, err); got != "alive\n" {
		t.Errorf("after five deaths: %q", got)
	}
	if c.OnPage() || len(n.All()) > 0 {
		t.Errorf("on the page %v, notices %q", c.OnPage(), n.All())
	}
}

// Runners that keep dying before they start give way to runs on the
// page, with a notice that says why; those runs are short.
func TestClientFallsBackToThePage(t *testing.T) {
	h := &fakeHost{dieEarly: MaxEarlyDeaths + 1}
	var n testlog.Log
	c := NewClient(h, n.Add)
	r, err := c.Do(Job{Cells: []string{"print('here')"}}, kernel.Hooks{})
	if got := output(t, r, err); got != "here\n" {
		t.Errorf("on the page: %q", got)
	}
	if !c.OnPage() {
		t.Fatal("jobs do not run on the page")
	}
	said := n.All()
	if len(said) != 1 || !strings.Contains(said[0], "the runner could not start") || !strings.Contains(said[0], "cells run on the page itself") {
		t.Errorf("notices %q", said)
	}
	r, _ = c.Do(Job{Cells: []string{"while True:\n    pass"}}, kernel.Hooks{})
	if e := r.Cells[0].Err; e == nil || !strings.Contains(e.Msg, "stopped after 2 s") {
		t.Errorf("a runaway loop on the page: %v", e)
	}
}

func TestClientWithoutWorkers(t *testing.T) {
	var n testlog.Log
	c := NewClient(&fakeHost{failStart: errors.New("Worker is not defined")}, n.Add)
	r, err := c.Do(Job{Cells: []string{"print(3)"}}, kernel.Hooks{})
	if got := output(t, r, err); got != "3\n" {
		t.Errorf("output %q", got)
	}
	if said := n.All(); len(said) != 1 || !strings.Contains(said[0], "no worker could start (Worker is not defined)") {
		t.Errorf("notices %q", said)
	}
	if r := NewClient(nil, nil); !r.OnPage() {
		waitFor(t, r.OnPage)
	}
}

// A job sent while the learner stops another, over and over, never waits
// for a runner that is gone.
func TestClientStopWhileStarting(t *testing.T) {
	h := &fakeHost{}
	c := NewClient(h, nil)
	for range 3 {
		c.Stop()
	}
	r, err := c.Do(Job{Cells: []string{"print('ok')"}}, kernel.Hooks{})
	if got := output(t, r, err); got != "ok\n" {
		t.Errorf("output %q", got)
	}
}

// Lines and results of a stopped runner are dropped, not given to the
// next job.
func TestClientIgnoresAStaleRunner(t *testing.T) {
	h := &fakeHost{}
	c := NewClient(h, nil)
	go c.Do(Job{Cells: []string{"forever()"}}, kernel.Hooks{})
	waitFor(t, c.Busy)
	c.Stop()
	h.mu.Lock()
	old := h.workers[0]
	h.mu.Unlock()
	old.message(Message{ID: 1, Result: &Result{}}) // a late answer from the ended runner
	old.died("late", true)
	r, err := c.Do(Job{Cells: []string{"print(5)"}}, kernel.Hooks{})
	if got := output(t, r, err); got != "5\n" {
		t.Errorf("output %q", got)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(time.Millisecond)
	}
}

// A job whose code reads a data file brings it, loaded once by the
// page's loader; a job that does not, brings nothing; a file that cannot
// load fails the job with its name and why.
func TestClientBringsDataFiles(t *testing.T) {
	c := NewClient(&fakeHost{}, nil)
	loads := 0
	c.SetDataLoader(func(name string) (string, error) {
		loads++
		if name != "names.txt" {
			return "", errors.New("no such file")
		}
		return "ann\nbob\ncy", nil
	})
	for range 2 {
		r, err := c.Do(Job{Cells: []string{"ns = names()", "print(len(ns), ns[-1])"}}, kernel.Hooks{})
		if got := output(t, r, err); got != "3 cy\n" {
			t.Errorf("output %q", got)
		}
	}
	if r, err := c.Do(Job{Cells: []string{"print('# names')"}}, kernel.Hooks{}); output(t, r, err) != "# names\n" || loads != 1 {
		t.Errorf("loaded %d times", loads)
	}
	c = NewClient(&fakeHost{}, nil)
	c.SetDataLoader(func(string) (string, error) { return "", errors.New("404 Not Found") })
	if _, err := c.Do(Job{Cells: []string{"print(names()[0])"}}, kernel.Hooks{}); err == nil || !strings.Contains(err.Error(), "data/names.txt could not be loaded for the cell that reads it: 404 Not Found") {
		t.Errorf("a file that cannot load: %v", err)
	}
}

// A job that cannot be sent ends with an error that says so, instead of
// waiting for ever; the runner takes the next job.
func TestClientJobThatCannotBeSent(t *testing.T) {
	c := NewClient(&fakeHost{}, nil)
	if _, err := c.Do(Job{Cells: []string{"unsendable()"}}, kernel.Hooks{}); err == nil || !strings.Contains(err.Error(), "could not be sent to the runner: jsvalue: cannot send a chan int") {
		t.Errorf("error %v", err)
	}
	r, err := c.Do(Job{Cells: []string{"print(1)"}}, kernel.Hooks{})
	if got := output(t, r, err); got != "1\n" {
		t.Errorf("the next job: %q", got)
	}
}
