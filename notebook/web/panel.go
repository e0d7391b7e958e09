//go:build js && wasm

package web

import (
	"context"
	"errors"
	"fmt"
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"gradbook/notebook/progress"
)

func (p *Page) wirePanel() {
	if b := p.doc.GetElementByID("export-progress"); b != nil {
		p.listen(b, "click", func(dom.Event) { spawn(func() { p.exportProgress() }) })
	}
	if in := p.doc.GetElementByID("import-progress"); in != nil {
		p.listen(in, "change", func(dom.Event) {
			files := in.Underlying().Get("files")
			if files.Length() == 0 {
				return
			}
			file := files.Index(0)
			spawn(func() { p.importProgress(file) })
		})
	}
	if b := p.doc.GetElementByID("reset-lesson"); b != nil {
		p.listen(b, "click", func(dom.Event) {
			spawn(func() {
				p.confirm(b, "Reset this lesson? Your code, answers and ticks in it are deleted.", "Reset the lesson", func() error {
					return p.keep.prog.ResetLesson(context.Background(), p.keep.lesson)
				}, "This lesson is reset.")
			})
		})
	}
	if b := p.doc.GetElementByID("reset-all"); b != nil {
		p.listen(b, "click", func(dom.Event) {
			spawn(func() {
				p.confirm(b, "Reset everything? All your progress in every lesson is deleted. Export it first if you may want it back.", "Reset everything", func() error {
					return p.keep.prog.ResetAll(context.Background())
				}, "All your progress is reset.")
			})
		})
	}
}

// confirm asks before a reset, next to the button that asked for it.
func (p *Page) confirm(near dom.Element, question, yes string, do func() error, done string) {
	if old := p.doc.GetElementByID("confirm-box"); old != nil {
		old.Remove()
	}
	box := p.doc.CreateElement("div")
	box.SetID("confirm-box")
	box.SetAttribute("class", "confirm")
	box.SetAttribute("role", "alertdialog")
	box.SetAttribute("aria-label", question)
	box.SetInnerHTML(fmt.Sprintf(`<p>%s</p><button type="button" class="confirm-yes">%s</button> <button type="button" class="confirm-no">Cancel</button>`, escape(question), escape(yes)))
	near.ParentElement().AppendChild(box)
	box.QuerySelector(".confirm-no").(*dom.HTMLButtonElement).Focus()
	p.listen(box.QuerySelector(".confirm-no"), "click", func(dom.Event) { spawn(func() { box.Remove() }) })
	p.listen(box.QuerySelector(".confirm-yes"), "click", func(dom.Event) {
		spawn(func() {
			p.keep.mu.Lock()
			err := do()
			p.keep.mu.Unlock()
			if err != nil {
				p.notice("The reset did not finish: " + err.Error())
				return
			}
			sessionPut("gradbook-notice", done)
			js.Global().Get("location").Call("reload")
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
	a.(dom.HTMLElement).Click()
	a.Remove()
	time.AfterFunc(10*time.Second, func() { js.Global().Get("URL").Call("revokeObjectURL", url) })
	p.keep.setStatus("Exported your progress to a file.")
}

func (p *Page) importProgress(file js.Value) {
	text, err := await(file.Call("text"))
	if err != nil {
		p.notice("The file could not be read: " + err.Error() + ". Nothing was changed.")
		return
	}
	p.keep.mu.Lock()
	n, err := p.keep.prog.Import(context.Background(), []byte(text.String()))
	p.keep.mu.Unlock()
	if err != nil {
		if errors.Is(err, progress.ErrBadImport) {
			p.notice(err.Error() + ". Nothing was changed.")
			return
		}
		p.notice("The import was not fully saved: " + err.Error())
		return
	}
	sessionPut("gradbook-notice", fmt.Sprintf("Imported %d records of progress.", n))
	js.Global().Get("location").Call("reload")
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
	el := p.doc.GetElementByID("storage-estimate")
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
