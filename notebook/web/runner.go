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
	deaths int // in a row, without a job done in between
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
		why := args[0].String()
		spawn(func() { rs.died(why) })
		return nil
	})
	rs.start()
	return rs
}

// start starts a runner; jobs sent meanwhile wait for it.
func (rs *runners) start() {
	rs.mu.Lock()
	rs.handle = js.Undefined()
	rs.ready = make(chan struct{})
	ready := rs.ready
	rs.mu.Unlock()
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
		rs.handle = h
		rs.mu.Unlock()
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
	rs.mu.Lock()
	ready := rs.ready
	rs.mu.Unlock()
	<-ready
	rs.mu.Lock()
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
			if done.err == nil {
				rs.mu.Lock()
				rs.deaths = 0
				rs.mu.Unlock()
			}
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
	rs.mu.Unlock()
	if h.Truthy() {
		h.Call("stop")
	}
	for _, c := range calls {
		c.finish(outcome{err: errStopped})
	}
	rs.start()
}

// died fails the jobs of a runner that died, and starts another, unless
// runners keep dying without doing any job.
func (rs *runners) died(why string) {
	rs.mu.Lock()
	calls := rs.calls
	rs.calls = map[int]*call{}
	rs.deaths++
	deaths := rs.deaths
	rs.mu.Unlock()
	for _, c := range calls {
		c.finish(outcome{err: diedError{why}})
	}
	if deaths > 3 {
		rs.notice("Gradbook's runner keeps stopping (" + why + "): cells run on the page itself now. Reload the page to try the runner again.")
		rs.mu.Lock()
		rs.ready = make(chan struct{})
		ready := rs.ready
		rs.mu.Unlock()
		rs.runInPage(ready)
		return
	}
	rs.start()
}
