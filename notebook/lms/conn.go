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

// CommitSoon is how long a change the LMS grades by (completion, success,
// score) waits for its commit: never in the click or the run that made
// it, since an LMS's Commit blocks the page while it sends, and changes
// that come together are committed together.
const CommitSoon = time.Second

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

// Conn is a lesson's connection to the LMS for one session, one launch
// of the lesson by the LMS: from Initialize to Terminate.
type Conn struct {
	v   Version
	api API
	now func() time.Time
	// Started is when the session began; the session time counts from it.
	Started time.Time
	// LearnerID is the LMS's id of the learner: "" if it gives none, or
	// its GetValue fails (an error is never an id).
	LearnerID string
	// Review is true when the LMS launched the lesson to review or browse
	// it: nothing is reported then.
	Review bool
	// Passing is the passing score from 0 to 1, 0 for none: the LMS's if
	// it gives one (from the manifest, or its own settings), else the
	// page's own.
	Passing float64
	// SuspendData is the suspend data the LMS held at the start, and
	// SuspendErr why it could not be read (the LMS's GetValue threw or
	// gave an error): then it is not data, and ReadSuspend tries again.
	SuspendData string
	SuspendErr  error
	set         map[string]string // what the LMS holds as this session set it
	unsent      bool              // values set since the last commit
	graded      bool              // and among them one the LMS grades by
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
func Open(v Version, api API, now func() time.Time, passing float64, again bool) (*Conn, error) {
	s := &Conn{v: v, api: api, now: now, set: map[string]string{}}
	e := v.el()
	if !api.Initialize() {
		code, msg := api.LastError()
		if api.GetValue(e.learner); !again || !s.ok() {
			return nil, &Refused{Call: "Initialize", Code: code, Message: clip(msg)}
		}
	}
	s.Started = now()
	s.lastCommit = s.Started
	s.LearnerID, _ = s.read(e.learner, 255)
	mode, _ := s.read(e.mode, 20)
	s.Review = mode == "review" || mode == "browse"
	s.Passing = passing
	if p, _ := s.read(e.passing, 20); v.passingOf(p) > 0 {
		s.Passing = v.passingOf(p)
	}
	s.SuspendData, s.SuspendErr = s.ReadSuspend()
	return s, nil
}

// ReadSuspend reads the suspend data the LMS holds now: "" for none, and
// an error if the LMS gave none but an error. Data longer than MaxRead is
// returned cut, for Decode to refuse.
func (s *Conn) ReadSuspend() (string, error) {
	v, err := s.read(s.v.el().suspend, MaxRead+1)
	if errors.Is(err, errTooLong) {
		return v, nil
	}
	return v, err
}

// errTooLong is read's error for a value longer than asked for.
var errTooLong = errors.New("too long")

// noValue is the code of SCORM 2004's "Data Model Element Value Not
// Initialized": the element has no value yet, which is no error.
const noValue = 403

// read returns an element's value, "" where the LMS has none, or an
// error: the LMS's GetValue failed (threw or set an error), which is
// never a value, or gave more than max characters (cut to max).
func (s *Conn) read(element string, max int) (string, error) {
	v := s.api.GetValue(element)
	switch code, msg := s.api.LastError(); {
	case code == noValue:
		return "", nil
	case code != 0:
		return "", &Refused{Call: "GetValue", Element: element, Code: code, Message: clip(msg)}
	case len(v) > max:
		return v[:max], errTooLong
	}
	return v, nil
}

// ok reports whether the last call had no error.
func (s *Conn) ok() bool {
	code, _ := s.api.LastError()
	return code == 0
}

// Report sets the values that differ from what this session last set,
// and commits nothing: it returns whether values wait for a commit (Due
// says by when; the page then calls Commit off the learner's path) and
// the first refusal. Nothing is reported in review mode.
func (s *Conn) Report(vals []Value) (waiting bool, err error) {
	if s.ended {
		return false, ErrEnded
	}
	if s.Review {
		return false, nil
	}
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
		s.graded = s.graded || s.v.graded(v.Element)
	}
	return s.unsent, err
}

// Due says how long from now what waits may wait for its commit: a
// change the LMS grades by CommitSoon, any other until CommitEvery after
// the last commit; false if nothing waits.
func (s *Conn) Due() (time.Duration, bool) {
	if !s.unsent || s.ended || s.Review {
		return 0, false
	}
	d := max(CommitEvery-s.now().Sub(s.lastCommit), 0)
	if s.graded {
		d = min(d, CommitSoon)
	}
	return d, true
}

func firstOf(first, next error) error {
	if first != nil {
		return first
	}
	return next
}

// Commit sets the session time and commits what waits, if anything does.
func (s *Conn) Commit() error {
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
	s.unsent, s.graded = false, false
	s.lastCommit = s.now()
	return nil
}

// End sets the session time and exit and ends the session, once:
// Terminate (LMSFinish in 1.2), which commits what waits.
func (s *Conn) End() error {
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
func (s *Conn) Ended() bool { return s.ended }

// clip keeps the first 200 characters of what an LMS says, on one line.
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= 200 {
		return s
	}
	return string([]rune(s)[:200]) + "…"
}
