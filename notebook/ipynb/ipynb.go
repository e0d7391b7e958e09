// Package ipynb writes a lesson as a Jupyter notebook (nbformat 4.5) that
// runs top to bottom in Python with real PyTorch: the lesson's prose as
// Markdown cells, its code cells as code, its quizzes as Markdown, and
// each exercise as its code followed by a cell of its hidden tests. The
// notebook's first code cell defines Gradbook's built-ins in Python:
// gradbook.py, embedded here, is the one copy of them. Package fill puts a
// learner's work into a notebook written so.
package ipynb

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"gradbook/internal/jsontext"
	"gradbook/notebook/block"
	"gradbook/notebook/ipynb/fill"
)

// Module is gradbook.py: Gradbook's built-ins in Python.
//
//go:embed gradbook.py
var Module string

// Lesson is what a notebook is written from: a lesson's slug, its front
// matter, and its parts in the order of its file (package lesson's
// Parts).
type Lesson struct {
	Slug, Title, Summary string
	Minutes, Order       int
	MovedFrom            string
	RenamedFrom          []string
	PassingScore         float64 // from 0 to 1; 0 for none
	Parts                []Part
}

// Part is a stretch of a lesson: prose, as Markdown, or a cell (Kind is
// then python, exercise, quiz or explore, Source its block's text, Attrs
// its info string's other key=value pairs and flags, such as predict).
type Part struct {
	Prose            string
	ID, Kind, Source string
	Attrs            map[string]string
}

// Options say how to write a lesson.
type Options struct {
	// Solved fills each exercise with its solution after the starter
	// code, as the lesson checks it, so that the tests after it pass: a
	// notebook that shows the lesson done, and that a test can run.
	Solved bool
}

// Notebook is a Jupyter notebook, nbformat 4.5.
type Notebook struct {
	Cells []Cell
	Title string
	// Lesson is the notebook's metadata.gradbook, for a lesson's: its
	// slug and front matter, so that the import (package
	// ipynb/importer) gives the lesson back.
	Lesson jsontext.Object
}

// Cell is one cell of a notebook: Markdown, or code to run.
type Cell struct {
	ID       string
	Markdown bool
	Source   string
	Hidden   bool // the source starts folded (the built-ins' cell)
	// Gradbook is the cell's metadata.gradbook: what part of the lesson
	// it is ("kind": about, builtins, prose, python, quiz, explore,
	// exercise or tests; "id"; "attrs"; and "source", the block's own
	// text where the cell's does not hold all of it), for the import.
	Gradbook jsontext.Object
}

// Of writes lesson l as a notebook.
func Of(l Lesson, o Options) (*Notebook, error) {
	nb := start(l.Title, fmt.Sprintf("*Exported from Gradbook's lesson “%s”.*", l.Title))
	nb.Lesson = jsontext.Object{{Name: "slug", Value: l.Slug}, {Name: "title", Value: l.Title}}
	if l.Summary != "" {
		nb.Lesson = append(nb.Lesson, jsontext.Member{Name: "summary", Value: l.Summary})
	}
	if l.Minutes != 0 {
		nb.Lesson = append(nb.Lesson, jsontext.Member{Name: "minutes", Value: l.Minutes})
	}
	if l.Order != 0 {
		nb.Lesson = append(nb.Lesson, jsontext.Member{Name: "order", Value: l.Order})
	}
	if l.MovedFrom != "" {
		nb.Lesson = append(nb.Lesson, jsontext.Member{Name: "moved-from", Value: l.MovedFrom})
	}
	if len(l.RenamedFrom) > 0 {
		nb.Lesson = append(nb.Lesson, jsontext.Member{Name: "renamed-from", Value: l.RenamedFrom})
	}
	if l.PassingScore != 0 {
		nb.Lesson = append(nb.Lesson, jsontext.Member{Name: "passing-score", Value: l.PassingScore})
	}
	for i, p := range l.Parts {
		switch p.Kind {
		case "":
			nb.add(Cell{ID: fmt.Sprintf("prose-%d", i), Markdown: true, Source: p.Prose, Gradbook: part("prose", p, false)})
		case "python":
			code := fill.Python(p.Source)
			nb.add(Cell{ID: p.ID, Source: code, Gradbook: part("python", p, code != p.Source)})
		case "exercise":
			x, err := block.ParseExercise(p.ID, p.Source)
			if err != nil {
				return nil, fmt.Errorf("%s: exercise %s: %w", l.Slug, p.ID, err)
			}
			nb.exercise(x, p, o)
		case "quiz":
			q, err := block.ParseQuiz(p.ID, p.Source)
			if err != nil {
				return nil, fmt.Errorf("%s: quiz %s: %w", l.Slug, p.ID, err)
			}
			nb.add(Cell{ID: p.ID, Markdown: true, Source: quizMarkdown(q), Gradbook: part("quiz", p, true)})
		case "explore":
			x, err := block.ParseExplore(p.ID, p.Source)
			if err != nil {
				return nil, fmt.Errorf("%s: explore %s: %w", l.Slug, p.ID, err)
			}
			nb.add(Cell{ID: p.ID, Markdown: true, Source: exploreMarkdown(x), Gradbook: part("explore", p, true)})
		default:
			return nil, fmt.Errorf("%s: cell %s: a %s block has no notebook form", l.Slug, p.ID, p.Kind)
		}
	}
	return nb, nil
}

// part is a cell's metadata.gradbook for p, a part of kind kind; source
// says whether it keeps the block's text, which the cell's own text does
// not hold.
func part(kind string, p Part, source bool) jsontext.Object {
	m := jsontext.Object{{Name: "kind", Value: kind}}
	if p.ID != "" {
		m = append(m, jsontext.Member{Name: "id", Value: p.ID})
	}
	if len(p.Attrs) > 0 {
		names := make([]string, 0, len(p.Attrs))
		for k := range p.Attrs {
			names = append(names, k)
		}
		sort.Strings(names)
		var attrs jsontext.Object
		for _, k := range names {
			attrs = append(attrs, jsontext.Member{Name: k, Value: p.Attrs[k]})
		}
		m = append(m, jsontext.Member{Name: "attrs", Value: attrs})
	}
	if source {
		m = append(m, jsontext.Member{Name: "source", Value: p.Source})
	}
	return m
}

// Scratch is the notebook of the scratch page: the built-ins, then the
// page's cells, which package fill adds.
func Scratch() *Notebook {
	return start("Scratch", "*Exported from Gradbook's scratch page.*")
}

// start begins a notebook: what it is, then Gradbook's built-ins.
func start(title, from string) *Notebook {
	nb := &Notebook{Title: title}
	nb.add(Cell{ID: "gradbook-about", Markdown: true, Gradbook: jsontext.Object{{Name: "kind", Value: "about"}}, Source: from + " The next cell defines Gradbook's built-ins " +
		"(`Value`, `check`, `grad_check`, `show`, …) in Python, so that the cells run here as they do in the page; " +
		"drawings become tables. Run the cells from the top."})
	nb.add(Cell{ID: "gradbook-builtins", Source: "# Gradbook's built-ins in Python (gradbook.py)\n" + Module, Hidden: true, Gradbook: jsontext.Object{{Name: "kind", Value: "builtins"}}})
	return nb
}

func (nb *Notebook) add(c Cell) { nb.Cells = append(nb.Cells, c) }

// exercise adds an exercise: its code (the learner's, or the starter and,
// when solved, the solution) and then its hidden tests, each in a function
// of its own so that what a test defines stays inside it.
func (nb *Notebook) exercise(x *block.Exercise, p Part, o Options) {
	code := x.Starter
	if o.Solved && x.Solution != "" {
		code = x.Starter + "\n\n" + x.Solution
	}
	nb.add(Cell{ID: x.ID + "-before", Source: "# What the exercise defines stays in it, as in the page: the end of its tests puts the notebook's names back.\n_gradbook_exercise()", Hidden: true, Gradbook: jsontext.Object{{Name: "kind", Value: "tests"}, {Name: "id", Value: x.ID}}})
	nb.add(Cell{ID: x.ID, Source: fill.Python(code), Gradbook: part("exercise", p, true)})
	var t strings.Builder
	t.WriteString("# The exercise's hidden tests: each prints ✓ and its name, or stops at the first that fails.\n")
	switch x.Check {
	case "":
	case "backward":
		fmt.Fprintf(&t, "_gradbook_checker(\"backward\", globals(), %s)\n", backwardCases())
	case "layer":
		fmt.Fprintf(&t, "_gradbook_checker(\"layer\", globals(), %s)\n", layerCases())
	default:
		fmt.Fprintf(&t, "_gradbook_checker(%q, globals())\n", x.Check)
	}
	for i, test := range x.Tests {
		fmt.Fprintf(&t, "\ndef _test_%d():\n", i+1)
		for _, line := range strings.Split(fill.Python(test.Code), "\n") {
			if strings.TrimSpace(line) == "" {
				t.WriteString("\n")
				continue
			}
			t.WriteString("    " + line + "\n")
		}
		fmt.Fprintf(&t, "_gradbook_test(%q, _test_%d)\n", test.Name, i+1)
	}
	t.WriteString("\n_gradbook_exercise_done()")
	nb.add(Cell{ID: x.ID + "-tests", Source: t.String(), Gradbook: jsontext.Object{{Name: "kind", Value: "tests"}, {Name: "id", Value: x.ID}}})
}

// quizMarkdown writes a quiz as the page asks it; the right answer is not
// given away. Package fill adds the learner's answer under it.
func quizMarkdown(q *block.Quiz) string {
	var b strings.Builder
	b.WriteString("**Quiz.** " + q.Question + "\n")
	if len(q.Choices) > 0 {
		b.WriteString("\n")
		for _, c := range q.Choices {
			b.WriteString("- " + oneLine(c.Text) + "\n")
		}
	}
	for _, a := range q.Answers {
		if a.Label != "" {
			b.WriteString("\n- " + a.Label + ": …\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// exploreMarkdown writes an explore block's caption and tasks: its
// sliders are the page's.
func exploreMarkdown(x *block.Explore) string {
	var b strings.Builder
	b.WriteString("**Explore** (in Gradbook's page, with sliders). " + x.Caption + "\n")
	for _, t := range x.Tasks {
		b.WriteString("\n- " + oneLine(t.Text))
	}
	return strings.TrimRight(b.String(), "\n")
}

// backwardCases writes the backward checker's hidden graphs as a Python
// list of (name, graph, leaves, twice).
func backwardCases() string {
	var b strings.Builder
	b.WriteString("[")
	for _, c := range block.BackwardCases() {
		fmt.Fprintf(&b, "\n    (%s, [", pyString(c.Name))
		for i, n := range c.Graph {
			if i > 0 {
				b.WriteString(", ")
			}
			ins := make([]string, len(n.Inputs))
			for j, in := range n.Inputs {
				ins[j] = pyString(in)
			}
			fmt.Fprintf(&b, "[%s, %s, [%s]", pyString(n.Name), pyString(n.Op), strings.Join(ins, ", "))
			if n.Op == "pow" {
				b.WriteString(", " + strconv.FormatFloat(n.K, 'g', -1, 64))
			}
			b.WriteString("]")
		}
		b.WriteString("], {")
		names := make([]string, 0, len(c.Leaves))
		for k := range c.Leaves {
			names = append(names, k)
		}
		sort.Strings(names)
		for i, k := range names {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s: %s", pyString(k), strconv.FormatFloat(c.Leaves[k], 'g', -1, 64))
		}
		fmt.Fprintf(&b, "}, %s),", map[bool]string{true: "True", false: "False"}[c.Twice])
	}
	b.WriteString("\n]")
	return b.String()
}

// layerCases writes the layer checker's hidden layers as a Python list
// of (name, neurons, x, x_values).
func layerCases() string {
	floats := func(xs []float64) string {
		s := make([]string, len(xs))
		for i, x := range xs {
			s[i] = strconv.FormatFloat(x, 'g', -1, 64)
		}
		return "[" + strings.Join(s, ", ") + "]"
	}
	var b strings.Builder
	b.WriteString("[")
	for _, c := range block.LayerCases() {
		ns := make([]string, len(c.Neurons))
		for i, n := range c.Neurons {
			ns[i] = floats(n)
		}
		fmt.Fprintf(&b, "\n    (%s, [%s], %s, %s),", pyString(c.Name), strings.Join(ns, ", "), floats(c.X), map[bool]string{true: "True", false: "False"}[c.XValues])
	}
	b.WriteString("\n]")
	return b.String()
}

// pyString writes s as a Python string literal.
func pyString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < ' ':
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Write writes nb as an .ipynb file: nbformat 4.5's JSON, the source of
// each cell as a list of lines, indented for people and diffs.
func Write(w io.Writer, nb *Notebook) error {
	cells := make([]any, len(nb.Cells))
	for i, c := range nb.Cells {
		var md jsontext.Object
		if c.Gradbook != nil {
			md = append(md, jsontext.Member{Name: "gradbook", Value: c.Gradbook})
		}
		if c.Hidden {
			md = append(md, jsontext.Member{Name: "jupyter", Value: jsontext.Object{{Name: "source_hidden", Value: true}}})
		}
		cells[i] = fill.NewCell(c.Markdown, c.ID, c.Source, md)
	}
	meta := jsontext.Object{
		{Name: "kernelspec", Value: jsontext.Object{{Name: "display_name", Value: "Python 3"}, {Name: "language", Value: "python"}, {Name: "name", Value: "python3"}}},
		{Name: "language_info", Value: jsontext.Object{{Name: "name", Value: "python"}}},
		{Name: "title", Value: nb.Title},
	}
	if nb.Lesson != nil {
		meta = append(meta, jsontext.Member{Name: "gradbook", Value: nb.Lesson})
	}
	out := jsontext.Object{
		{Name: "cells", Value: cells},
		{Name: "metadata", Value: meta},
		{Name: "nbformat", Value: 4},
		{Name: "nbformat_minor", Value: 5},
	}
	var b bytes.Buffer
	if err := json.Indent(&b, jsontext.Encode(out), "", " "); err != nil {
		return err
	}
	b.WriteByte('\n')
	_, err := w.Write(b.Bytes())
	return err
}
