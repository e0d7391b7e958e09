// Package importer is the way back from Jupyter: it turns a notebook
// (nbformat 4) into a lesson file. Markdown cells become prose, code
// cells python cells, and cells tagged exercise, solution, tests or quiz
// (Jupyter cell tags, as nbgrader marks its cells) those blocks; a
// notebook that Gradbook exported (package ipynb) gives its lesson back
// from each cell's metadata.gradbook. Lines Starlark cannot run (import,
// class, with, f-strings, Jupyter's % and ! lines) are problems at their
// line of the lesson written, with the Gradbook way to write them; the
// lesson is written all the same, for the author to mend. It runs at
// build time only (encoding/json: never in the page's wasm).
package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"gradbook/internal/words"
	"gradbook/notebook/block"
	"gradbook/notebook/ipynb/fill"
	"gradbook/notebook/kernel"
	"gradbook/notebook/lesson"
)

// The largest notebook taken: a file of more bytes, or of more cells, is
// refused.
const (
	MaxBytes = 20_000_000
	MaxCells = 10000
)

// Problem is something in the lesson written that the author has to
// mend: its line in the lesson file, and what to do.
type Problem struct {
	Line int
	Msg  string
}

// Lesson is a notebook as a lesson: its file name without .md, the
// lesson file's text, and the problems in it the import found.
type Lesson struct {
	Slug     string
	Markdown []byte
	Problems []Problem
}

// Options say how to import.
type Options struct {
	// Name is the notebook's file name, for messages and, without its
	// .ipynb, the lesson's.
	Name string
	// Order is the lesson's order in its folder, where the notebook does
	// not say (an exported one does).
	Order int
}

// the notebook's JSON, as far as the import reads it.
type notebook struct {
	Cells    []json.RawMessage `json:"cells"`
	NBFormat json.RawMessage   `json:"nbformat"`
	Metadata struct {
		Title    string      `json:"title"`
		Gradbook *lessonMeta `json:"gradbook"`
	} `json:"metadata"`
}

type lessonMeta struct {
	Slug, Title, Summary string
	Minutes, Order       int
	MovedFrom            string   `json:"moved-from"`
	RenamedFrom          []string `json:"renamed-from"`
	PassingScore         float64  `json:"passing-score"`
}

type cell struct {
	Type     string          `json:"cell_type"`
	Source   json.RawMessage `json:"source"`
	Metadata struct {
		Tags     []string  `json:"tags"`
		Gradbook *cellMeta `json:"gradbook"`
		NBGrader *struct {
			Solution bool `json:"solution"`
			Grade    bool `json:"grade"`
		} `json:"nbgrader"`
	} `json:"metadata"`
}

type cellMeta struct {
	Kind   string            `json:"kind"`
	ID     string            `json:"id"`
	Attrs  map[string]string `json:"attrs"`
	Source *string           `json:"source"`
}

// part is a stretch of the lesson: prose, or a block.
type part struct {
	prose string
	kind  string // python, exercise, quiz, explore
	id    string
	attrs map[string]string
	src   string // the block's text, or, for an exercise, its starter
	cell  int    // the notebook's cell, from 1
	// An exercise of a teacher's notebook: its tests and solution.
	tests    []test
	solution string
	// habits are the block's problems, by line in its text (from 1).
	habits []Problem
}

type test struct {
	name, code string
	cell       int
}

// Convert reads a notebook file's bytes as a lesson.
func Convert(data []byte, o Options) (*Lesson, error) {
	name := o.Name
	if name == "" {
		name = "notebook.ipynb"
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: %s", name, fmt.Sprintf(format, args...))
	}
	if len(data) > MaxBytes {
		return nil, fail("%s is more than the %s a notebook may have", words.Bytes(int64(len(data))), words.Bytes(MaxBytes))
	}
	var nb notebook
	if err := json.Unmarshal(data, &nb); err != nil {
		return nil, fail("not a Jupyter notebook: %s", jsonError(data, err))
	}
	if nb.Cells == nil {
		return nil, fail("not a Jupyter notebook: it has no list of cells")
	}
	if v := strings.TrimSpace(string(nb.NBFormat)); v != "4" {
		if v == "" {
			v = "none"
		}
		return nil, fail("nbformat %s, not 4: open it in a recent Jupyter and save it again, which writes nbformat 4", v)
	}
	if len(nb.Cells) > MaxCells {
		return nil, fail("%s, more than the %s a notebook may have", words.Count(len(nb.Cells), "cell"), words.Int(MaxCells))
	}
	c := &converter{ids: map[string]bool{}}
	meta := nb.Metadata.Gradbook
	var ex *part // the last exercise, which solution and tests cells join
	for i, raw := range nb.Cells {
		n := i + 1
		var cl cell
		if err := json.Unmarshal(raw, &cl); err != nil {
			return nil, fail("cell %d: %s", n, jsonError(raw, err))
		}
		src, err := source(cl.Source)
		if err != nil {
			return nil, fail("cell %d: %v", n, err)
		}
		if cl.Type != "markdown" && cl.Type != "code" && cl.Type != "raw" {
			return nil, fail("cell %d: cell_type %q: a notebook's cells are markdown, code or raw", n, cl.Type)
		}
		if g := cl.Metadata.Gradbook; g != nil {
			if err := c.exported(g, src, n); err != nil {
				return nil, fail("cell %d: %v", n, err)
			}
			continue
		}
		if exportedAbout(src) && cl.Type == "markdown" || strings.HasPrefix(src, builtinsLine) && cl.Type == "code" {
			continue // an export's own cells, from before metadata.gradbook
		}
		tag := tagOf(cl.Metadata.Tags)
		if g := cl.Metadata.NBGrader; tag == "" && g != nil && cl.Type == "code" {
			switch {
			case g.Solution:
				tag = "exercise" // nbgrader's autograded answer
			case g.Grade:
				tag = "tests" // nbgrader's autograder tests
			}
		}
		switch {
		case cl.Type == "raw":
			c.note(n, "a raw cell is left out: a lesson has prose and cells")
		case cl.Type == "markdown" && tag == "quiz":
			c.quiz(src, n)
		case cl.Type == "markdown":
			if tag != "" {
				c.note(n, "the tag %s is for a code cell: the cell is prose", tag)
			}
			if strings.TrimSpace(src) != "" {
				c.parts = append(c.parts, &part{prose: strings.Trim(src, "\n"), cell: n})
				c.heading(src)
			}
		case tag == "exercise":
			ex = &part{kind: "exercise", id: c.id(n), src: strings.Trim(src, "\n"), cell: n}
			if starter, solution, ok := solutionRegion(ex.src); ok {
				ex.src, ex.solution = starter, solution
			}
			c.parts = append(c.parts, ex)
		case tag == "solution" || tag == "tests":
			if ex == nil {
				return nil, fail("cell %d is tagged %s, but no cell tagged exercise comes before it", n, tag)
			}
			if tag == "solution" {
				if ex.solution != "" {
					return nil, fail("cell %d is a second solution of the exercise in cell %d: tag one cell solution", n, ex.cell)
				}
				ex.solution = strings.Trim(src, "\n")
			} else {
				ex.tests = append(ex.tests, testOf(dropLines(src, "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"), n))
			}
		default:
			if tag == "quiz" {
				c.note(n, "a quiz is a Markdown cell: this code cell is a python cell")
			}
			if strings.TrimSpace(src) != "" {
				c.parts = append(c.parts, &part{kind: "python", id: c.id(n), src: strings.Trim(src, "\n"), cell: n})
			}
		}
	}
	for _, p := range c.parts {
		if p.kind == "exercise" && p.tests == nil && p.solution == "" && meta == nil && !strings.Contains(p.src, "\n--- ") {
			c.note(p.cell, "the exercise has no cell tagged tests after it: Check has nothing to run")
		}
	}
	slug := slugOf(name)
	l := &Lesson{Slug: slug}
	front := c.front(meta, nb.Metadata.Title, slug, o.Order)
	l.Markdown, l.Problems = c.write(front, name)
	sort.SliceStable(l.Problems, func(i, j int) bool { return l.Problems[i].Line < l.Problems[j].Line })
	return l, nil
}

// builtinsLine begins the export's cell of the built-ins.
const builtinsLine = "# Gradbook's built-ins in Python (gradbook.py)"

func exportedAbout(src string) bool {
	return strings.HasPrefix(src, "*Exported from Gradbook's ")
}

// tagOf returns the one of the import's tags a cell has, or "".
func tagOf(tags []string) string {
	for _, t := range tags {
		switch t := strings.ToLower(strings.TrimSpace(t)); t {
		case "exercise", "solution", "tests", "quiz":
			return t
		case "test":
			return "tests"
		}
	}
	return ""
}

// source reads a cell's source: a string, or a list of strings.
func source(raw json.RawMessage) (string, error) {
	if len(raw) == 0 {
		return "", errors.New("it has no source")
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return strings.ReplaceAll(s, "\r\n", "\n"), nil
	}
	var lines []string
	if err := json.Unmarshal(raw, &lines); err != nil {
		return "", errors.New("its source is neither a string nor a list of strings")
	}
	return strings.ReplaceAll(strings.Join(lines, ""), "\r\n", "\n"), nil
}

// jsonError says where in data a JSON error is, by line and column.
func jsonError(data []byte, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var off int64
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		what := typ.Field
		if what == "" {
			what = "the notebook"
		}
		return fmt.Sprintf("%s is a JSON %s, not what nbformat 4 has there (line %d)", what, typ.Value, bytes.Count(data[:min(int(typ.Offset), len(data))], []byte("\n"))+1)
	default:
		return err.Error()
	}
	before := data[:min(max(int(off)-1, 0), len(data))] // the offset is just after the byte at fault
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("invalid JSON at line %d, column %d: %v", line, col, err)
}

// solutionRegion splits an exercise cell with nbgrader's solution region
// (### BEGIN SOLUTION … ### END SOLUTION) into its starter, where the
// region becomes a fail() at its indentation, as nbgrader's release puts
// raise NotImplementedError() there, and its solution, the whole cell
// without the two lines.
func solutionRegion(src string) (starter, solution string, ok bool) {
	var st []string
	in := false
	for _, line := range strings.Split(src, "\n") {
		switch t := strings.TrimSpace(line); {
		case t == "### BEGIN SOLUTION" && !in:
			in, ok = true, true
			st = append(st, line[:len(line)-len(strings.TrimLeft(line, " \t"))]+`fail("Write your code here.")`)
		case t == "### END SOLUTION" && in:
			in = false
		case !in:
			st = append(st, line)
		}
	}
	if !ok {
		return "", "", false
	}
	return strings.Join(st, "\n"), dropLines(src, "### BEGIN SOLUTION", "### END SOLUTION"), true
}

// dropLines returns src without the lines that are one of marks.
func dropLines(src string, marks ...string) string {
	var out []string
	for _, line := range strings.Split(src, "\n") {
		drop := false
		for _, m := range marks {
			drop = drop || strings.TrimSpace(line) == m
		}
		if !drop {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// testOf is a tests cell as a test: named by its first line where that is
// a comment, else by its cell.
func testOf(src string, n int) test {
	src = strings.Trim(src, "\n")
	name := fmt.Sprintf("the tests of cell %d", n)
	first, _, _ := strings.Cut(src, "\n")
	if c, ok := strings.CutPrefix(strings.TrimSpace(first), "#"); ok && strings.TrimSpace(c) != "" {
		name = strings.TrimSpace(c)
	}
	return test{name: name, code: src, cell: n}
}

// converter gathers a lesson's parts.
type converter struct {
	parts   []*part
	ids     map[string]bool
	last    string // the last heading's text
	notes   []note
	title   string // the first # heading
	summary string // the first paragraph that is not a heading
}

// note is a problem of a notebook cell that has no line in the lesson.
type note struct {
	cell int
	part int // the parts written before it
	msg  string
}

func (c *converter) note(n int, format string, args ...any) {
	c.notes = append(c.notes, note{cell: n, part: len(c.parts), msg: fmt.Sprintf(format, args...)})
}

// heading notes the headings and the first paragraph of prose.
func (c *converter) heading(src string) {
	for _, para := range strings.Split(src, "\n\n") {
		para = strings.TrimSpace(para)
		if para == "" {
			continue
		}
		if strings.HasPrefix(para, "#") {
			line, _, _ := strings.Cut(para, "\n")
			text := strings.TrimSpace(strings.TrimLeft(line, "#"))
			if c.title == "" && strings.HasPrefix(line, "# ") {
				c.title = text
			}
			c.last = text
			continue
		}
		if c.summary == "" {
			c.summary = para
		}
	}
}

var nonWord = regexp.MustCompile(`[^a-z0-9]+`)

// id is a new cell id: after the last heading, or the cell's number.
func (c *converter) id(n int) string {
	base := strings.Trim(nonWord.ReplaceAllString(strings.ToLower(c.last), "-"), "-")
	if len(base) > 40 {
		base = strings.Trim(base[:40], "-")
	}
	if base == "" {
		base = "cell-" + strconv.Itoa(n)
	} else if base[0] >= '0' && base[0] <= '9' {
		base = "cell-" + base
	}
	id := base
	for k := 2; c.ids[id]; k++ {
		id = fmt.Sprintf("%s-%d", base, k)
	}
	c.ids[id] = true
	return id
}

// quiz reads a teacher's quiz cell: Gradbook's quiz sections as they
// are, or a question followed by a task list, - [x] for the right
// choice and - [ ] for the others, each with its feedback on the
// indented lines under it; without a list, an open question.
func (c *converter) quiz(src string, n int) {
	src = strings.Trim(src, "\n")
	p := &part{kind: "quiz", id: c.id(n), cell: n}
	c.parts = append(c.parts, p)
	if strings.Contains("\n"+src, "\n--- ") {
		p.src = src
		return
	}
	type choice struct {
		text, feedback string
		right          bool
	}
	var question []string
	var choices []choice
	right := 0
	for _, line := range strings.Split(src, "\n") {
		t := strings.TrimSpace(line)
		mark, text, ok := "", "", false
		for _, m := range []string{"- [x] ", "- [X] ", "* [x] ", "* [X] ", "- [ ] ", "* [ ] "} {
			if rest, found := strings.CutPrefix(t, m); found {
				mark, text, ok = m, rest, true
				break
			}
		}
		switch {
		case ok:
			c := choice{text: strings.TrimSpace(text), right: strings.ContainsAny(mark, "xX")}
			if c.right {
				right++
			}
			choices = append(choices, c)
		case len(choices) > 0 && t != "":
			c := &choices[len(choices)-1]
			c.feedback = strings.TrimSpace(c.feedback + " " + t)
		case len(choices) == 0:
			question = append(question, line)
		}
	}
	q := strings.TrimSpace(strings.Join(question, "\n"))
	if len(choices) == 0 {
		p.src = q + "\n--- model\nWrite the model answer here."
		p.habits = append(p.habits, Problem{Line: 3, Msg: "the quiz had no choices (- [x] right, - [ ] wrong): it is an open question now: write its model answer here"})
		return
	}
	b := []string{q}
	missing := 0
	for _, c := range choices {
		sec := "--- choice"
		fb := c.feedback
		if c.right {
			sec += " correct"
		}
		if fb == "" {
			missing++
			fb = map[bool]string{true: "Yes.", false: "No."}[c.right]
		}
		b = append(b, sec, c.text, "--- feedback", fb)
	}
	p.src = strings.Join(b, "\n")
	if right != 1 {
		p.habits = append(p.habits, Problem{Line: 1, Msg: fmt.Sprintf("the quiz has %d choices marked - [x]: mark exactly one right", right)})
	}
	if missing > 0 {
		p.habits = append(p.habits, Problem{Line: 1, Msg: fmt.Sprintf("%s of the quiz had no feedback (an indented line under the choice) and say only Yes. or No.: say why", words.Count(missing, "choice"))})
	}
}

// exported takes a cell of a notebook Gradbook exported, by its
// metadata.gradbook.
func (c *converter) exported(g *cellMeta, src string, n int) error {
	blockText := func() (string, error) {
		if g.Source == nil {
			return "", fmt.Errorf("metadata.gradbook: a %s has its block's text as source", g.Kind)
		}
		return *g.Source, nil
	}
	p := &part{kind: g.Kind, id: g.ID, attrs: g.Attrs, cell: n}
	switch g.Kind {
	case "about", "builtins", "tests":
		return nil // the export's own, and an exercise's tests, which its block holds
	case "prose":
		if strings.TrimSpace(src) == "" {
			return nil
		}
		p.kind, p.prose = "", strings.Trim(src, "\n")
		c.heading(src)
	case "python":
		p.src = strings.Trim(src, "\n")
		if g.Source != nil && fill.Python(*g.Source) == src {
			p.src = *g.Source // the notebook's text is the cell's, in Python
		}
	case "quiz", "explore":
		s, err := blockText()
		if err != nil {
			return err
		}
		p.src = s
	case "exercise":
		s, err := blockText()
		if err != nil {
			return err
		}
		p.src = s
		if x, err := block.ParseExercise(g.ID, s); err == nil && strings.HasPrefix(s, x.Starter) {
			solved := fill.Python(x.Starter + "\n\n" + x.Solution)
			if src != fill.Python(x.Starter) && src != solved && strings.TrimSpace(src) != "" {
				// Changed in Jupyter: the cell's code is the starter now.
				p.src = strings.Trim(src, "\n") + s[len(x.Starter):]
			}
		}
	default:
		return fmt.Errorf("metadata.gradbook: unknown kind %q", g.Kind)
	}
	if g.ID != "" {
		if c.ids[g.ID] {
			return fmt.Errorf("metadata.gradbook: the id %s is used twice", g.ID)
		}
		c.ids[g.ID] = true
	}
	c.parts = append(c.parts, p)
	return nil
}

// front writes the lesson's front matter.
func (c *converter) front(meta *lessonMeta, nbTitle, slug string, order int) []string {
	m := lessonMeta{}
	if meta != nil {
		m = *meta
	}
	if m.Title == "" {
		m.Title = c.title
	}
	if m.Title == "" {
		m.Title = nbTitle
	}
	if m.Title == "" {
		m.Title = strings.ToUpper(slug[:1]) + strings.NewReplacer("-", " ", "_", " ").Replace(slug[1:])
	}
	if m.Summary == "" && meta == nil {
		m.Summary = sentence(c.summary)
	}
	if m.Minutes == 0 && meta == nil {
		m.Minutes = c.minutes()
	}
	if m.Order == 0 && meta == nil {
		m.Order = order
	}
	title := oneLine(m.Title)
	if strings.ContainsAny(title, ":'?") {
		title = `"` + title + `"`
	}
	lines := []string{"---", "title: " + title}
	if m.Summary != "" {
		lines = append(lines, "summary: "+oneLine(m.Summary))
	}
	if m.Minutes != 0 {
		lines = append(lines, "minutes: "+strconv.Itoa(m.Minutes))
	}
	if m.Order != 0 {
		lines = append(lines, "order: "+strconv.Itoa(m.Order))
	}
	if m.MovedFrom != "" {
		lines = append(lines, "moved-from: "+m.MovedFrom)
	}
	if len(m.RenamedFrom) > 0 {
		lines = append(lines, "renamed-from: "+strings.Join(m.RenamedFrom, ", "))
	}
	if m.PassingScore != 0 {
		lines = append(lines, "passing-score: "+strconv.FormatFloat(m.PassingScore*100, 'f', -1, 64)+"%")
	}
	return append(lines, "---", "")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// sentence is a paragraph's first sentence, in plain words, for a summary.
func sentence(para string) string {
	s := oneLine(strings.NewReplacer("**", "", "`", "", "*", "", "_", " ").Replace(para))
	if i := strings.Index(s, ". "); i > 0 {
		s = s[:i+1]
	}
	if len(s) > 200 {
		s = s[:200]
		if i := strings.LastIndexByte(s, ' '); i > 0 {
			s = s[:i]
		}
		s += "…"
	}
	return s
}

// minutes estimates a learner's time: reading at 200 words a minute, 2
// minutes a cell, 5 an exercise, 1 a quiz; by 5s, at least 5.
func (c *converter) minutes() int {
	m := 0.0
	for _, p := range c.parts {
		switch p.kind {
		case "":
			m += float64(len(strings.Fields(p.prose))) / 200
		case "python":
			m += 2
		case "exercise":
			m += 5
		default:
			m++
		}
	}
	n := (int(m) + 4) / 5 * 5
	return max(n, 5)
}

// write writes the lesson file, and places each problem at its line.
func (c *converter) write(front []string, name string) ([]byte, []Problem) {
	var b strings.Builder
	line := 0 // lines written
	put := func(s string) {
		b.WriteString(s)
		b.WriteByte('\n')
		line += strings.Count(s, "\n") + 1
	}
	for _, l := range front {
		put(l)
	}
	var problems []Problem
	notes := c.notes
	for i, p := range c.parts {
		for len(notes) > 0 && notes[0].part <= i {
			problems = append(problems, Problem{Line: line + 1, Msg: fmt.Sprintf("cell %d of %s: %s", notes[0].cell, name, notes[0].msg)})
			notes = notes[1:]
		}
		if i > 0 {
			put("")
		}
		if p.kind == "" {
			put(p.prose)
			continue
		}
		text, habits := p.text()
		fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
		info := p.kind + " id=" + p.id
		for _, k := range sortedKeys(p.attrs) {
			if v := p.attrs[k]; v == "" {
				info += " " + k
			} else {
				info += " " + k + "=" + v
			}
		}
		put(fence + info)
		for _, h := range habits {
			problems = append(problems, Problem{Line: line + h.Line, Msg: fmt.Sprintf("cell %d of %s: %s", h.cell, name, h.Msg)})
		}
		put(text)
		put(fence)
	}
	for _, n := range notes {
		problems = append(problems, Problem{Line: line, Msg: fmt.Sprintf("cell %d of %s: %s", n.cell, name, n.msg)})
	}
	return []byte(b.String()), problems
}

// placed is a problem of a block, at its line in the block's text, from
// a notebook cell.
type placed struct {
	Problem
	cell int
}

// text is the block's text, with the problems in it.
func (p *part) text() (string, []placed) {
	var out []placed
	for _, h := range p.habits {
		out = append(out, placed{h, p.cell})
	}
	if p.kind != "exercise" || (p.tests == nil && p.solution == "") {
		if p.kind == "python" || p.kind == "exercise" {
			for _, h := range habits(p.src) {
				out = append(out, placed{h, p.cell})
			}
		}
		return p.src, out
	}
	var b strings.Builder
	at := 0 // lines written
	code := func(src string, cell int) {
		for _, h := range habits(src) {
			out = append(out, placed{Problem{at + h.Line, h.Msg}, cell})
		}
		b.WriteString(src + "\n")
		at += strings.Count(src, "\n") + 1
	}
	code(p.src, p.cell)
	for _, t := range p.tests {
		b.WriteString("--- test " + oneLine(t.name) + "\n")
		at++
		code(t.code, t.cell)
	}
	if p.solution != "" {
		b.WriteString("--- solution\n")
		at++
		code(p.solution, p.cell)
	}
	return strings.TrimRight(b.String(), "\n"), out
}

// habits are the lines of code Starlark cannot run, with the Gradbook way
// to write each: the kernel's Python habits, and Jupyter's magics and
// shell lines.
func habits(src string) []Problem {
	var out []Problem
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "%") || strings.HasPrefix(t, "!") && !strings.HasPrefix(t, "!=") {
			out = append(out, Problem{Line: i + 1, Msg: fmt.Sprintf("`%s`: a Jupyter magic or shell line: a Gradbook cell is Starlark alone (plots draw by themselves): drop the line", t)})
			lines[i] = l[:len(l)-len(strings.TrimLeftFunc(l, unicode.IsSpace))] + "pass"
		}
	}
	for _, h := range kernel.Habits(strings.Join(lines, "\n")) {
		out = append(out, Problem{Line: h.Line, Msg: "`" + strings.TrimSpace(h.Code) + "`: " + h.Hint})
	}
	return out
}

func longestRun(s string, c byte) int {
	most, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			most = max(most, run)
		} else {
			run = 0
		}
	}
	return most
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// slugOf is a lesson's file name from a notebook's: letters, digits, -
// and _.
func slugOf(name string) string {
	base := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	s := strings.Trim(regexp.MustCompile(`[^A-Za-z0-9_-]+`).ReplaceAllString(base, "-"), "-_")
	if s == "" {
		s = "notebook"
	}
	return s
}

// File imports the notebook file nb into the lessons folder dir as
// dir/<name>.md, after the lessons there, and checks the lesson as
// go run serve.go -check does. It returns the file written and its
// problems, the import's and the check's, by line. It overwrites a
// lesson only if asked to.
func File(nb, dir string, overwrite bool) (string, []*lesson.Error, error) {
	info, err := os.Stat(nb)
	if err != nil {
		return "", nil, err
	}
	if info.Size() > MaxBytes {
		return "", nil, fmt.Errorf("%s: %s is more than the %s a notebook may have", nb, words.Bytes(info.Size()), words.Bytes(MaxBytes))
	}
	data, err := os.ReadFile(nb)
	if err != nil {
		return "", nil, err
	}
	order := 1
	if lessons, _ := lesson.Load(dir); len(lessons) > 0 {
		for _, l := range lessons {
			if l.Problem == nil && l.Order >= order && l.Slug != slugOf(nb) { // not the lesson it replaces
				order = l.Order + 1
			}
		}
	}
	l, err := Convert(data, Options{Name: filepath.Base(nb), Order: order})
	if err != nil {
		return "", nil, err
	}
	path := filepath.Join(dir, l.Slug+".md")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", nil, err
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if overwrite {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if errors.Is(err, os.ErrExist) {
		return "", nil, fmt.Errorf("%s is already there: the import does not overwrite a lesson unless asked to (-overwrite)", path)
	}
	if err != nil {
		return "", nil, err
	}
	if _, err := f.Write(l.Markdown); err != nil {
		f.Close()
		return "", nil, err
	}
	if err := f.Close(); err != nil {
		return "", nil, err
	}
	return path, Check(path, l.Problems), nil
}

// Check returns the problems of the lesson file path: the import's, then
// what -check finds on other lines (a line the import blamed is blamed
// once).
func Check(path string, found []Problem) []*lesson.Error {
	var errs []*lesson.Error
	blamed := map[int]bool{}
	for _, p := range found {
		errs = append(errs, &lesson.Error{File: path, Line: p.Line, Msg: p.Msg})
		blamed[p.Line] = true
	}
	l, err := lesson.LoadFile(path)
	if err != nil {
		var e *lesson.Error
		if !errors.As(err, &e) {
			e = &lesson.Error{File: path, Msg: err.Error()}
		}
		return append(errs, e)
	}
	for _, e := range lesson.Check(l) {
		if !blamed[e.Line] {
			errs = append(errs, e)
		}
	}
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Line < errs[j].Line })
	return errs
}
