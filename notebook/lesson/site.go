package lesson

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strings"
	texttemplate "text/template"

	"gradbook/internal/words"

	"gradbook/notebook/block"
	"gradbook/notebook/cellindex"
	"gradbook/notebook/ipynb"
	"gradbook/notebook/library"
)

//go:embed templates/*.html templates/sw.js templates/starter.md
var templateFiles embed.FS

// fetchWasm is the script that a page with cells carries inline in its
// head, before its stylesheet, to start fetching gradbook.wasm (at the
// script element's data-wasm) before any other file has come: it is most
// of what a first visit downloads, and gradbook.js, at the end of the
// body, takes the response when it starts (gradbookWasm.take). The CSP
// allows it by its hash. It is a plain fetch, read whole by the page that
// made it, not a <link rel=preload>, which in Firefox made a page that a
// service worker controls log that the worker "encountered an unexpected
// error". Its explanation is here rather than in it: every page carries it.
//
//go:embed templates/fetch-wasm.js
var fetchWasm string

var pages = template.Must(template.New("").Funcs(template.FuncMap{
	"join":      strings.Join,
	"csp":       func() string { return CSP },
	"fetchWasm": func() template.JS { return template.JS(fetchWasm) },
}).ParseFS(templateFiles, "templates/*.html"))

// CSP is the site's Content-Security-Policy: scripts only from the site
// itself, and the one inline script, fetchWasm, by its SHA-256 (a test
// checks it is that script's), and WebAssembly. serve.go sends it as a
// header; every page also carries it as a meta element, so a static host
// applies it too.
const CSP = "default-src 'self'; script-src 'self' 'sha256-txba/RLcC8LNZj8mYPDAX+mUTQta7poG5fQgWcfvB7E=' 'wasm-unsafe-eval'; worker-src 'self' blob:; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'none'"

// Build renders the site's pages into dir from lessons: index.html,
// scratch.html, embed.html, cells.json, lessons/<slug>.html for each
// lesson and the data files (data/), and removes the pages of lessons no longer built. live, if not
// 0, is the live preview's generation of these pages (preview.Hub): the
// index and the lesson pages then load serve.go's live preview, which
// reloads them when their file is saved; an exported site never has it.
func Build(dir string, lessons []*Lesson, live int) error {
	write := func(name, tmpl string, data any) error { return writePage(dir, name, tmpl, data) }
	minutes := 0
	for _, l := range lessons {
		minutes += l.Minutes
	}
	if err := write("index.html", "index.html", map[string]any{"Lessons": lessons, "Live": live, "Time": courseTime(minutes)}); err != nil {
		return err
	}
	if err := write("embed.html", "embed.html", nil); err != nil {
		return err
	}
	if err := write("proxy.html", "proxy.html", nil); err != nil {
		return err
	}
	first := template.HTML(block.CodeCellHTML("scratch-1", 1, ""))
	if err := write("scratch.html", "scratch.html", map[string]any{"FirstCell": first}); err != nil {
		return err
	}
	if err := writeNotebook(dir, "scratch.ipynb", ipynb.Scratch()); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "lessons"), 0o755); err != nil {
		return err
	}
	if err := writeLessons(dir, "lessons", lessons, live); err != nil {
		return err
	}
	built := map[string]bool{}
	for _, l := range lessons {
		built[l.Slug+".html"] = true
		// Its earlier addresses lead to it.
		for _, old := range l.RenamedFrom {
			built[old+".html"] = true
			if err := writePage(dir, filepath.Join("lessons", old+".html"), "moved.html", map[string]any{"Root": "../", "Lesson": l}); err != nil {
				return err
			}
		}
	}
	old, _ := filepath.Glob(filepath.Join(dir, "lessons", "*.html"))
	for _, f := range old {
		if !built[filepath.Base(f)] {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	if err := WriteData(dir); err != nil {
		return err
	}
	return writeCells(dir, lessons)
}

// WriteData writes the data files cells read (names() reads
// data/names.txt) to dir/data, beside the pages or notebooks that read
// them, with data/README.txt, which says where each comes from.
func WriteData(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		return err
	}
	for _, name := range library.DataFiles() {
		text, _ := library.DataFile(name)
		if err := os.WriteFile(filepath.Join(dir, "data", name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, "data", "README.txt"), []byte(library.DataReadme()), 0o644)
}

// writeCells writes cells.json: every lesson's code cells by id, so that
// a course page can embed a lesson's cell by reference.
func writeCells(dir string, lessons []*Lesson) error {
	sc := &cellindex.Index{Lessons: map[string]cellindex.Lesson{}, Renamed: map[string]string{}}
	for _, l := range lessons {
		if l.Problem != nil {
			continue
		}
		lc := cellindex.Lesson{Title: l.Title, Cells: map[string]string{}}
		for _, c := range l.Cells {
			if c.Kind == "python" {
				lc.Cells[c.ID] = c.Source
				lc.Order = append(lc.Order, c.ID)
			}
		}
		sc.Lessons[l.Slug] = lc
		for _, old := range l.RenamedFrom {
			sc.Renamed[old] = l.Slug
		}
	}
	// A course page that embeds a cell by the lesson it was in still
	// finds it.
	for _, l := range lessons {
		was := sc.Resolve(l.MovedFrom)
		from, ok := sc.Lessons[was]
		if !ok || was == l.Slug {
			continue
		}
		for _, id := range sc.Lessons[l.Slug].Order {
			if _, stayed := from.Cells[id]; stayed {
				continue
			}
			if from.Moved == nil {
				from.Moved = map[string]string{}
			}
			from.Moved[id] = l.Slug
		}
		sc.Lessons[was] = from
	}
	return os.WriteFile(filepath.Join(dir, "cells.json"), sc.JSON(), 0o644)
}

// BuildFixtures renders the lessons in src into dir/fixtures, unlisted:
// pages for tests, such as a lesson that tries to inject script.
func BuildFixtures(dir, src string) ([]*Lesson, error) {
	lessons, err := LoadDir(src)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(dir, "fixtures"), 0o755); err != nil {
		return nil, err
	}
	return lessons, writeLessons(dir, "fixtures", lessons, 0)
}

// writePage renders template tmpl with data into dir/name.
func writePage(dir, name, tmpl string, data any) error {
	var b bytes.Buffer
	if err := pages.ExecuteTemplate(&b, tmpl, data); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644)
}

// writeLessons renders each lesson into dir/sub/<slug>.html.
func writeLessons(dir, sub string, lessons []*Lesson, live int) error {
	for i, l := range lessons {
		data := map[string]any{
			"Root":   "../",
			"Lesson": l,
			"Body":   template.HTML(l.Body),
			"HasH1":  strings.Contains(l.Body, "<h1"),
			"Prev":   nil,
			"Next":   nil,
			"Live":   live,
		}
		if i > 0 {
			data["Prev"] = lessons[i-1]
		}
		if i+1 < len(lessons) {
			data["Next"] = lessons[i+1]
		}
		if l.Problem == nil {
			nb, err := NotebookOf(l, ipynb.Options{})
			if err != nil {
				return err
			}
			if err := writeNotebook(dir, filepath.Join(sub, l.Slug+".ipynb"), nb); err != nil {
				return err
			}
			data["Notebook"] = l.Slug + ".ipynb"
		}
		if err := writePage(dir, filepath.Join(sub, l.Slug+".html"), "lesson.html", data); err != nil {
			return err
		}
	}
	return nil
}

// WriteStarter writes a starter lesson to path (".md" is added), showing
// every block kind, and returns the file's name. It never overwrites a
// file.
func WriteStarter(path string) (string, error) {
	if !strings.HasSuffix(path, ".md") {
		path += ".md"
	}
	slug := strings.TrimSuffix(filepath.Base(path), ".md")
	if !slugRE.MatchString(slug) {
		return "", fmt.Errorf("%s: a lesson's file name is its address: use letters, digits, - and _ only", path)
	}
	var b bytes.Buffer
	title := strings.ToUpper(slug[:1]) + strings.ReplaceAll(slug[1:], "-", " ")
	t := texttemplate.Must(texttemplate.ParseFS(templateFiles, "templates/starter.md"))
	if err := t.Execute(&b, map[string]string{"Title": title}); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return "", fmt.Errorf("%s: %w (the starter never overwrites a file)", path, err)
	}
	if _, err := f.Write(b.Bytes()); err != nil {
		f.Close()
		return "", err
	}
	return path, f.Close()
}

// courseTime writes the minutes of every lesson for a learner: "about 4
// hours 10 minutes", "about 45 minutes".
func courseTime(minutes int) string {
	h, m := minutes/60, minutes%60
	switch {
	case minutes == 0:
		return ""
	case h == 0:
		return fmt.Sprintf("about %d minutes", m)
	case m == 0:
		return fmt.Sprintf("about %s", words.Count(h, "hour"))
	}
	return fmt.Sprintf("about %s %d minutes", words.Count(h, "hour"), m)
}
