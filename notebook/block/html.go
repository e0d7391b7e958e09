package block

import (
	"fmt"
	"strings"

	"gradbook/internal/htmltext"
	"gradbook/internal/jsontext"
)

// writer writes the build's markup: every text and attribute value it is
// given is escaped, and every name the page reads is one of markup.go's.
type writer struct{ strings.Builder }

// bare is the value of an attribute written without one: disabled, hidden.
const bare = "\x00bare"

// open writes a start tag with attributes, as name, value pairs.
func (w *writer) open(tag string, attrs ...string) {
	w.WriteByte('<')
	w.WriteString(tag)
	for i := 0; i+1 < len(attrs); i += 2 {
		w.WriteByte(' ')
		w.WriteString(attrs[i])
		if attrs[i+1] != bare {
			w.WriteString(`="`)
			w.WriteString(htmltext.Escape(attrs[i+1]))
			w.WriteByte('"')
		}
	}
	w.WriteByte('>')
}

// close writes an end tag.
func (w *writer) close(tag string) { w.WriteString("</" + tag + ">") }

// text writes text, escaped.
func (w *writer) text(s string) { w.WriteString(htmltext.Escape(s)) }

// el writes an element holding text.
func (w *writer) el(tag, text string, attrs ...string) {
	w.open(tag, attrs...)
	w.text(text)
	w.close(tag)
}

// markup writes an element holding markup of the build's (paragraphs,
// Inline).
func (w *writer) markup(tag, markup string, attrs ...string) {
	w.open(tag, attrs...)
	w.WriteString(markup)
	w.close(tag)
}

// classes joins class names for a class attribute.
func classes(names ...string) string { return strings.Join(names, " ") }

// dataScript carries a block's data to the browser, once, as JSON in an
// inert <script type="application/json" class="block-data"> (allowed by
// the pages' CSP, never run). "<" is escaped so the text cannot end the
// element.
func dataScript(v any) string {
	data := strings.ReplaceAll(string(jsontext.Encode(v)), "<", `\u003c`)
	return `<script type="application/json" class="` + ClassBlockData + `">` + data + `</script>`
}

// CellLabel is the label of a page's nth code cell (from 1), as the build
// writes it and the scratch page writes it again when cells move.
func CellLabel(n int) string { return fmt.Sprintf("Cell %d", n) }

// CodeCellHTML returns the markup of a code cell: a labelled editor holding
// source, Run and Reset buttons, an output that is announced, and a place
// for drawings. The page works without scripts (the code is readable);
// the notebook's wasm enables the buttons. n numbers the cell for people.
func CodeCellHTML(id string, n int, source string) string {
	rows := min(max(strings.Count(source, "\n")+2, 3), 30)
	var w writer
	w.open("section", "class", classes(ClassCell, ClassCodeCell), "id", "cell-"+id, AttrCellID, id, AttrKind, KindPython, "aria-labelledby", "cell-"+id+"-label")
	w.open("div", "class", ClassCellBar)
	w.el("label", CellLabel(n), "class", ClassCellLabel, "id", "cell-"+id+"-label", "for", "cell-"+id+"-src")
	w.el("span", "", "class", ClassCellState, "aria-hidden", "true")
	w.el("button", "Run", "type", "button", "class", ClassRun, "disabled", bare)
	w.el("button", "Reset", "type", "button", "class", ClassReset, "disabled", bare)
	w.el("button", "Share", "type", "button", "class", ClassShare, "disabled", bare)
	w.close("div")
	w.el("textarea", source, "class", ClassEditor, "id", "cell-"+id+"-src", "rows", fmt.Sprint(rows), "spellcheck", "false", "autocapitalize", "off", "autocomplete", "off", "aria-describedby", "cell-"+id+"-keys")
	w.open("p", "class", "keys", "id", "cell-"+id+"-keys")
	// Always shown: a hint that appeared while the editor had the focus
	// moved what lies below when a tap took the focus away, between the
	// finger's press and its release, and the tap missed.
	w.text("Shift+Enter or Ctrl+Enter runs the cell. In the code, Tab indents; press Escape, then Tab, to move out of it.")
	w.close("p")
	w.el("output", "", "class", ClassOut, "for", "cell-"+id+"-src", "role", "status", "aria-live", "polite")
	w.el("div", "", "class", ClassDrawings)
	w.close("section")
	return w.String()
}
