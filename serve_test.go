package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"gradbook/internal/precompress"
	"gradbook/notebook/lesson"
	"gradbook/notebook/lms"
)

// The server answers every address with a status that says what it is:
// a 100 KB address is too long, not an internal error.
func TestHandler(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<p>hi</p>"), 0o644)
	srv := httptest.NewServer(handler(dir, "https://course.example.org"))
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
		if csp := res.Header.Get("Content-Security-Policy"); tc.want == http.StatusOK && !strings.HasSuffix(csp, "; frame-ancestors https://course.example.org") {
			t.Errorf("%s: Content-Security-Policy %q, want it to end with -frame-ancestors's", tc.path, csp)
		}
	}
}

// get asks srv for path with the request headers given ("Accept-Encoding",
// "gzip", …), as a browser would: the body comes back as sent, not
// decoded.
func get(t *testing.T, method, url string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, body
}

func decode(t *testing.T, encoding string, b []byte) []byte {
	t.Helper()
	var r io.Reader
	switch encoding {
	case "gzip":
		z, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		r = z
	case "br":
		r = brotli.NewReader(bytes.NewReader(b))
	default:
		return b
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decoding %s: %v", encoding, err)
	}
	return out
}

// The server sends a file's compressed copy when the request accepts its
// encoding and the copy is the file's as it is now, and the file itself
// otherwise; either way with the file's type, its time, its decoded size
// and Vary: Accept-Encoding.
func TestHandlerEncodings(t *testing.T) {
	dir := t.TempDir()
	wasm := append([]byte("\x00asm\x01\x00\x00\x00"), bytes.Repeat([]byte("gradbook "), 10_000)...)
	os.WriteFile(filepath.Join(dir, "gradbook.wasm"), wasm, 0o644)
	page := []byte("<!doctype html><p>" + strings.Repeat("A derivative is a nudge. ", 100))
	os.MkdirAll(filepath.Join(dir, "lessons"), 0o755)
	os.WriteFile(filepath.Join(dir, "index.html"), page, 0o644)
	os.WriteFile(filepath.Join(dir, "lessons", "index.html"), page, 0o644)
	os.WriteFile(filepath.Join(dir, "shot.png"), bytes.Repeat([]byte{0x89}, 4096), 0o644)
	if _, err := precompress.Dir(dir); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler(dir, lesson.AnyAncestor))
	defer srv.Close()
	info, _ := os.Stat(filepath.Join(dir, "gradbook.wasm"))
	lastModified := info.ModTime().UTC().Format(http.TimeFormat)

	for _, tc := range []struct {
		name, path, accept, encoding, wantType string
		want                                   []byte
	}{
		{"gzip", "/gradbook.wasm", "gzip, deflate", "gzip", "application/wasm", wasm},
		{"brotli first", "/gradbook.wasm", "gzip, deflate, br, zstd", "br", "application/wasm", wasm},
		{"brotli less wanted", "/gradbook.wasm", "br;q=0.5, gzip", "gzip", "application/wasm", wasm},
		{"no Accept-Encoding", "/gradbook.wasm", "", "", "application/wasm", wasm},
		{"identity", "/gradbook.wasm", "identity", "", "application/wasm", wasm},
		{"gzip refused", "/gradbook.wasm", "gzip;q=0, deflate", "", "application/wasm", wasm},
		{"a page", "/index.html", "gzip, br", "br", "text/html; charset=utf-8", page},
		{"the folder", "/", "gzip", "gzip", "text/html; charset=utf-8", page},
		{"a sub-folder", "/lessons/", "gzip", "gzip", "text/html; charset=utf-8", page},
		{"a sub-folder's index.html, as itself", "/lessons/index.html", "", "", "text/html; charset=utf-8", page},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := get(t, "GET", srv.URL+tc.path, "Accept-Encoding", tc.accept)
			if res.StatusCode != http.StatusOK {
				t.Fatalf("status %d", res.StatusCode)
			}
			h := res.Header
			if got := h.Get("Content-Encoding"); got != tc.encoding {
				t.Errorf("Content-Encoding %q, want %q", got, tc.encoding)
			}
			if got := h.Get("Content-Type"); got != tc.wantType {
				t.Errorf("Content-Type %q, want %q", got, tc.wantType)
			}
			if !slices.Contains(h.Values("Vary"), "Accept-Encoding") {
				t.Errorf("Vary %q", h.Values("Vary"))
			}
			if got := h.Get("Content-Length"); got != strconv.Itoa(len(body)) {
				t.Errorf("Content-Length %s for %d bytes", got, len(body))
			}
			if got := h.Get(decodedLength); got != strconv.Itoa(len(tc.want)) {
				t.Errorf("%s %s, want %d", decodedLength, got, len(tc.want))
			}
			if tc.encoding != "" && len(body) >= len(tc.want) {
				t.Errorf("%s: %d bytes for %d", tc.encoding, len(body), len(tc.want))
			}
			if !bytes.Equal(decode(t, tc.encoding, body), tc.want) {
				t.Errorf("the body is not the file")
			}
			if h.Get("Content-Security-Policy") == "" || h.Get("Access-Control-Allow-Origin") != "*" {
				t.Errorf("the site's headers are missing: %v", h)
			}
		})
	}

	t.Run("HEAD", func(t *testing.T) {
		res, body := get(t, "HEAD", srv.URL+"/gradbook.wasm", "Accept-Encoding", "gzip")
		gz, _ := os.Stat(filepath.Join(dir, "gradbook.wasm.gz"))
		if res.StatusCode != http.StatusOK || len(body) != 0 || res.Header.Get("Content-Encoding") != "gzip" ||
			res.Header.Get("Content-Length") != strconv.FormatInt(gz.Size(), 10) {
			t.Errorf("HEAD: %d, %d bytes, %v", res.StatusCode, len(body), res.Header)
		}
	})
	t.Run("Range", func(t *testing.T) {
		res, body := get(t, "GET", srv.URL+"/gradbook.wasm", "Accept-Encoding", "gzip, br", "Range", "bytes=0-7")
		if res.StatusCode != http.StatusPartialContent || res.Header.Get("Content-Encoding") != "" || string(body) != string(wasm[:8]) {
			t.Errorf("Range: %d %q %q", res.StatusCode, res.Header.Get("Content-Encoding"), body)
		}
	})
	t.Run("Last-Modified and If-Modified-Since", func(t *testing.T) {
		res, _ := get(t, "GET", srv.URL+"/gradbook.wasm", "Accept-Encoding", "gzip")
		if got := res.Header.Get("Last-Modified"); got != lastModified {
			t.Errorf("Last-Modified %q, want the file's %q", got, lastModified)
		}
		res, body := get(t, "GET", srv.URL+"/gradbook.wasm", "Accept-Encoding", "gzip", "If-Modified-Since", lastModified)
		if res.StatusCode != http.StatusNotModified || len(body) != 0 || res.Header.Get("Content-Encoding") != "" {
			t.Errorf("If-Modified-Since: %d, %d bytes, %v", res.StatusCode, len(body), res.Header)
		}
	})
	t.Run("files that do not compress", func(t *testing.T) {
		res, body := get(t, "GET", srv.URL+"/shot.png", "Accept-Encoding", "gzip")
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Encoding") != "" || len(body) != 4096 || res.Header.Get("Content-Type") != "image/png" {
			t.Errorf("shot.png: %d, %d bytes, %v", res.StatusCode, len(body), res.Header)
		}
		if res, _ := get(t, "GET", srv.URL+"/gradbook.wasm.gz"); res.StatusCode != http.StatusOK {
			t.Errorf("a copy by its own name: %d", res.StatusCode) // as any file: its name is not a secret
		}
	})

	// The wasm changes and its copies are not made again yet: they are
	// stale, and never sent.
	changed := append(bytes.Clone(wasm), "a new build"...)
	os.WriteFile(filepath.Join(dir, "gradbook.wasm"), changed, 0o644)
	later := info.ModTime().Add(time.Second)
	os.Chtimes(filepath.Join(dir, "gradbook.wasm"), later, later)
	for _, accept := range []string{"gzip", "br"} {
		res, body := get(t, "GET", srv.URL+"/gradbook.wasm", "Accept-Encoding", accept)
		if res.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, changed) {
			t.Errorf("%s: a stale copy was sent (Content-Encoding %q)", accept, res.Header.Get("Content-Encoding"))
		}
	}
	if _, err := precompress.Dir(dir); err != nil {
		t.Fatal(err)
	}
	res, body := get(t, "GET", srv.URL+"/gradbook.wasm", "Accept-Encoding", "gzip")
	if res.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(decode(t, "gzip", body), changed) {
		t.Errorf("after Dir: Content-Encoding %q", res.Header.Get("Content-Encoding"))
	}
}

// The loader reads the decoded size under the name the server sends it.
func TestLoaderReadsDecodedLength(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("site", "autodiff.js"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"`+decodedLength+`"`) {
		t.Errorf("site/autodiff.js does not read the %s header", decodedLength)
	}
}

// A package's identifier made from its file's name is an identifier.
func TestPackageID(t *testing.T) {
	for file, want := range map[string]string{
		"course.zip":                     "course",
		"out/Backprop_2027.v2.zip":       "Backprop_2027.v2",
		"My course (2027).zip":           "My-course-2027",
		"2027 course.zip":                "course-2027-course",
		"écoles.zip":                     "coles",
		"....zip":                        "course",
		strings.Repeat("a", 80) + ".zip": strings.Repeat("a", 64),
		"item-first.zip":                 "gradbook-course",
	} {
		if got := packageID(file); got != want {
			t.Errorf("%s: %q, want %q", file, got, want)
		}
	}
}

// What writePackages can refuse, it refuses before the site's build (the
// build folder it is given does not exist, and stays so).
func TestWritePackagesRefusesFirst(t *testing.T) {
	tmp := t.TempDir()
	build := filepath.Join(tmp, "never-built")
	zip := filepath.Join(tmp, "course.zip")
	for _, tc := range []struct {
		files   map[lms.Version]string
		id      string
		passing string
		want    string
	}{
		{map[lms.Version]string{lms.SCORM2004: filepath.Join(tmp, "no-such-folder", "course.zip")}, "", "", "there is no folder " + filepath.Join(tmp, "no-such-folder")},
		{map[lms.Version]string{lms.SCORM12: tmp}, "", "", "is a folder"},
		{map[lms.Version]string{lms.SCORM2004: zip, lms.SCORM12: zip}, "", "", "name the same file"},
		{map[lms.Version]string{lms.SCORM2004: zip}, "my course", "", `"my course" is not an identifier`},
		{map[lms.Version]string{lms.SCORM2004: zip}, "", "0%", "-passing-score"},
		{map[lms.Version]string{lms.SCORM2004: zip}, "", "", "1 lesson problem: fix them first"}, // -lessons of a folder not there
	} {
		dirs := []string{filepath.Join("site", "lessons")}
		if strings.Contains(tc.want, "lesson problem") {
			dirs = append(dirs, filepath.Join(tmp, "not-lessons"))
		}
		err := writePackages(build, dirs, tc.files, tc.id, "Course", tc.passing)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want an error that says %q", tc.files, err, tc.want)
		}
		if _, err := os.Stat(build); !os.IsNotExist(err) {
			t.Fatalf("%v: the site was built (%v) before the refusal", tc.files, err)
		}
		if _, err := os.Stat(zip); !os.IsNotExist(err) {
			t.Fatalf("%v: a package was written", tc.files)
		}
	}
}
