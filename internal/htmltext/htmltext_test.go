package htmltext

import (
	"html"
	"testing"
)

// Escape escapes as html.EscapeString does, character for character.
func TestEscapeIsHTMLs(t *testing.T) {
	for _, s := range []string{
		"", "plain", `<b>"x" & 'y'</b>`, "a<b>c", "&amp;", "∂L/∂w < 0", "\u00a0tab\there\n", "<<>>&&''\"\"",
	} {
		if got, want := Escape(s), html.EscapeString(s); got != want {
			t.Errorf("Escape(%q) = %q, want %q", s, got, want)
		}
	}
}
