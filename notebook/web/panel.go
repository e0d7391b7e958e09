//go:build js && wasm

package web

import (
	"context"
	"fmt"
	"strings"
	"syscall/js"
	"time"

	"gradbook/internal/words"
	"gradbook/notebook/block"
	"gradbook/notebook/progress"
)

func (p *Page) wirePanel() {
	if b := p.doc.GetElementByID(block.IDExport); b != nil {
		p.listen(b, "click", func(*event) { spawn(func() { p.exportProgress() }) })
	}
	if in := p.doc.GetElementByID(block.IDImport); in != nil {
		p.listen(in, "change", func(*event) {
			files := in.Underlying().Get("files")
			if files.Length() == 0 {
				return
			}
			file := files.Index(0)
			spawn(func() { p.importProgress(in, file) })
		})
	}
	if b := p.doc.GetElementByID(block.IDResetLesson); b != nil {
		p.listen(b, "click", func(*event) {
			spawn(func() {
				p.confirm(b, "Reset this lesson? Your code, answers and ticks in it are deleted.", "Reset the lesson", func() error {
					return p.keep.prog.ResetLesson(context.Background(), p.keep.lesson)
				}, "This lesson is reset.")
			})
		})
	}
	if b := p.doc.GetElementByID(block.IDResetAll); b != nil {
		p.listen(b, "click", func(*event) {
			spawn(func() {
				p.confirm(b, "Reset everything? All your progress in every lesson is deleted. Export it first if you may want it back.", "Reset everything", func() error {
					return p.keep.prog.ResetAll(context.Background())
				}, "All your progress is reset.")
			})
		})
	}
}

// confirm asks before a reset, next to the button that asked for it.
func (p *Page) confirm(near *element, question, yes string, do func() error, done string) {
	if old := p.doc.GetElementByID(block.IDConfirmBox); old != nil {
		old.Remove()
	}
	box := p.doc.CreateElement("div")
	box.SetID(block.IDConfirmBox)
	box.SetAttribute("class", classConfirm)
	box.SetAttribute("role", "alertdialog")
	box.SetAttribute("aria-label", question)
	box.SetInnerHTML(fmt.Sprintf(`<p>%s</p><button type="button" class="%s">%s</button> <button type="button" class="%s">Cancel</button>`, escape(question), classConfirmYes, escape(yes), classConfirmNo))
	near.ParentElement().AppendChild(box)
	no, yesButton := box.QuerySelector(block.Of(classConfirmNo)), box.QuerySelector(block.Of(classConfirmYes))
	no.Focus()
	on := &handlers{} // the box's, released when it goes
	on.listen(no, "click", func(*event) { spawn(func() { on.release(); box.Remove() }) })
	on.listen(yesButton, "click", func(*event) {
		spawn(func() {
			on.release()
			p.keep.mu.Lock()
			err := do()
			p.keep.mu.Unlock()
			if err != nil {
				p.notice("The reset did not finish: " + err.Error())
				return
			}
			sessionPut("gradbook-notice", done)
			p.reload()
		})
	})
}

func (p *Page) exportProgress() {
	p.keep.mu.Lock()
	data := p.keep.prog.Export()
	p.keep.mu.Unlock()
	blob := js.Global().Get("Blob").New(js.ValueOf([]any{string(data)}), map[string]any{"type": "application/json"})
	url := js.Global().Get("URL").Call("createObjectURL", blob)
	a := p.doc.CreateElement("a")
	a.SetAttribute("href", url.String())
	a.SetAttribute("download", "gradbook-progress-"+time.Now().Format("2006-01-02")+".json")
	p.body.AppendChild(a)
	a.Click()
	a.Remove()
	time.AfterFunc(10*time.Second, func() { js.Global().Get("URL").Call("revokeObjectURL", url) })
	p.keep.setStatus("Exported your progress to a file.")
}

// importProgress checks a progress file and merges it. Where the file has
// other code for a cell than the code saved here, the learner is asked
// which to keep; nothing changes until they answer.
func (p *Page) importProgress(in *element, file js.Value) {
	if size := file.Get("size").Float(); size > progress.MaxImport {
		p.notice(fmt.Sprintf("This file cannot be imported: it is %.1f MB, and at most %d MB can be imported. Nothing was changed.", size/(1<<20), progress.MaxImport>>20))
		return
	}
	text, err := await(file.Call("text"))
	if err != nil {
		p.notice("The file could not be read: " + err.Error() + ". Nothing was changed.")
		return
	}
	p.keep.mu.Lock()
	f, err := p.keep.prog.Read([]byte(text.String()))
	p.keep.mu.Unlock()
	if err != nil {
		p.notice(err.Error() + ". Nothing was changed.")
		return
	}
	take := func(keepMine bool) {
		p.keep.setStatus("Importing…")
		p.keep.mu.Lock()
		p.keep.prog.Saving = func(done, total int) {
			p.keep.setStatus(fmt.Sprintf("Importing… %s of %s saved.", words.Int(done), words.Count(total, "record")))
		}
		n, err := p.keep.prog.Merge(context.Background(), f, keepMine)
		p.keep.prog.Saving = nil
		p.keep.mu.Unlock()
		if err != nil {
			p.notice("The import was not fully saved: " + err.Error())
			return
		}
		sessionPut("gradbook-notice", fmt.Sprintf("Imported %s of progress.", words.Count(n, "record")))
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
	p.ask(in.ParentElement(), nil, question, "Take the file's", "Keep mine", func() { take(false) }, func() { take(true) })
}

// persistAndEstimate asks the browser to keep the data, and shows how much
// is used.
func (p *Page) persistAndEstimate() {
	storage := js.Global().Get("navigator").Get("storage")
	if storage.IsUndefined() {
		return
	}
	persisted := false
	if !storage.Get("persist").IsUndefined() {
		if v, err := await(storage.Call("persist")); err == nil {
			persisted = v.Truthy()
		}
	}
	el := p.doc.GetElementByID(block.IDStorage)
	if el == nil || storage.Get("estimate").IsUndefined() {
		return
	}
	est, err := await(storage.Call("estimate"))
	if err != nil {
		return
	}
	kind := "The browser may clear it if space runs low."
	if persisted {
		kind = "The browser keeps it until you delete it."
	}
	el.SetTextContent(fmt.Sprintf("Using %s of about %s this browser allows here. %s", size(est.Get("usage").Float()), size(est.Get("quota").Float()), kind))
}

func size(b float64) string {
	switch {
	case b >= 1e9:
		return fmt.Sprintf("%.1f GB", b/1e9)
	case b >= 1e6:
		return fmt.Sprintf("%.1f MB", b/1e6)
	case b >= 1e3:
		return fmt.Sprintf("%.0f kB", b/1e3)
	}
	return fmt.Sprintf("%.0f bytes", b)
}
