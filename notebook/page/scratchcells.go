package page

import (
	"fmt"
	"strings"

	"gradbook/internal/words"
	"gradbook/notebook/block"
	"gradbook/notebook/progress"
)

// The scratch page: cells the learner adds, moves and deletes, kept in
// order.

// saveScratch saves the scratch cells that changed, in order, and forgets
// the ones the learner deleted, in one transaction.
func (p *Page) saveScratch() {
	cells := make([]progress.ScratchCell, len(p.cells))
	for i, c := range p.cells {
		cells[i] = progress.ScratchCell{ID: p.cellID(c), Source: c.editor.Value()}
	}
	deleted := p.deleted
	if p.setScratch(cells, deleted) == nil {
		p.deleted = p.deleted[len(deleted):]
	}
}

// MaxScratchCells is how many scratch cells the page shows: more are kept,
// and said.
const MaxScratchCells = 500

// restoreScratch recreates the learner's scratch cells.
func (p *Page) restoreScratch() {
	recs := p.keep.prog.All(kindScratch, "scratch")
	if len(recs) == 0 {
		return
	}
	// The page's own cells give way to the kept ones, but for code the
	// learner typed into them before the page came: it goes after them.
	var typed []string
	for _, c := range p.cells {
		if c.editor.typed {
			typed = append(typed, c.editor.Value())
		}
		c.root.Remove()
	}
	p.cells = nil
	progress.SortByOrder(recs)
	ids := make([]string, len(recs))
	for i, r := range recs {
		ids[i] = r.ID
	}
	p.nextID = NextID(ids, len(recs))
	if len(recs) > MaxScratchCells {
		p.notice(fmt.Sprintf("Your scratch notebook has %s: the first %d are shown here, and the rest are kept.", words.Count(len(recs), "cell"), MaxScratchCells))
		recs = recs[:MaxScratchCells]
	}
	for _, r := range recs {
		p.appendScratchCell(r.ID, r.Source)
	}
	for _, src := range typed { // saved by the edit typing it made (newEditor)
		p.appendScratchCell(ScratchID(p.nextID), src)
		p.nextID++
	}
	p.renumber()
}

// addCell appends a new scratch cell holding source.
func (p *Page) addCell(source string) *Cell {
	id := ScratchID(p.nextID)
	p.nextID++
	c := p.appendScratchCell(id, source)
	p.renumber()
	c.editor.Focus()
	p.saveScratch()
	return c
}

// appendScratchCell appends a scratch cell, numbered in the order it comes.
func (p *Page) appendScratchCell(id, source string) *Cell {
	box := p.doc.ByID(block.IDCells)
	tmp := p.doc.Create("div")
	tmp.SetHTML(block.CodeCellHTML(id, len(p.cells)+1, source))
	el := tmp.FirstChild()
	box.Append(el)
	c := p.wire(el)
	p.cells = append(p.cells, c)
	return c
}

func (p *Page) addScratchControls(c *Cell) {
	bar := c.root.Query(block.Of(block.ClassCellBar))
	for _, spec := range []struct {
		class, text string
		act         func()
	}{
		{classMoveUp, "Move up", func() { p.move(c, -1) }},
		{classMoveDown, "Move down", func() { p.move(c, +1) }},
		{classDelete, "Delete", func() { p.askDelete(c) }},
	} {
		b := p.button(spec.class, spec.text)
		bar.Append(b)
		c.controls = append(c.controls, b)
		c.on.listen(p, b, "click", func(Event) { p.Do(spec.act) })
	}
}

// askDelete deletes a scratch cell, asking first if it has code.
func (p *Page) askDelete(c *Cell) {
	if strings.TrimSpace(c.editor.Value()) == "" {
		p.remove(c)
		return
	}
	p.ask(c.root, c.editor.elem(), "Delete this cell and its code?", "Delete the cell", "Keep it", func() { p.remove(c) }, nil)
}

func (p *Page) move(c *Cell, by int) {
	i := p.index(c)
	j := i + by
	if i < 0 || j < 0 || j >= len(p.cells) {
		return
	}
	p.cells[i], p.cells[j] = p.cells[j], p.cells[i]
	box := p.doc.ByID(block.IDCells)
	for _, d := range p.cells {
		box.Append(d.root) // appending moves it: this reorders
	}
	p.renumber()
	c.editor.Focus()
	p.say(fmt.Sprintf("Moved the cell to position %d.", j+1))
	p.saveScratch()
}

func (p *Page) remove(c *Cell) {
	i := p.index(c)
	if i < 0 {
		return
	}
	c.on.release()
	c.drawn.release()
	c.root.Remove()
	p.cells = append(p.cells[:i], p.cells[i+1:]...)
	p.deleted = append(p.deleted, p.cellID(c))
	p.renumber()
	p.say(fmt.Sprintf("Deleted cell %d.", i+1))
	p.saveScratch()
}

// renumber labels cells by their position, and names the scratch controls
// after it.
func (p *Page) renumber() {
	for i, c := range p.cells {
		label := block.CellLabel(i + 1)
		c.root.Query(block.Of(block.ClassCellLabel)).SetText(label)
		c.editor.Label(editorLabel(label))
		for _, b := range c.controls {
			b.SetAttr("aria-label", fmt.Sprintf("%s cell %d", b.Text(), i+1))
		}
	}
}
