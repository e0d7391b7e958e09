package page

import (
	"gradbook/notebook/plot"
)

// showPlot adds a plot under a cell: its SVG, made by package plot with
// every text escaped, and its text alternative, a summary and a table
// whose cells are set as text.
func (p *Page) showPlot(box Node, pl *plot.Plot) {
	doc := p.doc
	fig := doc.Create("figure")
	fig.AddClass(classPlot)
	if pl.Title != "" {
		caption := doc.Create("figcaption")
		caption.SetText(pl.Title)
		fig.Append(caption)
	}
	svg := doc.Create("div")
	svg.AddClass(classPlotBox)
	svg.SetHTML(pl.SVG)
	fig.Append(svg)
	sum := doc.Create("p")
	sum.AddClass(classPlotSummary)
	sum.SetText(pl.Summary)
	fig.Append(sum)
	// Every plot has a table: package plot refuses to plot nothing.
	details := doc.Create("details")
	summary := doc.Create("summary")
	summary.SetText("The plot as a table")
	details.Append(summary)
	table := doc.Create("table")
	for i, row := range pl.Table {
		tr := doc.Create("tr")
		for _, text := range row {
			tag := "td"
			if i == 0 {
				tag = "th"
			}
			td := doc.Create(tag)
			td.SetText(text)
			tr.Append(td)
		}
		table.Append(tr)
	}
	details.Append(table)
	fig.Append(details)
	box.Append(fig)
}
