//go:build js && wasm

package web

import (
	"encoding/base64"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"
)

// Sharing: a cell's code travels in the address's fragment,
// #share=<cell id>:<code in base64url>, so it never reaches a server.
// Opening such a link shows that code in the cell without touching the
// learner's saved version until they run it or keep it.

const sharePrefix = "#share="

// shareLink returns the address that opens c with its current code.
func (p *Page) shareLink(c *Cell) string {
	loc := js.Global().Get("location")
	base := strings.SplitN(loc.Get("href").String(), "#", 2)[0]
	return base + sharePrefix + c.root.GetAttribute("data-cell-id") + ":" + base64.RawURLEncoding.EncodeToString([]byte(c.editor.Value()))
}

// share puts the link on the clipboard, and shows it to copy by hand.
func (p *Page) share(c *Cell) {
	link := p.shareLink(c)
	box := c.root.QuerySelector(".share-box")
	if box == nil {
		box = p.doc.CreateElement("div")
		box.SetAttribute("class", "share-box")
		c.root.InsertBefore(box, c.root.QuerySelector("output.out"))
	}
	id := c.root.GetAttribute("data-cell-id") + "-link"
	box.SetInnerHTML(`<label for="` + escape(id) + `">Link to this code</label> <input type="text" readonly id="` + escape(id) + `" value="` + escape(link) + `"> <span class="share-state" role="status"></span>`)
	in := box.QuerySelector("input").(*dom.HTMLInputElement)
	in.Focus()
	in.Select()
	if clip := js.Global().Get("navigator").Get("clipboard"); !clip.IsUndefined() {
		if _, err := await(clip.Call("writeText", link)); err == nil {
			box.QuerySelector(".share-state").SetTextContent("Copied.")
		}
	}
}

// openShared shows code shared through the address, if any.
func (p *Page) openShared() {
	hash := js.Global().Get("location").Get("hash").String()
	rest, ok := strings.CutPrefix(hash, sharePrefix)
	if !ok {
		return
	}
	id, code, ok := strings.Cut(rest, ":")
	if !ok {
		return
	}
	src, err := base64.RawURLEncoding.DecodeString(code)
	var c *Cell
	for _, d := range p.cells {
		if d.root.GetAttribute("data-cell-id") == id {
			c = d
		}
	}
	if c == nil || err != nil {
		p.notice("The shared link does not match a cell on this page.")
		return
	}
	mine := c.editor.Value()
	c.editor.SetValue(string(src))
	c.shared = true
	box := p.doc.CreateElement("div")
	box.SetAttribute("class", "changed shared")
	box.SetAttribute("role", "status")
	box.SetInnerHTML(`<p>This cell shows code shared with you through a link. Your own version is kept until you run this code or keep it.</p><button type="button" class="keep-shared">Keep the shared code</button> <button type="button" class="back-to-mine">Back to my version</button>`)
	c.root.InsertBefore(box, c.editor.elem())
	c.root.(dom.HTMLElement).Focus()
	on := &handlers{} // the box's, released when it goes
	done := func() {
		c.shared = false
		c.keepShared = nil
		on.release()
		box.Remove()
	}
	c.keepShared = done
	on.listen(box.QuerySelector(".keep-shared"), "click", func(dom.Event) {
		spawn(func() {
			done()
			p.edited(c)
		})
	})
	on.listen(box.QuerySelector(".back-to-mine"), "click", func(dom.Event) {
		spawn(func() {
			done()
			c.editor.SetValue(mine)
		})
	})
}
