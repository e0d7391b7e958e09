//go:build js && wasm && lms

package web

// A SCORM package's gradbook.wasm (serve.go -scorm builds with the lms
// tag) finds its LMS's API on the windows around the page: lms.Find walks
// them, this file only reads them.

import (
	"errors"
	"fmt"
	"syscall/js"

	"gradbook/notebook/lms"
	"gradbook/notebook/page"
)

func lmsOf() func(*page.Page) page.LMS {
	return page.LMSLink(func(v lms.Version) (lms.API, bool) { return lms.Find(v, window{js.Global()}) })
}

// window is a browser window as lms.Find walks it.
type window struct{ v js.Value }

func (w window) Object(name, method string) (lms.Object, bool) {
	api := property(w.v, name)
	if api.Type() != js.TypeObject || property(api, method).Type() != js.TypeFunction {
		return nil, false
	}
	return object{api}, true
}

func (w window) other(name string) (lms.Window, bool) {
	o := property(w.v, name)
	return window{o}, o.Truthy()
}

func (w window) Parent() (lms.Window, bool) { return w.other("parent") }
func (w window) Top() (lms.Window, bool)    { return w.other("top") }
func (w window) Opener() (lms.Window, bool) { return w.other("opener") }
func (w window) Same(o lms.Window) bool     { ow, ok := o.(window); return ok && w.v.Equal(ow.v) }

// property reads a property of a JavaScript value, undefined where it
// throws (a window of another origin).
func property(v js.Value, name string) (out js.Value) {
	defer func() {
		if recover() != nil {
			out = js.Undefined()
		}
	}()
	if !v.Truthy() {
		return js.Undefined()
	}
	return js.Global().Get("Reflect").Call("get", v, name)
}

// object is an LMS's API object: a method that throws is an error, and a
// string it answers is cut to limit in JavaScript, before Go copies it.
type object struct{ v js.Value }

func (o object) Call(method string, limit int, args ...string) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, thrown(r)
		}
	}()
	as := make([]any, len(args))
	for i, a := range args {
		as[i] = a
	}
	r := o.v.Call(method, as...)
	switch r.Type() {
	case js.TypeBoolean:
		return r.Bool(), nil
	case js.TypeString:
		return clipped(r, limit), nil
	case js.TypeNumber:
		return r.Float(), nil
	}
	return nil, nil
}

// thrownLimit is the most of what a method threw that is read.
const thrownLimit = 1000

// thrown is what a method threw, as an error of at most thrownLimit
// characters of its text.
func thrown(r any) error {
	e, ok := r.(js.Error)
	if !ok {
		return fmt.Errorf("%v", r)
	}
	text := "something that is not an error"
	func() {
		defer func() { recover() }() // a toString that throws
		text = clipped(js.Global().Call("String", e.Value), thrownLimit)
	}()
	return errors.New(text)
}

// clipped is a JavaScript string cut to limit UTF-16 code units in
// JavaScript, so that no more crosses into Go (js.Value's Get and Length
// take objects only: String.prototype.slice cuts the string).
func clipped(s js.Value, limit int) string {
	return js.Global().Get("String").Get("prototype").Get("slice").Call("call", s, 0, limit).String()
}
