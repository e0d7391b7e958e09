//go:build js && wasm

package web

import (
	"errors"
	"fmt"
	"syscall/js"
	"time"

	"gradbook/notebook/page"
)

// browser is page.Browser: the window's services, each a call or two.
type browser struct{}

var _ page.Browser = browser{}

func (browser) Location() page.Location {
	l := js.Global().Get("location")
	return page.Location{Href: l.Get("href").String(), Pathname: l.Get("pathname").String(), Search: l.Get("search").String(), Hash: l.Get("hash").String()}
}

// SessionPut keeps a value for the next page of this tab, if it can.
func (browser) SessionPut(key, value string) {
	defer func() { recover() }()
	if s, ok := global("sessionStorage"); ok {
		s.Call("setItem", key, value)
	}
}

// SessionTake returns and forgets a value kept by SessionPut, or "".
func (browser) SessionTake(key string) string {
	defer func() { recover() }()
	s, ok := global("sessionStorage")
	if !ok {
		return ""
	}
	v := s.Call("getItem", key)
	if v.IsNull() {
		return ""
	}
	s.Call("removeItem", key)
	return v.String()
}

// Notices returns what gradbook.js found this browser lacks
// (gradbookNotices: what the page does without, said as notices).
func (browser) Notices() (out []string) {
	defer func() { recover() }()
	v, ok := global("gradbookNotices")
	if !ok || v.Type() != js.TypeObject {
		return nil
	}
	for i := range v.Length() {
		out = append(out, v.Index(i).String())
	}
	return out
}

func (browser) Copy(text string) error {
	clip := js.Global().Get("navigator").Get("clipboard")
	if clip.IsUndefined() {
		return errors.New("this browser has no clipboard here")
	}
	_, err := await(clip.Call("writeText", text))
	return err
}

func (browser) Download(filename, mime string, data []byte) {
	blob := js.Global().Get("Blob").New(js.ValueOf([]any{string(data)}), map[string]any{"type": mime})
	url := js.Global().Get("URL").Call("createObjectURL", blob)
	doc := js.Global().Get("document")
	a := doc.Call("createElement", "a")
	a.Call("setAttribute", "href", url.String())
	a.Call("setAttribute", "download", filename)
	doc.Get("body").Call("appendChild", a)
	a.Call("click")
	a.Call("remove")
	time.AfterFunc(10*time.Second, func() { js.Global().Get("URL").Call("revokeObjectURL", url) })
}

// file is a File of a file input.
type file struct{ v js.Value }

func (f file) Size() float64 { return f.v.Get("size").Float() }
func (f file) Read() ([]byte, error) {
	text, err := await(f.v.Call("text"))
	if err != nil {
		return nil, err
	}
	return []byte(text.String()), nil
}

func (browser) Chosen(input page.Node) (page.File, bool) {
	files := jsOf(input).Get("files")
	if files.IsUndefined() || files.IsNull() || files.Length() == 0 {
		return nil, false
	}
	return file{files.Index(0)}, true
}

func (browser) Reload() { js.Global().Get("location").Call("reload") }

func (browser) ScrollBy(dy float64) {
	js.Global().Call("scrollBy", map[string]any{"top": dy, "behavior": "smooth"})
}

func (browser) Height() float64 { return js.Global().Get("innerHeight").Float() }

// Estimate asks the browser to keep the data, and says how much is used.
func (browser) Estimate() (e page.Estimate, ok bool) {
	storage := js.Global().Get("navigator").Get("storage")
	if storage.IsUndefined() || storage.Get("estimate").IsUndefined() {
		return e, false
	}
	if !storage.Get("persist").IsUndefined() {
		if v, err := await(storage.Call("persist")); err == nil {
			e.Persisted = v.Truthy()
		}
	}
	est, err := await(storage.Call("estimate"))
	if err != nil {
		return e, false
	}
	e.Usage, e.Quota = est.Get("usage").Float(), est.Get("quota").Float()
	return e, true
}

func (browser) SinceStart() float64 { return js.Global().Get("performance").Call("now").Float() }

// Fetch reads a file of the Gradbook site: on a course page through
// embed.js's fetch, which goes through a frame where the host sends no
// CORS headers.
func (browser) Fetch(url string) ([]byte, error) {
	fetch, this := js.Global().Get("fetch"), js.Global()
	if e := js.Global().Get("gradbookEmbed"); e.Truthy() {
		this, fetch = e, e.Get("fetch")
	}
	resp, err := await(fetch.Call("call", this, url))
	if err != nil {
		return nil, err
	}
	if st := resp.Get("status").Int(); st == 404 {
		return nil, fmt.Errorf("%s was not found (404): upload the whole exported folder, next to embed.js", url)
	} else if !resp.Get("ok").Bool() {
		return nil, fmt.Errorf("%s: %d %s", url, st, resp.Get("statusText").String())
	}
	text, err := await(resp.Call("text"))
	if err != nil {
		return nil, err
	}
	return []byte(text.String()), nil
}
