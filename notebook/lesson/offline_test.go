package lesson

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An export carries the _headers file that Netlify and Cloudflare Pages
// read, and its service worker does not precache it (those hosts do not
// serve it).
func TestExportHeaders(t *testing.T) {
	src, out := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(src, "index.html"), []byte("<p>hi</p>"), 0o644)
	os.WriteFile(filepath.Join(src, "gradbook.wasm"), []byte("\x00asm"), 0o644)
	if _, err := Export(src, out); err != nil {
		t.Fatal(err)
	}
	h, err := os.ReadFile(filepath.Join(out, "_headers"))
	if err != nil || !strings.Contains(string(h), "/*\n  Access-Control-Allow-Origin: *\n") {
		t.Errorf("_headers: %q %v", h, err)
	}
	sw, _ := os.ReadFile(filepath.Join(out, "sw.js"))
	if !strings.Contains(string(sw), `"gradbook.wasm"`) || strings.Contains(string(sw), "_headers") {
		t.Errorf("the service worker's files are wrong:\n%s", sw)
	}
}
