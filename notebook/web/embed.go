//go:build js && wasm

package web

import (
	"context"
	"fmt"
	"strings"
	"syscall/js"

	"gradbook/notebook/block"
	"gradbook/notebook/cellindex"
	"gradbook/notebook/progress"
)

// placement is where an embedded cell belongs: its lesson for progress,
// the group of cells it runs after, and the hidden cells before them.
type placement struct {
	lesson, group string
	record        string // the cell's id in its lesson's progress
	prefix        []string
}

// fetchCells reads cells.json from the Gradbook site at base: on a course
// page through embed.js's fetch, which goes through a frame where the host
// sends no CORS headers.
func fetchCells(base string) (*cellindex.Index, error) {
	fetch := js.Global().Get("fetch")
	this := js.Global()
	if e := js.Global().Get("gradbookEmbed"); e.Truthy() {
		this, fetch = e, e.Get("fetch")
	}
	resp, err := await(fetch.Call("call", this, base+"cells.json"))
	if err != nil {
		return nil, err
	}
	if st := resp.Get("status").Int(); st == 404 {
		return nil, fmt.Errorf("%scells.json was not found (404): upload the whole exported folder, next to embed.js", base)
	} else if !resp.Get("ok").Bool() {
		return nil, fmt.Errorf("%scells.json: %d %s", base, st, resp.Get("statusText").String())
	}
	text, err := await(resp.Call("text"))
	if err != nil {
		return nil, err
	}
	return cellindex.Parse([]byte(text.String()))
}

// embed turns the .gradbook-cell elements of a course page into live
// cells. Inline cells (their text is the code) form one notebook in page
// order; a cell referenced by data-lesson and data-cell runs after its
// lesson's cells above it.
func (p *Page) embed(base string) {
	p.placed = map[string]placement{}
	page := "embed:" + js.Global().Get("location").Get("pathname").String()
	if p.keep != nil {
		p.keep.lesson = page
	}
	var sc *cellindex.Index
	var scErr error
	inline := 0
	for _, el := range p.doc.QuerySelectorAll(block.Of(block.ClassEmbedCell)) {
		lesson, ref := el.GetAttribute(block.AttrLesson), el.GetAttribute(block.AttrCell)
		var id, src string
		var m placement
		if lesson != "" && ref != "" {
			if sc == nil && scErr == nil {
				sc, scErr = fetchCells(base)
			}
			var above []string
			err := scErr
			if err == nil {
				src, above, err = sc.Cell(lesson, ref)
			}
			if err != nil {
				p.embedError(el, err)
				continue
			}
			id = lesson + "--" + ref
			m = placement{lesson: lesson, group: "ref:" + lesson + "/" + ref, record: ref, prefix: above}
		} else {
			inline++
			id = el.GetAttribute(block.AttrID)
			if id == "" {
				id = fmt.Sprintf("inline-%d", inline)
			}
			src = strings.Trim(el.TextContent(), "\n")
			m = placement{lesson: page, group: "inline", record: id}
		}
		// Two cells of one id would share one record, or one would take
		// the other's place: the second gets an id of its own, and says so.
		if _, taken := p.placed[id]; taken {
			was := id
			for n := 2; ; n++ {
				if _, taken := p.placed[fmt.Sprintf("%s-%d", was, n)]; !taken {
					id = fmt.Sprintf("%s-%d", was, n)
					break
				}
			}
			if m.group == "inline" {
				m.record = id
			}
			p.collided(el, was, id)
		}
		p.placeCell(el, id, src, m)
	}
	p.embedStatus()
}

// collided says, before a course page's cell, that another cell on the
// page has its id, and what it keeps its work under instead.
func (p *Page) collided(el *element, was, id string) {
	note := p.doc.CreateElement("p")
	note.SetAttribute("class", block.ClassEmbedErr)
	note.SetAttribute("role", "alert")
	note.SetTextContent(fmt.Sprintf("Gradbook: another cell on this page is called %q, so this one keeps its work as %q. Give each cell its own data-id.", was, id))
	el.ParentNode().InsertBefore(note, el)
}

// embedStatus gives a course page's cells a status line of their own,
// under the first: what the notebook did last, and whether the learner's
// work is saved.
func (p *Page) embedStatus() {
	first := p.doc.QuerySelector(block.Of(block.ClassEmbed))
	if first == nil {
		return
	}
	line := p.doc.CreateElement("p")
	line.SetAttribute("class", classEmbedStatus)
	p.status = p.doc.CreateElement("span")
	p.status.SetAttribute("role", "status")
	saved := p.doc.CreateElement("span")
	saved.SetAttribute("class", classEmbedSaved)
	saved.SetAttribute("role", "status")
	line.AppendChild(p.status)
	line.AppendChild(p.doc.CreateTextNode(" "))
	line.AppendChild(saved)
	first.AppendChild(line)
	if p.keep != nil {
		p.keep.status = saved
		p.keep.setStatus(p.keep.said)
	}
}

// frame fills embed.html with the cell, or all the cells, that its address
// asks for: embed.html?lesson=L&cell=C, or embed.html?lesson=L.
func (p *Page) frame() {
	p.placed = map[string]placement{}
	q := js.Global().Get("URLSearchParams").New(js.Global().Get("location").Get("search"))
	lesson, ref := q.Call("get", "lesson"), q.Call("get", "cell")
	box := p.doc.GetElementByID(block.IDCells)
	box.SetInnerHTML("")
	if lesson.IsNull() {
		p.notice("Say which lesson to show: embed.html?lesson=…&cell=…")
		return
	}
	sc, err := fetchCells("")
	if err != nil {
		p.notice("The cells could not be loaded: " + err.Error())
		return
	}
	// A frame asked for by a lesson's earlier name keeps its progress under
	// the name the lesson has now, as the lesson's page does.
	asked := lesson.String()
	name := sc.Resolve(asked)
	var ids []string
	if ref.IsNull() {
		ids = sc.Lessons[name].Order
		if len(ids) == 0 {
			p.notice(fmt.Sprintf("There is no lesson %q.", asked))
			return
		}
	} else {
		ids = []string{ref.String()}
	}
	if p.keep != nil {
		p.keep.lesson = name
		if name != asked {
			items := make([]string, len(ids))
			for i, id := range ids {
				items[i] = progress.KindCell + "/" + id
			}
			if _, err := p.keep.prog.Move(context.Background(), asked, name, items); err != nil {
				p.notice("Your saved progress could not all be moved to the lesson's new name: " + err.Error() + ". It is still kept where it was.")
			}
		}
	}
	for _, id := range ids {
		src, above, err := sc.Cell(name, id)
		if err != nil {
			p.notice(err.Error() + ".")
			continue
		}
		m := placement{lesson: name, group: "lesson", record: id}
		if !ref.IsNull() {
			m.prefix = above
		}
		el := p.doc.CreateElement("div")
		box.AppendChild(el)
		p.placeCell(el, id, src, m)
	}
}

// placeCell replaces el with a live cell.
func (p *Page) placeCell(el *element, id, src string, m placement) {
	wrap := p.doc.CreateElement("div")
	wrap.SetAttribute("class", block.ClassEmbed)
	wrap.SetInnerHTML(block.CodeCellHTML(id, len(p.placed)+1, src))
	el.ParentNode().InsertBefore(wrap, el)
	el.Remove()
	p.placed[id] = m
}

func (p *Page) embedError(el *element, err error) {
	note := p.doc.CreateElement("p")
	note.SetAttribute("class", block.ClassEmbedErr)
	note.SetAttribute("role", "alert")
	note.SetTextContent("Gradbook: " + err.Error() + ".")
	el.ParentNode().InsertBefore(note, el)
	el.Remove()
}
