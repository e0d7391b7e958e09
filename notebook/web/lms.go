//go:build js && wasm && lms

package web

// This file links a SCORM package's lesson page to the LMS that launched
// it: it finds the LMS's API, opens the session before the progress (the
// learner's work is kept in a database of its own per learner, and taken
// back from the LMS's suspend data), reports after every change, commits
// when the page is hidden and ends the session when it goes. The rules
// are package lms's; this file only converts.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"gradbook/internal/words"
	"gradbook/notebook/block"
	"gradbook/notebook/lms"
	"gradbook/notebook/progress"
)

// lmsLink is a lesson page's link to its LMS.
type lmsLink struct {
	page    *Page
	v       lms.Version
	s       *lms.Session // nil without an LMS, or when it refused to start
	lesson  string
	items   []string // what counts towards the lesson's completion
	records []string // what its suspend data keeps
	lessons []string // the lesson and its earlier names
	status  *element
	// mu is held for one report at a time, never across a wait: the
	// pagehide handler takes it.
	mu    sync.Mutex
	last  []lms.Value // the last report's values, for pagehide
	st    lms.Status  // and its status, for the status line
	timer *time.Timer // a commit waiting
	// keepSuspend is true when the LMS's suspend data could not be read:
	// it is left as it is.
	keepSuspend bool
	left        string   // what the suspend data left out, as last said
	leftNote    *element // and the notice that says it
	reloading   bool     // the page reloads itself: the session goes on
}

// connectLMS opens the session with the LMS on a SCORM package's lesson
// page (data-lms), before the progress: the session says whose progress
// it is. Elsewhere it does nothing.
func (p *Page) connectLMS() {
	v, ok := lms.ParseVersion(p.body.GetAttribute(block.AttrLMS))
	if !ok || p.embedded {
		return
	}
	l := &lmsLink{
		page: p, v: v, lesson: p.body.GetAttribute(block.AttrLesson),
		items:   strings.Fields(p.body.GetAttribute(block.AttrItems)),
		records: strings.Fields(p.body.GetAttribute(block.AttrRecords)),
		status:  p.doc.GetElementByID(block.IDLMSStatus),
	}
	l.lessons = append([]string{l.lesson}, strings.Fields(p.body.GetAttribute(block.AttrRenamed))...)
	if from := p.body.GetAttribute(block.AttrMovedFrom); from != "" {
		l.lessons = append(l.lessons, from)
	}
	p.lms = l
	api, found := findAPI(v)
	if !found {
		l.say("Not in an LMS: your progress is kept in this browser only.")
		return
	}
	passing, err := strconv.ParseFloat(p.body.GetAttribute(block.AttrPassing), 64)
	if err != nil || !(passing > 0 && passing <= 1) {
		passing = 0
	}
	again := sessionTake(reloadKey) == l.lesson
	s, err := lms.Open(v, api, time.Now, passing, again)
	if err != nil {
		p.notice("Your LMS did not start this lesson's session (" + err.Error() + "). The lesson works and your work is kept in this browser, but your LMS does not hear of it: open the lesson again from your course to report to it.")
		l.say("Not reported to your LMS.")
		return
	}
	l.s = s
	if s.Review {
		l.say("Review: your LMS shows this lesson to review, and nothing is reported to it.")
	} else {
		l.say("Connected to your LMS (" + v.String() + ").")
	}
	// Leaving ends the session, with what the page has; being hidden
	// (another tab, a closed lid) commits.
	p.on.listen(window(), "pagehide", func(*event) { l.leave() })
	p.on.listen(window(), "visibilitychange", func(*event) {
		if js.Global().Get("document").Get("hidden").Truthy() {
			spawn(l.hidden)
		}
	})
	p.on.listen(window(), "pageshow", func(ev *event) {
		if ev.v.Get("persisted").Truthy() && s.Ended() {
			spawn(func() { l.ended() })
		}
	})
}

// database is the IndexedDB database that keeps the progress: in an LMS,
// one per learner, so that two learners on one browser never see or
// report each other's work.
func (p *Page) database() string {
	l := p.lms
	if l == nil || l.s == nil {
		return dbName
	}
	if l.s.LearnerID == "" {
		return dbName + "-lms"
	}
	return dbName + "-lms-" + progress.Hash(l.s.LearnerID)
}

// restore takes the learner's work back from the LMS's suspend data,
// before the page restores its cells.
func (l *lmsLink) restore(prog *progress.Progress) {
	if l == nil || l.s == nil || l.s.SuspendData == "" {
		return
	}
	_, err := lms.Restore(context.Background(), prog, l.s.SuspendData, l.lessons...)
	switch {
	case errors.Is(err, lms.ErrUnreadable):
		l.keepSuspend = true
		l.page.notice("The work your LMS keeps for this lesson could not be read: " + strings.TrimPrefix(err.Error(), lms.ErrUnreadable.Error()+": ") + ". It is left as it is: your work in this browser is shown, and your progress is reported without changing it.")
	case err != nil:
		l.page.notice("Your work from your LMS is shown, but this browser could not keep a copy: " + err.Error() + ".")
	}
}

// changed reports a change to the progress.
func (l *lmsLink) changed() {
	if l != nil && l.s != nil {
		spawn(l.report)
	}
}

// report tells the LMS what the progress comes to now.
func (l *lmsLink) report() {
	if l == nil || l.s == nil {
		return
	}
	k := l.page.keep
	k.mu.Lock()
	st := lms.Measure(k.prog, l.lesson, l.items)
	recs := lms.Collect(k.prog, l.lesson, l.records)
	k.mu.Unlock()
	vals, left := l.values(st, recs)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.last, l.st = vals, st
	waiting, err := l.s.Report(vals)
	l.said(err)
	if s := left.String(); s != l.left {
		l.left = s
		l.sayLeft(s)
	}
	if waiting && l.timer == nil {
		l.timer = time.AfterFunc(lms.CommitEvery, func() { spawn(l.commit) })
	}
}

// sayLeft says in one notice what of the learner's work the suspend data
// leaves out, changed as that changes, and gone when nothing is.
func (l *lmsLink) sayLeft(what string) {
	if what == "" {
		if l.leftNote != nil {
			l.leftNote.Remove()
			l.leftNote = nil
		}
		return
	}
	if l.leftNote == nil {
		box := l.page.noticeBox()
		if box == nil {
			return
		}
		l.leftNote = l.page.doc.CreateElement("p")
		l.leftNote.SetAttribute("class", classNotice)
		box.AppendChild(l.leftNote)
		box.RemoveAttribute("hidden")
	}
	l.leftNote.SetTextContent(fmt.Sprintf("Your LMS keeps at most %s characters of work for this lesson, and yours takes more: %s did not fit, and only this browser keeps that.", words.Int(l.v.SuspendLimit()), what))
}

// values are what a report of st and recs sets.
func (l *lmsLink) values(st lms.Status, recs []*progress.Record) ([]lms.Value, lms.Left) {
	data, left := "", lms.Left{}
	if !l.keepSuspend {
		data, left = lms.Encode(recs, l.v.SuspendLimit())
	}
	return l.v.Values(st, l.s.Passing, data), left
}

// commit commits what waits.
func (l *lmsLink) commit() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.timer != nil {
		l.timer.Stop()
		l.timer = nil
	}
	l.said(l.s.Commit())
}

// hidden saves what waits, reports and commits: the page may not come
// back.
func (l *lmsLink) hidden() {
	l.page.keep.flush()
	l.report()
	l.commit()
}

// leave ends the session as the page goes: with a report of the progress
// as it is, if nothing holds it, else of the last one. It runs in the
// pagehide handler, so it waits for nothing.
func (l *lmsLink) leave() {
	if l.s == nil || l.s.Ended() {
		return
	}
	var vals []lms.Value
	if k := l.page.keep; k != nil && k.mu.TryLock() {
		st, recs := lms.Measure(k.prog, l.lesson, l.items), lms.Collect(k.prog, l.lesson, l.records)
		k.mu.Unlock()
		vals, _ = l.values(st, recs)
	}
	if !l.mu.TryLock() {
		return
	}
	defer l.mu.Unlock()
	if vals == nil {
		vals = l.last
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

// said shows what the LMS made of the last report.
func (l *lmsLink) said(err error) {
	var refused *lms.Refused
	switch {
	case errors.Is(err, lms.ErrEnded):
		l.ended()
	case errors.As(err, &refused):
		l.say("Not reported to your LMS: see the notice above.")
		l.page.notice("Your LMS did not take your progress: " + err.Error() + ". Your work is kept in this browser, and is sent again with your next change.")
	case err != nil:
		l.say("Not reported to your LMS: " + err.Error() + ".")
	case !l.s.Review:
		l.say("Reported to your LMS: " + l.summary() + ".")
	}
}

// summary says what the LMS was told: "1 of 2 done, score 50% (80%
// passes)".
func (l *lmsLink) summary() string {
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
func (l *lmsLink) ended() {
	l.say("Not reported to your LMS: this lesson's session has ended.")
	l.page.notice("This lesson's session with your LMS has ended: open the lesson again from your course to report to it. Your work is kept in this browser.")
}

func (l *lmsLink) say(s string) {
	if l.status != nil {
		l.status.SetTextContent(s)
	}
}

// reload reloads the page after a reset or an import: the LMS hears of
// the change first, and its session goes on into the reloaded page.
func (p *Page) reload() {
	if l := p.lms; l != nil && l.s != nil {
		l.report()
		l.mu.Lock()
		l.reloading = true
		l.mu.Unlock()
		sessionPut(reloadKey, l.lesson)
	}
	js.Global().Get("location").Call("reload")
}

// reloadKey is where a page that reloads itself notes, in session
// storage, that its session with the LMS goes on.
const reloadKey = "gradbook-lms-reload"

// findAPI finds the LMS's API as SCORM's discovery does: on this window
// and each of its parents, then on the window that opened the top one
// (a popup) and its parents. A window of another origin cannot be read,
// and is passed over.
func findAPI(v lms.Version) (lms.API, bool) {
	name := v.APIName()
	scan := func(w js.Value) js.Value {
		for n := 0; n < 500 && w.Truthy(); n++ {
			if api := property(w, name); api.Type() == js.TypeObject && property(api, jsAPI{v12: v == lms.SCORM12}.method("Initialize")).Type() == js.TypeFunction {
				return api
			}
			parent := property(w, "parent")
			if !parent.Truthy() || parent.Equal(w) {
				break
			}
			w = parent
		}
		return js.Undefined()
	}
	win := js.Global()
	api := scan(win)
	if !api.Truthy() {
		api = scan(property(property(win, "top"), "opener"))
	}
	if !api.Truthy() {
		api = scan(property(win, "opener"))
	}
	if !api.Truthy() {
		return nil, false
	}
	return jsAPI{obj: api, v12: v == lms.SCORM12}, true
}

// property reads a property of a JavaScript value, undefined where it
// throws (a window of another origin).
func property(v js.Value, name string) (out js.Value) {
	defer func() {
		if recover() != nil {
			out = js.Undefined()
		}
	}()
	if !v.Truthy() {
		return js.Undefined()
	}
	return js.Global().Get("Reflect").Call("get", v, name)
}

// jsAPI is an LMS's API object as lms.API: 2004's methods by their names,
// 1.2's by theirs (LMSInitialize, LMSFinish, …). A call that throws is a
// call refused.
type jsAPI struct {
	obj js.Value
	v12 bool
}

var _ lms.API = jsAPI{}

func (a jsAPI) method(name string) string {
	if !a.v12 {
		return name
	}
	if name == "Terminate" {
		return "LMSFinish"
	}
	return "LMS" + name
}

func (a jsAPI) call(name string, args ...any) (r js.Value) {
	defer func() {
		if recover() != nil {
			r = js.ValueOf(false)
		}
	}()
	return a.obj.Call(a.method(name), args...)
}

// truth reads an API's answer: "true" or true.
func truth(r js.Value) bool {
	switch r.Type() {
	case js.TypeBoolean:
		return r.Bool()
	case js.TypeString:
		return r.String() == "true"
	}
	return false
}

// text reads an API's answer as a string; an LMS may answer a number.
func text(r js.Value) string {
	switch r.Type() {
	case js.TypeString:
		return r.String()
	case js.TypeNumber:
		return strconv.FormatFloat(r.Float(), 'f', -1, 64)
	case js.TypeBoolean:
		return strconv.FormatBool(r.Bool())
	}
	return ""
}

func (a jsAPI) Initialize() bool                { return truth(a.call("Initialize", "")) }
func (a jsAPI) Terminate() bool                 { return truth(a.call("Terminate", "")) }
func (a jsAPI) Commit() bool                    { return truth(a.call("Commit", "")) }
func (a jsAPI) GetValue(element string) string  { return text(a.call("GetValue", element)) }
func (a jsAPI) SetValue(element, v string) bool { return truth(a.call("SetValue", element, v)) }

func (a jsAPI) LastError() (int, string) {
	code, _ := strconv.Atoi(strings.TrimSpace(text(a.call("GetLastError"))))
	if code == 0 {
		return 0, ""
	}
	return code, text(a.call("GetErrorString", strconv.Itoa(code)))
}
