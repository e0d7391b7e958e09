package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The server answers every address with a status that says what it is:
// a 100 KB address is too long, not an internal error.
func TestHandler(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<p>hi</p>"), 0o644)
	srv := httptest.NewServer(handler(dir))
	defer srv.Close()
	for _, tc := range []struct {
		path string
		want int
	}{
		{"/index.html", http.StatusOK},
		{"/nope.html", http.StatusNotFound},
		{"/" + strings.Repeat("a", 100_000), http.StatusRequestURITooLong},
		{"/../../etc/passwd", http.StatusNotFound},
	} {
		res, err := http.Get(srv.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tc.want {
			t.Errorf("%.40s: %d, want %d", tc.path, res.StatusCode, tc.want)
		}
		if tc.want == http.StatusOK && res.Header.Get("Content-Security-Policy") == "" {
			t.Errorf("%s: no Content-Security-Policy", tc.path)
		}
	}
}
