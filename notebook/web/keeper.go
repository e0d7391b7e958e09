//go:build js && wasm

package web

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"gradbook/notebook/block"
	"gradbook/notebook/page"
	"gradbook/notebook/progress"
)

// keeper saves and restores the learner's progress for a page.
type keeper struct {
	mu     sync.Mutex // one progress operation at a time
	prog   *progress.Progress
	lesson string
	kept   bool // false when progress cannot be kept in this browser
	status *element
	saves  *page.Debouncer // the saves waiting for a pause, by key
	said   string          // what the status says, for a status line made later
}

// startProgress opens the learner's progress, or falls back to memory with
// a notice that it will not be kept.
func (p *Page) startProgress() {
	k := &keeper{lesson: p.body.GetAttribute(block.AttrLesson), saves: page.NewDebouncer(400*time.Millisecond, safely)}
	if p.scratch {
		k.lesson = "scratch"
	}
	if !p.embedded {
		k.status = p.doc.GetElementByID(block.IDSaveStatus)
	}
	p.keep = k
	ctx := context.Background()
	var store progress.Store
	s, err := openIDB(p.database())
	if err == nil {
		store = s
		k.kept = true
	} else {
		store = progress.NewMemStore()
		p.notice("Your progress will not be kept: " + err.Error() + ". The cells still work.")
	}
	prog, err := progress.Open(ctx, store)
	if err != nil {
		p.notice("Your saved progress could not be read: " + err.Error() + ". The cells still work, and nothing was changed.")
		prog, _ = progress.Open(ctx, progress.NewMemStore())
		k.kept = false
	}
	k.prog = prog
	p.lms.restore(prog) // before the records of earlier names move
	// Another tab of this site may save the same record: a pass there is
	// kept here (progress.Put merges), and code saved there is said.
	prog.Elsewhere = func(r progress.Record) {
		p.notice(elsewhere(r))
	}
	p.moveProgress()
	for _, n := range prog.Notices {
		p.notice(n)
	}
	if msg := sessionTake("gradbook-notice"); msg != "" {
		p.notice(msg)
	}
	for _, n := range scriptNotices() {
		p.notice(n)
	}
	// Leaving the page saves what is still waiting for a pause.
	for _, ev := range []string{"pagehide", "visibilitychange"} {
		p.on.listen(window(), ev, func(*event) { spawn(k.flush) })
	}
	if k.kept {
		k.setStatus("Progress is saved in this browser.")
		spawn(func() { p.persistAndEstimate() })
	} else {
		k.setStatus("Progress is not being saved.")
	}
}

func (k *keeper) setStatus(s string) {
	k.said = s
	if k.status != nil {
		k.status.SetTextContent(s)
	}
}

// notice shows something the learner must know, in the page's notice area.
func (p *Page) notice(msg string) {
	box := p.noticeBox()
	if box == nil {
		// A course page whose cells are not placed yet: said once they are.
		p.unshown = append(p.unshown, msg)
		return
	}
	for _, old := range box.QuerySelectorAll(block.Sel("p", classNotice)) {
		if old.TextContent() == msg {
			return // said already
		}
	}
	el := p.doc.CreateElement("p")
	el.SetAttribute("class", classNotice)
	el.SetTextContent(msg)
	box.AppendChild(el)
	box.RemoveAttribute("hidden")
}

// noticeBox returns where notices go: the page's #notices, or on a course
// page (which has none, and whose ids are its own) a box made at the top
// of its first embedded cell.
func (p *Page) noticeBox() *element {
	if !p.embedded {
		return p.doc.GetElementByID(block.IDNotices)
	}
	if box := p.doc.QuerySelector(block.Of(block.ClassEmbed) + " > " + block.Of(classNotices)); box != nil {
		return box
	}
	first := p.doc.QuerySelector(block.Of(block.ClassEmbed))
	if first == nil {
		return nil
	}
	box := p.doc.CreateElement("div")
	box.SetAttribute("class", classNotices)
	box.SetAttribute("role", "alert")
	if top := first.FirstChild(); top != nil {
		first.InsertBefore(box, top)
	} else {
		first.AppendChild(box)
	}
	return box
}

// get returns a record of the page's lesson, or a new one.
func (k *keeper) get(kind, id string) progress.Record { return k.getIn(kind, k.lesson, id) }

// getIn returns a record of a lesson, or a new one.
func (k *keeper) getIn(kind, lesson, id string) progress.Record {
	k.mu.Lock()
	defer k.mu.Unlock()
	if r := k.prog.Get(kind, lesson, id); r != nil {
		return *r
	}
	return progress.Record{Kind: kind, Lesson: lesson, ID: id}
}

// put saves r and says so once the transaction has completed.
func (p *Page) put(r progress.Record) {
	k := p.keep
	if k == nil {
		return
	}
	k.mu.Lock()
	k.setStatus("Saving…")
	err := k.prog.Put(context.Background(), r)
	k.mu.Unlock()
	p.saved(err)
	p.lms.changed()
}

func (p *Page) saved(err error) {
	k := p.keep
	switch {
	case err == nil && k.kept && k.saves.Waiting():
		// Another change is still waiting: say so, not "Saved".
	case err == nil && k.kept:
		k.setStatus("Saved.")
	case err == nil:
		k.setStatus("Not saved: progress cannot be kept in this browser.")
	default:
		k.setStatus("Not saved.")
		p.notice("Your latest change could not be saved: " + err.Error() + ". Everything saved before is still there.")
	}
}

// later runs f after a pause, once: typing saves when it stops. Until
// then the status says that a change is waiting to be saved.
func (k *keeper) later(key string, f func()) {
	k.setStatus("Editing: saved when you pause.")
	k.saves.Later(key, f)
}

// flush saves every change still waiting for a pause, and waits for the
// saves already under way: the page is going away, or a run is about to
// start that might never come back.
func (k *keeper) flush() { k.saves.Flush() }

// moveProgress brings the saved progress of cells that moved into a lesson
// from another (data-moved-from: a lesson split in two) to their new
// lesson, on its page and on the index, before anything is restored.
func (p *Page) moveProgress() {
	if p.embedded {
		return // a course page's lists are its own
	}
	k := p.keep
	lessons := p.doc.QuerySelectorAll(block.With("li", block.AttrRecords))
	if p.body.HasAttribute(block.AttrRecords) {
		lessons = append(lessons, p.body)
	}
	var errs []error
	for _, el := range lessons {
		to := el.GetAttribute(block.AttrLesson)
		items := strings.Fields(el.GetAttribute(block.AttrRecords))
		// A lesson that had another name: everything of it, and where
		// the learner was in it, is kept under the name it has now.
		for _, old := range strings.Fields(el.GetAttribute(block.AttrRenamed)) {
			_, err := k.prog.Move(context.Background(), old, to, append(items, progress.KindVisit+"/last"))
			errs = append(errs, err)
		}
		if from := el.GetAttribute(block.AttrMovedFrom); from != "" {
			_, err := k.prog.Move(context.Background(), from, to, items)
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		p.notice("Your saved progress could not all be moved to its new lesson: " + err.Error() + ". It is still kept where it was.")
	}
}

// elsewhere says that another tab saved other code for r's cell.
func elsewhere(r progress.Record) string {
	what := "a cell"
	switch r.Kind {
	case progress.KindExercise:
		what = "the exercise " + r.ID
	case progress.KindCell:
		what = "the cell " + r.ID
	case progress.KindScratch:
		what = "a scratch cell"
	}
	return "Your code for " + what + " was also changed in another tab or window: the code on this page is the one saved now. Reload the other tab to see it there."
}
