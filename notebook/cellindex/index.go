package cellindex

import (
	"fmt"
	"sort"

	"gradbook/internal/jsontext"
)

// Index is cells.json: every lesson's code cells by id, in order.
type Index struct {
	Lessons map[string]Lesson // by slug
	// Renamed gives each earlier name of a lesson its name now.
	Renamed map[string]string
}

// Lesson is one lesson's code cells.
type Lesson struct {
	Title string
	Cells map[string]string // source by cell id
	Order []string          // cell ids in lesson order
	// Moved names the lesson that each cell moved to, by id, so that a
	// course page embedding it by its old lesson still finds it.
	Moved map[string]string
}

// JSON encodes the index as cells.json:
// {"lessons": {slug: {"title": …, "cells": {id: source}, "order": [id, …],
// "moved": {id: slug}}}, "renamed": {old slug: slug}}.
func (sc *Index) JSON() []byte {
	slugs := make([]string, 0, len(sc.Lessons))
	for slug := range sc.Lessons {
		slugs = append(slugs, slug)
	}
	sort.Strings(slugs)
	lessons := make(jsontext.Object, len(slugs))
	for i, slug := range slugs {
		l := sc.Lessons[slug]
		cells := make(map[string]any, len(l.Cells))
		for id, src := range l.Cells {
			cells[id] = src
		}
		o := jsontext.Object{{Name: "title", Value: l.Title}, {Name: "cells", Value: cells}, {Name: "order", Value: l.Order}}
		if len(l.Moved) > 0 {
			moved := make(map[string]any, len(l.Moved))
			for id, to := range l.Moved {
				moved[id] = to
			}
			o = append(o, jsontext.Member{Name: "moved", Value: moved})
		}
		lessons[i] = jsontext.Member{Name: slug, Value: o}
	}
	top := jsontext.Object{{Name: "lessons", Value: lessons}}
	if len(sc.Renamed) > 0 {
		renamed := make(map[string]any, len(sc.Renamed))
		for old, now := range sc.Renamed {
			renamed[old] = now
		}
		top = append(top, jsontext.Member{Name: "renamed", Value: renamed})
	}
	return jsontext.Encode(top)
}

// Parse reads cells.json, as Index.JSON writes it.
func Parse(b []byte) (*Index, error) {
	v, err := jsontext.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("cells.json: %v", err)
	}
	top, _ := v.(map[string]any)
	lessons, _ := top["lessons"].(map[string]any)
	sc := &Index{Lessons: map[string]Lesson{}, Renamed: map[string]string{}}
	renamed, _ := top["renamed"].(map[string]any)
	for old, now := range renamed {
		if s, ok := now.(string); ok {
			sc.Renamed[old] = s
		}
	}
	for slug, x := range lessons {
		l, _ := x.(map[string]any)
		lc := Lesson{Cells: map[string]string{}}
		lc.Title, _ = l["title"].(string)
		cells, _ := l["cells"].(map[string]any)
		for id, src := range cells {
			if s, ok := src.(string); ok {
				lc.Cells[id] = s
			}
		}
		moved, _ := l["moved"].(map[string]any)
		for id, to := range moved {
			if s, ok := to.(string); ok {
				if lc.Moved == nil {
					lc.Moved = map[string]string{}
				}
				lc.Moved[id] = s
			}
		}
		order, _ := l["order"].([]any)
		for _, id := range order {
			if s, ok := id.(string); ok {
				lc.Order = append(lc.Order, s)
			}
		}
		sc.Lessons[slug] = lc
	}
	return sc, nil
}

// Resolve returns the name a lesson has now, given any of its names.
func (sc *Index) Resolve(lesson string) string {
	if _, ok := sc.Lessons[lesson]; !ok {
		if now, ok := sc.Renamed[lesson]; ok {
			return now
		}
	}
	return lesson
}

// Cell finds a lesson's cell and the cells above it; the lesson may be
// named by a name it had before.
func (sc *Index) Cell(lesson, id string) (src string, above []string, err error) {
	lesson = sc.Resolve(lesson)
	l, ok := sc.Lessons[lesson]
	if !ok {
		return "", nil, fmt.Errorf("there is no lesson %q", lesson)
	}
	for _, cid := range l.Order {
		if cid == id {
			return l.Cells[cid], above, nil
		}
		above = append(above, l.Cells[cid])
	}
	if to, ok := l.Moved[id]; ok && to != lesson {
		if _, ok := sc.Lessons[to].Moved[id]; !ok { // one step, never a loop
			return sc.Cell(to, id)
		}
	}
	return "", nil, fmt.Errorf("lesson %q has no cell %q", lesson, id)
}
