//go:build js && wasm

package web

import (
	"syscall/js"

	"gradbook/internal/jsvalue"
	"gradbook/internal/protocol"
	"gradbook/notebook/runner"
)

// workers is the runner.Host of a page: it starts each runner in a Web
// Worker through gradbook.js's gradbookRunners.start. Everything else
// about runners (the queue, restarts, runs on the page) is runner.Client's,
// in plain Go.
type workers struct {
	host js.Value
}

// worker is one runner's Web Worker: post and stop from gradbook.js, and
// the callbacks it was given, released when it ends.
type worker struct {
	handle   js.Value
	on, died js.Func
}

// newRunnerClient returns the page's runner.Client: its runners are Web
// Workers, or, where gradbook.js offers none, the page itself.
func newRunnerClient(notice func(string)) *runner.Client {
	if host, ok := global("gradbookRunners"); ok {
		c := runner.NewClient(&workers{host}, notice)
		c.SetDataLoader(func(name string) (string, error) {
			text, err := await(host.Call("data", name))
			if err != nil {
				return "", err
			}
			return text.String(), nil
		})
		return c
	}
	return runner.NewClient(nil, notice)
}

// Start starts a runner; it waits for gradbook.js's promise, so it runs on
// its own goroutine (runner.Client calls it so).
func (ws *workers) Start(message func(runner.Message), died func(why string, started bool)) (runner.Worker, error) {
	w := &worker{}
	w.on = js.FuncOf(func(_ js.Value, args []js.Value) any {
		m := decode(args[0])
		spawn(func() { message(m) })
		return nil
	})
	w.died = js.FuncOf(func(_ js.Value, args []js.Value) any {
		why, started := args[0].String(), len(args) > 1 && args[1].Truthy()
		spawn(func() {
			died(why, started)
			w.release()
		})
		return nil
	})
	h, err := await(ws.host.Call("start", w.on, w.died))
	if err != nil {
		w.release()
		return nil, err
	}
	w.handle = h
	return w, nil
}

// decode reads a runner's message about a job.
func decode(v js.Value) runner.Message {
	m := runner.Message{ID: v.Get(protocol.FieldID).Int()}
	switch v.Get(protocol.Key).String() {
	case protocol.Started:
		m.Begins, m.Cell = true, v.Get(protocol.FieldCell).Int()
	case protocol.Lines:
		ls := v.Get(protocol.FieldLines)
		for i := range ls.Length() {
			l := ls.Index(i)
			m.Lines = append(m.Lines, runner.Line{Cell: l.Index(0).Int(), Text: l.Index(1).String()})
		}
	case protocol.Error:
		m.Err = v.Get(protocol.FieldError).String()
	case protocol.Result:
		var r runner.Result
		if err := jsvalue.Into(v.Get(protocol.FieldResult), &r); err != nil {
			m.Err = "the runner's answer could not be read: " + err.Error()
		} else {
			m.Result = &r
		}
	}
	return m
}

// Post sends the worker a job.
func (w *worker) Post(id int, job runner.Job) {
	msg := js.Global().Get("Object").New()
	msg.Set(protocol.Key, protocol.Job)
	msg.Set(protocol.FieldID, id)
	msg.Set(protocol.FieldJob, jsvalue.Of(job))
	w.handle.Call("post", msg)
}

// Stop ends the worker; gradbook.js calls none of its callbacks after.
func (w *worker) Stop() {
	w.handle.Call("stop")
	w.release()
}

func (w *worker) release() {
	w.on.Release()
	w.died.Release()
}
