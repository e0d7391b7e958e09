//go:build js && wasm

package web

import (
	"context"

	"gradbook/notebook/block"
	"gradbook/notebook/page"
	"gradbook/notebook/progress"
)

func (p *Page) cellID(c *Cell) string {
	if c.record != "" {
		return c.record
	}
	return c.root.GetAttribute(block.AttrCellID)
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
		state := page.Failed
		if r.Clean {
			state = page.Passed
		}
		c.root.SetAttribute(block.AttrState, state)
		c.mark(r.Clean)
	}
	if r.Authored != "" && r.Authored != progress.Hash(authored) && r.Source != authored {
		p.offerNewVersion(c.root, c.editor, progress.KindCell, c.lesson, p.cellID(c))
	}
}

// mark shows in the cell's bar whether its last run was clean.
func (c *Cell) mark(clean bool) {
	s := c.root.QuerySelector(block.Of(block.ClassCellState))
	if s == nil {
		return
	}
	switch {
	case clean:
		s.SetTextContent("✓ done")
	case c.root.GetAttribute(block.AttrState) == page.Changed:
		s.SetTextContent("your version")
	default:
		s.SetTextContent("needs another look")
	}
}

// offerNewVersion tells the learner that the lesson's code for a cell has
// changed since they edited it, and lets them keep theirs or take the new.
func (p *Page) offerNewVersion(root *element, editor *codeEditor, kind, lesson, id string) {
	box := p.doc.CreateElement("div")
	box.SetAttribute("class", classChanged)
	box.SetAttribute("role", "alert")
	box.SetInnerHTML(`<p>The lesson's code for this cell has changed since you edited it. Your version is in the editor.</p><button type="button" class="` + classKeepMine + `">Keep mine</button> <button type="button" class="` + classTakeNew + `">Use the new version</button>`)
	root.InsertBefore(box, editor.elem())
	on := &handlers{} // the box's, released when it goes
	on.listen(box.QuerySelector(block.Of(classKeepMine)), "click", func(*event) {
		spawn(func() {
			on.release()
			r := p.keep.getIn(kind, lesson, id)
			r.Authored = progress.Hash(editor.DefaultValue())
			box.Remove()
			p.put(r)
		})
	})
	on.listen(box.QuerySelector(block.Of(classTakeNew)), "click", func(*event) {
		spawn(func() {
			on.release()
			editor.SetValue(editor.DefaultValue())
			r := p.keep.getIn(kind, lesson, id)
			r.Source, r.Authored, r.Ran, r.Clean = editor.DefaultValue(), progress.Hash(editor.DefaultValue()), false, false
			box.Remove()
			p.put(r)
		})
	})
}

// edited saves a cell's source once typing pauses. Code shared through a
// link is not the learner's until they keep it or run it: edits to it
// wait with it.
func (p *Page) edited(c *Cell) {
	p.staleBelow(c)
	if p.keep == nil || c.shared {
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
		c.keepShared() // running shared code keeps it
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
	p.keep.setStatus("Saving…")
	err := p.keep.prog.Delete(context.Background(), kind, lesson, id)
	p.keep.mu.Unlock()
	p.saved(err)
	p.lms.changed()
}
