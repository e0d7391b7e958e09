package precompress

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func names(encs []Encoding) string {
	var s []string
	for _, e := range encs {
		s = append(s, e.Name)
	}
	return strings.Join(s, " ")
}

func TestAccepted(t *testing.T) {
	for _, tc := range []struct {
		header, want string
	}{
		{"", ""},
		{"gzip, deflate, br, zstd", "br gzip"}, // Chrome's
		{"gzip, deflate", "gzip"},
		{"identity", ""},
		{"br;q=0.5, gzip", "gzip br"},
		{"gzip;q=0.8, br;q=0.8", "br gzip"},
		{"GZIP", "gzip"},
		{"x-gzip", "gzip"},
		{"*", "br gzip"},
		{"*;q=0.3, br;q=0", "gzip"},
		{"gzip;q=0", ""},
		{"gzip;q=0.000", ""},
		{"gzip; q=1.0", "gzip"},
		{"gzip;q=abc", ""},
		{"gzip;q=2", ""},
		{" , ,gzip", "gzip"},
	} {
		if got := names(Accepted(tc.header)); got != tc.want {
			t.Errorf("Accepted(%q) = %q, want %q", tc.header, got, tc.want)
		}
	}
}

func TestIsCopy(t *testing.T) {
	for name, want := range map[string]bool{
		"gradbook.wasm.br": true, "index.html.gz": true, "editor.js.gz": true,
		"data.tar.gz": false, "gradbook.wasm": false, "notes.br": false, "photo.png.gz": false,
	} {
		if got := IsCopy(name); got != want {
			t.Errorf("IsCopy(%q) = %v", name, got)
		}
	}
}

// read returns what the copy of file in encoding e holds, decompressed.
func read(t *testing.T, file string, e Encoding) []byte {
	t.Helper()
	f, err := os.Open(file + e.Ext)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := e.decompress(f)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := b.ReadFrom(r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func fresh(t *testing.T, file string, e Encoding) bool {
	t.Helper()
	src, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	c, err := os.Stat(file + e.Ext)
	return err == nil && Fresh(src, c)
}

func TestDir(t *testing.T) {
	dir := t.TempDir()
	big := []byte(strings.Repeat("every path adds up. ", 500))
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	page := write("lessons/page.html", big)
	small := write("moved.js", []byte("location.replace('x')"))
	png := write("shot.png", big)
	write("old.html.gz", []byte("a copy of a page that is gone"))
	write("data.tar.gz", []byte("not a copy"))

	n, err := Dir(dir)
	if err != nil || n != 2 {
		t.Fatalf("Dir: %d copies, %v; want 2", n, err)
	}
	for _, e := range Encodings {
		if got := read(t, page, e); !bytes.Equal(got, big) {
			t.Errorf("%s: the copy holds %d bytes, not the page", e.Name, len(got))
		}
		if !fresh(t, page, e) {
			t.Errorf("%s: the copy does not have the page's time", e.Name)
		}
		for _, p := range []string{small, png} {
			if _, err := os.Stat(p + e.Ext); err == nil {
				t.Errorf("%s got a %s copy", p, e.Name)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "old.html.gz")); err == nil {
		t.Error("the copy of a page that is gone is still there")
	}
	if _, err := os.Stat(filepath.Join(dir, "data.tar.gz")); err != nil {
		t.Error("a file that only looks like a copy was removed")
	}

	// Nothing changed: nothing to write.
	if n, err := Dir(dir); n != 0 || err != nil {
		t.Errorf("Dir again: %d copies, %v", n, err)
	}

	// The page changed: its copies are stale until Dir makes them again.
	changed := append([]byte("changed. "), big...)
	os.WriteFile(page, changed, 0o644)
	later := time.Now().Add(time.Second)
	os.Chtimes(page, later, later) // a time unlike the copies', however coarse the file system's clock
	for _, e := range Encodings {
		if fresh(t, page, e) {
			t.Errorf("%s: the copy of the changed page counts as fresh", e.Name)
		}
	}
	if n, err := Dir(dir); n != 2 || err != nil {
		t.Errorf("Dir after a change: %d copies, %v; want 2", n, err)
	}
	for _, e := range Encodings {
		if got := read(t, page, e); !bytes.Equal(got, changed) || !fresh(t, page, e) {
			t.Errorf("%s: the copy is not the changed page's", e.Name)
		}
	}

	// The same bytes written again: the copies are kept and take the new time.
	os.WriteFile(page, changed, 0o644)
	later = later.Add(time.Second)
	os.Chtimes(page, later, later)
	if n, err := Dir(dir); n != 0 || err != nil {
		t.Errorf("Dir after the same bytes: %d copies, %v; want 0", n, err)
	}
	for _, e := range Encodings {
		if !fresh(t, page, e) {
			t.Errorf("%s: the kept copy does not have the page's new time", e.Name)
		}
	}

	// Shrunk below MinSize: its copies go.
	os.WriteFile(page, []byte("<p>short</p>"), 0o644)
	later = later.Add(time.Second)
	os.Chtimes(page, later, later)
	if _, err := Dir(dir); err != nil {
		t.Fatal(err)
	}
	for _, e := range Encodings {
		if _, err := os.Stat(page + e.Ext); err == nil {
			t.Errorf("%s: a page under MinSize keeps its copy", e.Name)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "lessons", ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
