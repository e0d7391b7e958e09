// Package htmltext escapes text for HTML, as html.EscapeString does,
// without package html: since Go 1.26 its package init keeps its table of
// 2,231 character references (for UnescapeString) in every program that
// imports it, 60 KB of gradbook.wasm that the notebook never reads.
package htmltext

import "strings"

// escaper is html.EscapeString's: the five characters that can end text
// or an attribute's value.
var escaper = strings.NewReplacer(`&`, "&amp;", `'`, "&#39;", `<`, "&lt;", `>`, "&gt;", `"`, "&#34;")

// Escape escapes <, >, &, ' and " in s, as html.EscapeString does.
func Escape(s string) string {
	return escaper.Replace(s)
}
