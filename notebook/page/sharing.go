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
		box = doc.Create("div")
		box.AddClass(classShareBox)
		c.root.InsertBefore(box, c.out)
	}
	box.SetText("")
	label := doc.Create("label")
	label.SetAttr("for", id+"-link")
	label.SetText("Link to this code")
	in := doc.Create("input")
	in.SetAttr("type", "text")
	in.SetAttr("readonly", "")
	in.SetAttr("id", id+"-link")
	in.SetValue(link)
	state := doc.Create("span")
	state.AddClass(classShareState)
	state.SetAttr("role", "status")
	box.Append(label)
	box.Append(doc.CreateText(" "))
	box.Append(in)
	box.Append(doc.CreateText(" "))
	box.Append(state)
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
	box := p.doc.Create("div")
	box.AddClass(classChanged)
	box.AddClass(classShared)
	box.SetAttr("role", "status")
	text := p.doc.Create("p")
	text.SetText("This cell shows code shared with you through a link. Your own version is kept until you run this code or keep it.")
	keep, back := p.button(classKeepShared, "Keep the shared code"), p.button(classBackToMine, "Back to my version")
	box.Append(text)
	box.Append(keep)
	box.Append(p.doc.CreateText(" "))
	box.Append(back)
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
