// Package lmstest is an LMS for tests: the runtime API of SCORM 2004
// (lms.API) as an LMS gives it to a lesson's page, held in memory, for the
// tests of package lms and of the page.
package lmstest

import (
	"maps"
	"sync"
)

// API is an LMS's runtime API as SCORM describes it: values that a page
// reads and sets between Initialize and Terminate, what it held at each
// commit, and the error of the last call. Refuse makes it refuse a call
// ("Commit") or the setting of an element ("SetValue cmi.suspend_data")
// with an error code. Its methods may be called from any goroutine; a
// test reads its fields directly only while nothing else calls it, and
// otherwise through Value, Committed and Ended.
type API struct {
	mu          sync.Mutex
	Values      map[string]string
	Refuse      map[string]int
	Initialized bool
	Terminated  bool
	// Relaunch makes Initialize after Terminate begin a new session, as
	// an LMS does when the learner opens the lesson again (the page
	// reloads); without it, that Initialize fails as a second one does.
	Relaunch bool
	Err      int
	Set      []string            // the elements set, in order
	Commits  []map[string]string // what the LMS held at each commit and at Terminate
}

// New returns an LMS that holds values (nil: none).
func New(values map[string]string) *API {
	if values == nil {
		values = map[string]string{}
	}
	return &API{Values: values, Refuse: map[string]int{}}
}

// refused sets the error of call, if the LMS refuses it.
func (f *API) refused(call string) bool {
	f.Err = f.Refuse[call]
	return f.Err != 0
}

// open reports whether a session is open, and sets err if not.
func (f *API) open(err int) bool {
	if !f.Initialized || f.Terminated {
		f.Err = err
		return false
	}
	return true
}

func (f *API) Initialize() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case f.refused("Initialize"):
		return false
	case f.Initialized && !(f.Terminated && f.Relaunch):
		f.Err = 103 // Already Initialized
		return false
	}
	f.Initialized, f.Terminated = true, false
	return true
}

func (f *API) Terminate() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.refused("Terminate") || !f.open(112) {
		f.Err = max(f.Err, 112)
		return false
	}
	f.Terminated = true
	f.Commits = append(f.Commits, maps.Clone(f.Values))
	return true
}

func (f *API) GetValue(el string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.open(122) { // Retrieve Data Before Initialization
		return ""
	}
	v, ok := f.Values[el]
	if !ok {
		f.Err = 403 // Data Model Element Value Not Initialized
		return ""
	}
	f.Err = 0
	return v
}

func (f *API) SetValue(el, v string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.refused("SetValue "+el) || !f.open(132) { // Store Data Before Initialization
		return false
	}
	f.Values[el] = v
	f.Set = append(f.Set, el)
	return true
}

func (f *API) Commit() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.refused("Commit") || !f.open(142) { // Commit Before Initialization
		return false
	}
	f.Commits = append(f.Commits, maps.Clone(f.Values))
	return true
}

func (f *API) LastError() (int, string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	msg := map[int]string{102: "General Initialization Failure", 103: "Already Initialized", 391: "General Commit Failure", 405: "Incorrect Data Type"}[f.Err]
	return f.Err, msg
}

// Value is what the LMS holds for the element el.
func (f *API) Value(el string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.Values[el]
}

// Committed is how many commits the LMS has had, Terminate's included.
func (f *API) Committed() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.Commits)
}

// Ended reports whether the session has been terminated.
func (f *API) Ended() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.Terminated
}
