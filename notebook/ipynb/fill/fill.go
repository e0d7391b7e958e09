// Package fill puts a learner's work into a lesson's Jupyter notebook as
// the build wrote it (package ipynb): their code in place of each code
// cell's and exercise's, their answer under each quiz, and a scratch
// page's cells after the rest. It is a package of its own so that the
// page, which fills the notebook it fetches when the learner downloads
// it, carries no Markdown, no lessons and no encoding/json: only this and
// internal/jsontext.
package fill

import (
	"errors"
	"fmt"
	"strings"

	"gradbook/internal/jsontext"
)

// Work is what a learner has done on a page. A cell missing from it keeps
// the notebook's code.
type Work struct {
	// Code is the code of each code cell and exercise as it is now, by
	// cell id.
	Code map[string]string
	// Answers is each answered quiz's answer, in words, by quiz id.
	Answers map[string]string
	// Cells are a scratch page's cells, in order: they come after the
	// notebook's own.
	Cells []string
}

// ErrNotANotebook is the kind of error of a file that is not a notebook
// of nbformat 4.
var ErrNotANotebook = errors.New("not a Jupyter notebook")

// Notebook returns the notebook file (nbformat 4's JSON) with w in it.
func Notebook(file []byte, w Work) ([]byte, error) {
	v, err := jsontext.DecodeOrdered(file)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotANotebook, err)
	}
	nb, _ := v.(jsontext.Object)
	at := nb.Index("cells")
	if at < 0 {
		return nil, fmt.Errorf("%w: it has no cells", ErrNotANotebook)
	}
	cells, ok := nb[at].Value.([]any)
	if !ok {
		return nil, fmt.Errorf("%w: its cells are not a list", ErrNotANotebook)
	}
	for i, c := range cells {
		cell, ok := c.(jsontext.Object)
		if !ok {
			return nil, fmt.Errorf("%w: cell %d is not an object", ErrNotANotebook, i+1)
		}
		id, _ := cell.Get("id").(string)
		switch kind, _ := cell.Get("cell_type").(string); kind {
		case "code":
			if code, ok := w.Code[id]; ok {
				set(&cell, "source", Lines(Python(code)))
			}
		case "markdown":
			if answer := strings.Join(strings.Fields(w.Answers[id]), " "); answer != "" {
				set(&cell, "source", Lines(source(cell)+"\n\n*Your answer:* "+answer))
			}
		}
		cells[i] = cell
	}
	for i, code := range w.Cells {
		cells = append(cells, NewCell(false, fmt.Sprintf("cell-%d", i+1), Python(code), nil))
	}
	nb[at].Value = cells
	return jsontext.Encode(nb), nil
}

// NewCell is a cell as nbformat 4.5 has it, never run: Markdown, or code
// with a null execution count and no outputs. metadata may be nil.
func NewCell(markdown bool, id, src string, metadata jsontext.Object) jsontext.Object {
	if metadata == nil {
		metadata = jsontext.Object{}
	}
	if markdown {
		return jsontext.Object{{Name: "cell_type", Value: "markdown"}, {Name: "id", Value: id}, {Name: "metadata", Value: metadata}, {Name: "source", Value: Lines(src)}}
	}
	return jsontext.Object{
		{Name: "cell_type", Value: "code"}, {Name: "execution_count", Value: nil}, {Name: "id", Value: id},
		{Name: "metadata", Value: metadata}, {Name: "outputs", Value: []any{}}, {Name: "source", Value: Lines(src)},
	}
}

// Lines splits s as nbformat keeps a cell's source: lines, each but the
// last ending in its newline.
func Lines(s string) []string {
	if s == "" {
		return []string{}
	}
	parts := strings.SplitAfter(s, "\n")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// source is a cell's source as one string: nbformat allows a string or a
// list of lines.
func source(cell jsontext.Object) string {
	switch s := cell.Get("source").(type) {
	case string:
		return s
	case []any:
		var b strings.Builder
		for _, line := range s {
			if l, ok := line.(string); ok {
				b.WriteString(l)
			}
		}
		return b.String()
	}
	return ""
}

// set sets o's member name, adding it if o has none.
func set(o *jsontext.Object, name string, v any) {
	if i := o.Index(name); i >= 0 {
		(*o)[i].Value = v
		return
	}
	*o = append(*o, jsontext.Member{Name: name, Value: v})
}
