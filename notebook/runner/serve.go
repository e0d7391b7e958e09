//go:build js && wasm

package runner

import (
	"fmt"
	"syscall/js"
	"time"

	"gradbook/internal/jsvalue"
)

// flushEvery is how often lines printed by a running cell are sent to the
// page: often enough to read as live, seldom enough to cost nothing.
const flushEvery = 30 * time.Millisecond

// Serve runs the jobs the page sends to this Web Worker, one at a time, in
// the order they come. The worker's start-up script (notebook.js) hands
// each message to the function Serve gives gradbookRunner.ready:
//
//	page → worker  {id, job}                  job as jsvalue.Of(Job)
//	worker → page  {id, lines: [[cell, text]]} while the job runs
//	worker → page  {id, result} or {id, error} when it ends
func Serve() {
	jobs := make(chan js.Value, 16)
	handle := js.FuncOf(func(_ js.Value, args []js.Value) any {
		jobs <- args[0]
		return nil
	})
	js.Global().Get("gradbookRunner").Call("ready", handle)
	for msg := range jobs {
		serveOne(msg)
	}
}

func serveOne(msg js.Value) {
	id := msg.Get("id")
	post := func(key string, v js.Value) {
		reply := js.Global().Get("Object").New()
		reply.Set("id", id)
		reply.Set(key, v)
		js.Global().Call("postMessage", reply)
	}
	defer func() {
		if r := recover(); r != nil {
			post("error", js.ValueOf(fmt.Sprintf("internal error in Gradbook's runner: %v (please report it)", r)))
		}
	}()
	var job Job
	if err := jsvalue.Into(msg.Get("job"), &job); err != nil {
		post("error", js.ValueOf(err.Error()))
		return
	}
	var lines []any
	last := time.Now()
	flush := func() {
		if len(lines) > 0 {
			post("lines", js.ValueOf(lines))
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
	r := Do(job, func(cell int, line string) {
		lines = append(lines, []any{cell, line})
		due()
	}, due)
	flush()
	post("result", jsvalue.Of(r))
}
