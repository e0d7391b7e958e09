//go:build js && wasm

package web

import (
	"fmt"
	"syscall/js"
)

// await waits for a JavaScript promise. Call it from a goroutine, never
// from a callback.
func await(promise js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	var ok, fail js.Func
	ok = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- result{v: args[0]}
		return nil
	})
	fail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "failed"
		if len(args) > 0 {
			// A plain Error says its message alone ("Error: " is
			// noise in what a learner reads); any other says its kind.
			if e := args[0]; e.Type() == js.TypeObject && e.Get("name").Equal(js.ValueOf("Error")) && e.Get("message").Type() == js.TypeString {
				msg = e.Get("message").String()
			} else {
				msg = e.Call("toString").String()
			}
		}
		ch <- result{err: fmt.Errorf("%s", msg)}
		return nil
	})
	promise.Call("then", ok, fail)
	r := <-ch
	ok.Release()
	fail.Release()
	return r.v, r.err
}

// global reads a property of the global object. Reading some (indexedDB,
// sessionStorage) throws where the browser denies storage (a frame on
// another site, blocked storage); js.Value.Get would let that exception
// through the WebAssembly runtime, while Reflect.get through Call turns it
// into a panic, recovered here.
func global(name string) (v js.Value, ok bool) {
	defer func() {
		if recover() != nil {
			v, ok = js.Undefined(), false
		}
	}()
	v = js.Global().Get("Reflect").Call("get", js.Global(), name)
	return v, v.Truthy()
}

// spawn runs f on its own goroutine, out of the callback that has to
// return at once; a panic is printed, not fatal.
func spawn(f func()) {
	go func() {
		defer func() {
			if r := recover(); r != nil {
				println("gradbook: recovered:", fmt.Sprint(r))
			}
		}()
		f()
	}()
}
