package page

import (
	"context"
	"fmt"
	"strings"

	"gradbook/internal/words"
	"gradbook/notebook/block"
	"gradbook/notebook/progress"
)

// The progress panel at the bottom of every page: export, import, the
// resets, and how much storage is used.

func (p *Page) wirePanel() {
	if b := p.doc.ByID(block.IDExport); b != nil {
		p.listen(b, "click", func(Event) { p.Do(p.exportProgress) })
	}
	if in := p.doc.ByID(block.IDImport); in != nil {
		p.listen(in, "change", func(Event) {
			if f, ok := p.browser.Chosen(in); ok {
				p.Do(func() { p.importProgress(in, f) })
			}
		})
	}
	if b := p.doc.ByID(block.IDResetLesson); b != nil {
		p.listen(b, "click", func(Event) {
			p.Do(func() {
				p.confirmReset(b, "Reset this lesson? Your code, answers and ticks in it are deleted.", "Reset the lesson", func() error {
					return p.keep.prog.ResetLesson(context.Background(), p.keep.lesson)
				}, "This lesson is reset.")
			})
		})
	}
	if b := p.doc.ByID(block.IDResetAll); b != nil {
		p.listen(b, "click", func(Event) {
			p.Do(func() {
				p.confirmReset(b, "Reset everything? All your progress in every lesson is deleted. Export it first if you may want it back.", "Reset everything", func() error {
					return p.keep.prog.ResetAll(context.Background())
				}, "All your progress is reset.")
			})
		})
	}
}

// confirmReset asks before a reset, next to the button that asked for it,
// then resets and reloads the page, which says done.
func (p *Page) confirmReset(near Node, question, yes string, reset func() error, done string) {
	p.ask(near.Parent(), nil, question, yes, "Cancel", func() {
		var err error
		p.unlocked(func() { err = reset() })
		if err != nil {
			p.notice("The reset did not finish: " + err.Error())
			return
		}
		p.browser.SessionPut(noticeKey, done)
		p.reload()
	}, nil)
}

// reload reloads the page after a reset or an import: the LMS, if any,
// hears of the change first, and its session goes on into the reloaded
// page.
func (p *Page) reload() {
	if p.lms != nil {
		p.unlocked(p.lms.Reloading)
	}
	p.browser.Reload()
}

func (p *Page) exportProgress() {
	data := p.keep.prog.Export()
	p.browser.Download("gradbook-progress-"+p.clock.Now().Format("2006-01-02")+".json", "application/json", data)
	p.keep.setStatus("Exported your progress to a file.")
}

// importProgress checks a progress file and merges it. Where the file has
// other code for a cell than the code saved here, the learner is asked
// which to keep; nothing changes until they answer.
func (p *Page) importProgress(in Node, file File) {
	if size := file.Size(); size > progress.MaxImport {
		p.notice(fmt.Sprintf("This file cannot be imported: it is %s, and at most %s can be imported. Nothing was changed.", words.Bytes(size), words.Bytes(progress.MaxImport)))
		return
	}
	var text []byte
	var err error
	p.unlocked(func() { text, err = file.Read() })
	if err != nil {
		p.notice("The file could not be read: " + err.Error() + ". Nothing was changed.")
		return
	}
	f, err := p.keep.prog.Read(text)
	if err != nil {
		p.notice(err.Error() + ". Nothing was changed.")
		return
	}
	take := func(keepMine bool) {
		p.keep.setStatus("Importing…")
		prog := p.keep.prog
		// How far the import is comes as work of the page, which may run
		// once it has ended: then the status says how it ended instead.
		importing := true
		prog.Saving = func(done, total int) {
			p.Do(func() {
				if importing {
					p.keep.setStatus(fmt.Sprintf("Importing… %s of %s saved.", words.Int(done), words.Count(total, "record")))
				}
			})
		}
		var n int
		p.unlocked(func() { n, err = prog.Merge(context.Background(), f, keepMine) })
		prog.Saving = nil
		importing = false
		if err != nil {
			p.keep.setStatus("Not saved.")
			p.notice("The import was not fully saved: " + err.Error())
			return
		}
		p.browser.SessionPut(noticeKey, fmt.Sprintf("Imported %s of progress.", words.Count(n, "record")))
		p.reload()
	}
	if len(f.Conflicts) == 0 {
		take(true)
		return
	}
	var where []string
	for _, r := range f.Conflicts[:min(3, len(f.Conflicts))] {
		where = append(where, fmt.Sprintf("%s in %s", r.ID, r.Lesson))
	}
	if len(f.Conflicts) > 3 {
		where = append(where, fmt.Sprintf("and %d more", len(f.Conflicts)-3))
	}
	question := fmt.Sprintf("The file has other code than yours for %s (%s). Keep your code, or take the file's? Everything else in the file is imported either way.",
		words.Count(len(f.Conflicts), "cell"), strings.Join(where, ", "))
	// The safe answer, keeping the learner's code, has the focus.
	p.ask(in.Parent(), nil, question, "Take the file's", "Keep mine", func() { take(false) }, func() { take(true) })
}

// estimate asks the browser to keep the data, and shows how much is used.
func (p *Page) estimate() {
	e, ok := p.browser.Estimate()
	if !ok {
		return
	}
	p.locked(func() {
		el := p.doc.ByID(block.IDStorage)
		if el == nil {
			return
		}
		kind := "The browser may clear it if space runs low."
		if e.Persisted {
			kind = "The browser keeps it until you delete it."
		}
		el.SetText(fmt.Sprintf("Using %s of about %s this browser allows here. %s", words.Bytes(e.Usage), words.Bytes(e.Quota), kind))
	})
}
