//go:build js && wasm

package web

import (
	"syscall/js"

	"gradbook/notebook/block"
	"gradbook/notebook/page"
)

// Sharing: a cell's code travels in the address's fragment (page.ShareLink),
// so it never reaches a server. Opening such a link shows that code in the
// cell without touching the learner's saved version until they run it or
// keep it.

// share puts the link on the clipboard, and shows it to copy by hand.
func (p *Page) share(c *Cell) {
	id := c.root.GetAttribute(block.AttrCellID)
	link := page.ShareLink(js.Global().Get("location").Get("href").String(), id, c.editor.Value())
	box := c.root.QuerySelector(block.Of(classShareBox))
	if box == nil {
		box = p.doc.CreateElement("div")
		box.SetAttribute("class", classShareBox)
		c.root.InsertBefore(box, c.out)
	}
	box.SetInnerHTML("")
	label := p.doc.CreateElement("label")
	label.SetAttribute("for", id+"-link")
	label.SetTextContent("Link to this code")
	in := p.doc.CreateElement("input")
	in.SetType("text")
	in.SetReadOnly(true)
	in.SetID(id + "-link")
	in.SetValue(link)
	state := p.doc.CreateElement("span")
	state.SetAttribute("class", classShareState)
	state.SetAttribute("role", "status")
	box.AppendChild(label)
	box.AppendChild(p.doc.CreateTextNode(" "))
	box.AppendChild(in)
	box.AppendChild(p.doc.CreateTextNode(" "))
	box.AppendChild(state)
	in.Focus()
	in.Select()
	if clip := js.Global().Get("navigator").Get("clipboard"); !clip.IsUndefined() {
		if _, err := await(clip.Call("writeText", link)); err == nil {
			state.SetTextContent("Copied.")
		}
	}
}

// openShared shows code shared through the address, if any.
func (p *Page) openShared() {
	hash := js.Global().Get("location").Get("hash").String()
	id, src, ok := page.ParseShare(hash)
	if !ok {
		if len(hash) > len(page.SharePrefix) && hash[:len(page.SharePrefix)] == page.SharePrefix {
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
	box := p.doc.CreateElement("div")
	box.SetAttribute("class", classChanged+" shared")
	box.SetAttribute("role", "status")
	box.SetInnerHTML(`<p>This cell shows code shared with you through a link. Your own version is kept until you run this code or keep it.</p><button type="button" class="` + classKeepShared + `">Keep the shared code</button> <button type="button" class="` + classBackToMine + `">Back to my version</button>`)
	c.root.InsertBefore(box, c.editor.elem())
	c.root.Focus()
	on := &handlers{} // the box's, released when it goes
	done := func() {
		c.shared = false
		c.keepShared = nil
		on.release()
		box.Remove()
	}
	c.keepShared = done
	on.listen(box.QuerySelector(block.Of(classKeepShared)), "click", func(*event) {
		spawn(func() {
			done()
			p.edited(c)
		})
	})
	on.listen(box.QuerySelector(block.Of(classBackToMine)), "click", func(*event) {
		spawn(func() {
			done()
			c.editor.SetValue(mine)
		})
	})
}

// cellByID returns the page's cell with id, or nil. The id is data (from
// an address or storage): it is compared in Go, never put in a selector.
func (p *Page) cellByID(id string) *Cell {
	for _, c := range p.cells {
		if c.root.GetAttribute(block.AttrCellID) == id {
			return c
		}
	}
	return nil
}
