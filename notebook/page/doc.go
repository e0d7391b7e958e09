// Package page is a notebook page's behaviour in plain Go: its code cells
// (Run, Run all up to a prediction not yet made, Stop, Reset, results,
// out-of-date cells below a change), quizzes, exercises, explore blocks
// and drawings with their stepper, bug toggles, paths and "you do the
// backward pass", the learner's progress with its save status, the
// progress panel, scratch cells, share links, the index's completion, and
// cells on course pages and in frames; on a SCORM package's lesson, with
// the lms build tag, its link to the LMS (lms.go, over package lms).
//
// It runs over small interfaces of its own (dom.go, host.go): a Document
// of Nodes and their Events, a Clock, the window's services (Browser),
// the Runner, code Editors and the progress Storage. Package web
// implements them in the browser; package page/fakedom is a document in
// memory, and this package's tests start real pages built from real
// lessons on it, with a clock moved by hand and runners that are
// goroutines:
//
//	p := page.Start(page.Env{Doc: doc, Clock: clock, Browser: b, Runner: r, Storage: s})
//	fakedom.Click(doc.Query("#run-all"))
//	p.Settle()
//
// Its state has one owner: every piece of work runs under the page's lock
// (Page.Do), as the browser's one thread runs it, and lets go of it while
// it waits for the runner, the storage or the browser, so that the page
// keeps answering; a listener only reads its event and starts work. The
// runner's events come back in the order they were sent.
//
// Beside the controllers are the rules they share, each tested on its
// own: what a cell shows after a run (Show, Outcome, Why), which cells a
// run takes (Chain, PlanRunAll), debounced saves (Debouncer), share links
// (ShareLink, ParseShare), scratch cells' ids (NextID), and the storage's
// way out of the back/forward cache (Cached).
package page
