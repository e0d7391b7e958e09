package notebook

import (
	"fmt"
	"unicode/utf8"
)

// What one run sends to the page is capped, so that no cell can freeze
// the learner's tab with a message: printed lines and check lines share
// Limits.Output (1 MB); every other text of a result (an error's message,
// its line of code, a hint, a check's label) is cut to MaxMessage; a run
// records at most MaxChecks checks (the rest are counted).
const (
	MaxMessage = 2000 // bytes
	MaxChecks  = 1000
	maxValue   = 200 // bytes of a value shown inside a message
)

// capMessage cuts s to MaxMessage bytes, saying how much it left out.
func capMessage(s string) string {
	if len(s) <= MaxMessage {
		return s
	}
	return cutUTF8(s, MaxMessage) + fmt.Sprintf("… (%d more characters)", utf8.RuneCountInString(s[len(cutUTF8(s, MaxMessage)):]))
}

// clipText cuts a value shown inside a message (a string, a list) to a
// readable length.
func clipText(s string) string {
	if len(s) <= maxValue {
		return s
	}
	return cutUTF8(s, maxValue) + "…"
}

// cutUTF8 is s cut to at most n bytes, on a character boundary.
func cutUTF8(s string, n int) string {
	if n >= len(s) {
		return s
	}
	if n < 0 {
		n = 0
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// checked records a check of cell: its line goes out with the printed
// ones; beyond MaxChecks in a run, only whether it passed is kept.
func (st *runState) checked(cell int, r CheckResult) {
	res := &st.res[cell]
	if st.checks++; st.checks > MaxChecks {
		res.MoreChecks++
		if !r.Passed {
			res.MoreFailed++
		}
		if st.checks == MaxChecks+1 {
			st.printAt(cell, fmt.Sprintf("(More than %d checks in one run: the rest are counted, not shown.)", MaxChecks))
		}
		return
	}
	res.Checks = append(res.Checks, r)
	st.printAt(cell, r.Text)
}

// printAt prints a line in cell, which is running now or called the
// built-in that prints.
func (st *runState) printAt(cell int, line string) {
	cur := st.current
	st.current = cell
	st.print(line)
	st.current = cur
}

// capErr cuts the texts of an error to MaxMessage each.
func capErr(e *CellError) {
	if e == nil {
		return
	}
	e.Msg, e.Code, e.Hint, e.Where = capMessage(e.Msg), capMessage(e.Code), capMessage(e.Hint), capMessage(e.Where)
}

// maxLabel is the longest label a Value keeps: labels are drawn.
const maxLabel = 60

// clipLabel cuts a Value's label to maxLabel bytes.
func clipLabel(s string) string {
	if len(s) <= maxLabel {
		return s
	}
	return cutUTF8(s, maxLabel) + "…"
}

// CapMessage cuts a message for the page to MaxMessage bytes, as every
// text of a run's result is: a checker's report uses it too.
func CapMessage(s string) string { return capMessage(s) }
