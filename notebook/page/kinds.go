package page

import (
	"gradbook/internal/jsontext"
	"gradbook/notebook/block"
)

// wireKinds brings the page's quizzes, explore blocks and exercises to life.
func (p *Page) wireKinds() {
	for _, el := range p.doc.QueryAll(block.Kind(block.KindQuiz)) {
		p.wireQuiz(el)
	}
	for _, el := range p.doc.QueryAll(block.Kind(block.KindExplore)) {
		p.wireExplore(el)
	}
	for _, el := range p.doc.QueryAll(block.Kind(block.KindExercise)) {
		p.wireExercise(el)
	}
}

// blockData decodes the data the build put next to a block (package
// block's dataScript), or returns nil.
func blockData(el Node) any {
	script := el.Query(block.Sel("script", block.ClassBlockData))
	if script == nil {
		return nil
	}
	v, _ := jsontext.DecodeOrdered([]byte(script.Text()))
	return v
}
