package lesson

import (
	"bytes"
	"os"
	"path/filepath"

	"gradbook/notebook/ipynb"
)

// NotebookOf writes l as a Jupyter notebook (package ipynb).
func NotebookOf(l *Lesson, o ipynb.Options) (*ipynb.Notebook, error) {
	in := ipynb.Lesson{Slug: l.Slug, Title: l.Title, Summary: l.Summary, Minutes: l.Minutes, Order: l.Order,
		MovedFrom: l.MovedFrom, RenamedFrom: l.RenamedFrom, PassingScore: l.PassingScore}
	for _, p := range l.Parts() {
		if p.Cell == nil {
			in.Parts = append(in.Parts, ipynb.Part{Prose: p.Prose})
			continue
		}
		var attrs map[string]string
		for k, v := range p.Cell.Attrs {
			if k == "id" {
				continue
			}
			if attrs == nil {
				attrs = map[string]string{}
			}
			attrs[k] = v
		}
		in.Parts = append(in.Parts, ipynb.Part{ID: p.Cell.ID, Kind: p.Cell.Kind, Source: p.Cell.Source, Attrs: attrs})
	}
	return ipynb.Of(in, o)
}

// writeNotebook writes nb to dir/name, where the page's "Download as a
// Jupyter notebook" fetches it to fill in the learner's work (package
// ipynb/fill).
func writeNotebook(dir, name string, nb *ipynb.Notebook) error {
	var b bytes.Buffer
	if err := ipynb.Write(&b, nb); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644)
}
