package lms

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// API is an LMS's runtime API as a lesson page calls it, in SCORM 2004's
// names: the adapter of a 1.2 API calls LMSInitialize for Initialize,
// LMSFinish for Terminate, and so on. Each call but GetValue returns
// whether the LMS took it.
type API interface {
	Initialize() bool
	Terminate() bool
	GetValue(element string) string
	SetValue(element, value string) bool
	Commit() bool
	// LastError is the LMS's code and message for the error of the last
	// call, 0 for none.
	LastError() (code int, message string)
}

// CommitEvery is the longest a change waits for a commit, when it is not
// one the LMS grades by: code being written is committed at most this
// long after the last commit.
const CommitEvery = 30 * time.Second

// MaxRead is the most characters read from any element the LMS holds:
// more than any LMS keeps in suspend data, little enough for the tab.
const MaxRead = 1_000_000

// Refused is an error: the LMS refused a call.
type Refused struct {
	Call    string // Initialize, SetValue, Commit, Terminate
	Element string // for SetValue
	Code    int
	Message string // the LMS's own words, at most 200 characters
}

func (r *Refused) Error() string {
	call := r.Call
	if r.Element != "" {
		call += " " + r.Element
	}
	switch {
	case r.Code != 0 && r.Message != "":
		return fmt.Sprintf("it refused %s: %d %s", call, r.Code, r.Message)
	case r.Code != 0:
		return fmt.Sprintf("it refused %s: error %d", call, r.Code)
	}
	return "it refused " + call
}

// ErrEnded is returned by a report after the session has ended.
var ErrEnded = errors.New("the session with the LMS has ended")

// Session is one launch of a lesson by the LMS, from Initialize to
// Terminate.
type Session struct {
	v   Version
	api API
	now func() time.Time
	// Started is when the session began; the session time counts from it.
	Started time.Time
	// LearnerID is the LMS's id of the learner ("" if it gives none).
	LearnerID string
	// Review is true when the LMS launched the lesson to review or browse
	// it: nothing is reported then.
	Review bool
	// Passing is the passing score from 0 to 1, 0 for none: the LMS's if
	// it gives one (from the manifest, or its own settings), else the
	// page's own.
	Passing float64
	// SuspendData is the suspend data the LMS held at the start.
	SuspendData string
	set         map[string]string // what the LMS holds as this session set it
	unsent      bool              // values set since the last commit
	lastCommit  time.Time
	ended       bool
}

// Open starts a session: it initialises the LMS's API and reads the
// learner, the mode, the passing score (passing, from 0 to 1, where the
// LMS gives none) and the suspend data. again is true when this page
// initialised the API before and reloaded itself (after a reset or an
// import): an Initialize refused then, with the API still answering, is
// the session going on. (An LMS cannot say so itself: 1.2's refusal of a
// second LMSInitialize is a "general exception", after LMSFinish too.)
func Open(v Version, api API, now func() time.Time, passing float64, again bool) (*Session, error) {
	s := &Session{v: v, api: api, now: now, set: map[string]string{}}
	e := v.el()
	if !api.Initialize() {
		code, msg := api.LastError()
		if api.GetValue(e.learner); !again || !s.ok() {
			return nil, &Refused{Call: "Initialize", Code: code, Message: clip(msg)}
		}
	}
	s.Started = now()
	s.lastCommit = s.Started
	s.LearnerID = s.read(e.learner, 255)
	mode := s.read(e.mode, 20)
	s.Review = mode == "review" || mode == "browse"
	s.Passing = passing
	if p := v.passingOf(s.read(e.passing, 20)); p > 0 {
		s.Passing = p
	}
	s.SuspendData = s.read(e.suspend, MaxRead)
	return s, nil
}

// read returns an element's value, or "" where the LMS has none, gives an
// error or more than max characters.
func (s *Session) read(element string, max int) string {
	v := s.api.GetValue(element)
	if !s.ok() || len(v) > max {
		return ""
	}
	return v
}

// ok reports whether the last call had no error.
func (s *Session) ok() bool {
	code, _ := s.api.LastError()
	return code == 0
}

// Report sets the values that differ from what this session last set,
// and commits when what the LMS grades changed or the last commit is
// CommitEvery old. It returns whether values wait for a commit (the page
// then calls Commit in time) and the first refusal. Nothing is reported
// in review mode.
func (s *Session) Report(vals []Value) (waiting bool, err error) {
	if s.ended {
		return false, ErrEnded
	}
	if s.Review {
		return false, nil
	}
	graded := false
	for _, v := range vals {
		if old, ok := s.set[v.Element]; ok && old == v.Value {
			continue
		}
		if !s.api.SetValue(v.Element, v.Value) {
			code, msg := s.api.LastError()
			err = firstOf(err, &Refused{Call: "SetValue", Element: v.Element, Code: code, Message: clip(msg)})
			continue
		}
		s.set[v.Element] = v.Value
		s.unsent = true
		graded = graded || s.v.graded(v.Element)
	}
	if s.unsent && (graded || s.now().Sub(s.lastCommit) >= CommitEvery) {
		err = firstOf(err, s.Commit())
	}
	return s.unsent, err
}

func firstOf(first, next error) error {
	if first != nil {
		return first
	}
	return next
}

// Commit sets the session time and commits what waits, if anything does.
func (s *Session) Commit() error {
	if s.ended {
		return ErrEnded
	}
	if !s.unsent || s.Review {
		return nil
	}
	s.api.SetValue(s.v.el().sessionTime, s.v.Duration(s.now().Sub(s.Started)))
	if !s.api.Commit() {
		code, msg := s.api.LastError()
		return &Refused{Call: "Commit", Code: code, Message: clip(msg)}
	}
	s.unsent = false
	s.lastCommit = s.now()
	return nil
}

// End sets the session time and exit and ends the session, once:
// Terminate (LMSFinish in 1.2), which commits what waits.
func (s *Session) End() error {
	if s.ended {
		return nil
	}
	s.ended = true
	if !s.Review {
		e := s.v.el()
		s.api.SetValue(e.sessionTime, s.v.Duration(s.now().Sub(s.Started)))
		s.api.SetValue(e.exit, "suspend")
	}
	if !s.api.Terminate() {
		code, msg := s.api.LastError()
		return &Refused{Call: "Terminate", Code: code, Message: clip(msg)}
	}
	return nil
}

// Ended reports whether End was called.
func (s *Session) Ended() bool { return s.ended }

// clip keeps the first 200 characters of what an LMS says, on one line.
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= 200 {
		return s
	}
	return string([]rune(s)[:200]) + "…"
}
