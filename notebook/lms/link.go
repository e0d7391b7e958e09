package lms

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"gradbook/internal/words"
	"gradbook/notebook/progress"
)

// This file is a lesson page's link to the LMS that launched it, from
// launch to the page's going: the session opens before the progress (the
// learner's work is kept in a database of its own per learner, and taken
// back from the LMS's suspend data), a report follows every change, a
// commit follows within CommitEvery and whenever the page is hidden, and
// the session ends when the page goes. Package page wires it to the page.

// Page is what a Link needs of its lesson's page.
type Page interface {
	// Notice tells the learner something in the page's notices; Status
	// says in the page's LMS line what the LMS was told; Left says in
	// one notice of its own what of the learner's work the suspend data
	// leaves out, "" taking that notice away.
	Notice(msg string)
	Status(msg string)
	Left(msg string)
	// Later calls f after d, on its own goroutine, unless stopped.
	Later(d time.Duration, f func()) (stop func() bool)
}

// Launch is what a lesson's page says of itself: its version of SCORM,
// its lesson and what counts, and its own passing score.
type Launch struct {
	Version Version
	Lesson  string
	Items   []string // what counts towards the lesson's completion
	Records []string // what its suspend data keeps
	// Earlier are the lesson's earlier names and the lesson cells moved
	// from: suspend data of theirs is taken back too.
	Earlier []string
	Passing float64 // 0 to 1; 0 for none
	// Again is true when the page reloaded itself in a session that goes
	// on (Link.Reloading).
	Again bool
}

// Link is a lesson page's link to its LMS. Its methods may be called from
// several goroutines.
type Link struct {
	launch  Launch
	page    Page
	now     func() time.Time
	s       *Conn    // nil when the LMS refused to start
	lessons []string // the lesson and its earlier names
	prog    *progress.Progress

	// mu is held for one report at a time, never across a wait: Leave
	// takes it from the page's last event.
	mu   sync.Mutex
	last []Value     // the last report's values, for Leave
	st   Status      // and its status, for the status line
	stop func() bool // the commit waiting, if one is
	due  time.Time   // and when it comes
	left string      // what the suspend data left out, as last said
	// held is what the LMS's suspend data is to this page, and launched
	// the learner's work as the page first reported it (for held
	// unreadable or unread: it is replaced once the learner changes it).
	held     held
	launched string
	based    bool
	// reloading is true once the page reloads itself: the session goes
	// on into the reloaded page.
	reloading bool
}

// Connect opens the session with the LMS whose api the page found (nil
// if it found none), telling the page how that went.
func Connect(l Launch, api API, page Page, now func() time.Time) *Link {
	link := &Link{launch: l, page: page, now: now, lessons: append([]string{l.Lesson}, l.Earlier...)}
	if api == nil {
		page.Status("Not in an LMS: your progress is kept in this browser only.")
		return link
	}
	s, err := Open(l.Version, api, now, l.Passing, l.Again)
	if err != nil {
		page.Notice("Your LMS did not start this lesson's session (" + err.Error() + "). The lesson works and your work is kept in this browser, but your LMS does not hear of it: open the lesson again from your course to report to it.")
		page.Status("Not reported to your LMS.")
		return link
	}
	link.s = s
	if s.Review {
		page.Status("Review: your LMS shows this lesson to review, and nothing is reported to it.")
	} else {
		page.Status("Connected to your LMS (" + l.Version.String() + ").")
	}
	return link
}

// held is what the LMS's suspend data is to a lesson's page.
type held int

const (
	// heldRead: read and taken back, or none; the learner's work
	// replaces it at each report.
	heldRead held = iota
	// heldNewer: written by a newer Gradbook, which this one cannot read
	// but the learner's next launch of the newer package can: it is left
	// as it is, never replaced.
	heldNewer
	// heldUnreadable: not Gradbook's, cut short or damaged: of use to no
	// Gradbook, it is set aside, and replaced by the learner's work once
	// they change something.
	heldUnreadable
	// heldUnread: the LMS gave an error, not the data: it is read again
	// before the learner's first change is sent, and replaced by their
	// work if it still cannot be read.
	heldUnread
)

// Database names the database that keeps the learner's progress: one per
// learner of the LMS, so that two learners on one browser never see or
// report each other's work. It is "" when the LMS does not say who the
// learner is (gives no id, or an error): then this browser keeps nothing,
// since whoever comes next could be anyone.
func (l *Link) Database() string {
	switch {
	case l.s == nil:
		return "gradbook"
	case l.s.LearnerID == "":
		return ""
	}
	return "gradbook-lms-" + progress.Hash(l.s.LearnerID)
}

// Restore takes the learner's work back from the LMS's suspend data into
// prog, before the page restores its cells, and reports to the LMS from
// prog from then on.
func (l *Link) Restore(prog *progress.Progress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.prog = prog
	if l.s == nil {
		return
	}
	if err := l.s.SuspendErr; err != nil {
		l.held = heldUnread
		l.page.Notice("Your LMS did not give the work it keeps for this lesson (" + err.Error() + "). Your work in this browser is shown; your LMS is asked again before your next change is sent to it, and if it still gives nothing it can read, your work here takes its place.")
		return
	}
	l.take(prog, l.s.SuspendData)
}

// take takes suspend data back into prog, and says what could not be.
func (l *Link) take(prog *progress.Progress, data string) {
	l.held = heldRead
	if data == "" {
		return
	}
	_, err := Restore(context.Background(), prog, data, l.lessons...)
	switch {
	case errors.Is(err, ErrNewer):
		l.held = heldNewer
		l.page.Notice("The work your LMS keeps for this lesson was written by a newer version of Gradbook, which this lesson cannot read. So as not to lose it, it is left as it is: open the lesson from its newer package to get it back. Your work here is kept in this browser, and your completion and score are still reported.")
	case errors.Is(err, ErrUnreadable):
		l.held = heldUnreadable
		l.page.Notice("The work your LMS keeps for this lesson could not be read: " + strings.TrimPrefix(err.Error(), ErrUnreadable.Error()+": ") + ". It is set aside: your work in this browser is shown, and once you change something, your work takes its place in your LMS.")
	case err != nil:
		l.page.Notice("Your work from your LMS is shown, but this browser could not keep a copy: " + err.Error() + ".")
	}
}

// Changed reports what the progress comes to now.
func (l *Link) Changed() {
	if l.s == nil || l.prog == nil {
		return
	}
	l.report(l.prog)
}

// report tells the LMS what prog comes to, and has it committed soon,
// off the learner's path.
func (l *Link) report(prog *progress.Progress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	vals, st, left := l.values(prog)
	if l.held == heldUnread && l.suspended(vals) != "" {
		// The learner changed something: before it replaces what the LMS
		// keeps, that is asked for once more.
		data, err := l.s.ReadSuspend()
		if err == nil {
			l.take(prog, data)
		} else {
			l.held = heldUnreadable
			l.page.Notice("Your LMS still did not give the work it keeps for this lesson (" + err.Error() + "): your work here takes its place.")
		}
		vals, st, left = l.values(prog)
	}
	l.last, l.st = vals, st
	_, err := l.s.Report(vals)
	l.said(err)
	if s := left.String(); s != l.left {
		l.left = s
		l.sayLeft(s)
	}
	l.schedule()
}

// schedule has what waits committed when it is due (Conn.Due), on the
// page's timer: never in the event that changed it, and once for changes
// that come together.
func (l *Link) schedule() {
	d, ok := l.s.Due()
	if !ok {
		return
	}
	at := l.now().Add(d)
	if l.stop != nil {
		if !at.Before(l.due) {
			return
		}
		l.stop()
	}
	l.due = at
	l.stop = l.page.Later(d, l.Commit)
}

// sayLeft says in one notice what of the learner's work the suspend data
// leaves out, changed as that changes, and gone when nothing is.
func (l *Link) sayLeft(what string) {
	if what == "" {
		l.page.Left("")
		return
	}
	l.page.Left(fmt.Sprintf("Your LMS keeps at most %s characters of work for this lesson, and yours takes more: %s did not fit, and only this browser keeps that.", words.Int(l.launch.Version.SuspendLimit()), what))
}

// values are what a report of prog sets, what prog comes to, and what
// the suspend data leaves out of it.
func (l *Link) values(prog *progress.Progress) ([]Value, Status, Left) {
	st := Measure(prog, l.launch.Lesson, l.launch.Items)
	recs := Collect(prog, l.launch.Lesson, l.launch.Records)
	data, left := "", Left{}
	if l.replaces(recs) {
		data, left = Encode(recs, l.launch.Version.SuspendLimit())
	}
	return l.launch.Version.Values(st, l.s.Passing, data), st, left
}

// replaces reports whether the learner's work, recs, replaces the LMS's
// suspend data: always once it was read, never when a newer Gradbook
// wrote it, and otherwise once the learner has changed something since
// the launch (where they were in the lesson is no change).
func (l *Link) replaces(recs []*progress.Record) bool {
	if l.held == heldRead {
		return true
	}
	var work strings.Builder
	for _, r := range recs {
		if r.Kind != progress.KindVisit {
			fmt.Fprintf(&work, "%s/%s@%d;", r.Kind, r.ID, r.Updated)
		}
	}
	if !l.based {
		l.launched, l.based = work.String(), true
	}
	switch {
	case l.held == heldNewer || work.String() == l.launched:
		return false
	case l.held == heldUnreadable:
		l.held = heldRead // replaced from now on
	}
	return true
}

// suspended is the suspend data vals set, "" for none.
func (l *Link) suspended(vals []Value) string {
	for _, v := range vals {
		if v.Element == l.launch.Version.el().suspend {
			return v.Value
		}
	}
	return ""
}

// Commit commits what waits.
func (l *Link) Commit() {
	if l.s == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stop != nil {
		l.stop()
		l.stop = nil
	}
	l.said(l.s.Commit())
}

// Hidden reports and commits: the page is hidden, and may not come back
// (its saves waiting for a pause are flushed first, by the page).
func (l *Link) Hidden() {
	l.Changed()
	l.Commit()
}

// Leave ends the session as the page goes: with a report of the progress
// as it is, if nothing holds it, else of the last one. It runs in the
// page's last event, so it waits for nothing, not even for the link's
// lock: in the browser one goroutine runs at a time, and one that holds
// the lock then is parked in report or take, waiting for the progress,
// which a save holds across its write to storage (Progress.Put). It is
// never inside a call to the LMS, which returns before anything else
// runs, so the session is safe to end here; when that goroutine goes on,
// the session says it has ended. (Leave used to give up on a held lock,
// and the LMS never heard Terminate from a learner who left while a save
// was on its way.)
func (l *Link) Leave() {
	if l.s == nil || l.s.Ended() {
		return
	}
	if l.mu.TryLock() {
		defer l.mu.Unlock()
	}
	vals := l.last
	if l.prog != nil {
		if snap, ok := l.prog.TryLesson(l.launch.Lesson); ok {
			vals, _, _ = l.values(snap)
		}
	}
	if l.held == heldUnread {
		// Not read again now, in the page's last event: left as it is.
		vals = slices.DeleteFunc(slices.Clone(vals), func(v Value) bool { return v.Element == l.launch.Version.el().suspend })
	}
	if vals != nil {
		l.s.Report(vals) // the page is going: no one to tell of a refusal
	}
	if l.reloading {
		l.s.Commit() // the reloaded page goes on with the session
		return
	}
	l.s.End()
}

// Shown is told that the page came back from the browser's cache: if its
// session ended meanwhile, the page says so.
func (l *Link) Shown() {
	if l.s != nil && l.s.Ended() {
		l.ended()
	}
}

// Reloading reports the progress as it is and notes that the page reloads
// itself: the session goes on into the reloaded page.
func (l *Link) Reloading() {
	if l.s == nil {
		return
	}
	l.Changed()
	l.mu.Lock()
	l.reloading = true
	l.mu.Unlock()
}

// Reloads reports whether the session goes on into the reloaded page.
func (l *Link) Reloads() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.reloading
}

// said shows what the LMS made of the last report.
func (l *Link) said(err error) {
	var refused *Refused
	switch {
	case errors.Is(err, ErrEnded):
		l.ended()
	case errors.As(err, &refused):
		l.page.Status("Not reported to your LMS: see the notice above.")
		l.page.Notice("Your LMS did not take your progress: " + err.Error() + ". Your work is kept in this browser, and is sent again with your next change.")
	case err != nil:
		l.page.Status("Not reported to your LMS: " + err.Error() + ".")
	case !l.s.Review:
		l.page.Status("Reported to your LMS: " + l.summary() + ".")
	}
}

// summary says what the LMS was told: "1 of 2 done, score 50% (80%
// passes)".
func (l *Link) summary() string {
	st := l.st
	s := fmt.Sprintf("%d of %d done", st.Done, st.Items)
	if st.Items == 0 {
		s = "complete"
	}
	if st.HasScore() {
		s += fmt.Sprintf(", score %s%%", percent(st.Scaled()))
		switch p := l.s.Passing; {
		case st.Passed(p):
			s += ", passed"
		case p > 0:
			s += fmt.Sprintf(" (%s%% passes)", percent(p))
		}
	}
	return s
}

func percent(x float64) string {
	return strconv.FormatFloat(math.Round(x*1000)/10, 'f', -1, 64)
}

// ended says that the session is over: the page came back from the
// browser's cache after its session ended.
func (l *Link) ended() {
	l.page.Status("Not reported to your LMS: this lesson's session has ended.")
	l.page.Notice("This lesson's session with your LMS has ended: open the lesson again from your course to report to it. Your work is kept in this browser.")
}
