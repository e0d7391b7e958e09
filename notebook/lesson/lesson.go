// Package lesson reads lesson files and renders them to HTML pages. It is
// used when the site is built, never in the browser: goldmark stays out of
// the wasm.
//
// # The lesson format
//
// A lesson is one Markdown file (CommonMark) in site/lessons. It may start
// with front matter between two lines of three dashes:
//
//	---
//	title: Reverse accumulation
//	summary: Walk a graph backwards and add up every path.
//	minutes: 15
//	order: 2
//	---
//
// The title defaults to the first heading; lessons are listed by order,
// then file name. The file name, without .md, is the lesson's address and
// the key of its saved progress. "moved-from: <file name>" says that some
// of this lesson's cells were in that lesson before: their saved progress
// follows them, by id. "renamed-from: <file name>, …" says that the lesson
// had those file names before: its saved progress follows it, its old
// address leads to the new page, and course pages that embed its cells by
// an old name still find them. "passing-score: 80%" is the score at which
// the lesson is passed in an LMS (a SCORM package, see WriteSCORM).
//
// Prose is Markdown. Raw HTML is not rendered, and links may only use
// http, https, mailto or relative addresses. Write math in Unicode
// (∂L/∂w = 2·u·b, x², Σ); LaTeX is not rendered.
//
// A fenced code block whose info string names a cell kind is a cell:
//
//	```python id=worked
//	a = Value(2.0, "a")
//	```
//
// The kinds are in the kinds table: python is a code cell; quiz, explore
// and exercise blocks are described in package block (Quiz, Explore,
// Exercise): text divided by "--- section" lines. An exercise's hidden
// tests are "--- test" sections in the cell language; its starter code
// must fail them and its solution pass them. An id
// gives the cell a stable name (letters, digits, - and _); without one a
// cell is called after the lesson and its position, e.g. chain-rule-3.
// Other fenced blocks are shown as code.
package lesson

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"gradbook/internal/words"
	"gradbook/notebook/block"
)

// Lesson is a parsed lesson file.
type Lesson struct {
	Slug    string // file name without .md
	Title   string
	Summary string
	Minutes int
	Order   int
	// MovedFrom names the lesson some of this lesson's cells were in
	// before: their saved progress follows them here, by id.
	MovedFrom string
	// RenamedFrom are the lesson's earlier file names, without .md.
	RenamedFrom []string
	// PassingScore is the score, from 0 to 1, at which an LMS counts the
	// lesson passed (front matter passing-score: 80%); 0 for none.
	PassingScore float64
	// File is the lesson's file, as LoadDir found it, for messages.
	File string
	// Problem is why the file could not be read, for a lesson that Load
	// kept so that its page can say so (live preview).
	Problem  *Error
	bodyLine int    // the lines before the Markdown body: the front matter
	markdown []byte // the Markdown body, for Parts
	Cells    []*Cell
	Body     string // the rendered HTML of the prose and cells
}

// Code returns the sources of the lesson's code cells in order, as Run
// all runs them: all of them, or up to and including the cell upTo.
func (l *Lesson) Code(upTo string) []string {
	var srcs []string
	for _, c := range l.Cells {
		if c.Kind != "python" {
			continue
		}
		srcs = append(srcs, c.Source)
		if c.ID == upTo {
			break
		}
	}
	return srcs
}

// Cell is one cell of a lesson.
type Cell struct {
	ID     string
	Kind   string
	Attrs  map[string]string // the info string's key=value pairs
	Source string
	Index  int // position among the lesson's cells, from 0
	Line   int // the line of its opening fence in the lesson's file
	Number int // position among the lesson's code cells, from 1 (0 if not code)

	heading *ast.Heading // the heading an exercise is the only exercise under, which names it
	// from and to are where the cell's fenced block lies in the lesson's
	// Markdown body, from the start of its opening fence's line to the end
	// of its closing fence's: what lies between two cells is prose.
	from, to int
}

// headingID is the id of the heading that names the cell, once the page's
// ids are settled (headingIDs), or "".
func (c *Cell) headingID() string {
	if c.heading == nil {
		return ""
	}
	if id, ok := c.heading.AttributeString("id"); ok {
		if b, ok := id.([]byte); ok {
			return string(b)
		}
	}
	return ""
}

// kinds renders the cells of each kind, named by the first word of a
// fenced block's info string. A new block kind is a parser with an HTML
// method in package notebook and a line here.
var kinds = map[string]func(c *Cell) (string, error){
	"python":  func(c *Cell) (string, error) { return block.CodeCellHTML(c.ID, c.Number, c.Source), nil },
	"quiz":    func(c *Cell) (string, error) { return parsed(block.ParseQuiz(c.ID, c.Source)) },
	"explore": func(c *Cell) (string, error) { return parsed(block.ParseExplore(c.ID, c.Source)) },
	"exercise": func(c *Cell) (string, error) {
		x, err := block.ParseExercise(c.ID, c.Source)
		if err != nil {
			return "", err
		}
		x.Heading = c.headingID()
		return x.HTML(), nil
	},
}

func parsed[T interface{ HTML() string }](x T, err error) (string, error) {
	if err != nil {
		return "", err
	}
	return x.HTML(), nil
}

// frontMatterKeys are the keys a lesson's front matter may have.
var frontMatterKeys = []string{"title", "summary", "minutes", "order", "moved-from", "renamed-from", "passing-score"}

var (
	idRE   = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)
	slugRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*$`)
)

// Parse reads a lesson from its file name's slug and its text.
func Parse(slug string, src []byte) (*Lesson, error) {
	l := &Lesson{Slug: slug}
	body, err := l.frontMatter(src)
	if err != nil {
		return nil, err
	}
	if err := l.plausible(body); err != nil {
		return nil, err
	}
	md := goldmark.New(
		goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Typographer),
		goldmark.WithParserOptions(parser.WithAutoHeadingID(), parser.WithASTTransformers(util.Prioritized(linkFilter{}, 100))),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(&cellRenderer{l: l}, 100), util.Prioritized(foldRenderer{}, 100))),
	)
	doc := md.Parser().Parse(text.NewReader(body))
	// Collect the cells and the title before rendering.
	var heading *ast.Heading // the last heading so far
	err = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			heading = n
			if l.Title == "" && n.Level == 1 {
				l.Title = string(plainText(n, body))
			}
		case *ast.FencedCodeBlock:
			kind, attrs := info(n, body)
			line := l.fenceLine(n, body)
			if _, ok := kinds[kind]; !ok {
				if near := nearKind(kind); near != "" || attrs["id"] != "" {
					msg := fmt.Sprintf("unknown block kind %q (known: python, quiz, explore, exercise)", kind)
					if near != "" {
						msg = fmt.Sprintf("unknown block kind %q: did you mean %s?", kind, near)
					}
					return ast.WalkStop, &Error{Line: line, Msg: msg}
				}
				return ast.WalkContinue, nil
			}
			c := &Cell{Kind: kind, Attrs: attrs, Index: len(l.Cells), ID: attrs["id"], Line: line}
			c.from, c.to = fenceSpan(n, body)
			if kind == "exercise" {
				c.heading = heading
			}
			var src bytes.Buffer
			for i := 0; i < n.Lines().Len(); i++ {
				seg := n.Lines().At(i)
				src.Write(seg.Value(body))
			}
			c.Source = strings.TrimRight(src.String(), "\n")
			if kind == "python" {
				c.Number = 1
				for _, p := range l.Cells {
					if p.Kind == "python" {
						c.Number++
					}
				}
			}
			if c.ID == "" {
				c.ID = fmt.Sprintf("%s-%d", slug, c.Index+1)
			} else if !idRE.MatchString(c.ID) {
				return ast.WalkStop, &Error{Line: line, Msg: fmt.Sprintf("id %q: use letters, digits, - and _, starting with a letter", c.ID)}
			}
			for _, p := range l.Cells {
				if p.ID == c.ID {
					return ast.WalkStop, &Error{Line: line, Msg: fmt.Sprintf("id %q is used twice (first at line %d)", c.ID, p.Line)}
				}
			}
			l.Cells = append(l.Cells, c)
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		return nil, err
	}
	if l.Title == "" {
		return nil, &Error{Line: 1, Msg: "no title: add title: to the front matter or a # heading"}
	}
	// An exercise is named by its heading only where it is the one
	// exercise under it: two would share the name.
	under := map[*ast.Heading]int{}
	for _, c := range l.Cells {
		if c.heading != nil {
			under[c.heading]++
		}
	}
	for _, c := range l.Cells {
		if under[c.heading] > 1 {
			c.heading = nil
		}
	}
	l.headingIDs(doc)
	if err := l.foldPredictions(doc, body); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := md.Renderer().Render(&out, body, doc); err != nil {
		var e *Error
		if errors.As(err, &e) {
			return nil, e
		}
		return nil, &Error{Line: 1, Msg: err.Error()}
	}
	l.Body = out.String()
	l.markdown = body
	return l, nil
}

// A Part is a stretch of a lesson in its order: either prose, as the
// Markdown the lesson's file has it, or a cell.
type Part struct {
	Prose string
	Cell  *Cell
}

// Parts returns the lesson as its file has it, prose and cells in turn;
// prose that is only blank lines is left out. It is the lesson's source
// for what is not a page: a notebook of another system, for instance.
func (l *Lesson) Parts() []Part {
	var parts []Part
	prose := func(b []byte) {
		if s := strings.Trim(string(b), "\n"); strings.TrimSpace(s) != "" {
			parts = append(parts, Part{Prose: s})
		}
	}
	at := 0
	for _, c := range l.Cells {
		prose(l.markdown[at:c.from])
		parts = append(parts, Part{Cell: c})
		at = c.to
	}
	prose(l.markdown[at:])
	return parts
}

// fenceSpan returns where a fenced block lies in body: from the start of
// its opening fence's line to the end of its closing fence's line (or of
// body, where the block runs to its end unclosed).
func fenceSpan(n *ast.FencedCodeBlock, body []byte) (from, to int) {
	open := 0
	if n.Info != nil {
		open = n.Info.Segment.Start
	} else if n.Lines().Len() > 0 {
		open = n.Lines().At(0).Start - 1
	}
	from = bytes.LastIndexByte(body[:open], '\n') + 1
	// The content starts on the line after the opening fence, and the
	// closing fence is the line after the content.
	after := bytes.IndexByte(body[open:], '\n')
	if after < 0 {
		return from, len(body)
	}
	close := open + after + 1
	if k := n.Lines().Len(); k > 0 {
		close = n.Lines().At(k - 1).Stop
	}
	if close >= len(body) {
		return from, len(body)
	}
	end := bytes.IndexByte(body[close:], '\n')
	if end < 0 {
		return from, len(body)
	}
	return from, close + end + 1
}

// linkFilter keeps the address of a link or image only where allowedURL
// says so; any other keeps its text (an image its alt text) and loses its
// address.
type linkFilter struct{}

func (linkFilter) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	src := reader.Source()
	var refused []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			if !allowedURL(string(n.Destination)) {
				refused = append(refused, n)
			}
		case *ast.Image:
			if !allowedURL(string(n.Destination)) {
				refused = append(refused, n)
			}
		case *ast.AutoLink:
			if !allowedURL(string(n.URL(src))) {
				refused = append(refused, n)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, n := range refused {
		parent := n.Parent()
		if a, ok := n.(*ast.AutoLink); ok {
			parent.ReplaceChild(parent, n, ast.NewString(a.Label(src)))
			continue
		}
		for c := n.FirstChild(); c != nil; {
			next := c.NextSibling()
			parent.InsertBefore(parent, n, c)
			c = next
		}
		parent.RemoveChild(parent, n)
	}
}

// AllowedSchemes are the only schemes a lesson's links and images may
// use; relative addresses (a path, ?query or #fragment) are allowed too.
var AllowedSchemes = []string{"http", "https", "mailto"}

// allowedURL reports whether a lesson may link to u: one of
// AllowedSchemes, or a relative address, but not //host (nor /\host,
// which browsers read the same way). u is judged as the browser will read
// it: after Markdown's escapes and character references are decoded
// (&#47; is /), and without the tabs and newlines that browsers drop.
func allowedURL(u string) bool {
	u = asBrowserReads(u)
	if len(u) >= 2 && strings.ContainsRune(`/\`, rune(u[0])) && strings.ContainsRune(`/\`, rune(u[1])) {
		return false
	}
	i := strings.IndexAny(u, ":/?#")
	if i < 0 || u[i] != ':' {
		return true // no scheme: relative
	}
	return slices.Contains(AllowedSchemes, strings.ToLower(u[:i]))
}

// asBrowserReads decodes a link's destination as the page will carry it
// and the browser read it: backslash escapes, numeric and named character
// references (twice over, to be strict), tabs and newlines removed, and
// leading and trailing controls and spaces trimmed, as URL parsing does.
func asBrowserReads(dest string) string {
	b := util.UnescapePunctuations([]byte(dest))
	b = util.ResolveNumericReferences(b)
	b = util.ResolveEntityNames(b)
	u := html.UnescapeString(string(b))
	u = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, u)
	return strings.TrimFunc(u, func(r rune) bool { return r <= ' ' })
}

func plainText(n ast.Node, src []byte) []byte {
	var b bytes.Buffer
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			if t, ok := c.(*ast.Text); ok {
				b.Write(t.Segment.Value(src))
			}
			if s, ok := c.(*ast.String); ok {
				b.Write(s.Value)
			}
		}
		return ast.WalkContinue, nil
	})
	return b.Bytes()
}

// info splits a fenced block's info string into its kind and attributes:
// "python id=worked" or "python {#worked}".
func info(n *ast.FencedCodeBlock, src []byte) (string, map[string]string) {
	attrs := map[string]string{}
	if n.Info == nil {
		return "", attrs
	}
	fields := strings.Fields(string(n.Info.Segment.Value(src)))
	if len(fields) == 0 {
		return "", attrs
	}
	for _, f := range fields[1:] {
		f = strings.Trim(f, "{}")
		if strings.HasPrefix(f, "#") {
			attrs["id"] = f[1:]
			continue
		}
		if k, v, ok := strings.Cut(f, "="); ok {
			attrs[k] = strings.Trim(v, `"'`)
		} else if f == "predict" {
			attrs[f] = "" // a flag
		}
	}
	return fields[0], attrs
}

func (l *Lesson) frontMatter(src []byte) ([]byte, error) {
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	if !bytes.HasPrefix(src, []byte("---\n")) {
		return src, nil
	}
	end := bytes.Index(src[4:], []byte("\n---\n"))
	if end < 0 {
		return nil, &Error{Line: 1, Msg: "front matter: no closing --- line"}
	}
	for i, line := range strings.Split(string(src[4:4+end]), "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			return nil, &Error{Line: i + 2, Msg: fmt.Sprintf("front matter: want key: value, got %q", line)}
		}
		v = strings.Trim(strings.TrimSpace(v), `"`)
		switch strings.TrimSpace(k) {
		case "title":
			l.Title = v
		case "summary":
			l.Summary = v
		case "moved-from":
			if !slugRE.MatchString(v) {
				return nil, &Error{Line: i + 2, Msg: fmt.Sprintf("front matter: moved-from names a lesson by its file name without .md, got %q", v)}
			}
			l.MovedFrom = v
		case "renamed-from":
			for _, name := range strings.Split(v, ",") {
				name = strings.TrimSpace(name)
				if !slugRE.MatchString(name) || name == l.Slug {
					return nil, &Error{Line: i + 2, Msg: fmt.Sprintf("front matter: renamed-from lists the lesson's earlier file names without .md, separated by commas, got %q", v)}
				}
				l.RenamedFrom = append(l.RenamedFrom, name)
			}
		case "passing-score":
			p, err := ParsePassingScore(v)
			if err != nil {
				return nil, &Error{Line: i + 2, Msg: "front matter: passing-score: " + err.Error()}
			}
			l.PassingScore = p
		case "minutes", "order":
			n, err := strconv.Atoi(v)
			if err != nil {
				return nil, &Error{Line: i + 2, Msg: fmt.Sprintf("front matter: %s must be a whole number, got %q", k, v)}
			}
			if k == "minutes" {
				l.Minutes = n
			} else {
				l.Order = n
			}
		default:
			return nil, &Error{Line: i + 2, Msg: fmt.Sprintf("front matter: unknown key %q (known: %s)", k, strings.Join(frontMatterKeys, ", "))}
		}
	}
	l.bodyLine = bytes.Count(src[:4+end+5], []byte("\n"))
	return src[4+end+5:], nil
}

// ParsePassingScore reads a passing score as a percentage ("80%", or
// "80"), more than 0 and at most 100, and returns it from 0 to 1.
func ParsePassingScore(s string) (float64, error) {
	p, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%")), 64)
	if err != nil || !(p > 0 && p <= 100) {
		return 0, fmt.Errorf("want a percentage of the lesson's score, more than 0 and at most 100, such as 80%%; got %q", s)
	}
	return p / 100, nil
}

// headingIDs keeps the headings' ids apart from the cells': a heading
// "Exercise: find the bug" would otherwise take the id of the exercise
// find-the-bug, and a link or a test would find two elements.
func (l *Lesson) headingIDs(doc ast.Node) {
	taken := map[string]bool{}
	for _, c := range l.Cells {
		for _, prefix := range []string{"cell-", "exercise-", "quiz-", "explore-"} {
			taken[prefix+c.ID] = true
		}
	}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering {
			if id, ok := h.AttributeString("id"); ok {
				if b, ok := id.([]byte); ok && taken[string(b)] {
					h.SetAttributeString("id", append(b, "-heading"...))
				}
			}
		}
		return ast.WalkContinue, nil
	})
}

// cellRenderer renders fenced blocks that are cells with their kind, and
// other fenced blocks as escaped code.
type cellRenderer struct {
	l    *Lesson
	next int
}

func (r *cellRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, r.render)
}

func (r *cellRenderer) render(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	fb := n.(*ast.FencedCodeBlock)
	kind, _ := info(fb, src)
	if k, ok := kinds[kind]; ok && r.next < len(r.l.Cells) {
		c := r.l.Cells[r.next]
		r.next++
		out, err := k(c)
		if err != nil {
			return ast.WalkStop, c.errorAt(err)
		}
		w.WriteString(out)
		return ast.WalkSkipChildren, nil
	}
	w.WriteString("<pre><code>")
	for i := 0; i < fb.Lines().Len(); i++ {
		seg := fb.Lines().At(i)
		w.WriteString(html.EscapeString(string(seg.Value(src))))
	}
	w.WriteString("</code></pre>\n")
	return ast.WalkSkipChildren, nil
}

// Items lists what counts towards the lesson's completion, as progress
// records name them ("quiz/x-plus-x", "exercise/write-backward",
// "task/linear:db"): what the learner answers, solves or does. Running a
// cell is not an item: a cell runs by itself.
func (l *Lesson) Items() []string {
	var items []string
	for _, c := range l.Cells {
		switch c.Kind {
		case "quiz", "exercise":
			items = append(items, c.Kind+"/"+c.ID)
		case "explore":
			if e, err := block.ParseExplore(c.ID, c.Source); err == nil {
				for _, t := range e.Tasks {
					items = append(items, "task/"+c.ID+":"+t.ID)
				}
			}
		}
	}
	return items
}

// Records lists every record the lesson's learners may have, its cells'
// code with its items: they follow the lesson when it is renamed, and its
// cells when they move.
func (l *Lesson) Records() []string {
	var recs []string
	for _, c := range l.Cells {
		if c.Kind == "python" {
			recs = append(recs, "cell/"+c.ID)
		}
	}
	return append(recs, l.Items()...)
}

// LoadDir parses every lesson file in dir, sorted by order then slug.
func LoadDir(dir string) ([]*Lesson, error) {
	return LoadDirs(dir)
}

// LoadDirs parses every lesson file in the folders, sorted by order then
// slug, and stops at the first problem (see Load). Two lessons of the same
// file name are an error: the name is the lesson's address and the key of
// its saved progress.
func LoadDirs(dirs ...string) ([]*Lesson, error) {
	lessons, problems := Load(dirs...)
	if len(problems) > 0 {
		return nil, problems[0]
	}
	return lessons, nil
}

// Load is LoadDirs for a server that must go on: a file that does not
// parse becomes a lesson whose Problem says why (its page shows it), and
// every problem is returned too.
func Load(dirs ...string) ([]*Lesson, []*Error) {
	var lessons []*Lesson
	var problems []*Error
	where := map[string]string{}
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.md"))
		if err == nil {
			_, err = os.Stat(dir)
		}
		switch {
		case errors.Is(err, fs.ErrNotExist):
			problems = append(problems, &Error{File: dir, Msg: "no such lessons folder"})
			continue
		case err != nil:
			problems = append(problems, &Error{File: dir, Msg: "cannot read this lessons folder: " + err.Error()})
			continue
		case len(files) == 0:
			problems = append(problems, &Error{File: dir, Msg: "no lesson files (*.md) in this folder"})
		}
		for _, f := range files {
			slug := strings.TrimSuffix(filepath.Base(f), ".md")
			if why := irregular(f); why != "" {
				problems = append(problems, &Error{File: f, Msg: why + ": skipped"})
				continue
			}
			l, err := LoadFile(f)
			if err == nil {
				if other, ok := where[l.Slug]; ok {
					err = &Error{File: f, Line: 1, Msg: fmt.Sprintf("a lesson named %s is also in %s: lessons are addressed by file name, so each needs its own", l.Slug, other)}
				}
			}
			if err != nil {
				var e *Error
				if !errors.As(err, &e) {
					e = &Error{File: f, Msg: err.Error()}
				}
				problems = append(problems, e)
				if !slugRE.MatchString(slug) || where[slug] != "" {
					continue // no page of its own to show it on
				}
				l = &Lesson{Slug: slug, File: f, Title: slug + " (has an error)", Order: math.MaxInt, Problem: e}
			}
			where[l.Slug] = f
			lessons = append(lessons, l)
		}
	}
	// An earlier name leads to one lesson, and is no lesson's name now.
	renamed := map[string]*Lesson{}
	for _, l := range lessons {
		for _, old := range l.RenamedFrom {
			switch other, ok := renamed[old]; {
			case where[old] != "":
				problems = append(problems, &Error{File: l.File, Line: 1, Msg: fmt.Sprintf("renamed-from: %s is the name of a lesson in %s", old, where[old])})
			case ok:
				problems = append(problems, &Error{File: l.File, Line: 1, Msg: fmt.Sprintf("renamed-from: %s was %s's name too (%s)", old, other.Slug, other.File)})
			default:
				renamed[old] = l
			}
		}
	}
	sortLessons(lessons)
	return lessons, problems
}

func sortLessons(lessons []*Lesson) {
	sort.SliceStable(lessons, func(i, j int) bool {
		if lessons[i].Order != lessons[j].Order {
			return lessons[i].Order < lessons[j].Order
		}
		return lessons[i].Slug < lessons[j].Slug
	})
}

// irregular says what f is if it is not a regular file (a symbolic link
// could publish any file of the machine; reading a FIFO never ends), or "".
func irregular(f string) string {
	st, err := os.Lstat(f)
	switch {
	case err != nil:
		return "cannot be read (" + err.Error() + ")"
	case st.Mode()&fs.ModeSymlink != 0:
		return "a symbolic link, and lessons are read from regular files only"
	case st.Mode()&fs.ModeNamedPipe != 0:
		return "a named pipe, and lessons are read from regular files only"
	case st.IsDir():
		return "a folder, and lessons are read from regular files only"
	case !st.Mode().IsRegular():
		return "not a regular file, and lessons are read from regular files only"
	case st.Size() > MaxFileSize:
		return fmt.Sprintf("%s bytes, more than the %s a lesson file may have", words.Int(int(st.Size())), words.Int(MaxFileSize))
	}
	return ""
}

// MaxFileSize is the largest lesson file read: a lesson is prose and
// code, and a larger file only stalls the build.
const MaxFileSize = 256 << 10

// Limits on the Markdown of a lesson, far above what prose needs, below
// what makes a Markdown parser slow (a parser's work can grow with the
// square of the emphasis, links and nesting a text opens).
const (
	maxDelimiters = 20_000 // * and _ characters
	maxBrackets   = 10_000 // [ characters
	maxNesting    = 32     // lists and quotes inside each other
)

// plausible refuses Markdown that would stall the build.
func (l *Lesson) plausible(body []byte) error {
	delims, brackets := 0, 0
	for _, c := range body {
		switch c {
		case '*', '_':
			delims++
		case '[':
			brackets++
		}
	}
	switch {
	case delims > maxDelimiters:
		return &Error{Line: l.bodyLine + 1, Msg: fmt.Sprintf("the lesson has %s emphasis marks (* and _), more than the %s a lesson may have", words.Int(delims), words.Int(maxDelimiters))}
	case brackets > maxBrackets:
		return &Error{Line: l.bodyLine + 1, Msg: fmt.Sprintf("the lesson has %s brackets ([), more than the %s a lesson may have", words.Int(brackets), words.Int(maxBrackets))}
	}
	inFence := false
	for i, line := range strings.Split(string(body), "\n") {
		t := strings.TrimLeft(line, " \t")
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
		}
		if inFence {
			continue
		}
		// The depth of a line is roughly its indentation in steps of a
		// list item, plus the markers that open lists and quotes on it.
		depth := (len(line) - len(t)) / 2
		for len(t) > 0 {
			switch {
			case t[0] == '>':
				t = strings.TrimLeft(t[1:], " ")
			case len(t) > 1 && strings.ContainsRune("-*+", rune(t[0])) && t[1] == ' ':
				t = strings.TrimLeft(t[2:], " ")
			default:
				t = ""
				continue
			}
			depth++
		}
		if depth > maxNesting {
			return &Error{Line: l.bodyLine + i + 1, Msg: fmt.Sprintf("lists or quotes are nested %d deep here, more than the %d a lesson may have", depth, maxNesting)}
		}
	}
	return nil
}

// parseSafely is Parse, with a panic in the Markdown parser or a block's
// given code turned into the lesson's problem: the live preview's server
// goes on.
func parseSafely(slug string, src []byte) (l *Lesson, err error) {
	defer func() {
		if r := recover(); r != nil {
			l, err = nil, &Error{Line: 1, Msg: fmt.Sprintf("the lesson could not be read: internal error in Gradbook: %v (please report it)", r)}
		}
	}()
	return Parse(slug, src)
}

// LoadFile parses one lesson file; an error names the file and line.
func LoadFile(f string) (*Lesson, error) {
	src, err := os.ReadFile(f)
	if err != nil {
		return nil, err
	}
	slug := strings.TrimSuffix(filepath.Base(f), ".md")
	if !slugRE.MatchString(slug) {
		return nil, &Error{File: f, Line: 1, Msg: "the file name is the lesson's address: use letters, digits, - and _ only"}
	}
	l, err := parseSafely(slug, src)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			e.File = f
			return nil, e
		}
		return nil, fmt.Errorf("%s: %w", f, err)
	}
	l.File = f
	return l, nil
}

// A prediction is a quiz marked predict (```quiz id=x predict): it asks
// for a guess before what follows shows the answer. What follows it, up
// to the next heading or prediction, is folded on the page until the
// quiz is answered or skipped, and Run all stops at it; without scripts
// it is all shown.

// kindFold is the AST node that holds what a prediction folds.
var kindFold = ast.NewNodeKind("Fold")

// fold holds the blocks after a prediction.
type fold struct {
	ast.BaseBlock
	quiz string
}

func (f *fold) Kind() ast.NodeKind { return kindFold }

func (f *fold) Dump(src []byte, level int) { ast.DumpHelper(f, src, level, nil, nil) }

// foldPredictions wraps what follows each prediction in a fold.
func (l *Lesson) foldPredictions(doc ast.Node, src []byte) error {
	isPrediction := func(n ast.Node) (string, bool) {
		fb, ok := n.(*ast.FencedCodeBlock)
		if !ok {
			return "", false
		}
		kind, attrs := info(fb, src)
		_, predict := attrs["predict"]
		return attrs["id"], kind == "quiz" && predict
	}
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		id, ok := isPrediction(n)
		if !ok {
			continue
		}
		if id == "" {
			return &Error{Line: l.fenceLine(n.(*ast.FencedCodeBlock), src), Msg: "a prediction needs an id: ```quiz id=name predict"}
		}
		f := &fold{quiz: id}
		for next := n.NextSibling(); next != nil; next = n.NextSibling() {
			if _, heading := next.(*ast.Heading); heading {
				break
			}
			if _, another := isPrediction(next); another {
				break
			}
			doc.RemoveChild(doc, next)
			f.AppendChild(f, next)
		}
		if f.ChildCount() == 0 {
			return &Error{Line: l.fenceLine(n.(*ast.FencedCodeBlock), src), Msg: "a prediction needs something after it that shows the answer, before the next heading"}
		}
		doc.InsertAfter(doc, n, f)
		n = f
	}
	return nil
}

// foldRenderer renders a fold: a note to answer first (with a button to
// skip), and what it folds.
type foldRenderer struct{}

func (foldRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindFold, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		id := html.EscapeString(n.(*fold).quiz)
		if entering {
			fmt.Fprintf(w, `<div class="%s" id="after-%s" data-prediction="%s"><p class="%s">What follows shows the answer: make your prediction above first, or <button type="button" class="%s" disabled>skip the prediction</button>.</p><div class="%s">`,
				block.ClassFold, id, id, block.ClassFoldWait, block.ClassSkip, block.ClassFoldRest)
		} else {
			w.WriteString("</div></div>\n")
		}
		return ast.WalkContinue, nil
	})
}
