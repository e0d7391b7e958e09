package kernel

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

// CapMessage cuts a message for the page to MaxMessage bytes, as every
// text of a run's result is, saying how much it left out: a check's line
// and a checker's report use it too.
func CapMessage(s string) string {
	if len(s) <= MaxMessage {
		return s
	}
	return cutUTF8(s, MaxMessage) + fmt.Sprintf("… (%d more characters)", utf8.RuneCountInString(s[len(cutUTF8(s, MaxMessage)):]))
}

// Clip cuts a value shown inside a message (a string, a list), or a
// plot's title, to a readable length.
func Clip(s string) string {
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

// capErr cuts the texts of an error to MaxMessage each.
func capErr(e *CellError) {
	if e == nil {
		return
	}
	e.Msg, e.Code, e.Hint, e.Where = CapMessage(e.Msg), CapMessage(e.Code), CapMessage(e.Hint), CapMessage(e.Where)
}

// maxLabel is the longest label a Value or a tensor keeps: labels are
// drawn.
const maxLabel = 60

// ClipLabel cuts a Value's or a tensor's label to maxLabel bytes.
func ClipLabel(s string) string {
	if len(s) <= maxLabel {
		return s
	}
	return cutUTF8(s, maxLabel) + "…"
}
