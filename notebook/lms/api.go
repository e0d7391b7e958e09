package lms

import (
	"strconv"
	"strings"
)

// This file finds an LMS's API object as SCORM's discovery does, and
// adapts it to API: 2004's methods by their names, 1.2's by theirs
// (LMSInitialize, LMSFinish, …). Package web gives the windows and the
// object; what is looked for, where, and what an answer means are here.

// Object is an LMS's API object as a page reaches it: Call calls one of
// its methods, by name, and returns what it returned (a bool, a string
// of at most limit UTF-16 code units, cut before it leaves JavaScript, or
// a float64; nil for anything else), or an error if it threw.
type Object interface {
	Call(method string, limit int, args ...string) (any, error)
}

// Window is a browser window, as API discovery walks them.
type Window interface {
	// Object returns the window's property name if it is an object with
	// a method named method (an API object), else false. A window of
	// another origin, which cannot be read, has none.
	Object(name, method string) (Object, bool)
	// Parent, Top and Opener are the window's parent (itself at the
	// top), its top window and the window that opened it; false where
	// there is none or it cannot be read.
	Parent() (Window, bool)
	Top() (Window, bool)
	Opener() (Window, bool)
	// Same reports whether w is this window.
	Same(w Window) bool
}

// maxParents bounds the walk up a window's parents, as SCORM's own
// discovery does (it gives up after 500).
const maxParents = 500

// Find finds the API of version v as SCORM's discovery does: on w and
// each of its parents, then on the window that opened the top one (a
// popup) and its parents, then on w's own opener and its parents.
func Find(v Version, w Window) (API, bool) {
	name, method := v.APIName(), method(v, "Initialize")
	scan := func(w Window, ok bool) (Object, bool) {
		for n := 0; ok && n < maxParents; n++ {
			if obj, ok := w.Object(name, method); ok {
				return obj, true
			}
			parent, ok := w.Parent()
			if !ok || parent.Same(w) {
				break
			}
			w = parent
		}
		return nil, false
	}
	obj, found := scan(w, true)
	if !found {
		if top, ok := w.Top(); ok {
			obj, found = scan(top.Opener())
		}
	}
	if !found {
		obj, found = scan(w.Opener())
	}
	if !found {
		return nil, false
	}
	return Adapt(v, obj), true
}

// method is SCORM 2004's method name as version v spells it.
func method(v Version, name string) string {
	if v != SCORM12 {
		return name
	}
	if name == "Terminate" {
		return "LMSFinish"
	}
	return "LMS" + name
}

// Adapt makes an LMS's API object of version v an API. A call that
// throws is a call the LMS refused, whose error LastError gives (code
// ErrThrew), and a GetValue that throws reads as an error, never as a
// value.
func Adapt(v Version, obj Object) API { return &adapter{v: v, obj: obj} }

// ErrThrew is the code LastError gives for a call that threw: no code an
// LMS uses (SCORM's are 0 to 1000).
const ErrThrew = -1

type adapter struct {
	v     Version
	obj   Object
	threw error // the last call's exception, if it threw
}

// What an answer may hold, read no further: an LMS's words are shown
// clipped to 200 characters, a code or a "true" is short, and no element
// is read past MaxRead (one character more tells that it was longer).
const (
	answerLimit  = 32
	messageLimit = 1000
	valueLimit   = MaxRead + 1
)

func (a *adapter) call(name string, limit int, args ...string) any {
	r, err := a.obj.Call(method(a.v, name), limit, args...)
	a.threw = err
	return r
}

// truth reads an API's answer: "true" or true.
func truth(r any) bool { return text(r) == "true" }

// text reads an API's answer as a string; an LMS may answer a number or
// a boolean.
func text(r any) string {
	switch r := r.(type) {
	case string:
		return r
	case float64:
		return strconv.FormatFloat(r, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(r)
	}
	return ""
}

func (a *adapter) Initialize() bool { return truth(a.call("Initialize", answerLimit, "")) }
func (a *adapter) Terminate() bool  { return truth(a.call("Terminate", answerLimit, "")) }
func (a *adapter) Commit() bool     { return truth(a.call("Commit", answerLimit, "")) }
func (a *adapter) GetValue(element string) string {
	if r := a.call("GetValue", valueLimit, element); a.threw == nil {
		return text(r)
	}
	return ""
}
func (a *adapter) SetValue(element, v string) bool {
	return truth(a.call("SetValue", answerLimit, element, v))
}

func (a *adapter) LastError() (int, string) {
	if err := a.threw; err != nil {
		return ErrThrew, "it threw " + err.Error()
	}
	code, _ := strconv.Atoi(strings.TrimSpace(text(a.call("GetLastError", answerLimit))))
	if err := a.threw; err != nil {
		return ErrThrew, "its GetLastError threw " + err.Error()
	}
	if code == 0 {
		return 0, ""
	}
	msg := text(a.call("GetErrorString", messageLimit, strconv.Itoa(code)))
	a.threw = nil
	return code, msg
}
