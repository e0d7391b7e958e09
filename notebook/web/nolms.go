//go:build js && wasm && !lms

package web

// Without the lms build tag, gradbook.wasm has no SCORM reporting: the
// site's pages never need it, and leaving it out (package lms and Go's
// deflate) keeps every learner's download 68 KB smaller. serve.go -scorm
// builds the packages' gradbook.wasm with it (lms.go).

import (
	"syscall/js"

	"gradbook/notebook/block"
	"gradbook/notebook/progress"
)

// lmsLink is nothing without an LMS: see lms.go.
type lmsLink struct{}

// connectLMS says, on a SCORM package's page whose gradbook.wasm was built
// without reporting, that nothing reaches the LMS; elsewhere it does
// nothing.
func (p *Page) connectLMS() {
	if p.body.GetAttribute(block.AttrLMS) != "" && !p.embedded {
		p.notice("This lesson was packaged for an LMS, but its gradbook.wasm cannot report to one: nothing you do here reaches the LMS, and your work is kept in this browser only. Build the package again with go run serve.go -scorm.")
	}
}

func (p *Page) database() string { return dbName }

func (l *lmsLink) restore(*progress.Progress) {}

func (l *lmsLink) changed() {}

// reload reloads the page after a reset or an import.
func (p *Page) reload() { js.Global().Get("location").Call("reload") }
