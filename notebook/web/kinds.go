//go:build js && wasm

package web

import (
	"gradbook/internal/jsontext"
	"gradbook/notebook/block"
)

// wireKinds brings the page's quizzes, explore blocks and exercises to life.
func (p *Page) wireKinds() {
	for _, el := range p.doc.QuerySelectorAll(block.Kind("quiz")) {
		p.wireQuiz(el)
	}
	for _, el := range p.doc.QuerySelectorAll(block.Kind("explore")) {
		p.wireExplore(el)
	}
	for _, el := range p.doc.QuerySelectorAll(block.Kind("exercise")) {
		p.wireExercise(el)
	}
}

func button(el *element, sel string) *element {
	return el.QuerySelector(sel)
}

// blockData decodes the data the build put next to a block (see
// notebook.dataScript), or returns nil.
func blockData(el *element) any {
	script := el.QuerySelector(block.Sel("script", block.ClassBlockData))
	if script == nil {
		return nil
	}
	v, _ := jsontext.DecodeOrdered([]byte(script.TextContent()))
	return v
}

// withAttr returns the first of els whose attribute attr is value, or nil.
// The value is compared in Go: stored, imported and shared strings are
// data and never become part of a CSS selector.
func withAttr(els []*element, attr, value string) *element {
	for _, el := range els {
		if el.HasAttribute(attr) && el.GetAttribute(attr) == value {
			return el
		}
	}
	return nil
}
