package page

import (
	"gradbook/notebook/plot"
)

// showPlot adds a plot under a cell: its SVG, made by package plot with
// every text escaped, and its text alternative, a summary and a table
// whose cells are set as text.
func (p *Page) showPlot(box Node, pl *plot.Plot) {
	fig := p.elem("figure", classPlot, "")
	if pl.Title != "" {
		fig.Append(p.elem("figcaption", "", pl.Title))
	}
	svg := p.elem("div", classPlotBox, "")
	svg.SetHTML(pl.SVG)
	appendAll(fig, svg, p.elem("p", classPlotSummary, pl.Summary))
	// Every plot has a table: package plot refuses to plot nothing.
	details := p.doc.Create("details")
	table := p.doc.Create("table")
	appendAll(details, p.elem("summary", "", "The plot as a table"), table)
	for i, row := range pl.Table {
		tr := p.doc.Create("tr")
		for _, text := range row {
			tag := "td"
			if i == 0 {
				tag = "th"
			}
			tr.Append(p.elem(tag, "", text))
		}
		table.Append(tr)
	}
	fig.Append(details)
	box.Append(fig)
}
