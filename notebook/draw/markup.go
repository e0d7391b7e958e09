package draw

import "gradbook/engine"

// The classes of a drawing's controls (ControlsHTML), which the page's
// drawing view reads; markup_test.go finds each in the controls.
const (
	ClassStep      = "step"
	ClassStepBack  = "step-back"
	ClassStepAll   = "step-all"
	ClassOverwrite = "overwrite"
	ClassTwice     = "twice"
	ClassRecursive = "recursive"
	ClassPathsFrom = "paths-from"
	ClassGroupOpen = "group-open"
	ClassFoldAll   = "fold-all"
)

// BugClasses are the classes of the toggles that show each classic bug
// (ControlsHTML), which the page reads to know which bug to show, and of
// the lines that say what the bug gives (with "wrong" beside).
var BugClasses = map[engine.Mode]string{
	engine.OverwriteBug: ClassOverwrite,
	engine.TwiceBug:     ClassTwice,
	engine.RecursiveBug: ClassRecursive,
}

// A folded group's box in the SVG, and the attribute that holds its key.
const (
	SelFolded = "g.group.folded"
	AttrGroup = "data-group"
)
