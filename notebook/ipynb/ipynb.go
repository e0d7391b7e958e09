// Package ipynb writes a lesson as a Jupyter notebook (nbformat 4.5) that
// runs top to bottom in Python with real PyTorch: the lesson's prose as
// Markdown cells, its code cells as code, its quizzes as Markdown (with the
// learner's answer, where there is one), and each exercise as its code
// followed by a cell of its hidden tests. The notebook's first code cell
// defines Gradbook's built-ins in Python: gradbook.py, embedded here, is
// the one copy of them.
package ipynb

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"gradbook/notebook/block"
	"gradbook/notebook/lesson"
)

// Module is gradbook.py: Gradbook's built-ins in Python.
//
//go:embed gradbook.py
var Module string

// Work is what a learner has done in a lesson, by cell id: the code of
// each code cell or exercise as it is now, and each quiz's answer. A cell
// missing from it has the lesson's own code.
type Work struct {
	Code    map[string]string
	Answers map[string]string
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
}

// Cell is one cell of a notebook: Markdown, or code to run.
type Cell struct {
	ID       string
	Markdown bool
	Source   string
	Hidden   bool // the source starts folded (the built-ins' cell)
}

// Of writes lesson l as a notebook, with the learner's work w.
func Of(l *lesson.Lesson, w Work, o Options) (*Notebook, error) {
	nb := &Notebook{Title: l.Title}
	nb.add(Cell{ID: "gradbook-about", Markdown: true, Source: fmt.Sprintf(
		"*Exported from Gradbook's lesson “%s”.* The next cell defines Gradbook's built-ins "+
			"(`Value`, `check`, `grad_check`, `show`, …) in Python, so that the lesson's cells run here as they do in the page; "+
			"drawings become tables. Run the cells from the top.", l.Title)})
	nb.add(Cell{ID: "gradbook-builtins", Source: "# Gradbook's built-ins in Python (gradbook.py)\n" + Module, Hidden: true})
	for i, p := range l.Parts() {
		if p.Cell == nil {
			nb.add(Cell{ID: fmt.Sprintf("prose-%d", i), Markdown: true, Source: p.Prose})
			continue
		}
		c := p.Cell
		switch c.Kind {
		case "python":
			src := c.Source
			if mine, ok := w.Code[c.ID]; ok {
				src = mine
			}
			nb.add(Cell{ID: c.ID, Source: Python(src)})
		case "exercise":
			x, err := block.ParseExercise(c.ID, c.Source)
			if err != nil {
				return nil, fmt.Errorf("%s: exercise %s: %w", l.Slug, c.ID, err)
			}
			nb.exercise(x, w, o)
		case "quiz":
			q, err := block.ParseQuiz(c.ID, c.Source)
			if err != nil {
				return nil, fmt.Errorf("%s: quiz %s: %w", l.Slug, c.ID, err)
			}
			nb.add(Cell{ID: c.ID, Markdown: true, Source: quizMarkdown(q, w.Answers[c.ID])})
		case "explore":
			x, err := block.ParseExplore(c.ID, c.Source)
			if err != nil {
				return nil, fmt.Errorf("%s: explore %s: %w", l.Slug, c.ID, err)
			}
			nb.add(Cell{ID: c.ID, Markdown: true, Source: exploreMarkdown(x)})
		default:
			return nil, fmt.Errorf("%s: cell %s: a %s block has no notebook form", l.Slug, c.ID, c.Kind)
		}
	}
	return nb, nil
}

func (nb *Notebook) add(c Cell) { nb.Cells = append(nb.Cells, c) }

// exercise adds an exercise: its code (the learner's, or the starter and,
// when solved, the solution) and then its hidden tests, each in a function
// of its own so that what a test defines stays inside it.
func (nb *Notebook) exercise(x *block.Exercise, w Work, o Options) {
	code := x.Starter
	if mine, ok := w.Code[x.ID]; ok {
		code = mine
	} else if o.Solved && x.Solution != "" {
		code = x.Starter + "\n\n" + x.Solution
	}
	nb.add(Cell{ID: x.ID, Source: Python(code)})
	var t strings.Builder
	t.WriteString("# The exercise's hidden tests: each prints ✓ and its name, or stops at the first that fails.\n")
	switch x.Check {
	case "":
	case "backward":
		fmt.Fprintf(&t, "_gradbook_checker(\"backward\", globals(), %s)\n", backwardCases())
	default:
		fmt.Fprintf(&t, "_gradbook_checker(%q, globals())\n", x.Check)
	}
	for i, test := range x.Tests {
		fmt.Fprintf(&t, "\ndef _test_%d():\n", i+1)
		for _, line := range strings.Split(Python(test.Code), "\n") {
			if strings.TrimSpace(line) == "" {
				t.WriteString("\n")
				continue
			}
			t.WriteString("    " + line + "\n")
		}
		fmt.Fprintf(&t, "_gradbook_test(%q, _test_%d)\n", test.Name, i+1)
	}
	nb.add(Cell{ID: x.ID + "-tests", Source: strings.TrimRight(t.String(), "\n")})
}

// quizMarkdown writes a quiz as the page asks it, with the learner's
// answer where there is one; the right answer is not given away.
func quizMarkdown(q *block.Quiz, answer string) string {
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
	if answer != "" {
		b.WriteString("\n*Your answer:* " + oneLine(answer) + "\n")
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
// each cell as a list of lines.
func Write(w io.Writer, nb *Notebook) error {
	out := struct {
		Cells         []any          `json:"cells"`
		Metadata      map[string]any `json:"metadata"`
		NBFormat      int            `json:"nbformat"`
		NBFormatMinor int            `json:"nbformat_minor"`
	}{
		Cells: []any{},
		Metadata: map[string]any{
			"kernelspec":    map[string]string{"name": "python3", "display_name": "Python 3", "language": "python"},
			"language_info": map[string]string{"name": "python"},
			"title":         nb.Title,
		},
		NBFormat: 4, NBFormatMinor: 5,
	}
	for _, c := range nb.Cells {
		md := map[string]any{}
		if c.Hidden {
			md["jupyter"] = map[string]bool{"source_hidden": true}
		}
		if c.Markdown {
			out.Cells = append(out.Cells, markdownCell{"markdown", c.ID, md, lines(c.Source)})
		} else {
			out.Cells = append(out.Cells, codeCell{"code", c.ID, md, lines(c.Source), nil, []any{}})
		}
	}
	e := json.NewEncoder(w)
	e.SetIndent("", " ")
	e.SetEscapeHTML(false)
	return e.Encode(out)
}

type markdownCell struct {
	CellType string         `json:"cell_type"`
	ID       string         `json:"id"`
	Metadata map[string]any `json:"metadata"`
	Source   []string       `json:"source"`
}

// codeCell is a code cell never run: a null execution count, no outputs.
type codeCell struct {
	CellType       string         `json:"cell_type"`
	ID             string         `json:"id"`
	Metadata       map[string]any `json:"metadata"`
	Source         []string       `json:"source"`
	ExecutionCount *int           `json:"execution_count"`
	Outputs        []any          `json:"outputs"`
}

// lines splits s as nbformat keeps a cell's source: lines, each but the
// last ending in its newline.
func lines(s string) []string {
	if s == "" {
		return []string{}
	}
	parts := strings.SplitAfter(s, "\n")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}
