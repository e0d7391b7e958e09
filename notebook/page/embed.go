package page

import (
	"context"
	"fmt"
	"strings"

	"gradbook/notebook/block"
	"gradbook/notebook/cellindex"
)

// Cells in other pages: a course page's .gradbook-cell elements (embed.js)
// and embed.html?lesson=…&cell=… in a frame.

// placement is where an embedded cell belongs: its lesson for progress,
// the group of cells it runs after, and the hidden cells before them.
type placement struct {
	lesson, group string
	record        string // the cell's id in its lesson's progress
	prefix        []string
}

// fetchCells reads cells.json from the Gradbook site at base.
func (p *Page) fetchCells(base string) (sc *cellindex.Index, err error) {
	var b []byte
	p.unlocked(func() { b, err = p.browser.Fetch(base + "cells.json") })
	if err != nil {
		return nil, err
	}
	return cellindex.Parse(b)
}

// embed turns the .gradbook-cell elements of a course page into live
// cells. Inline cells (their text is the code) form one notebook in page
// order; a cell referenced by data-lesson and data-cell runs after its
// lesson's cells above it.
func (p *Page) embed(base string) {
	p.placed = map[string]placement{}
	lessonOfPage := "embed:" + p.browser.Location().Pathname
	p.keep.lesson = lessonOfPage
	var sc *cellindex.Index
	var scErr error
	inline := 0
	for _, el := range p.doc.QueryAll(block.Of(block.ClassEmbedCell)) {
		lesson, ref := el.Attr(block.AttrLesson), el.Attr(block.AttrCell)
		var id, src string
		var m placement
		switch {
		case lesson != "" && ref == "":
			p.embedError(el, fmt.Errorf("say which cell of %q to show, with data-cell", lesson))
			continue
		case ref != "" && lesson == "":
			p.embedError(el, fmt.Errorf("say which lesson the cell %q is in, with data-lesson", ref))
			continue
		case lesson != "":
			if sc == nil && scErr == nil {
				sc, scErr = p.fetchCells(base)
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
		default:
			inline++
			id = el.Attr(block.AttrID)
			if id == "" {
				id = fmt.Sprintf("inline-%d", inline)
			}
			src = strings.Trim(el.Text(), "\n")
			m = placement{lesson: lessonOfPage, group: "inline", record: id}
		}
		// Two cells of one id would take each other's place: the second
		// gets an id of its own, and says so. Two inline cells would share
		// one record, so it keeps its work under that id; a lesson's cell
		// shown twice keeps the lesson's one record in both.
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
				p.embedNote(el, fmt.Sprintf("Gradbook: another cell on this page is called %q, so this one keeps its work as %q. Give each cell its own data-id.", was, id))
			} else {
				p.embedNote(el, fmt.Sprintf("Gradbook: this page shows the cell %q of %q twice: both keep the learner's work as one, the lesson's.", ref, lesson))
			}
		}
		p.placeCell(el, id, src, m)
	}
	p.embedStatus()
}

// embedNote says something about a course page's cell, before it.
func (p *Page) embedNote(el Node, msg string) {
	el.Parent().InsertBefore(p.elem("p", block.ClassEmbedErr, msg, "role", "alert"), el)
}

// embedError says in place of a course page's cell why it cannot be shown.
func (p *Page) embedError(el Node, err error) {
	p.embedNote(el, "Gradbook: "+err.Error()+".")
	el.Remove()
}

// embedStatus gives a course page's cells a status line of their own,
// under the first: what the notebook did last, and whether the learner's
// work is saved.
func (p *Page) embedStatus() {
	first := p.doc.Query(block.Of(block.ClassEmbed))
	if first == nil {
		return
	}
	line := p.elem("p", classEmbedStatus, "")
	p.status = p.elem("span", "", "", "role", "status")
	saved := p.elem("span", classEmbedSaved, "", "role", "status")
	appendAll(line, p.status, p.doc.CreateText(" "), saved)
	first.Append(line)
	p.keep.status = saved
	p.keep.setStatus(p.keep.said)
}

// frame fills embed.html with the cell, or all the cells, that its address
// asks for: embed.html?lesson=L&cell=C, or embed.html?lesson=L.
func (p *Page) frame() {
	p.placed = map[string]placement{}
	q := parseQuery(p.browser.Location().Search)
	box := p.doc.ByID(block.IDCells)
	box.SetText("")
	if !q.has("lesson") {
		p.notice("Say which lesson to show: embed.html?lesson=…&cell=…")
		return
	}
	sc, err := p.fetchCells("")
	if err != nil {
		p.notice("The cells could not be loaded: " + err.Error())
		return
	}
	// A frame asked for by a lesson's earlier name keeps its progress under
	// the name the lesson has now, as the lesson's page does.
	asked := q.get("lesson")
	name := sc.Resolve(asked)
	var ids []string
	if !q.has("cell") {
		ids = sc.Lessons[name].Order
		if len(ids) == 0 {
			p.notice(fmt.Sprintf("There is no lesson %q.", asked))
			return
		}
	} else {
		ids = []string{q.get("cell")}
	}
	p.keep.lesson = name
	if name != asked {
		items := make([]string, len(ids))
		for i, id := range ids {
			items[i] = kindCell + "/" + id
		}
		var err error
		p.unlocked(func() { _, err = p.keep.prog.Move(context.Background(), asked, name, items) })
		if err != nil {
			p.notice("Your saved progress could not all be moved to the lesson's new name: " + err.Error() + ". It is still kept where it was.")
		}
	}
	for _, id := range ids {
		src, above, err := sc.Cell(name, id)
		if err != nil {
			p.notice("This cell cannot be shown: " + err.Error() + ".")
			continue
		}
		m := placement{lesson: name, group: "lesson", record: id}
		if q.has("cell") {
			m.prefix = above
		}
		el := p.doc.Create("div")
		box.Append(el)
		p.placeCell(el, id, src, m)
	}
}

// placeCell replaces el with a live cell.
func (p *Page) placeCell(el Node, id, src string, m placement) {
	wrap := p.elem("div", block.ClassEmbed, "")
	wrap.SetHTML(block.CodeCellHTML(id, len(p.placed)+1, src))
	el.Parent().InsertBefore(wrap, el)
	el.Remove()
	p.placed[id] = m
}

// query is an address's query: the first value of each name.
type query map[string]string

func (q query) has(name string) bool   { _, ok := q[name]; return ok }
func (q query) get(name string) string { return q[name] }

// parseQuery reads an address's query ("?lesson=fan-out&cell=square"),
// as URLSearchParams does: a name's first value counts, "+" is a space
// and %XX a byte; a bad escape is kept as it is.
func parseQuery(search string) query {
	q := query{}
	for _, part := range strings.Split(strings.TrimPrefix(search, "?"), "&") {
		if part == "" {
			continue
		}
		name, value, _ := strings.Cut(part, "=")
		name, value = unescape(name), unescape(value)
		if !q.has(name) {
			q[name] = value
		}
	}
	return q
}

func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '+':
			b.WriteByte(' ')
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}
