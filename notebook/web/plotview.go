//go:build js && wasm

package web

import (
	"gradbook/notebook/plot"
)

// showPlot adds a plot under a cell: its SVG, made by package plot with
// every text escaped, and its text alternative, a summary and a table
// whose cells are set as text.
func (p *Page) showPlot(box *element, pl *plot.Plot) {
	fig := p.doc.CreateElement("figure")
	fig.SetAttribute("class", classPlot)
	if pl.Title != "" {
		cap := p.doc.CreateElement("figcaption")
		cap.SetTextContent(pl.Title)
		fig.AppendChild(cap)
	}
	svg := p.doc.CreateElement("div")
	svg.SetAttribute("class", classPlotBox)
	svg.SetInnerHTML(pl.SVG)
	fig.AppendChild(svg)
	sum := p.doc.CreateElement("p")
	sum.SetAttribute("class", classPlotSummary)
	sum.SetTextContent(pl.Summary)
	fig.AppendChild(sum)
	if len(pl.Table) > 1 {
		details := p.doc.CreateElement("details")
		summary := p.doc.CreateElement("summary")
		summary.SetTextContent("The plot as a table")
		details.AppendChild(summary)
		table := p.doc.CreateElement("table")
		for i, row := range pl.Table {
			tr := p.doc.CreateElement("tr")
			for _, text := range row {
				tag := "td"
				if i == 0 {
					tag = "th"
				}
				td := p.doc.CreateElement(tag)
				td.SetTextContent(text)
				tr.AppendChild(td)
			}
			table.AppendChild(tr)
		}
		details.AppendChild(table)
		fig.AppendChild(details)
	}
	box.AppendChild(fig)
}
