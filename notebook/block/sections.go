package block

import (
	"fmt"
	"strings"
)

// Section is one part of a quiz, explore or exercise block. A block is
// text divided by header lines that start with "--- ": the text before the
// first header is the block's lead (its question, caption or starter
// code), and each header names a section and may carry arguments:
//
//	--- choice correct
//	Two: both uses of x send back 1.
type Section struct {
	Name string
	Args []string
	Text string
	Line int // the header's line in the block, from 1
}

// splitSections splits a block into its lead and its sections.
func splitSections(body string) (lead string, sections []Section) {
	var cur *Section
	var text []string
	flush := func() {
		t := strings.Trim(strings.Join(text, "\n"), "\n")
		if cur == nil {
			lead = t
		} else {
			cur.Text = t
			sections = append(sections, *cur)
		}
		text = nil
	}
	for i, line := range strings.Split(body, "\n") {
		if rest, ok := strings.CutPrefix(line, "--- "); ok {
			flush()
			f := strings.Fields(rest)
			if len(f) == 0 {
				f = []string{""}
			}
			cur = &Section{Name: f[0], Args: f[1:], Line: i + 1}
			continue
		}
		text = append(text, line)
	}
	flush()
	return lead, sections
}

// Sections names the sections each block kind accepts, in the order the
// format's reference lists them.
var Sections = map[string][]string{
	"quiz":     {"choice", "feedback", "given", "answer", "wrong", "explain", "model", "hint"},
	"explore":  {"graph", "out", "leaf", "task"},
	"exercise": {"check", "test", "hint", "solution"},
}

// unknownSection is the error for a section a block kind does not have.
func unknownSection(kind string, s Section) error {
	return blockErr(s, "unknown section (%s %s has %s)", article(kind), kind, strings.Join(Sections[kind], ", "))
}

func article(kind string) string {
	if strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an"
	}
	return "a"
}

// LineError is an error at a line of a block's body (from 1, the line
// after the opening fence), so that a lesson can say where in its file.
type LineError struct {
	Line int
	Msg  string
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

func blockErr(s Section, format string, args ...any) error {
	return &LineError{Line: s.Line, Msg: fmt.Sprintf("--- %s: %s", s.Name, fmt.Sprintf(format, args...))}
}
