package page

// The classes of what the page makes itself, and reads back itself. What
// the build writes and the page reads is declared in notebook/block
// (markup.go), and a drawing's controls in notebook/draw.
const (
	classElapsed       = "elapsed"
	classStop          = "stop" // a Run button while its cell runs
	classError         = "error"
	classConfirm       = "confirm"
	classConfirmYes    = "confirm-yes"
	classConfirmNo     = "confirm-no"
	classChanged       = "changed"
	classShared        = "shared"
	classKeepMine      = "keep-mine"
	classTakeNew       = "take-new"
	classKeepShared    = "keep-shared"
	classBackToMine    = "back-to-mine"
	classShareBox      = "share-box"
	classShareState    = "share-state"
	classNotice        = "notice"
	classNotices       = "notices"
	classDrawing       = "drawing"
	classSVGBox        = "svg-box"
	classStepText      = "step-text"
	classPaths         = "paths"
	classCodeEditor    = "code-editor"
	classMoveUp        = "move-up"
	classMoveDown      = "move-down"
	classDelete        = "delete"
	classDone          = "done"
	classComplete      = "complete"
	classPlot          = "plot"
	classPlotBox       = "plot-box"
	classPlotSummary   = "plot-summary"
	classPracticeLabel = "practice-label"
	classPractice      = "practice" // "you do the backward pass"
	classBlanks        = "blanks"
	classBlank         = "blank"
	classBlankInput    = "blank-input"
	classBlankVerdict  = "blank-verdict"
	classCheckStep     = "check-step"
	classScrollCue     = "scroll-cue"
	classTable         = "table" // a table in a cell's output
	classChunk         = "chunk" // a block of what a running cell printed
	// On a course page: the embedded cells' status line, and its part
	// that says whether the learner's work is saved.
	classEmbedStatus = "gradbook-status"
	classEmbedSaved  = "gradbook-saved"
)

// The states a quiz shows once answered (its data-state).
const (
	stateRight    = "right"
	stateWrong    = "wrong"
	stateAnswered = "answered"
)

// attrScrolls marks a drawing too wide for its column even top to bottom
// at its legible minimum: its box scrolls sideways, and says so.
const attrScrolls = "data-scrolls"

// attrDisabled is a form control's own disabled attribute (Node's
// SetDisabled sets it), read to know whether a button is off.
const attrDisabled = "disabled"

// withAttr returns the first of els whose attribute attr is value, or nil.
// The value is compared in Go: stored, imported and shared strings are
// data and never become part of a CSS selector.
func withAttr(els []Node, attr, value string) Node {
	for _, el := range els {
		if el.HasAttr(attr) && el.Attr(attr) == value {
			return el
		}
	}
	return nil
}
