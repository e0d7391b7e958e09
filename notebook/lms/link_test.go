package lms

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"gradbook/notebook/progress"

	"gradbook/notebook/lms/lmstest"
)

// object is an LMS's API object as a page reaches it: methods by name
// over a lmstest.API, in the version's own names, and any method can be made
// to throw.
type object struct {
	v     Version
	lms   *lmstest.API
	throw map[string]bool // by method name
	calls []string
}

func (o *object) Call(method string, args ...string) (any, error) {
	o.calls = append(o.calls, method)
	if o.throw[method] {
		return nil, errors.New("TypeError: the LMS is broken")
	}
	name := strings.TrimPrefix(method, "LMS")
	if o.v == SCORM12 && name == "Finish" {
		name = "Terminate"
	}
	switch name {
	case "Initialize":
		return o.lms.Initialize(), nil
	case "Terminate":
		return o.lms.Terminate(), nil
	case "Commit":
		return "true", nil // a string, as many LMSs answer
	case "GetValue":
		return o.lms.GetValue(args[0]), nil
	case "SetValue":
		return o.lms.SetValue(args[0], args[1]), nil
	case "GetLastError":
		code, _ := o.lms.LastError()
		return float64(code), nil // a number, as some LMSs answer
	case "GetErrorString":
		_, msg := o.lms.LastError()
		return msg, nil
	}
	return nil, nil
}

// A 1.2 API is called by 1.2's names; what it answers (a bool, "true", a
// number) is read as SCORM means it; a call that throws is refused and
// says so, and a GetValue that throws reads as an error, never as a value.
func TestAdapt(t *testing.T) {
	o := &object{v: SCORM12, lms: lmstest.New(map[string]string{"cmi.core.student_id": "ada"}), throw: map[string]bool{}}
	api := Adapt(SCORM12, o)
	if !api.Initialize() {
		t.Fatal("Initialize refused")
	}
	if got := api.GetValue("cmi.core.student_id"); got != "ada" {
		t.Errorf("GetValue = %q", got)
	}
	if !api.Commit() {
		t.Error(`Commit answering "true" was read as a refusal`)
	}
	if api.GetValue("cmi.nothing"); true {
		if code, _ := api.LastError(); code != 403 {
			t.Errorf("LastError = %d after a missing element, want 403 (a number read as a code)", code)
		}
	}
	if !api.Terminate() {
		t.Error("Terminate refused")
	}
	want := []string{"LMSInitialize", "LMSGetValue", "LMSCommit", "LMSGetValue", "LMSGetLastError", "LMSGetErrorString", "LMSFinish"}
	if strings.Join(o.calls, " ") != strings.Join(want, " ") {
		t.Errorf("calls %v, want %v", o.calls, want)
	}

	o = &object{v: SCORM2004, lms: lmstest.New(nil), throw: map[string]bool{"GetValue": true}}
	api = Adapt(SCORM2004, o)
	api.Initialize()
	if got := api.GetValue("cmi.learner_id"); got != "" {
		t.Errorf("a GetValue that threw read as %q", got)
	}
	code, msg := api.LastError()
	if code != ErrThrew || !strings.Contains(msg, "the LMS is broken") {
		t.Errorf("LastError after a throw = %d %q", code, msg)
	}
	// Open reads a learner who cannot be read as none, never as "false".
	o = &object{v: SCORM2004, lms: lmstest.New(map[string]string{"cmi.learner_id": "ada"}), throw: map[string]bool{"GetValue": true}}
	s, err := Open(SCORM2004, Adapt(SCORM2004, o), newClock().now, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if s.LearnerID != "" || s.SuspendData != "" {
		t.Errorf("a throwing LMS's learner is %q, its suspend data %q", s.LearnerID, s.SuspendData)
	}
}

// window is a browser window of a test: its API object, if any, its
// parent, opener and top.
type window struct {
	name           string
	api            Object
	parent, opener *window
	top            *window
	foreign        bool // of another origin: nothing on it can be read
}

func (w *window) Object(name, method string) (Object, bool) {
	if w.foreign || w.api == nil || name != w.name {
		return nil, false
	}
	return w.api, true
}
func (w *window) Parent() (Window, bool) {
	if w.parent == nil {
		return w, true // the top is its own parent
	}
	return w.parent, true
}
func (w *window) Top() (Window, bool) {
	if w.top == nil {
		return w, true
	}
	return w.top, true
}
func (w *window) Opener() (Window, bool) {
	if w.opener == nil {
		return nil, false
	}
	return w.opener, true
}
func (w *window) Same(o Window) bool { ow, ok := o.(*window); return ok && ow == w }

// The API is found where SCORM's discovery looks: the window, its
// parents, the opener of the top window and its parents, the window's
// own opener; a window of another origin is passed over.
func TestFind(t *testing.T) {
	api := &object{v: SCORM2004, lms: lmstest.New(nil)}
	lmsWin := &window{name: "API_1484_11", api: api}
	frame := &window{parent: &window{parent: lmsWin, foreign: false}}
	popupTop := &window{opener: lmsWin}
	popup := &window{parent: popupTop, top: popupTop}
	ownOpener := &window{opener: &window{parent: lmsWin}}
	for name, w := range map[string]*window{"in a parent's parent": frame, "opened from the LMS": popup, "through the window's own opener": ownOpener} {
		if _, ok := Find(SCORM2004, w); !ok {
			t.Errorf("%s: not found", name)
		}
	}
	if _, ok := Find(SCORM12, frame); ok {
		t.Error("a 2004 API was found for 1.2 (API)")
	}
	lmsWin.foreign = true
	if _, ok := Find(SCORM2004, frame); ok {
		t.Error("an API on a window of another origin was found")
	}
}

// page is a Link's page in a test: what it was told, and a clock.
type page struct {
	mu      sync.Mutex
	notices []string
	status  string
	left    string
	timers  []func()
}

func (p *page) Notice(msg string) { p.mu.Lock(); p.notices = append(p.notices, msg); p.mu.Unlock() }
func (p *page) Status(msg string) { p.mu.Lock(); p.status = msg; p.mu.Unlock() }
func (p *page) Left(msg string)   { p.mu.Lock(); p.left = msg; p.mu.Unlock() }
func (p *page) Later(d time.Duration, f func()) func() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if d != CommitEvery {
		panic("a timer for other than CommitEvery")
	}
	p.timers = append(p.timers, f)
	return func() bool { return true }
}

// A lesson's link: launched, it says so; every change is reported, and
// what the LMS grades is committed at once, the rest within CommitEvery;
// hidden, it commits; leaving, it ends the session; a reload goes on with
// it.
func TestLink(t *testing.T) {
	f := lmstest.New(map[string]string{"cmi.learner_id": "ada", "cmi.mode": "normal"})
	clk := newClock()
	pg := &page{}
	l := Connect(Launch{Version: SCORM2004, Lesson: "fan-out", Items: []string{"quiz/q1", "exercise/x"}, Records: []string{"quiz/q1", "exercise/x", "cell/a"}}, f, pg, clk.now)
	if pg.status != "Connected to your LMS (SCORM 2004)." {
		t.Errorf("status %q", pg.status)
	}
	if got := l.Database(); got != "gradbook-lms-"+progress.Hash("ada") {
		t.Errorf("database %q", got)
	}
	prog, _ := progress.Open(ctx, progress.NewMemStore())
	l.Restore(prog)
	prog.Put(ctx, progress.Record{Kind: progress.KindQuiz, Lesson: "fan-out", ID: "q1", Answer: "1", Passed: true})
	l.Changed()
	if got := f.Values["cmi.completion_status"]; got != "incomplete" || f.Values["cmi.score.scaled"] != "0.5" {
		t.Errorf("after a quiz: completion %q, score %q", got, f.Values["cmi.score.scaled"])
	}
	if len(f.Commits) != 1 {
		t.Errorf("%d commits after a graded change, want 1", len(f.Commits))
	}
	if !strings.HasPrefix(pg.status, "Reported to your LMS: 1 of 2 done, score 50%") {
		t.Errorf("status %q", pg.status)
	}
	// Code being written waits for a commit, at most CommitEvery.
	prog.Put(ctx, progress.Record{Kind: progress.KindCell, Lesson: "fan-out", ID: "a", Source: "x = 1"})
	l.Changed()
	if len(f.Commits) != 1 || len(pg.timers) != 1 {
		t.Fatalf("%d commits and %d timers after code, want 1 and 1", len(f.Commits), len(pg.timers))
	}
	clk.pass(CommitEvery)
	pg.timers[0]()
	if len(f.Commits) != 2 {
		t.Errorf("%d commits after CommitEvery, want 2", len(f.Commits))
	}
	prog.Put(ctx, progress.Record{Kind: progress.KindCell, Lesson: "fan-out", ID: "a", Source: "x = 2"})
	l.Hidden()
	if len(f.Commits) != 3 {
		t.Errorf("%d commits after the page was hidden, want 3", len(f.Commits))
	}
	l.Reloading()
	l.Leave()
	if f.Terminated || !l.Reloads() {
		t.Error("a page that reloads itself ended its session")
	}
	l2 := Connect(Launch{Version: SCORM2004, Lesson: "fan-out", Again: true}, f, pg, clk.now)
	l2.Leave()
	if !f.Terminated || f.Values["cmi.exit"] != "suspend" {
		t.Errorf("leaving: terminated %v, exit %q", f.Terminated, f.Values["cmi.exit"])
	}
	l2.Shown()
	if !strings.Contains(pg.status, "session has ended") {
		t.Errorf("back from the cache after the end: %q", pg.status)
	}
}

// Without an API the lesson says it is not in an LMS; an LMS that
// refuses to start is said, and reported to no more; review reports
// nothing; suspend data that cannot be read is kept as it is and said.
func TestLinkWithout(t *testing.T) {
	pg := &page{}
	l := Connect(Launch{Version: SCORM2004, Lesson: "fan-out"}, nil, pg, newClock().now)
	l.Changed()
	l.Leave()
	if pg.status != "Not in an LMS: your progress is kept in this browser only." || l.Database() != "gradbook" {
		t.Errorf("status %q, database %q", pg.status, l.Database())
	}

	f := lmstest.New(nil)
	f.Refuse["Initialize"] = 102
	pg = &page{}
	l = Connect(Launch{Version: SCORM2004, Lesson: "fan-out"}, f, pg, newClock().now)
	if pg.status != "Not reported to your LMS." || len(pg.notices) != 1 || !strings.Contains(pg.notices[0], "did not start this lesson's session") {
		t.Errorf("status %q, notices %q", pg.status, pg.notices)
	}
	l.Changed()
	if len(f.Set) != 0 {
		t.Errorf("a session the LMS did not start was written to: %v", f.Set)
	}

	f = lmstest.New(map[string]string{"cmi.mode": "review", "cmi.suspend_data": "not Gradbook's"})
	pg = &page{}
	l = Connect(Launch{Version: SCORM2004, Lesson: "fan-out", Items: []string{"quiz/q1"}}, f, pg, newClock().now)
	prog, _ := progress.Open(ctx, progress.NewMemStore())
	l.Restore(prog)
	l.Changed()
	if len(f.Set) != 0 {
		t.Errorf("review mode set %v", f.Set)
	}
	if len(pg.notices) != 1 || !strings.Contains(pg.notices[0], "could not be read") {
		t.Errorf("notices %q", pg.notices)
	}
}
