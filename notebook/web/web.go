//go:build js && wasm

// Package web is the page's side of gradbook.wasm in the browser: the
// page.Env of the real DOM (honnef.co/go/js/dom/v2), IndexedDB
// (go-indexeddb), the code editor (site/editor.js), the runner's Web
// Workers and, in a SCORM package, the LMS's API. It only converts: the
// page's behaviour is package page's, tested natively with a fake DOM.
//
// One file per part of the browser: dom.go the document and its events,
// browser.go the window's services, editor.go CodeMirror, idb.go the
// progress store, workers.go the runners' Web Workers, lms.go (with the
// lms tag) the LMS's windows and API, promise.go JavaScript promises.
package web

import (
	"fmt"
	"runtime/debug"

	"gradbook/notebook/page"
)

// Run starts the page and returns; its listeners and work go on for as
// long as the page lives. A panic on the way is reported, not fatal.
func Run() {
	defer func() {
		if r := recover(); r != nil {
			println("gradbook: the page did not start:", fmt.Sprint(r), string(debug.Stack()))
		}
	}()
	doc := newDocument()
	var notices []string
	env := page.Env{
		Doc:     doc,
		Clock:   page.RealClock{},
		Browser: browser{},
		Storage: storage{},
		LMS:     lmsOf(),
	}
	var p *page.Page
	env.Runner = newRunnerClient(func(msg string) {
		if p == nil {
			notices = append(notices, msg)
			return
		}
		p.Notice(msg)
	})
	var later <-chan page.Editors
	env.Editors, later = loadEditors()
	p = page.Start(env)
	if later != nil {
		go func() {
			if eds := <-later; eds != nil {
				p.UseEditors(eds)
			}
		}()
	}
	for _, n := range notices {
		p.Notice(n)
	}
}
