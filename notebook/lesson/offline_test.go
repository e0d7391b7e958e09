package lesson

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gradbook/internal/precompress"
)

// An export carries the _headers file that Netlify and Cloudflare Pages
// read, and its service worker does not precache it (those hosts do not
// serve it).
func TestExportHeaders(t *testing.T) {
	src, out := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(src, "index.html"), []byte("<p>hi</p>"), 0o644)
	os.WriteFile(filepath.Join(src, "gradbook.wasm"), []byte("\x00asm"), 0o644)
	if _, err := Export(src, out, "https://course.example.org 'self'"); err != nil {
		t.Fatal(err)
	}
	h, err := os.ReadFile(filepath.Join(out, "_headers"))
	if err != nil || !strings.Contains(string(h), "/*\n  Access-Control-Allow-Origin: *\n  Content-Security-Policy: frame-ancestors https://course.example.org 'self'\n") {
		t.Errorf("_headers: %q %v", h, err)
	}
	sw, _ := os.ReadFile(filepath.Join(out, "sw.js"))
	if !strings.Contains(string(sw), `"gradbook.wasm"`) || strings.Contains(string(sw), "_headers") {
		t.Errorf("the service worker's files are wrong:\n%s", sw)
	}
}

// An export carries a brotli and a gzip copy of each file that
// compresses, for hosts that serve them (nginx's gzip_static, Caddy's
// precompressed); its service worker lists only the files themselves,
// which the browser asks for by name, and the copies of the build are
// taken along, not made again.
func TestExportCompressed(t *testing.T) {
	src, out := t.TempDir(), t.TempDir()
	wasm := append([]byte("\x00asm"), strings.Repeat("gradbook ", 2000)...)
	os.WriteFile(filepath.Join(src, "gradbook.wasm"), wasm, 0o644)
	os.WriteFile(filepath.Join(src, "index.html"), []byte("<p>"+strings.Repeat("hi ", 1000)), 0o644)
	os.WriteFile(filepath.Join(src, "moved.js"), []byte("location.replace('x')"), 0o644)
	os.WriteFile(filepath.Join(src, "data.tar.gz"), []byte("a download"), 0o644)
	if _, err := precompress.Dir(src); err != nil {
		t.Fatal(err)
	}
	// Mark the build's copy: the export must take it, not make its own.
	mark := time.Unix(1_700_000_000, 0)
	os.Chtimes(filepath.Join(src, "gradbook.wasm"), mark, mark)
	os.Chtimes(filepath.Join(src, "gradbook.wasm.br"), mark, mark)
	built, _ := os.ReadFile(filepath.Join(src, "gradbook.wasm.br"))

	files, err := Files(src)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"data.tar.gz", "gradbook.wasm", "index.html", "moved.js"}; !slices.Equal(files, want) {
		t.Errorf("Files = %q, want %q", files, want)
	}
	if _, err := Export(src, out, AnyAncestor); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"gradbook.wasm.br", "gradbook.wasm.gz", "index.html.br", "index.html.gz", "sw.js.gz", "sw.js.br"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("the export has no %s", f)
		}
	}
	for _, f := range []string{"moved.js.gz", "moved.js.br", "data.tar.gz.gz"} {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil {
			t.Errorf("the export has %s", f)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(out, "gradbook.wasm.br")); !bytes.Equal(got, built) {
		t.Error("the export compressed gradbook.wasm again instead of taking the build's copy")
	}
	wasmInfo, _ := os.Stat(filepath.Join(out, "gradbook.wasm"))
	for _, e := range precompress.Encodings {
		c, err := os.Stat(filepath.Join(out, "gradbook.wasm"+e.Ext))
		if err != nil || !precompress.Fresh(wasmInfo, c) {
			t.Errorf("the export's gradbook.wasm%s is not fresh", e.Ext)
		}
	}
	sw, _ := os.ReadFile(filepath.Join(out, "sw.js"))
	if strings.Contains(string(sw), ".br\"") || strings.Contains(string(sw), "wasm.gz") || !strings.Contains(string(sw), `"gradbook.wasm"`) || !strings.Contains(string(sw), `"data.tar.gz"`) {
		t.Errorf("the service worker's files are wrong:\n%s", sw)
	}
}

// The pages that may frame Gradbook's go into a header: a list of CSP's
// sources, or an error that says what is wrong, never anything else.
func TestFrameAncestors(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{"*", "*", ""},
		{"  https://course.example.org   https://*.example.edu:8443 'self' ", "https://course.example.org https://*.example.edu:8443 'self'", ""},
		{"http://localhost:8000", "http://localhost:8000", ""},
		{"'none'", "'none'", ""},
		{"", "", "no source"},
		{"'none' https://a.example", "", "'none' goes alone"},
		{"https://a.example; script-src *", "", `"https://a.example;" is not`},
		{"https://a.example\r\nSet-Cookie: x=1", "", `"Set-Cookie:" is not`},
		{"javascript:alert(1)", "", "is not"},
		{"course.example.org", "", "is not"},
	} {
		got, err := FrameAncestors(tc.in)
		if got != tc.want || (tc.err == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("FrameAncestors(%q) = %q, %v; want %q, %q", tc.in, got, err, tc.want, tc.err)
		}
	}
}
