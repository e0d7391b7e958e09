package lesson

import (
	"errors"
	"fmt"
	"strings"

	"github.com/yuin/goldmark/ast"

	"gradbook/notebook/block"
)

// Error is a problem in a lesson file, at a line (from 1), as an editor or
// a CI log shows it: file:line: message.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	file := e.File
	if file == "" {
		file = "lesson"
	}
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", file, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", file, e.Line, e.Msg)
}

// fenceLine returns the file line of a fenced block's opening fence.
func (l *Lesson) fenceLine(n *ast.FencedCodeBlock, body []byte) int {
	at := -1
	if n.Info != nil {
		at = n.Info.Segment.Start
	} else if n.Lines().Len() > 0 {
		at = n.Lines().At(0).Start - 1
	}
	if at < 0 {
		return l.bodyLine + 1
	}
	return l.bodyLine + strings.Count(string(body[:at]), "\n") + 1
}

// errorAt places an error of the cell's block at its line in the file: a
// block's own line if it names one, else the opening fence.
func (c *Cell) errorAt(err error) *Error {
	var le *block.LineError
	if errors.As(err, &le) {
		return &Error{Line: c.Line + le.Line, Msg: fmt.Sprintf("%s %s: %s", c.Kind, c.ID, le.Msg)}
	}
	return &Error{Line: c.Line, Msg: fmt.Sprintf("%s %s: %v", c.Kind, c.ID, err)}
}

// nearKind returns the cell kind that kind is a likely typo of ("pyhton",
// "exercice"), or "".
func nearKind(kind string) string {
	if kind == "" {
		return ""
	}
	for k := range kinds {
		if d := distance(strings.ToLower(kind), k); d > 0 && d <= 2 && len(kind) > 3 && kind[0] == k[0] {
			return k
		}
	}
	return ""
}

// distance is the Levenshtein distance of two short words.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
