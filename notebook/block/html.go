package block

import (
	"fmt"
	"html"
	"strings"

	"gradbook/internal/jsontext"
)

// dataScript carries a block's data to the browser, once, as JSON in an
// inert <script type="application/json" class="block-data"> (allowed by
// the pages' CSP, never run). "<" is escaped so the text cannot end the
// element.
func dataScript(v any) string {
	data := strings.ReplaceAll(string(jsontext.Encode(v)), "<", `\u003c`)
	return `<script type="application/json" class="block-data">` + data + `</script>`
}

// CodeCellHTML returns the markup of a code cell: a labelled editor holding
// source, Run and Reset buttons, an output that is announced, and a place
// for drawings. The page works without scripts (the code is readable);
// the notebook's wasm enables the buttons. n numbers the cell for people.
func CodeCellHTML(id string, n int, source string) string {
	id = html.EscapeString(id)
	rows := min(max(strings.Count(source, "\n")+2, 3), 30)
	var b strings.Builder
	fmt.Fprintf(&b, `<section class="cell code-cell" id="cell-%s" data-cell-id="%s" data-kind="python" aria-labelledby="cell-%s-label">`, id, id, id)
	fmt.Fprintf(&b, `<div class="cell-bar"><label class="cell-label" id="cell-%s-label" for="cell-%s-src">Cell %d</label>`, id, id, n)
	b.WriteString(`<span class="cell-state" aria-hidden="true"></span>`)
	b.WriteString(`<button type="button" class="run" disabled>Run</button>`)
	b.WriteString(`<button type="button" class="reset" disabled>Reset</button>`)
	b.WriteString(`<button type="button" class="share" disabled>Share</button></div>`)
	fmt.Fprintf(&b, `<textarea class="editor" id="cell-%s-src" rows="%d" spellcheck="false" autocapitalize="off" autocomplete="off" aria-describedby="cell-%s-keys">%s</textarea>`,
		id, rows, id, html.EscapeString(source))
	fmt.Fprintf(&b, `<p class="keys" id="cell-%s-keys">Shift+Enter or Ctrl+Enter runs the cell.<span class="visually-hidden"> In the code, Tab indents; press Escape, then Tab, to move out of it.</span></p>`, id)
	fmt.Fprintf(&b, `<output class="out" for="cell-%s-src" role="status" aria-live="polite"></output>`, id)
	b.WriteString(`<div class="drawings"></div></section>`)
	return b.String()
}
