package lesson

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"text/template"

	"gradbook/internal/jsontext"
	"gradbook/internal/precompress"
)

var swTemplate = template.Must(template.ParseFS(templateFiles, "templates/sw.js"))

// published reports whether a file of the built site is part of what is
// served: not lesson sources, test fixtures, the service worker itself or
// the compressed copies of files (gradbook.wasm.br: a browser asks for
// gradbook.wasm, and the host picks the copy its Accept-Encoding allows).
func published(rel string) bool {
	rel = filepath.ToSlash(rel)
	return !strings.HasSuffix(rel, ".md") && !strings.HasPrefix(rel, "fixtures/") && rel != "sw.js" && rel != "_headers" && !strings.HasPrefix(filepath.Base(rel), ".") && !precompress.IsCopy(rel)
}

// Files lists the published files of the built site in dir, sorted, with
// slashes.
func Files(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		if published(rel) {
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

// WriteServiceWorker writes dir/sw.js, which precaches every published
// file of the site under a version that is the hash of their contents,
// and checks each file it fetches against its SHA-256, so that a deploy is
// taken whole or not at all. It returns the version.
func WriteServiceWorker(dir string) (string, error) {
	files, err := Files(dir)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	manifest := make(map[string]any, len(files))
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return "", err
		}
		h.Write([]byte(f))
		h.Write([]byte{0})
		h.Write(b)
		sum := sha256.Sum256(b)
		manifest[f] = hex.EncodeToString(sum[:])
	}
	version := hex.EncodeToString(h.Sum(nil))[:16]
	var b bytes.Buffer
	err = swTemplate.Execute(&b, map[string]string{
		"Version": string(jsontext.AppendString(nil, version)),
		"Files":   string(jsontext.Encode(manifest)),
	})
	if err != nil {
		return "", err
	}
	return version, os.WriteFile(filepath.Join(dir, "sw.js"), b.Bytes(), 0o644)
}

// headers is the _headers file an export carries, which Netlify and
// Cloudflare Pages read: it lets course pages on other sites fetch the
// files embedded cells need (other hosts: see the README). Hosts that do
// not read it ignore it; it is not part of the site's files.
const headers = `# Netlify and Cloudflare Pages read this file. It lets course pages on
# other sites fetch the files that embedded Gradbook cells need
# (gradbook.wasm, cells.json, editor.js, runner.js, wasm_exec.js): every file here is public anyway,
# and says which pages may show Gradbook's in frames (serve.go -frame-ancestors).
/*
  Access-Control-Allow-Origin: *
  Content-Security-Policy: frame-ancestors `

// AnyAncestor is the frame-ancestors of a site whose cells any course
// page may embed in a frame: the default.
const AnyAncestor = "*"

// FrameAncestors checks list as the sources that may show Gradbook's
// pages in a frame, as CSP's frame-ancestors takes them, separated by
// spaces: * (any page: the default), 'self', 'none' (alone), or origins
// with a scheme, http or https (https://course.example.org,
// https://*.example.edu, http://localhost:8000). It returns the list as
// the headers write it, or says what is wrong with it: it goes into a
// header, so nothing else may.
func FrameAncestors(list string) (string, error) {
	fields := strings.Fields(list)
	if len(fields) == 0 {
		return "", errors.New("no source: give *, 'self', 'none' or origins such as https://course.example.org")
	}
	for _, f := range fields {
		switch {
		case f == "*" || f == "'self'":
		case f == "'none'":
			if len(fields) > 1 {
				return "", errors.New("'none' goes alone")
			}
		case !ancestorOrigin.MatchString(f):
			return "", fmt.Errorf("%q is not *, 'self', 'none' or an origin such as https://course.example.org (a scheme, http or https, a host that may start with *., and a port)", f)
		}
	}
	return strings.Join(fields, " "), nil
}

// ancestorOrigin is an origin as frame-ancestors takes it.
var ancestorOrigin = regexp.MustCompile(`^https?://(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:([0-9]{1,5}|\*))?$`)

// Copy copies the published files of the built site in dir to out, each
// with its modification time and with its compressed copies that are
// fresh (see internal/precompress), so that they stay fresh in out.
func Copy(dir, out string) error {
	files, err := Files(dir)
	if err != nil {
		return err
	}
	for _, f := range files {
		src := filepath.Join(dir, filepath.FromSlash(f))
		dst := filepath.Join(out, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		info, err := os.Stat(src)
		if err != nil {
			return err
		}
		if err := copyFile(dst, src, info); err != nil {
			return err
		}
		for _, e := range precompress.Encodings {
			if c, err := os.Stat(src + e.Ext); err == nil && precompress.Fresh(info, c) {
				if err := copyFile(dst+e.Ext, src+e.Ext, c); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// copyFile copies src, as info found it, to dst with its modification
// time.
func copyFile(dst, src string, info fs.FileInfo) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		return err
	}
	return os.Chtimes(dst, info.ModTime(), info.ModTime())
}

// Export copies the published files of the built site in dir to out, with
// a service worker, the _headers file, and a brotli and a gzip copy of
// every file that compresses (gradbook.wasm.br, gradbook.wasm.gz: for
// hosts that serve such copies), ready for any static host under any
// path. ancestors are the pages that may frame it (FrameAncestors').
func Export(dir, out, ancestors string) (string, error) {
	if err := Copy(dir, out); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(out, "_headers"), []byte(headers+ancestors+"\n"), 0o644); err != nil {
		return "", err
	}
	version, err := WriteServiceWorker(out)
	if err != nil {
		return "", err
	}
	if _, err := precompress.Dir(out); err != nil {
		return "", err
	}
	return version, nil
}
