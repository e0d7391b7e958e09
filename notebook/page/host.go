package page

import (
	"gradbook/notebook/kernel"
	"gradbook/notebook/progress"
	"gradbook/notebook/runner"
)

// This file declares the rest of what the page's logic needs of its
// browser: the runner, the code editor, storage and the window's
// services. Package web gives the real ones; tests give fakes.

// Runner runs cells and checks, off the page's thread: runner.Client.
type Runner interface {
	Do(job runner.Job, hooks kernel.Hooks) (runner.Result, error)
	Stop()
	Busy() bool
}

var _ Runner = (*runner.Client)(nil)

// Editors makes code editors (CodeMirror, from site/editor.js).
type Editors interface {
	// New makes an editor in box holding text.
	New(box Node, text string, opts EditorOptions) Editor
}

// EditorOptions are an editor's name for screen readers, its keyboard
// hint, and what it calls after each edit and on Shift+Enter or
// Ctrl/⌘+Enter.
type EditorOptions struct {
	Label, Hint string
	OnChange    func()
	OnRun       func()
}

// Editor is one code editor made by Editors.
type Editor interface {
	Text() string
	SetText(text string)
	Focus()
	// Mark marks line n (from 1) as the one an error names, until the
	// code changes; 0 clears it.
	Mark(n int)
	Label(label string)
	Destroy()
}

// Location is the page's address, in parts.
type Location struct {
	Href, Pathname, Search, Hash string
}

// File is a file the learner chose in a file input.
type File interface {
	Size() float64
	Read() ([]byte, error)
}

// Estimate is how much storage the site uses of what the browser allows.
type Estimate struct {
	Usage, Quota float64
	Persisted    bool // the browser keeps the data until the learner deletes it
}

// Browser is the window's services.
type Browser interface {
	Location() Location
	// SessionPut keeps a value for the next page of this tab;
	// SessionTake returns it once, then "".
	SessionPut(key, value string)
	SessionTake(key string) string
	// Notices are what the page's script found this browser lacks.
	Notices() []string
	// Copy puts text on the clipboard.
	Copy(text string) error
	// Download saves data as a file the learner gets.
	Download(filename, mime string, data []byte)
	// Chosen is the file chosen in a file input, if any.
	Chosen(input Node) (File, bool)
	Reload()
	// ScrollBy scrolls the window smoothly by dy; Height is the
	// window's inner height.
	ScrollBy(dy float64)
	Height() float64
	// Estimate asks the browser to keep the site's data and says how
	// much it uses; ok is false where the browser does not say.
	Estimate() (e Estimate, ok bool)
	// SinceStart is the time since the page's navigation began, in ms.
	SinceStart() float64
	// Fetch reads a file of the Gradbook site (cells.json), through
	// the course page's frame where the host sends no CORS headers. A
	// 404 is an error that names the file.
	Fetch(url string) ([]byte, error)
}

// Storage opens the learner's saved progress.
type Storage interface {
	// Open opens the store of the named database.
	Open(database string) (progress.Store, error)
}

// LMS is a SCORM package's lesson's link to the LMS that launched it.
type LMS interface {
	// Database names the database that keeps the learner's progress: in
	// an LMS, one per learner, so that two learners on one browser never
	// see or report each other's work; "" keeps none, where the LMS does
	// not say who the learner is.
	Database() string
	// Restore takes the learner's work back from the LMS, before the
	// page restores its cells.
	Restore(prog *progress.Progress)
	// Changed reports a change to the progress.
	Changed()
	// Reloading is told that the page reloads itself (after a reset or
	// an import): the LMS hears of the change first, and its session goes
	// on into the reloaded page.
	Reloading()
}
