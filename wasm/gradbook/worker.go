//go:build js && wasm

package main

import (
	"fmt"
	"syscall/js"
	"time"

	"gradbook/internal/jsvalue"
	"gradbook/internal/protocol"
	"gradbook/notebook/kernel"
	"gradbook/notebook/runner"
)

// flushEvery is how often lines printed by a running cell are sent to the
// page: often enough to read as live, seldom enough to cost nothing.
const flushEvery = 30 * time.Millisecond

// serve runs the jobs the page sends to this Web Worker, one at a time, in
// the order they come, in one Runner. The worker's start-up script
// (runner.js) hands each message to the function serve gives
// gradbookRunner.ready; the messages are package protocol's job, lines,
// result and error.
func serve() {
	jobs := make(chan js.Value, 16)
	handle := js.FuncOf(func(_ js.Value, args []js.Value) any {
		jobs <- args[0]
		return nil
	})
	js.Global().Get("gradbookRunner").Call("ready", handle)
	r := runner.New()
	for msg := range jobs {
		serveOne(r, msg)
	}
}

// post sends the page a message of kind about job id.
func post(kind string, id js.Value, key string, v js.Value) {
	reply := js.Global().Get("Object").New()
	reply.Set(protocol.Key, kind)
	reply.Set(protocol.FieldID, id)
	reply.Set(key, v)
	js.Global().Call("postMessage", reply)
}

// serveOne does one job the page sent, posting its lines as they come
// and then its result.
func serveOne(r *runner.Runner, msg js.Value) {
	if msg.Get(protocol.Key).String() != protocol.Job {
		return
	}
	id := msg.Get(protocol.FieldID)
	fail := func(why string) { post(protocol.Error, id, protocol.FieldError, js.ValueOf(why)) }
	defer func() {
		if p := recover(); p != nil {
			fail(fmt.Sprintf("internal error in Gradbook's runner: %v (please report it)", p))
		}
	}()
	var job runner.Job
	if err := jsvalue.Into(msg.Get(protocol.FieldJob), &job); err != nil {
		fail(err.Error())
		return
	}
	var lines []any
	last := time.Now()
	flush := func() {
		if len(lines) > 0 {
			post(protocol.Lines, id, protocol.FieldLines, js.ValueOf(lines))
			lines = lines[:0]
		}
		last = time.Now()
	}
	// Lines go out at once if none went out for flushEvery, and else
	// with the next line or step check after that: a line printed just
	// before a long computation shows while it runs, not at its end.
	due := func() {
		if len(lines) > 0 && time.Since(last) >= flushEvery {
			flush()
		}
	}
	res := r.Do(job, kernel.Hooks{
		Line: func(cell int, line string) {
			lines = append(lines, []any{cell, line})
			due()
		},
		Start: func(cell int) {
			flush()
			post(protocol.Started, id, protocol.FieldCell, js.ValueOf(cell))
		},
		Flush: due,
	})
	flush()
	post(protocol.Result, id, protocol.FieldResult, jsvalue.Of(res))
}
