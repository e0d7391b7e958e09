package page

import (
	"context"
	"errors"
	"strings"
	"time"

	"gradbook/notebook/block"
	"gradbook/notebook/progress"
)

// The kinds of progress record the page keeps, by their short names.
const (
	kindCell     = progress.KindCell
	kindQuiz     = progress.KindQuiz
	kindExercise = progress.KindExercise
	kindTask     = progress.KindTask
	kindVisit    = progress.KindVisit
	kindScratch  = progress.KindScratch
)

// keeper saves and restores the learner's progress for a page, and says
// in the page's save status how that goes.
type keeper struct {
	prog   *progress.Progress
	lesson string
	kept   bool // false when progress cannot be kept in this browser
	status Node
	saves  *Debouncer // the saves waiting for a pause, by key
	said   string     // what the status says, for a status line made later
}

// database is the name of the database that keeps progress outside an
// LMS (in an LMS, each learner has one of their own: LMS.Database).
const database = "gradbook"

// saveAfter is how long typing pauses before the page saves it.
const saveAfter = 400 * time.Millisecond

// startProgress opens the learner's progress, or falls back to memory with
// a notice that it will not be kept.
func (p *Page) startProgress() {
	k := &keeper{lesson: p.body.Attr(block.AttrLesson)}
	k.saves = NewDebouncer(saveAfter, p.clock, p.locked)
	if p.scratch {
		k.lesson = "scratch"
	}
	if !p.embedded {
		k.status = p.doc.ByID(block.IDSaveStatus)
	}
	p.keep = k
	name := database
	if p.lms != nil {
		name = p.lms.Database()
	}
	var store progress.Store
	var err error
	var prog *progress.Progress
	p.unlocked(func() {
		if p.env.Storage == nil {
			err = errNoStorage
		} else {
			store, err = p.env.Storage.Open(name)
		}
		if err != nil {
			store = nil
			return
		}
		prog, err = progress.Open(context.Background(), store)
	})
	switch {
	case store == nil:
		p.notice("Your progress will not be kept: " + err.Error() + ". The cells still work.")
		prog, _ = progress.Open(context.Background(), progress.NewMemStore())
	case err != nil:
		p.notice("Your saved progress could not be read: " + err.Error() + ". The cells still work, and nothing was changed.")
		prog, _ = progress.Open(context.Background(), progress.NewMemStore())
	default:
		k.kept = true
	}
	prog.Now = p.clock.Now
	k.prog = prog
	if p.lms != nil {
		p.unlocked(func() { p.lms.Restore(prog) }) // before the records of earlier names move
	}
	// Another tab of this site may save the same record: a pass there is
	// kept here (progress.Put merges), and code saved there is said.
	prog.Elsewhere = func(r progress.Record) {
		p.Do(func() { p.notice(elsewhere(r)) })
	}
	p.moveProgress()
	for _, n := range prog.Notices {
		p.notice(n)
	}
	if msg := p.browser.SessionTake(noticeKey); msg != "" {
		p.notice(msg)
	}
	for _, n := range p.browser.Notices() {
		p.notice(n)
	}
	// Leaving the page saves what is still waiting for a pause.
	for _, ev := range []string{"pagehide", "visibilitychange"} {
		p.on.add(p.doc.ListenWindow(ev, p.guard(func(Event) { p.free(k.flush) })))
	}
	if k.kept {
		k.setStatus("Progress is saved in this browser.")
		p.free(p.estimate)
	} else {
		k.setStatus("Progress is not being saved.")
	}
}

// errNoStorage says why progress cannot be kept here.
var errNoStorage = errors.New("this browser does not let this page keep data (private browsing, or storage is blocked)")

// noticeKey is where a page that reloads itself leaves, in session
// storage, the notice the next page shows.
const noticeKey = "gradbook-notice"

// locked runs f under the page's lock, on the caller's goroutine: for
// work that must end before its caller goes on (a save Flush waits for).
func (p *Page) locked(f func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.safely(f)
}

// free runs f on its own goroutine without the page's lock: work that
// takes the lock itself, or none.
func (p *Page) free(f func()) {
	p.tasks.Add(1)
	go func() {
		defer p.tasks.Done()
		p.safely(f)
	}()
}

func (k *keeper) setStatus(s string) {
	k.said = s
	if k.status != nil {
		k.status.SetText(s)
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
	for _, old := range box.QueryAll(block.Sel("p", classNotice)) {
		if old.Text() == msg {
			return // said already
		}
	}
	box.Append(p.noticeText(msg))
	box.RemoveAttr("hidden")
}

// noticeText is a notice's paragraph.
func (p *Page) noticeText(msg string) Node {
	return p.elem("p", classNotice, msg)
}

// noticeBox returns where notices go: the page's #notices, or on a course
// page (which has none, and whose ids are its own) a box made at the top
// of its first embedded cell.
func (p *Page) noticeBox() Node {
	if !p.embedded {
		return p.doc.ByID(block.IDNotices)
	}
	first := p.doc.Query(block.Of(block.ClassEmbed))
	if first == nil {
		return nil
	}
	if box := first.Query(block.Of(classNotices)); box != nil && box.Parent().Is(first) {
		return box
	}
	box := p.elem("div", classNotices, "", "role", "alert")
	first.InsertBefore(box, first.FirstChild())
	return box
}

// get returns a record of the page's lesson, or a new one.
func (k *keeper) get(kind, id string) progress.Record { return k.getIn(kind, k.lesson, id) }

// getIn returns a record of a lesson, or a new one.
func (k *keeper) getIn(kind, lesson, id string) progress.Record {
	if r := k.prog.Get(kind, lesson, id); r != nil {
		return *r
	}
	return progress.Record{Kind: kind, Lesson: lesson, ID: id}
}

// put saves r and says so once the transaction has completed.
func (p *Page) put(r progress.Record) {
	p.keep.setStatus("Saving…")
	p.write(func(ctx context.Context, prog *progress.Progress) error { return prog.Put(ctx, r) })
	p.lmsChanged()
}

// forget deletes a record of a lesson.
func (p *Page) forget(kind, lesson, id string) {
	p.keep.setStatus("Saving…")
	p.write(func(ctx context.Context, prog *progress.Progress) error { return prog.Delete(ctx, kind, lesson, id) })
	p.lmsChanged()
}

// setScratch saves the scratch cells, in order, and forgets the deleted
// ones, in one transaction.
func (p *Page) setScratch(cells []progress.ScratchCell, deleted []string) error {
	return p.write(func(ctx context.Context, prog *progress.Progress) error { return prog.SetScratch(ctx, cells, deleted) })
}

// write does one write of the progress, without the page's lock while it
// goes on, and says in the save status how it went.
func (p *Page) write(f func(context.Context, *progress.Progress) error) error {
	k := p.keep
	var err error
	p.unlocked(func() { err = f(context.Background(), k.prog) })
	p.saved(err)
	return err
}

// saved says in the save status how the last save went.
func (p *Page) saved(err error) {
	k := p.keep
	switch {
	case err == nil && k.kept && k.saves.Waiting():
		// Another change is still waiting: say so, not "Saved" (nor
		// "Saving…", which put said of this one).
		k.setStatus(statusWaiting)
	case err == nil && k.kept:
		k.setStatus("Saved.")
	case err == nil:
		k.setStatus("Not saved: progress cannot be kept in this browser.")
	default:
		k.setStatus("Not saved.")
		p.notice("Your latest change could not be saved: " + err.Error() + ". Everything saved before is still there.")
	}
}

// statusWaiting is the save status while a change waits for a pause.
const statusWaiting = "Editing: saved when you pause."

// later runs f after a pause, once: typing saves when it stops. Until
// then the status says that a change is waiting to be saved.
func (k *keeper) later(key string, f func()) {
	k.setStatus(statusWaiting)
	k.saves.Later(key, f)
}

// flush saves every change still waiting for a pause, and waits for the
// saves already under way: the page is going away, or a run is about to
// start that might never come back. It takes the page's lock for each
// save: call it without.
func (k *keeper) flush() { k.saves.Flush() }

// moveProgress brings the saved progress of cells that moved into a lesson
// from another (data-moved-from: a lesson split in two) to their new
// lesson, on its page and on the index, before anything is restored.
func (p *Page) moveProgress() {
	if p.embedded {
		return // a course page's lists are its own
	}
	lessons := p.doc.QueryAll(block.With("li", block.AttrRecords))
	if p.body.HasAttr(block.AttrRecords) {
		lessons = append(lessons, p.body)
	}
	type move struct {
		from, to string
		items    []string
	}
	var moves []move
	for _, el := range lessons {
		to := el.Attr(block.AttrLesson)
		items := strings.Fields(el.Attr(block.AttrRecords))
		// A lesson that had another name: everything of it, and where
		// the learner was in it, is kept under the name it has now.
		for _, old := range strings.Fields(el.Attr(block.AttrRenamed)) {
			moves = append(moves, move{old, to, append(items, kindVisit+"/last")})
		}
		if from := el.Attr(block.AttrMovedFrom); from != "" {
			moves = append(moves, move{from, to, items})
		}
	}
	if len(moves) == 0 {
		return
	}
	var errs []error
	p.unlocked(func() {
		for _, m := range moves {
			_, err := p.keep.prog.Move(context.Background(), m.from, m.to, m.items)
			errs = append(errs, err)
		}
	})
	if err := errors.Join(errs...); err != nil {
		p.notice("Your saved progress could not all be moved to its new lesson: " + err.Error() + ". It is still kept where it was.")
	}
}

// elsewhere says that another tab saved other code for r's cell or
// exercise (the records Put saves with code: scratch cells are saved by
// SetScratch, which compares nothing with another tab's).
func elsewhere(r progress.Record) string {
	what := "the cell " + r.ID
	if r.Kind == kindExercise {
		what = "the exercise " + r.ID
	}
	return "Your code for " + what + " was also changed in another tab or window: the code on this page is the one saved now. Reload the other tab to see it there."
}

// lmsChanged tells the LMS, if any, that the progress changed.
func (p *Page) lmsChanged() {
	if p.lms != nil {
		p.lms.Changed()
	}
}
