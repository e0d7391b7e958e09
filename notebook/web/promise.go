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
			msg = args[0].Call("toString").String()
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

func sessionPut(key, value string) {
	defer func() { recover() }()
	js.Global().Get("sessionStorage").Call("setItem", key, value)
}

func sessionTake(key string) string {
	defer func() { recover() }()
	s := js.Global().Get("sessionStorage")
	v := s.Call("getItem", key)
	if v.IsNull() {
		return ""
	}
	s.Call("removeItem", key)
	return v.String()
}
