//go:build js && wasm

package web

import (
	"context"
	"errors"
	"fmt"
	"html"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"gradbook/notebook/progress"
)

// keeper saves and restores the learner's progress for a page.
type keeper struct {
	mu     sync.Mutex // one progress operation at a time
	prog   *progress.Progress
	lesson string
	kept   bool // false when progress cannot be kept in this browser
	status dom.Element
	panel  dom.Element
	tmu    sync.Mutex // guards timers and fns
	timers map[string]*time.Timer
	fns    map[string]func()
}

// startProgress opens the learner's progress, or falls back to memory with
// a notice that it will not be kept.
func (p *Page) startProgress() {
	k := &keeper{lesson: p.body.GetAttribute("data-lesson"), timers: map[string]*time.Timer{}, fns: map[string]func(){}}
	if p.scratch {
		k.lesson = "scratch"
	}
	k.status = p.doc.GetElementByID("save-status")
	k.panel = p.doc.GetElementByID("progress-panel")
	p.keep = k
	ctx := context.Background()
	var store progress.Store
	s, err := openIDB()
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
	for _, n := range prog.Notices {
		p.notice(n)
	}
	if msg := sessionTake("gradbook-notice"); msg != "" {
		p.notice(msg)
	}
	// Leaving the page saves what is still waiting for a pause.
	for _, ev := range []string{"pagehide", "visibilitychange"} {
		p.on.listen(dom.GetWindow(), ev, func(dom.Event) { spawn(k.flush) })
	}
	if k.kept {
		k.setStatus("Progress is saved in this browser.")
		spawn(func() { p.persistAndEstimate() })
	} else {
		k.setStatus("Progress is not being saved.")
	}
}

func (k *keeper) setStatus(s string) {
	if k.status != nil {
		k.status.SetTextContent(s)
	}
}

// notice shows something the learner must know, in the page's notice area.
func (p *Page) notice(msg string) {
	box := p.doc.GetElementByID("notices")
	if box == nil {
		return
	}
	for _, old := range box.QuerySelectorAll("p.notice") {
		if old.TextContent() == msg {
			return // said already
		}
	}
	el := p.doc.CreateElement("p")
	el.SetAttribute("class", "notice")
	el.SetTextContent(msg)
	box.AppendChild(el)
	box.RemoveAttribute("hidden")
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
}

func (p *Page) saved(err error) {
	k := p.keep
	switch {
	case err == nil && k.kept && k.waiting():
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
	k.tmu.Lock()
	defer k.tmu.Unlock()
	if t := k.timers[key]; t != nil {
		t.Stop()
	}
	k.setStatus("Editing: saved when you pause.")
	k.timers[key] = time.AfterFunc(400*time.Millisecond, func() {
		k.tmu.Lock()
		delete(k.timers, key)
		k.tmu.Unlock()
		safely(f)
	})
	k.fns[key] = f
}

// flush saves every change still waiting for a pause: the page is going
// away.
func (k *keeper) flush() {
	k.tmu.Lock()
	var fs []func()
	for key, t := range k.timers {
		if t.Stop() {
			fs = append(fs, k.fns[key])
		}
		delete(k.timers, key)
	}
	k.tmu.Unlock()
	for _, f := range fs {
		f()
	}
}

// waiting reports whether a change is waiting for a pause.
func (k *keeper) waiting() bool {
	k.tmu.Lock()
	defer k.tmu.Unlock()
	return len(k.timers) > 0
}

// --- code cells

func (p *Page) cellID(c *Cell) string {
	if c.record != "" {
		return c.record
	}
	return c.root.GetAttribute("data-cell-id")
}

// restoreCell puts a cell's saved source and state back.
func (p *Page) restoreCell(c *Cell) {
	if p.keep == nil || p.scratch {
		return
	}
	r := p.keep.getIn(progress.KindCell, c.lesson, p.cellID(c))
	if r.Updated == 0 {
		return
	}
	authored := c.editor.DefaultValue()
	if r.Source != "" && r.Source != c.editor.Value() {
		c.editor.SetValue(r.Source)
	}
	if r.Ran {
		state := "failed"
		if r.Clean {
			state = "passed"
		}
		c.root.SetAttribute("data-state", state)
		c.mark(r.Clean)
	}
	if r.Authored != "" && r.Authored != progress.Hash(authored) && r.Source != authored {
		p.offerNewVersion(c.root, c.editor, progress.KindCell, c.lesson, p.cellID(c))
	}
}

// mark shows in the cell's bar whether its last run was clean.
func (c *Cell) mark(clean bool) {
	s := c.root.QuerySelector(".cell-state")
	if s == nil {
		return
	}
	if clean {
		s.SetTextContent("✓ done")
	} else {
		s.SetTextContent("needs another look")
	}
}

// offerNewVersion tells the learner that the lesson's code for a cell has
// changed since they edited it, and lets them keep theirs or take the new.
func (p *Page) offerNewVersion(root dom.Element, editor *dom.HTMLTextAreaElement, kind, lesson, id string) {
	box := p.doc.CreateElement("div")
	box.SetAttribute("class", "changed")
	box.SetAttribute("role", "alert")
	box.SetInnerHTML(`<p>The lesson's code for this cell has changed since you edited it. Your version is in the editor.</p><button type="button" class="keep-mine">Keep mine</button> <button type="button" class="take-new">Use the new version</button>`)
	root.InsertBefore(box, editor)
	p.listen(box.QuerySelector(".keep-mine"), "click", func(dom.Event) {
		spawn(func() {
			r := p.keep.getIn(kind, lesson, id)
			r.Authored = progress.Hash(editor.DefaultValue())
			box.Remove()
			p.put(r)
		})
	})
	p.listen(box.QuerySelector(".take-new"), "click", func(dom.Event) {
		spawn(func() {
			editor.SetValue(editor.DefaultValue())
			r := p.keep.getIn(kind, lesson, id)
			r.Source, r.Authored, r.Ran, r.Clean = editor.DefaultValue(), progress.Hash(editor.DefaultValue()), false, false
			box.Remove()
			p.put(r)
		})
	})
}

// edited saves a cell's source once typing pauses.
func (p *Page) edited(c *Cell) {
	if p.keep == nil {
		return
	}
	if p.scratch {
		p.keep.later("scratch", p.saveScratch)
		return
	}
	id := p.cellID(c)
	p.keep.later(c.lesson+"/"+id, func() {
		r := p.keep.getIn(progress.KindCell, c.lesson, id)
		r.Source = c.editor.Value()
		r.Authored = progress.Hash(c.editor.DefaultValue())
		p.put(r)
	})
}

// ran saves whether a cell's run was clean.
func (p *Page) ran(c *Cell, clean bool) {
	c.mark(clean)
	if c.shared {
		// Running shared code keeps it.
		c.shared = false
		if box := c.root.QuerySelector(".shared"); box != nil {
			box.Remove()
		}
	}
	if p.keep == nil {
		return
	}
	if p.scratch {
		p.saveScratch()
		return
	}
	r := p.keep.getIn(progress.KindCell, c.lesson, p.cellID(c))
	r.Source = c.editor.Value()
	r.Authored = progress.Hash(c.editor.DefaultValue())
	r.Ran, r.Clean = true, clean
	p.put(r)
	if c.lesson == p.keep.lesson {
		p.visit("cell-" + p.cellID(c))
	}
}

// visit saves the lesson visited, and the cell the learner was at.
func (p *Page) visit(anchor string) {
	if p.keep == nil || p.keep.lesson == "" || p.scratch {
		return
	}
	r := p.keep.get(progress.KindVisit, "last")
	r.Anchor = anchor
	p.put(r)
}

// forget deletes a record of a lesson.
func (p *Page) forget(kind, lesson, id string) {
	if p.keep == nil {
		return
	}
	p.keep.mu.Lock()
	err := p.keep.prog.Delete(context.Background(), kind, lesson, id)
	p.keep.mu.Unlock()
	p.saved(err)
}

// --- the scratch page

// saveScratch saves every scratch cell in order and forgets deleted ones.
func (p *Page) saveScratch() {
	k := p.keep
	if k == nil {
		return
	}
	k.mu.Lock()
	ctx := context.Background()
	keep := map[string]bool{}
	var err error
	for i, c := range p.cells {
		id := p.cellID(c)
		keep[id] = true
		r := progress.Record{Kind: progress.KindScratch, Lesson: "scratch", ID: id, Source: c.editor.Value(), Order: i + 1}
		if old := k.prog.Get(progress.KindScratch, "scratch", id); old != nil {
			r.Ran, r.Clean = old.Ran, old.Clean
		}
		if e := k.prog.Put(ctx, r); e != nil && err == nil {
			err = e
		}
	}
	for _, r := range k.prog.All(progress.KindScratch, "scratch") {
		if !keep[r.ID] {
			if e := k.prog.Delete(ctx, r.Kind, r.Lesson, r.ID); e != nil && err == nil {
				err = e
			}
		}
	}
	k.mu.Unlock()
	p.saved(err)
}

// restoreScratch recreates the learner's scratch cells.
func (p *Page) restoreScratch() {
	recs := p.keep.prog.All(progress.KindScratch, "scratch")
	if len(recs) == 0 {
		return
	}
	for _, c := range p.cells {
		c.root.Remove()
	}
	p.cells = nil
	sortByOrder(recs)
	for _, r := range recs {
		var n int
		if _, err := fmt.Sscanf(r.ID, "scratch-%d", &n); err == nil && n >= p.nextID {
			p.nextID = n + 1
		}
		c := p.addCellWithID(r.ID, r.Source)
		_ = c
	}
}

func sortByOrder(recs []*progress.Record) {
	for i := 1; i < len(recs); i++ {
		for j := i; j > 0 && recs[j].Order < recs[j-1].Order; j-- {
			recs[j], recs[j-1] = recs[j-1], recs[j]
		}
	}
}

// --- the panel: export, import, resets, storage

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

// await waits for a JavaScript promise. Call it from a goroutine, never
// from a callback.
func await(promise js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	var ok, fail js.Func
	ok = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- result{v: args[0]}
		return nil
	})
	fail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "failed"
		if len(args) > 0 {
			msg = args[0].Call("toString").String()
		}
		ch <- result{err: fmt.Errorf("%s", msg)}
		return nil
	})
	promise.Call("then", ok, fail)
	r := <-ch
	ok.Release()
	fail.Release()
	return r.v, r.err
}

func sessionPut(key, value string) {
	defer func() { recover() }()
	js.Global().Get("sessionStorage").Call("setItem", key, value)
}

func sessionTake(key string) string {
	defer func() { recover() }()
	s := js.Global().Get("sessionStorage")
	v := s.Call("getItem", key)
	if v.IsNull() {
		return ""
	}
	s.Call("removeItem", key)
	return v.String()
}

func escape(s string) string { return html.EscapeString(s) }

// showCompletion shows on the index how much of each lesson is done, and
// where the learner left off.
func (p *Page) showCompletion() {
	if p.keep == nil {
		return
	}
	for _, li := range p.doc.QuerySelectorAll("li[data-items]") {
		items := strings.Fields(li.GetAttribute("data-items"))
		lesson := li.GetAttribute("data-lesson")
		p.keep.mu.Lock()
		done := p.keep.prog.Completion(lesson, items)
		p.keep.mu.Unlock()
		if el := li.QuerySelector(".completion"); el != nil {
			el.SetTextContent(fmt.Sprintf("%d of %d done", done, len(items)))
			if done == len(items) && done > 0 {
				li.Class().Add("complete")
			}
		}
	}
	cont := p.doc.GetElementByID("continue")
	if cont == nil {
		return
	}
	p.keep.mu.Lock()
	last := p.keep.prog.LastVisit()
	p.keep.mu.Unlock()
	if last == nil {
		return
	}
	title := last.Lesson
	if a := p.doc.QuerySelector(fmt.Sprintf(`li[data-lesson="%s"] a`, last.Lesson)); a != nil {
		title = a.TextContent()
	}
	href := "lessons/" + last.Lesson + ".html"
	if last.Anchor != "" {
		href += "#" + last.Anchor
	}
	cont.SetInnerHTML(fmt.Sprintf(`Continue where you left off: <a href="%s">%s</a>`, escape(href), escape(title)))
	cont.RemoveAttribute("hidden")
}
