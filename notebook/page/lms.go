//go:build lms

package page

// This file links a SCORM package's lesson page to the LMS that launched
// it (package lms's Link): it is built only into the packages'
// gradbook.wasm (serve.go -scorm builds with the lms tag), so that the
// site's download carries neither package lms nor Go's deflate.

import (
	"strconv"
	"strings"
	"time"

	"gradbook/notebook/block"
	"gradbook/notebook/lms"
	"gradbook/notebook/progress"
)

// reloadKey is where a page that reloads itself notes, in session
// storage, that its session with the LMS goes on.
const reloadKey = "gradbook-lms-reload"

// LMSLink connects a SCORM package's lesson page (its <body data-lms>) to
// its LMS, which find finds for a version of SCORM (nil, false: not in an
// LMS). It is Env.LMS.
func LMSLink(find func(lms.Version) (lms.API, bool)) func(*Page) LMS {
	return func(p *Page) LMS {
		v, ok := lms.ParseVersion(p.body.Attr(block.AttrLMS))
		if !ok {
			return nil
		}
		launch := lms.Launch{
			Version: v,
			Lesson:  p.body.Attr(block.AttrLesson),
			Items:   strings.Fields(p.body.Attr(block.AttrItems)),
			Records: strings.Fields(p.body.Attr(block.AttrRecords)),
			Earlier: strings.Fields(p.body.Attr(block.AttrRenamed)),
		}
		if from := p.body.Attr(block.AttrMovedFrom); from != "" {
			launch.Earlier = append(launch.Earlier, from)
		}
		if passing, err := strconv.ParseFloat(p.body.Attr(block.AttrPassing), 64); err == nil && passing > 0 && passing <= 1 {
			launch.Passing = passing
		}
		launch.Again = p.browser.SessionTake(reloadKey) == launch.Lesson
		pl := &pageLMS{p: p, status: p.doc.ByID(block.IDLMSStatus)}
		api, found := find(v)
		if !found {
			api = nil
		}
		var link *lms.Link
		p.unlocked(func() { link = lms.Connect(launch, api, pl, p.clock.Now) })
		pl.link = link
		// Leaving ends the session, with what the page has; being hidden
		// (another tab, a closed lid) commits.
		p.on.add(p.doc.ListenWindow("pagehide", p.guard(func(Event) { link.Leave() })))
		p.on.add(p.doc.ListenWindow("visibilitychange", p.guard(func(Event) {
			if p.doc.Hidden() {
				p.free(func() {
					p.keep.flush()
					p.Do(link.Hidden)
				})
			}
		})))
		p.on.add(p.doc.ListenWindow("pageshow", p.guard(func(ev Event) {
			if ev.Persisted() {
				p.Do(link.Shown)
			}
		})))
		return pl
	}
}

// pageLMS is a Link as the page's LMS, and the page as the Link's.
type pageLMS struct {
	p      *Page
	link   *lms.Link
	status Node
	note   Node // the notice of what the suspend data left out
}

func (l *pageLMS) Database() string                { return l.link.Database() }
func (l *pageLMS) Restore(prog *progress.Progress) { l.link.Restore(prog) }

// Changed reports the change on its own: the learner does not wait for
// the LMS.
func (l *pageLMS) Changed() { l.p.Do(l.link.Changed) }

func (l *pageLMS) Reloading() {
	l.link.Reloading()
	l.p.browser.SessionPut(reloadKey, l.p.keep.lesson)
}

// The Link's calls come from the page's work, under its lock, or from
// its own timer.

func (l *pageLMS) Notice(msg string) { l.p.notice(msg) }

func (l *pageLMS) Status(msg string) { l.status.SetText(msg) } // every package's page has one

func (l *pageLMS) Left(msg string) {
	if msg == "" {
		if l.note != nil {
			l.note.Remove()
			l.note = nil
		}
		return
	}
	if l.note == nil {
		box := l.p.noticeBox() // a package's page has its #notices
		l.note = l.p.noticeText(msg)
		box.Append(l.note)
		box.RemoveAttr("hidden")
	}
	l.note.SetText(msg)
}

func (l *pageLMS) Later(d time.Duration, f func()) func() bool {
	return l.p.clock.AfterFunc(d, func() { l.p.Do(f) })
}
