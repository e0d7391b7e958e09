// Package precompress writes compressed copies of a built site's files
// beside them, at build time, and tells a server which copy a request
// accepts:
//
//	n, err := precompress.Dir("build") // build/gradbook.wasm.br, build/gradbook.wasm.gz, …
//
//	for _, enc := range precompress.Accepted(r.Header.Get("Accept-Encoding")) {
//		// serve name+enc.Ext, if it is Fresh, with Content-Encoding: enc.Name
//	}
//
// Brotli (quality 11) and gzip (level 9) are made once per build, so a
// server spends no time compressing and sends the smallest form the
// browser takes: gradbook.wasm is 7.3 MB raw, 1.85 MB gzip, 1.32 MB
// brotli. Static hosts that serve such copies themselves (nginx's
// gzip_static and brotli_static, Caddy's precompressed) take them as they
// are.
//
// A copy is the compressed form of its file when it has the file's
// modification time (Fresh): Dir gives it that time, and makes a new copy
// of a file changed since, so a server that checks it never sends a stale
// copy.
package precompress

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
)

// An Encoding is one form of compressed copy.
type Encoding struct {
	Name string // its Content-Encoding: "br", "gzip"
	Ext  string // its suffix: gradbook.wasm's copy is gradbook.wasm.br

	compress   func(io.Writer) io.WriteCloser
	decompress func(io.Reader) (io.Reader, error)
}

// Encodings are the copies Dir makes, the smallest first.
var Encodings = []Encoding{
	{
		Name:       "br",
		Ext:        ".br",
		compress:   func(w io.Writer) io.WriteCloser { return brotli.NewWriterLevel(w, brotli.BestCompression) },
		decompress: func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil },
	},
	{
		Name: "gzip",
		Ext:  ".gz",
		compress: func(w io.Writer) io.WriteCloser {
			z, _ := gzip.NewWriterLevel(w, gzip.BestCompression) // the level is valid
			return z
		},
		decompress: func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
	},
}

// MinSize is the smallest file that gets copies: below it, a copy saves
// less than the request costs.
const MinSize = 1024

// compressible are the extensions of the files that compress: text and
// WebAssembly. Images are compressed already.
var compressible = map[string]bool{
	".html": true, ".js": true, ".mjs": true, ".css": true, ".json": true,
	".wasm": true, ".svg": true, ".txt": true, ".xml": true, ".map": true,
}

// Compressible reports whether a file of this name gets copies.
func Compressible(name string) bool {
	return compressible[strings.ToLower(path.Ext(name))]
}

// IsCopy reports whether name is a copy of another file:
// gradbook.wasm.br is, a download named data.tar.gz is not.
func IsCopy(name string) bool {
	for _, e := range Encodings {
		if stem, ok := strings.CutSuffix(name, e.Ext); ok && Compressible(stem) {
			return true
		}
	}
	return false
}

// Fresh reports whether copy, by its modification time, is the compressed
// form of src as it is now.
func Fresh(src, copy fs.FileInfo) bool {
	return copy.Mode().IsRegular() && copy.ModTime().Equal(src.ModTime())
}

// Dir gives every compressible file under dir fresh copies in each
// encoding, and removes the copies of files that are gone or that got no
// copy this time (too small, or no smaller compressed). A copy whose
// content is still its file's (a build that wrote the same bytes again) is
// kept and given the file's new time. It returns how many copies it
// wrote.
func Dir(dir string) (int, error) {
	type file struct {
		path string
		info fs.FileInfo
	}
	var files []file
	var orphans []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		if name, ok := strings.CutPrefix(d.Name(), "."); ok {
			// What a pass that was stopped left: .gradbook.wasm.br.123
			if i := strings.LastIndexByte(name, '.'); i > 0 && IsCopy(name[:i]) {
				orphans = append(orphans, p)
			}
			return nil
		}
		if IsCopy(d.Name()) {
			src := p[:len(p)-len(filepath.Ext(p))]
			if _, err := os.Lstat(src); errors.Is(err, fs.ErrNotExist) {
				orphans = append(orphans, p)
			}
			return nil
		}
		if !Compressible(d.Name()) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files = append(files, file{p, info})
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, p := range orphans {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return 0, err
		}
	}
	// The largest first, so that the slowest (gradbook.wasm's brotli)
	// starts at once and the rest share the other cores.
	sort.Slice(files, func(i, j int) bool { return files[i].info.Size() > files[j].info.Size() })
	var (
		mu      sync.Mutex
		written int
		first   error
		wg      sync.WaitGroup
	)
	next := make(chan file)
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Go(func() {
			for f := range next {
				n, err := ensure(f.path, f.info)
				mu.Lock()
				written += n
				if err != nil && first == nil {
					first = err
				}
				mu.Unlock()
			}
		})
	}
	for _, f := range files {
		next <- f
	}
	close(next)
	wg.Wait()
	return written, first
}

// ensure gives the file at src, as info found it, a fresh copy in each
// encoding, and returns how many it wrote. Its content is read after
// info was taken, so a copy never has a time later than its content.
func ensure(src string, info fs.FileInfo) (int, error) {
	var content []byte
	written := 0
	for _, e := range Encodings {
		dst := src + e.Ext
		old, err := os.Stat(dst)
		if err == nil && Fresh(info, old) {
			continue
		}
		if content == nil {
			if content, err = os.ReadFile(src); err != nil {
				return written, err
			}
		}
		if old != nil && holds(dst, e, content) {
			if err := os.Chtimes(dst, info.ModTime(), info.ModTime()); err != nil {
				return written, err
			}
			continue
		}
		var b bytes.Buffer
		if len(content) >= MinSize {
			w := e.compress(&b)
			if _, err := w.Write(content); err != nil {
				return written, err
			}
			if err := w.Close(); err != nil {
				return written, err
			}
		}
		if b.Len() == 0 || b.Len() >= len(content) {
			if err := os.Remove(dst); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return written, err
			}
			continue
		}
		if err := writeAtomic(dst, b.Bytes(), info); err != nil {
			return written, err
		}
		written++
	}
	return written, nil
}

// holds reports whether the copy at dst decompresses to content.
func holds(dst string, e Encoding, content []byte) bool {
	f, err := os.Open(dst)
	if err != nil {
		return false
	}
	defer f.Close()
	r, err := e.decompress(f)
	if err != nil {
		return false
	}
	got, err := io.ReadAll(io.LimitReader(r, int64(len(content))+1))
	return err == nil && bytes.Equal(got, content)
}

// writeAtomic writes b to dst with the time of info, through a file
// beside it that is renamed into place: a server never reads half a
// copy, nor a whole one with the wrong time.
func writeAtomic(dst string, b []byte, info fs.FileInfo) error {
	tmp, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	if e := tmp.Close(); err == nil {
		err = e
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Chtimes(tmp.Name(), info.ModTime(), info.ModTime())
	}
	if err == nil {
		err = os.Rename(tmp.Name(), dst)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// Accepted returns the encodings an Accept-Encoding header allows, the
// most preferred first (by q, then in the order of Encodings). An
// encoding is allowed when it is named with a q above 0, or * is and it
// is not named.
func Accepted(header string) []Encoding {
	q := map[string]float64{}
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		if name == "x-gzip" {
			name = "gzip"
		}
		weight := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				w, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil || w < 0 || w > 1 {
					w = 0 // unreadable: not taken as a yes
				}
				weight = w
			}
		}
		q[name] = weight
	}
	var out []Encoding
	weights := map[string]float64{}
	for _, e := range Encodings {
		w, named := q[e.Name]
		if !named {
			w = q["*"]
		}
		if w > 0 {
			out = append(out, e)
			weights[e.Name] = w
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return weights[out[i].Name] > weights[out[j].Name] })
	return out
}
