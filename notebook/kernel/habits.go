package kernel

import "strings"

// maxHabits is the most habits Habits lists in one cell.
const maxHabits = 100

// Habit is a line of a cell that Starlark cannot run as Python has it
// (an import, a class, a with, an f-string, …), with the Starlark way.
type Habit struct {
	Line int    // from 1
	Code string // the line
	Hint string // the Starlark way, as a cell's error gives it
}

// Habits lists the lines of src that are Python habits the cells'
// Starlark lacks, each with the hint a run of the cell would give (the
// one list of them, hints.go). It only parses: each habit found is set
// aside (its line becomes a pass, or an if True: where it opens a block)
// and the cell parsed again, until it parses or stops at an error that
// is no habit, or maxHabits are found (each costs a parse of the cell).
func Habits(src string) []Habit {
	lines := strings.Split(src, "\n")
	var out []Habit
	seen := map[int]bool{}
	for len(out) < maxHabits {
		_, err := Parse("cell", strings.Join(lines, "\n"))
		if err == nil {
			break
		}
		e := syntaxError(0, strings.Join(lines, "\n"), err)
		if e.Hint == "" || e.Line < 1 || e.Line > len(lines) {
			break
		}
		line := e.Line
		if lineHint(lines[line-1]) == "" && hint(e.Code, e.Msg, 0) != e.Hint {
			// A statement above the parser's line is to blame.
			for i := 0; i < e.Line; i++ {
				if lineHint(lines[i]) == e.Hint {
					line = i + 1
					break
				}
			}
		}
		if seen[line] {
			break
		}
		seen[line] = true
		code := lines[line-1]
		out = append(out, Habit{Line: line, Code: code, Hint: e.Hint})
		indent := code[:len(code)-len(strings.TrimLeft(code, " \t"))]
		if strings.HasSuffix(strings.TrimSpace(code), ":") {
			lines[line-1] = indent + "if True:"
		} else {
			lines[line-1] = indent + "pass"
		}
	}
	return out
}
