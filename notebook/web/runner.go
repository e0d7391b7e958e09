//go:build js && wasm

package web

import (
	"errors"
	"sync"
	"syscall/js"
	"time"

	"gradbook/internal/jsvalue"
	"gradbook/notebook/runner"
)

// inPageBudget is how long a cell may run where no worker can start.
const inPageBudget = 2 * time.Second

// errStopped is a job's error when the learner stopped it.
var errStopped = errors.New("stopped")

// diedError is a job's error when its runner died under it.
type diedError struct{ why string }

func (e diedError) Error() string { return e.why }

// runners sends jobs to the runner, a Web Worker running this same wasm
// (see package runner), and starts a fresh one whenever the learner stops
// a job or the runner dies. Where no worker can start, jobs run on the
// page itself.
type runners struct {
	mu     sync.Mutex
	handle js.Value // {post, stop}, or undefined while starting
	ready  chan struct{}
	next   int
	calls  map[int]*call
	deaths int // runners in a row that died before they started
	onMsg  js.Func
	onDied js.Func
	inPage bool
	notice func(string) // tells the learner something about the runner
}

// call is one job sent and not yet answered.
type call struct {
	mu    sync.Mutex
	lines []printed
	done  *outcome
	wake  chan struct{}
}

type printed struct {
	cell int
	text string
}

type outcome struct {
	r   runner.Result
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

func newRunners(notice func(string)) *runners {
	rs := &runners{calls: map[int]*call{}, notice: notice}
	rs.onMsg = js.FuncOf(func(_ js.Value, args []js.Value) any {
		rs.message(args[0])
		return nil
	})
	rs.onDied = js.FuncOf(func(_ js.Value, args []js.Value) any {
		why, started := args[0].String(), len(args) > 1 && args[1].Truthy()
		spawn(func() { rs.died(why, started) })
		return nil
	})
	rs.start()
	return rs
}

// start starts a runner; jobs sent meanwhile wait for it.
func (rs *runners) start() {
	rs.mu.Lock()
	ready := rs.forget()
	rs.mu.Unlock()
	rs.launch(ready)
}

// forget forgets the current runner, so that jobs sent from now on wait
// for the next one, and returns the channel that the next one's launch
// closes. rs.mu is held.
func (rs *runners) forget() chan struct{} {
	rs.handle = js.Undefined()
	rs.ready = make(chan struct{})
	return rs.ready
}

// launch starts a runner in a worker, then closes ready. If another
// runner was asked for meanwhile (Stop while this one started), this one
// is ended and the jobs waiting on ready go on to wait for that one.
func (rs *runners) launch(ready chan struct{}) {
	host, ok := global("gradbookRunners")
	if !ok {
		rs.runInPage(ready)
		return
	}
	spawn(func() {
		h, err := await(host.Call("start", rs.onMsg, rs.onDied))
		if err != nil {
			rs.notice("Cells run on the page itself here, since no worker could start (" + err.Error() + "): a long run holds the page up until it ends.")
			rs.runInPage(ready)
			return
		}
		rs.mu.Lock()
		current := rs.ready == ready
		if current {
			rs.handle = h
		}
		rs.mu.Unlock()
		if !current {
			h.Call("stop")
		}
		close(ready)
	})
}

func (rs *runners) runInPage(ready chan struct{}) {
	rs.mu.Lock()
	rs.inPage = true
	rs.mu.Unlock()
	close(ready)
}

// message takes a runner's message: lines printed, or a job's end.
func (rs *runners) message(m js.Value) {
	id := m.Get("id").Int()
	rs.mu.Lock()
	c := rs.calls[id]
	rs.mu.Unlock()
	if c == nil {
		return
	}
	switch {
	case m.Get("lines").Truthy():
		ls := m.Get("lines")
		c.mu.Lock()
		for i := range ls.Length() {
			l := ls.Index(i)
			c.lines = append(c.lines, printed{l.Index(0).Int(), l.Index(1).String()})
		}
		c.mu.Unlock()
		c.signal()
	case m.Get("error").Truthy():
		c.finish(outcome{err: errors.New(m.Get("error").String())})
	default:
		var r runner.Result
		err := jsvalue.Into(m.Get("result"), &r)
		c.finish(outcome{r: r, err: err})
	}
}

// do runs job on the runner and returns its result; lines is given each
// line the cells print as they print it. Call it from a goroutine.
func (rs *runners) do(job runner.Job, lines func(cell int, text string)) (runner.Result, error) {
	// Wait for the runner; if it was replaced meanwhile, for the next.
	rs.mu.Lock()
	for ready := rs.ready; ; ready = rs.ready {
		rs.mu.Unlock()
		<-ready
		rs.mu.Lock()
		if rs.ready == ready {
			break
		}
	}
	if rs.inPage {
		rs.mu.Unlock()
		// On the page's own thread a run holds the page up: keep it short.
		job.Budget = inPageBudget
		return runner.Do(job, lines, nil), nil
	}
	rs.next++
	id := rs.next
	c := &call{wake: make(chan struct{}, 1)}
	rs.calls[id] = c
	h := rs.handle
	rs.mu.Unlock()
	msg := js.Global().Get("Object").New()
	msg.Set("id", id)
	msg.Set("job", jsvalue.Of(job))
	h.Call("post", msg)
	defer func() {
		rs.mu.Lock()
		delete(rs.calls, id)
		rs.mu.Unlock()
	}()
	for range c.wake {
		c.mu.Lock()
		got, done := c.lines, c.done
		c.lines = nil
		c.mu.Unlock()
		for _, l := range got {
			if lines != nil {
				lines(l.cell, l.text)
			}
		}
		if done != nil {
			return done.r, done.err
		}
	}
	panic("unreachable")
}

// busy reports whether a job is running or waiting.
func (rs *runners) busy() bool {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return len(rs.calls) > 0
}

// stop ends every job at once, by ending the runner, and starts another.
func (rs *runners) stop() {
	rs.mu.Lock()
	h, calls := rs.handle, rs.calls
	rs.calls = map[int]*call{}
	ready := rs.forget() // a job sent from now on goes to the next runner
	rs.mu.Unlock()
	if h.Truthy() {
		h.Call("stop")
	}
	for _, c := range calls {
		c.finish(outcome{err: errStopped})
	}
	rs.launch(ready)
}

// died fails the jobs of a runner that died, and starts another. A runner
// that had started died of a job (out of memory): the next one starts
// afresh, however often that happens. Only runners that keep dying before
// they start (the worker cannot load here) give way to runs on the page.
func (rs *runners) died(why string, started bool) {
	rs.mu.Lock()
	calls := rs.calls
	rs.calls = map[int]*call{}
	if started {
		rs.deaths = 0
	} else {
		rs.deaths++
	}
	deaths := rs.deaths
	ready := rs.forget() // a job sent from now on goes to the next runner
	rs.mu.Unlock()
	for _, c := range calls {
		c.finish(outcome{err: diedError{why}})
	}
	if deaths > 3 {
		rs.notice("Gradbook's runner could not start here (" + why + "; a Content-Security-Policy without blob: in worker-src forbids it): cells run on the page itself, and a long run holds the page up until it ends.")
		rs.runInPage(ready)
		return
	}
	rs.launch(ready)
}
