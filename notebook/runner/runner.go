// Package runner runs learners' code for the page: cells, and the checks
// of exercises. Runner.Do is the whole of it, in plain Go.
//
// In the browser the same gradbook.wasm plays two roles. On the page it
// is the DOM side (package web: the cells, drawings, progress in
// IndexedDB); in a Web Worker it is the runner (this package: Starlark,
// the engine, drawing layout). The page hands the worker a Job and gets
// back printed lines while the job runs, then a Result, each as one
// structured-clone message (wasm/gradbook's worker.go). The page can always stop a
// job, however stuck, by terminating the worker and starting another;
// a runner that dies (out of memory) takes only the worker with it.
//
// Explore blocks stay on the page: their graphs are the lesson's own,
// small and fixed, their task conditions run under kernel.TaskBudget,
// and a slider move must redraw within a frame, which a round trip to the
// worker would only slow down.
package runner

import (
	"time"

	"gradbook/notebook"
	"gradbook/notebook/block"
	"gradbook/notebook/kernel"
	"gradbook/notebook/library"
)

// Job is one piece of work: run cells, or check an exercise.
type Job struct {
	// Cells are the sources of a run, in order; the last is the cell the
	// learner ran. All asks for every cell's result and drawings (Run
	// all); otherwise only the last cell's come back.
	Cells []string
	All   bool
	// Check names an exercise's checker (block.Checkers) and Tests are its
	// tests in the cell language: either or both check Source.
	Check  string
	Tests  []block.Test
	Source string
	// Budget is how long the cells may run; 0 means kernel.CellBudget.
	Budget time.Duration
	// Data are the data files the job's code reads (library.NeedsData),
	// by name: the Client brings them, the runner keeps them
	// (library.SetDataFile).
	Data map[string]string
}

// Result is what a job gave: a result per cell, or a check's report.
type Result struct {
	Cells  []kernel.CellResult
	Report *block.Report
}

// Runner does jobs, one at a time, in one Session of the cell language
// (notebook.NewSession): the state kept after cells carries over from one
// job to the next.
type Runner struct {
	session *kernel.Session
}

// New returns a Runner with an empty Session.
func New() *Runner { return &Runner{session: notebook.NewSession()} }

// Do does job, telling hooks as it goes (a check's job tells them
// nothing).
func (r *Runner) Do(job Job, hooks kernel.Hooks) Result {
	for name, text := range job.Data {
		// A file the Client brought is the site's: a bad one is a bug, and
		// the cell that reads it says it has none.
		_ = library.SetDataFile(name, text)
	}
	if job.Check != "" || len(job.Tests) > 0 {
		rep := block.Judge(job.Check, job.Tests, job.Source)
		return Result{Report: &rep}
	}
	if len(job.Cells) == 0 {
		return Result{}
	}
	res := r.session.Run(kernel.Request{Cells: job.Cells, All: job.All, Limits: kernel.Limits{Time: job.Budget}, Hooks: hooks}).Cells
	if !job.All {
		res = res[len(res)-1:]
	}
	return Result{Cells: res}
}
