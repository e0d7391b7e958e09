package page

import (
	"strings"

	"gradbook/notebook/block"
	"gradbook/notebook/ipynb/fill"
)

// "Download as a Jupyter notebook", on a lesson and on the scratch page:
// the notebook the build wrote beside the page (package ipynb), with the
// learner's work as it is now (package ipynb/fill): the code in every cell
// and exercise, the answer of every quiz, the scratch page's cells.

func (p *Page) wireDownload() {
	b := p.doc.ByID(block.IDDownload)
	if b == nil {
		return
	}
	p.listen(b, "click", func(Event) { p.Do(func() { p.download(b) }) })
	b.SetDisabled(false)
}

// download fetches the page's notebook, fills in the learner's work and
// gives the learner the file.
func (p *Page) download(b Node) {
	file := b.Attr(block.AttrFile)
	w := p.work()
	var nb []byte
	var err error
	b.SetDisabled(true)
	p.say("Making the notebook…")
	p.unlocked(func() { nb, err = p.browser.Fetch(beside(p.browser.Location().Href, file)) })
	b.SetDisabled(false)
	if err == nil {
		nb, err = fill.Notebook(nb, w)
	}
	if err != nil {
		p.say("The notebook could not be made.")
		p.notice("The notebook could not be made (" + err.Error() + "). Your work is kept in this browser: try again once the site can be reached.")
		return
	}
	p.browser.Download(file, "application/x-ipynb+json", nb)
	p.say("Downloaded " + file + ": open it in Jupyter or Colab and run its cells from the top.")
}

// work is the learner's work on the page as it is now.
func (p *Page) work() fill.Work {
	w := fill.Work{Code: map[string]string{}, Answers: map[string]string{}}
	for _, c := range p.cells {
		if p.scratch {
			w.Cells = append(w.Cells, c.editor.Value())
		} else {
			w.Code[c.root.Attr(block.AttrCellID)] = c.editor.Value()
		}
	}
	for _, x := range p.exercises {
		w.Code[x.id] = x.editor.Value()
	}
	for _, q := range p.quizzes {
		if a := q.words(); a != "" {
			w.Answers[q.id] = a
		}
	}
	return w
}

// beside returns the address of file in the folder of the page at href.
func beside(href, file string) string {
	if i := strings.IndexAny(href, "?#"); i >= 0 {
		href = href[:i]
	}
	return href[:strings.LastIndexByte(href, '/')+1] + file
}
