package draw

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

// A folded group's box in the SVG, and the attribute that holds its key.
const (
	SelFolded = "g.group.folded"
	AttrGroup = "data-group"
)
