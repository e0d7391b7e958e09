package lms

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
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
	// limits are the most of each method's answer the page reads.
	limits map[string]int
	// errorString, if set, is what GetErrorString answers.
	errorString string
}

func (o *object) Call(method string, limit int, args ...string) (any, error) {
	o.calls = append(o.calls, method)
	if o.limits == nil {
		o.limits = map[string]int{}
	}
	o.limits[strings.TrimPrefix(method, "LMS")] = limit
	if o.throw[method] || len(args) > 0 && o.throw[method+" "+args[0]] {
		return nil, errors.New("TypeError: the LMS is broken")
	}
	r, err := o.answer(method, args...)
	if s, ok := r.(string); ok && len(s) > limit {
		r = s[:limit] // as package web cuts it, in JavaScript
	}
	return r, err
}

func (o *object) answer(method string, args ...string) (any, error) {
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
		if o.errorString != "" {
			msg = o.errorString
		}
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

// page is a Link's page in a test: what it was told, and its timers.
type page struct {
	mu      sync.Mutex
	notices []string
	status  string
	left    string
	timers  []*timer
}

// timer is a call a Link asked for later.
type timer struct {
	d       time.Duration
	f       func()
	stopped bool
}

func (p *page) Notice(msg string) { p.mu.Lock(); p.notices = append(p.notices, msg); p.mu.Unlock() }
func (p *page) Status(msg string) { p.mu.Lock(); p.status = msg; p.mu.Unlock() }
func (p *page) Left(msg string)   { p.mu.Lock(); p.left = msg; p.mu.Unlock() }
func (p *page) Later(d time.Duration, f func()) func() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := &timer{d: d, f: f}
	p.timers = append(p.timers, t)
	return func() bool { was := !t.stopped; t.stopped = true; return was }
}

// waiting is the timers not yet run or stopped.
func (p *page) waiting() []*timer {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []*timer
	for _, t := range p.timers {
		if !t.stopped {
			out = append(out, t)
		}
	}
	return out
}

// fire runs the timers waiting, as the page's clock would once they are
// due.
func (p *page) fire() {
	for _, t := range p.waiting() {
		t.stopped = true
		t.f()
	}
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
	if !strings.HasPrefix(pg.status, "Reported to your LMS: 1 of 2 done, score 50%") {
		t.Errorf("status %q", pg.status)
	}
	// A graded change is committed CommitSoon later, not in the change's
	// own call (an LMS's Commit blocks the page): changes that come
	// together are committed once.
	if len(f.Commits) != 0 {
		t.Errorf("%d commits in the graded change's own call, want 0", len(f.Commits))
	}
	prog.Put(ctx, progress.Record{Kind: progress.KindExercise, Lesson: "fan-out", ID: "x", Source: "y", Passed: true})
	l.Changed()
	if w := pg.waiting(); len(w) != 1 || w[0].d != CommitSoon {
		t.Fatalf("after two graded changes, timers waiting: %v, want one of CommitSoon", w)
	}
	pg.fire()
	if len(f.Commits) != 1 || f.Commits[0]["cmi.completion_status"] != "completed" {
		t.Errorf("%d commits of two graded changes, want 1 with both", len(f.Commits))
	}
	// Code being written waits for a commit, at most CommitEvery after
	// the last.
	clk.pass(time.Second)
	prog.Put(ctx, progress.Record{Kind: progress.KindCell, Lesson: "fan-out", ID: "a", Source: "x = 1"})
	l.Changed()
	if w := pg.waiting(); len(f.Commits) != 1 || len(w) != 1 || w[0].d != CommitEvery-time.Second {
		t.Fatalf("%d commits and timers %v after code, want 1 and one of CommitEvery-1s", len(f.Commits), w)
	}
	// A graded change meanwhile brings the commit forward.
	prog.Put(ctx, progress.Record{Kind: progress.KindQuiz, Lesson: "fan-out", ID: "q1", Answer: "2"})
	l.Changed()
	if w := pg.waiting(); len(w) != 1 || w[0].d != CommitSoon {
		t.Fatalf("timers %v after a graded change, want one of CommitSoon", w)
	}
	clk.pass(CommitSoon)
	pg.fire()
	if len(f.Commits) != 2 {
		t.Errorf("%d commits, want 2", len(f.Commits))
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

// What an LMS answers is read no further than the page uses: a 1.5 MB
// GetErrorString is cut before it leaves JavaScript (the limit the
// adapter gives the glue) and said in 200 characters; an element is read
// up to MaxRead and one character more.
func TestAdaptReadsNoMoreThanItShows(t *testing.T) {
	f := lmstest.New(nil)
	f.Refuse["SetValue cmi.exit"] = 405
	o := &object{v: SCORM2004, lms: f, errorString: strings.Repeat("General Commit Failure ", 65_000)}
	s, err := Open(SCORM2004, Adapt(SCORM2004, o), newClock().now, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Report([]Value{{"cmi.exit", "suspend"}})
	var r *Refused
	if !errors.As(err, &r) || r.Code != 405 || len([]rune(r.Message)) > 201 || !strings.HasPrefix(r.Message, "General Commit Failure General") {
		t.Errorf("a 1.5 MB error string said as %d characters: %.80q", len([]rune(fmt.Sprint(err))), err)
	}
	for method, most := range map[string]int{"GetErrorString": 1000, "GetLastError": 32, "Initialize": 32, "SetValue": 32, "GetValue": MaxRead + 1} {
		if got, ok := o.limits[method]; !ok || got > most {
			t.Errorf("%s read up to %d characters, want at most %d", method, got, most)
		}
	}
}

// hex is n characters that do not compress.
func hex(seed uint64, n int) string {
	r := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	for b.Len() < n {
		fmt.Fprintf(&b, "%016x", r.Uint64())
	}
	return b.String()[:n]
}

// A learner whose LMS cannot say who they are (its GetValue throws, or
// it gives no id) is never taken for anyone: no id is "false", and this
// browser keeps no database that another learner would share.
func TestLinkLearnerUnknown(t *testing.T) {
	for name, o := range map[string]*object{
		"GetValue throws": {v: SCORM2004, lms: lmstest.New(map[string]string{"cmi.learner_id": "ada"}), throw: map[string]bool{"GetValue": true}},
		"no id":           {v: SCORM2004, lms: lmstest.New(nil)},
	} {
		l := Connect(Launch{Version: SCORM2004, Lesson: "fan-out"}, Adapt(SCORM2004, o), &page{}, newClock().now)
		if got := l.Database(); got != "" {
			t.Errorf("%s: the progress is kept in the database %q, which every such learner would share", name, got)
		}
	}
}

// Suspend data the page cannot read never stops the learner's work from
// reaching the LMS: cut short, damaged, not Gradbook's, or not given (the
// LMS's GetValue threw) it is left as it is at launch, said, and replaced
// by the learner's work once they change something; the next launch, in
// a fresh browser, gets that work back. Suspend data of a newer Gradbook
// is left as it is for good, and said.
func TestLinkUnreadableSuspendData(t *testing.T) {
	launch := Launch{Version: SCORM2004, Lesson: "fan-out", Items: []string{"exercise/x", "quiz/q1", "quiz/q2"}, Records: []string{"exercise/x", "cell/a"}}
	big, _ := Encode([]*progress.Record{{V: progress.Version, Kind: progress.KindCell, Lesson: "fan-out", ID: "a", Source: hex(1, 58_000), Updated: 1}}, 64000)
	if len(big) < 40_000 {
		t.Fatalf("the valid suspend data is %d characters", len(big))
	}
	newerSchema := pack([]byte(`{"gradbook":"progress","version":99,"records":[]}`))
	for _, tc := range []struct {
		name, held string
		throw      bool // GetValue cmi.suspend_data throws
		notice     string
		kept       bool // the LMS's is kept for good
	}{
		{name: "40 KB cut to 4,096", held: big[:4096], notice: "could not be read: it is cut short or damaged. It is set aside"},
		{name: "garbage", held: "%%% not suspend data %%%", notice: "could not be read: it was not written by Gradbook. It is set aside"},
		{name: "GetValue throws", held: big, throw: true, notice: "Your LMS did not give the work it keeps for this lesson (it refused GetValue cmi.suspend_data: -1 it threw TypeError: the LMS is broken)"},
		{name: "a newer format", held: "gradbook2:whatever", notice: "written by a newer version of Gradbook", kept: true},
		{name: "a newer schema", held: newerSchema, notice: "written by a newer version of Gradbook", kept: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := lmstest.New(map[string]string{"cmi.learner_id": "ada", "cmi.suspend_data": tc.held})
			o := &object{v: SCORM2004, lms: f, throw: map[string]bool{"GetValue cmi.suspend_data": tc.throw}}
			pg := &page{}
			l := Connect(launch, Adapt(SCORM2004, o), pg, newClock().now)
			prog, _ := progress.Open(ctx, progress.NewMemStore())
			l.Restore(prog)
			if len(pg.notices) != 1 || !strings.Contains(pg.notices[0], tc.notice) {
				t.Errorf("notices %q, want one with %q", pg.notices, tc.notice)
			}
			l.Changed() // the launch's report
			if got := f.Values["cmi.suspend_data"]; got != tc.held {
				t.Errorf("at launch the LMS's suspend data became %.40q…", got)
			}
			// The learner passes the exercise and edits a cell.
			prog.Put(ctx, progress.Record{Kind: progress.KindExercise, Lesson: "fan-out", ID: "x", Source: "def f(): pass", Passed: true})
			prog.Put(ctx, progress.Record{Kind: progress.KindCell, Lesson: "fan-out", ID: "a", Source: "print('mine')"})
			l.Changed()
			pg.fire()
			l.Leave()
			got := f.Values["cmi.suspend_data"]
			if tc.kept {
				if got != tc.held {
					t.Errorf("suspend data of a newer Gradbook was replaced by %.40q…", got)
				}
				return
			}
			// Relaunched in a fresh browser, the work is there.
			f2 := lmstest.New(map[string]string{"cmi.learner_id": "ada", "cmi.suspend_data": got})
			pg2 := &page{}
			l2 := Connect(launch, f2, pg2, newClock().now)
			fresh, _ := progress.Open(ctx, progress.NewMemStore())
			l2.Restore(fresh)
			l2.Changed()
			if len(pg2.notices) != 0 {
				t.Errorf("relaunched: notices %q", pg2.notices)
			}
			if r := fresh.Get(progress.KindCell, "fan-out", "a"); r == nil || r.Source != "print('mine')" {
				t.Errorf("relaunched in a fresh browser, the cell holds %+v", r)
			}
			if got := f2.Values["cmi.progress_measure"]; got != "0.3333333" {
				t.Errorf("relaunched, progress_measure %q, want 0.3333333", got)
			}
		})
	}
}

// Suspend data the LMS did not give at launch is asked for again before
// the learner's first change is sent: given then, it is taken back and
// kept with the change, never replaced unread.
func TestLinkSuspendDataGivenLater(t *testing.T) {
	held, _ := Encode([]*progress.Record{{V: progress.Version, Kind: progress.KindExercise, Lesson: "fan-out", ID: "x", Source: "def f(): pass", Passed: true, Updated: 1}}, 64000)
	f := lmstest.New(map[string]string{"cmi.learner_id": "ada", "cmi.suspend_data": held})
	o := &object{v: SCORM2004, lms: f, throw: map[string]bool{"GetValue cmi.suspend_data": true}}
	pg := &page{}
	launch := Launch{Version: SCORM2004, Lesson: "fan-out", Items: []string{"exercise/x", "quiz/q1", "quiz/q2"}, Records: []string{"exercise/x", "cell/a"}}
	l := Connect(launch, Adapt(SCORM2004, o), pg, newClock().now)
	prog, _ := progress.Open(ctx, progress.NewMemStore())
	l.Restore(prog)
	l.Changed()
	o.throw = nil // the LMS answers again
	prog.Put(ctx, progress.Record{Kind: progress.KindCell, Lesson: "fan-out", ID: "a", Source: "print('mine')"})
	l.Changed()
	if r := prog.Get(progress.KindExercise, "fan-out", "x"); r == nil || !r.Passed {
		t.Errorf("the LMS's work, given at the second asking, was not taken back: %+v", r)
	}
	fresh, _ := progress.Open(ctx, progress.NewMemStore())
	if _, err := Restore(ctx, fresh, f.Values["cmi.suspend_data"], "fan-out"); err != nil {
		t.Fatal(err)
	}
	if x, a := fresh.Get(progress.KindExercise, "fan-out", "x"), fresh.Get(progress.KindCell, "fan-out", "a"); x == nil || !x.Passed || a == nil || a.Source != "print('mine')" {
		t.Errorf("the LMS keeps the exercise %+v and the cell %+v", x, a)
	}
	if got := f.Values["cmi.progress_measure"]; got != "0.3333333" {
		t.Errorf("progress_measure %q", got)
	}
}

// slowStore is a progress store whose saves wait until released, as
// IndexedDB's writes wait for their transaction: the progress is held
// meanwhile.
type slowStore struct {
	progress.Store
	saving  chan struct{} // a save has started
	release chan struct{}
}

func (s *slowStore) Save(ctx context.Context, key string, value []byte) error {
	s.saving <- struct{}{}
	<-s.release
	return s.Store.Save(ctx, key, value)
}

// TestLeaveWhileASaveIsOnItsWay: the learner leaves (the LMS removes the
// frame) while a save holds the progress and a report waits for it,
// holding the link: the session is still ended, with the last report,
// and the report that comes after says nothing to the LMS.
func TestLeaveWhileASaveIsOnItsWay(t *testing.T) {
	f := lmstest.New(map[string]string{"cmi.learner_id": "ada"})
	pg := &page{}
	l := Connect(Launch{Version: SCORM2004, Lesson: "fan-out", Items: []string{"quiz/q1"}, Records: []string{"quiz/q1", "cell/a"}}, f, pg, newClock().now)
	store := &slowStore{Store: progress.NewMemStore(), saving: make(chan struct{}), release: make(chan struct{})}
	prog, err := progress.Open(ctx, store)
	if err != nil {
		t.Fatal(err)
	}
	l.Restore(prog)
	go prog.Put(ctx, progress.Record{Kind: progress.KindCell, Lesson: "fan-out", ID: "a", Source: "x = 1"})
	<-store.saving // the save holds the progress
	reported := make(chan struct{})
	go func() { l.Changed(); close(reported) }()
	for l.mu.TryLock() { // until the report holds the link, waiting for the progress
		l.mu.Unlock()
		time.Sleep(time.Millisecond)
	}
	l.Leave()
	if !f.Terminated || f.Values["cmi.exit"] != "suspend" {
		t.Errorf("leaving while a save was on its way: terminated %v, exit %q; want the session ended", f.Terminated, f.Values["cmi.exit"])
	}
	ended := len(f.Commits) // Terminate commits
	close(store.release)
	<-reported
	if n := len(f.Commits); n != ended {
		t.Errorf("%d commits after the session ended", n-ended)
	}
}
