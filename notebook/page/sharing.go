package page

import (
	"strings"

	"gradbook/notebook/block"
)

// Sharing: a cell's code travels in the address's fragment (ShareLink),
// so it never reaches a server. Opening such a link shows that code in
// the cell without touching the learner's saved version until they run
// it or keep it.

// share puts the link on the clipboard, and shows it to copy by hand.
func (p *Page) share(c *Cell) {
	doc := p.doc
	id := c.root.Attr(block.AttrCellID)
	link := ShareLink(p.browser.Location().Href, id, c.editor.Value())
	box := c.root.Query(block.Of(classShareBox))
	if box == nil {
		box = p.elem("div", classShareBox, "")
		c.root.InsertBefore(box, c.out)
	}
	box.SetText("")
	in := p.elem("input", "", "", "type", "text", "readonly", "", "id", id+"-link")
	in.SetValue(link)
	state := p.elem("span", classShareState, "", "role", "status")
	appendAll(box, p.elem("label", "", "Link to this code", "for", id+"-link"), doc.CreateText(" "), in, doc.CreateText(" "), state)
	in.Focus()
	in.Select()
	var err error
	p.unlocked(func() { err = p.browser.Copy(link) })
	if err == nil {
		state.SetText("Copied.")
	}
}

// openShared shows code shared through the address, if any.
func (p *Page) openShared() {
	hash := p.browser.Location().Hash
	id, src, ok := ParseShare(hash)
	if !ok {
		if strings.HasPrefix(hash, SharePrefix) {
			p.notice("The shared link does not match a cell on this page.")
		}
		return
	}
	c := p.cellByID(id)
	if c == nil {
		p.notice("The shared link does not match a cell on this page.")
		return
	}
	mine := c.editor.Value()
	c.editor.SetValue(src)
	c.shared = true
	box := p.elem("div", classChanged, "", "role", "status")
	box.AddClass(classShared)
	keep, back := p.button(classKeepShared, "Keep the shared code"), p.button(classBackToMine, "Back to my version")
	appendAll(box, p.elem("p", "", "This cell shows code shared with you through a link. Your own version is kept until you run this code or keep it."), keep, p.doc.CreateText(" "), back)
	c.root.InsertBefore(box, c.editor.elem())
	// The learner opened the link for this cell: it comes into view, with
	// the keyboard in its code (a section takes no focus of its own).
	c.root.ScrollIntoView()
	c.editor.Focus()
	on := &handlers{} // the box's, released when it goes
	done := func() {
		c.shared = false
		c.keepShared = nil
		on.release()
		box.Remove()
	}
	c.keepShared = done
	on.listen(p, keep, "click", func(Event) {
		p.Do(func() {
			done()
			p.edited(c)
		})
	})
	on.listen(p, back, "click", func(Event) {
		p.Do(func() {
			done()
			c.editor.SetValue(mine)
		})
	})
}

// cellByID returns the page's cell with id, or nil. The id is data (from
// an address or storage): it is compared in Go, never put in a selector.
func (p *Page) cellByID(id string) *Cell {
	for _, c := range p.cells {
		if c.root.Attr(block.AttrCellID) == id {
			return c
		}
	}
	return nil
}
