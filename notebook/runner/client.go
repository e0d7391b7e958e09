package runner

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"gradbook/notebook/block"
	"gradbook/notebook/kernel"
	"gradbook/notebook/library"
)

// This file is the page's side of the runner, in plain Go: the Client
// sends jobs to a runner in a worker, starts a fresh one whenever the
// learner stops a job or the runner dies, and runs jobs on the page
// itself where no worker can start. Package web gives it a Host, which
// starts Web Workers; tests give it a fake one.

// InPageBudget is how long a cell may run where no worker can start: on
// the page's own thread a run holds the page up.
const InPageBudget = 2 * time.Second

// MaxEarlyDeaths is how many runners in a row may die before they start
// (the worker cannot load here) before jobs run on the page instead.
const MaxEarlyDeaths = 3

// ErrStopped is a job's error when the learner stopped it.
var ErrStopped = errors.New("stopped")

// DiedError is a job's error when its runner died under it (out of
// memory, say).
type DiedError struct{ Why string }

func (e *DiedError) Error() string { return e.Why }

// Host starts runners. Start starts one and returns once it takes jobs
// (it may still die before its program starts); the runner hands each
// message it sends to message, and died is called once if it dies, with
// why and whether its program had started. Start is called from its own
// goroutine and may block.
type Host interface {
	Start(message func(Message), died func(why string, started bool)) (Worker, error)
}

// Worker is one runner, started by a Host.
type Worker interface {
	// Post sends it a job.
	Post(id int, job Job)
	// Stop ends it at once, whatever it is doing.
	Stop()
}

// Message is what a runner sends about a job: lines printed while it
// runs, or that cell Cell begins to run (Begins), then its result or an
// error.
type Message struct {
	ID     int
	Lines  []Line
	Begins bool
	Cell   int
	Result *Result
	Err    string
}

// Line is a line a cell printed: cell indexes the job's cells. A Line
// with start set says that the cell begins to run.
type Line struct {
	Cell  int
	Text  string
	start bool
}

// Client sends jobs to runners and takes their answers.
type Client struct {
	host   Host
	notice func(string) // tells the learner something about the runner

	mu     sync.Mutex
	worker Worker        // the current runner, nil while one starts
	ready  chan struct{} // closed once the current runner has started
	gen    int           // the current runner's number
	next   int           // the last job's id
	calls  map[int]*call
	deaths int     // runners in a row that died before they started
	local  *Runner // runs jobs on the page, once no worker can start

	load   func(name string) (string, error) // SetDataLoader's
	loaded map[string]string                 // data files loaded, by name
}

// SetDataLoader gives the Client the way to load the site's data files
// (load("names.txt") fetches data/names.txt): a job whose code reads one
// (library.NeedsData) brings it (a few hundred KB, cloned in a few
// milliseconds, so every such job does: a runner started after a stop
// has none). Without a loader, jobs bring none, and a cell that reads one says so.
func (c *Client) SetDataLoader(load func(name string) (string, error)) {
	c.mu.Lock()
	c.load = load
	c.mu.Unlock()
}

// withData adds to job the data files its code reads, loading each once.
// A file that cannot load is an error for the job, which says which and
// why.
func (c *Client) withData(job Job) (Job, error) {
	srcs := append(append(append([]string(nil), job.Cells...), job.Source), testCode(job.Tests)...)
	need := library.NeedsData(srcs...)
	if len(need) == 0 {
		return job, nil
	}
	c.mu.Lock()
	load := c.load
	c.mu.Unlock()
	if load == nil {
		return job, nil
	}
	for _, name := range need {
		c.mu.Lock()
		text, ok := c.loaded[name]
		c.mu.Unlock()
		if !ok {
			var err error
			if text, err = load(name); err != nil {
				return job, fmt.Errorf("data/%s could not be loaded for the cell that reads it: %v", name, err)
			}
			c.mu.Lock()
			if c.loaded == nil {
				c.loaded = map[string]string{}
			}
			c.loaded[name] = text
			c.mu.Unlock()
		}
		if job.Data == nil {
			job.Data = map[string]string{}
		}
		job.Data[name] = text
	}
	return job, nil
}

func testCode(tests []block.Test) []string {
	code := make([]string, len(tests))
	for i, t := range tests {
		code[i] = t.Code
	}
	return code
}

// call is one job sent and not yet answered: what its runner said
// meanwhile (lines, and cells begun as lines with Text "" and start set)
// waits for Do to pass it on. printed counts the bytes of the lines
// taken: past what a run may print, lines are dropped.
type call struct {
	mu      sync.Mutex
	lines   []Line
	printed int
	done    *outcome
	wake    chan struct{}
}

// take keeps the lines a runner sent, as far as a run may print
// (kernel.MaxOutput): the line that goes past it is kept (cut to
// kernel.ClipOutput's length, should it be longer), for the page to cut
// and say so, and the lines after it are dropped, whatever the runner
// sends. k.mu is held.
func (k *call) take(lines []Line) {
	for _, l := range lines {
		if k.printed > kernel.MaxOutput {
			return
		}
		l.Text = kernel.ClipOutput(l.Text, kernel.MaxOutput)
		k.printed += len(l.Text) + 1
		k.lines = append(k.lines, l)
	}
}

type outcome struct {
	r   Result
	err error
}

func (c *call) signal() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

func (c *call) finish(o outcome) {
	c.mu.Lock()
	if c.done == nil {
		c.done = &o
	}
	c.mu.Unlock()
	c.signal()
}

// NewClient returns a Client that starts its first runner through host,
// or runs jobs on the page if host is nil. notice is given what the
// learner must know (that cells run on the page, and why).
func NewClient(host Host, notice func(string)) *Client {
	c := &Client{host: host, notice: notice, calls: map[int]*call{}}
	c.mu.Lock()
	ready, gen := c.forget()
	c.mu.Unlock()
	c.launch(ready, gen)
	return c
}

// forget forgets the current runner, so that jobs sent from now on wait
// for the next one, and returns the channel the next one's launch closes
// and its number. c.mu is held.
func (c *Client) forget() (chan struct{}, int) {
	c.worker = nil
	c.ready = make(chan struct{})
	c.gen++
	return c.ready, c.gen
}

// launch starts runner gen, then closes ready. If another runner was
// asked for meanwhile (Stop while this one started), this one is ended
// and the jobs waiting on ready go on to wait for that one.
func (c *Client) launch(ready chan struct{}, gen int) {
	if c.host == nil {
		c.runOnPage(ready)
		return
	}
	go func() {
		w, err := c.host.Start(func(m Message) { c.message(m) }, func(why string, started bool) { c.died(gen, why, started) })
		if err != nil {
			c.notice("Cells run on the page itself here, since no worker could start (" + err.Error() + "): a long run holds the page up until it ends.")
			c.runOnPage(ready)
			return
		}
		c.mu.Lock()
		current := c.gen == gen
		if current {
			c.worker = w
		}
		c.mu.Unlock()
		if !current {
			w.Stop()
		}
		close(ready)
	}()
}

func (c *Client) runOnPage(ready chan struct{}) {
	c.mu.Lock()
	if c.local == nil {
		c.local = New()
	}
	c.mu.Unlock()
	close(ready)
}

// message takes a runner's message: lines printed, or a job's end.
func (c *Client) message(m Message) {
	c.mu.Lock()
	k := c.calls[m.ID]
	c.mu.Unlock()
	if k == nil {
		return // a job that was stopped, or a stale runner's
	}
	switch {
	case len(m.Lines) > 0 || m.Begins:
		k.mu.Lock()
		k.take(m.Lines)
		if m.Begins {
			k.lines = append(k.lines, Line{Cell: m.Cell, start: true})
		}
		k.mu.Unlock()
		k.signal()
	case m.Err != "":
		k.finish(outcome{err: errors.New(m.Err)})
	case m.Result != nil:
		k.finish(outcome{r: *m.Result})
	}
}

// Do runs job on the runner and returns its result, telling hooks as it
// goes: Line is given each line the cells print as they print it, Start
// is told when each cell begins (Flush is the worker's own, and not
// called here). It blocks until the job ends:
// call it from a goroutine of its own. A job sent to a runner that dies
// before it starts never ran: it goes to the next runner.
func (c *Client) Do(job Job, hooks kernel.Hooks) (Result, error) {
	job, err := c.withData(job)
	if err != nil {
		return Result{}, err
	}
	for {
		r, err := c.try(job, hooks)
		if err != errNotStarted {
			return r, err
		}
	}
}

// send sends job to w; a job that cannot be sent (a bug: it could not be
// turned into a message) is an error for the job, not a call that never
// ends.
func send(w Worker, id int, job Job) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: the job could not be sent to the runner: %v (please report it)", r)
		}
	}()
	w.Post(id, job)
	return nil
}

// errNotStarted ends a job whose runner died before it started.
var errNotStarted = errors.New("the runner died before it started")

// try sends job to the current runner, once it is ready.
func (c *Client) try(job Job, hooks kernel.Hooks) (Result, error) {
	// Wait for the runner; if it was replaced meanwhile, for the next.
	c.mu.Lock()
	for ready := c.ready; ; ready = c.ready {
		c.mu.Unlock()
		<-ready
		c.mu.Lock()
		if c.ready == ready {
			break
		}
	}
	if c.local != nil {
		local := c.local
		c.mu.Unlock()
		// On the page's own thread a run holds the page up: keep it short.
		job.Budget = InPageBudget
		return local.Do(job, kernel.Hooks{Line: hooks.Line, Start: hooks.Start}), nil
	}
	c.next++
	id := c.next
	k := &call{wake: make(chan struct{}, 1)}
	c.calls[id] = k
	w := c.worker
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.calls, id)
		c.mu.Unlock()
	}()
	if err := send(w, id, job); err != nil {
		return Result{}, err
	}
	for range k.wake {
		k.mu.Lock()
		got, done := k.lines, k.done
		k.lines = nil
		k.mu.Unlock()
		for _, l := range got {
			switch {
			case l.start && hooks.Start != nil:
				hooks.Start(l.Cell)
			case !l.start && hooks.Line != nil:
				hooks.Line(l.Cell, l.Text)
			}
		}
		if done != nil {
			return done.r, done.err
		}
	}
	panic("unreachable")
}

// Busy reports whether a job is running or waiting.
func (c *Client) Busy() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.calls) > 0
}

// OnPage reports whether jobs run on the page itself.
func (c *Client) OnPage() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.local != nil
}

// Stop ends every job at once, by ending the runner, and starts another.
func (c *Client) Stop() {
	c.mu.Lock()
	if c.local != nil {
		c.mu.Unlock()
		return // a job on the page ends by its budget
	}
	w, calls := c.worker, c.calls
	c.calls = map[int]*call{}
	ready, gen := c.forget() // a job sent from now on goes to the next runner
	c.mu.Unlock()
	if w != nil {
		w.Stop()
	}
	for _, k := range calls {
		k.finish(outcome{err: ErrStopped})
	}
	c.launch(ready, gen)
}

// died fails the jobs of runner gen, which died, and starts another. A
// runner that had started died of a job (out of memory): the next one
// starts afresh, however often that happens. Only runners that keep dying
// before they start (the worker cannot load here) give way to runs on
// the page.
func (c *Client) died(gen int, why string, started bool) {
	c.mu.Lock()
	if gen != c.gen {
		c.mu.Unlock()
		return // a runner already replaced
	}
	calls := c.calls
	c.calls = map[int]*call{}
	if started {
		c.deaths = 0
	} else {
		c.deaths++
	}
	deaths := c.deaths
	ready, next := c.forget() // a job sent from now on goes to the next runner
	c.mu.Unlock()
	for _, k := range calls {
		if started {
			k.finish(outcome{err: &DiedError{why}})
		} else {
			k.finish(outcome{err: errNotStarted}) // it never ran: Do sends it on
		}
	}
	if deaths > MaxEarlyDeaths {
		c.notice("Gradbook's runner could not start here (" + why + "): cells run on the page itself, and a long run holds the page up until it ends.")
		c.runOnPage(ready)
		return
	}
	c.launch(ready, next)
}
