package page

import (
	"gradbook/notebook/block"
	"gradbook/notebook/progress"
)

func (p *Page) cellID(c *Cell) string {
	if c.record != "" {
		return c.record
	}
	return c.root.Attr(block.AttrCellID)
}

// restoreCell puts a cell's saved source and state back.
func (p *Page) restoreCell(c *Cell) {
	if p.scratch {
		return
	}
	r := p.keep.getIn(kindCell, c.lesson, p.cellID(c))
	if r.Updated == 0 {
		return
	}
	if r.Source != "" && r.Source != c.editor.Value() && !c.editor.typed {
		c.editor.SetValue(r.Source)
	}
	if r.Ran {
		state := Failed
		if r.Clean {
			state = Passed
		}
		c.root.SetAttr(block.AttrState, state)
		c.mark(r.Clean)
	}
	if r.Outdated(c.editor.DefaultValue()) {
		p.offerNewVersion(c.root, c.editor, kindCell, c.lesson, p.cellID(c))
	}
}

// mark shows in the cell's bar whether its last run was clean.
func (c *Cell) mark(clean bool) {
	s := c.root.Query(block.Of(block.ClassCellState)) // every code cell has one (block.CodeCellHTML)
	switch {
	case clean:
		s.SetText("✓ done")
	case c.root.Attr(block.AttrState) == Changed:
		s.SetText("your version")
	default:
		s.SetText("✗ needs another look")
	}
}

// offerNewVersion tells the learner that the lesson's code for a cell or
// an exercise has changed since they edited it, and lets them keep theirs
// or take the new.
func (p *Page) offerNewVersion(root Node, editor *codeEditor, kind, lesson, id string) {
	box := p.elem("div", classChanged, "", "role", "alert")
	mine, taken := p.button(classKeepMine, "Keep mine"), p.button(classTakeNew, "Use the new version")
	appendAll(box, p.elem("p", "", "The lesson's code for this cell has changed since you edited it. Your version is in the editor."), mine, p.doc.CreateText(" "), taken)
	root.InsertBefore(box, editor.elem())
	on := &handlers{} // the box's, released when it goes
	on.listen(p, mine, "click", func(Event) {
		p.Do(func() {
			on.release()
			r := p.keep.getIn(kind, lesson, id)
			r.Authored = progress.Hash(editor.DefaultValue())
			box.Remove()
			p.put(r)
		})
	})
	on.listen(p, taken, "click", func(Event) {
		p.Do(func() {
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
	if c.shared {
		return
	}
	if p.scratch {
		p.keep.later("scratch", p.saveScratch)
		return
	}
	id := p.cellID(c)
	p.keep.later(c.lesson+"/"+id, func() {
		r := p.keep.getIn(kindCell, c.lesson, id)
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
	if p.scratch {
		p.saveScratch()
		return
	}
	r := p.keep.getIn(kindCell, c.lesson, p.cellID(c))
	r.Source = c.editor.Value()
	r.Authored = progress.Hash(c.editor.DefaultValue())
	r.Ran, r.Clean = true, clean
	p.put(r)
	if c.lesson == p.keep.lesson {
		p.visit("cell-" + p.cellID(c))
	}
}

// visit saves the lesson visited, and the cell the learner was at: on a
// lesson's page, and where a cell of the page's own lesson ran (a
// frame's, or a course page's inline cells).
func (p *Page) visit(anchor string) {
	r := p.keep.get(kindVisit, "last")
	r.Anchor = anchor
	p.put(r)
}
