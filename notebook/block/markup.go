package block

// This file declares the page contract: every class, id and data
// attribute that the build writes (this package's blocks and
// notebook/lesson's page templates) and the page reads (notebook/web and
// site/gradbook.js), once. Writers and readers use these names; a native
// test (notebook/lesson's markup_test.go) renders every block kind and
// page and finds every selector in Selectors there, and another fails on
// a selector written out as a string in notebook/web.

// Classes.
const (
	ClassCell        = "cell"      // every block: code cells, quizzes, explore blocks, exercises
	ClassCodeCell    = "code-cell" // a code cell
	ClassCellBar     = "cell-bar"
	ClassCellLabel   = "cell-label"
	ClassCellState   = "cell-state"
	ClassRun         = "run"
	ClassReset       = "reset"
	ClassShare       = "share"
	ClassCheck       = "check"
	ClassEditor      = "editor" // the textarea that holds a cell's code
	ClassOut         = "out"    // the output of a cell or exercise
	ClassDrawings    = "drawings"
	ClassBlockData   = "block-data"
	ClassReport      = "report"
	ClassTest        = "test"
	ClassHint        = "hint"
	ClassHintList    = "hint-list"
	ClassAnswer      = "answer"
	ClassAnswerInput = "answer-input"
	ClassFeedback    = "feedback"
	ClassExplain     = "explain"
	ClassModel       = "model"
	ClassQuizHint    = "quiz-hint"
	// What a prediction folds (notebook/lesson), its note, its button
	// to skip, and what shows once the prediction is made.
	ClassFold       = "after-prediction"
	ClassFoldWait   = "prediction-wait"
	ClassSkip       = "skip-prediction"
	ClassFoldRest   = "prediction-rest"
	ClassOpen       = "open"
	ClassOpenAnswer = "open-answer"
	ClassLeaf       = "leaf"
	ClassTask       = "task"
	ClassTick       = "tick"
	ClassTaskState  = "task-state"
	ClassExploreCap = "explore-caption"
	ClassExploreSt  = "explore-state"
	ClassCompletion = "completion"
	// On a course page: the author's cells, and the boxes Gradbook puts
	// them in.
	ClassEmbedCell = "gradbook-cell"
	ClassEmbed     = "gradbook-embed"
	ClassEmbedErr  = "gradbook-error"
)

// Ids of a page's parts (notebook/lesson's templates).
const (
	IDNotices       = "notices"
	IDStatus        = "notebook-status"
	IDSaveStatus    = "save-status"
	IDRunAll        = "run-all"
	IDAddCell       = "add-cell"
	IDDownload      = "download-notebook" // "Download as a Jupyter notebook", its file in AttrFile
	IDCells         = "cells"
	IDContinue      = "continue"
	IDProgressPanel = "progress-panel"
	IDStorage       = "storage-estimate"
	IDExport        = "export-progress"
	IDImport        = "import-progress"
	IDResetLesson   = "reset-lesson"
	IDResetAll      = "reset-all"
	IDConfirmBox    = "confirm-box"
	IDLMSStatus     = "lms-status" // a SCORM package's lesson: what the LMS was told
)

// Data attributes.
const (
	AttrPage      = "data-page"    // on <body>: lesson, index, scratch, frame
	AttrLesson    = "data-lesson"  // on <body> and the index's items; on a course page's cell, the lesson it takes
	AttrItems     = "data-items"   // what counts towards a lesson's completion
	AttrRecords   = "data-records" // every record of a lesson, to move
	AttrMovedFrom = "data-moved-from"
	AttrRenamed   = "data-renamed-from" // a lesson's earlier names
	AttrCellID    = "data-cell-id"
	AttrFile      = "data-file" // on the Download button: the notebook file, beside the page
	AttrKind      = "data-kind" // python, quiz, explore, exercise
	AttrQuiz      = "data-quiz" // choice, numeric, open
	AttrCheck     = "data-check"
	AttrName      = "data-name"
	AttrLeaf      = "data-leaf"
	AttrTask      = "data-task"
	// On <body> of a SCORM package's lesson: the version of SCORM whose
	// API the page reports to, and the lesson's passing score (0 to 1).
	AttrLMS     = "data-lms"
	AttrPassing = "data-passing-score"
	// Set by the page for styles, tests and the learner's tools.
	AttrState    = "data-state"    // passed, failed, error; right, wrong, answered
	AttrNotebook = "data-notebook" // on <body>: ready, failed, stopped
	AttrReadyAt  = "data-ready-at"
	AttrMS       = "data-ms"
	AttrStep     = "data-step"
	AttrStale    = "data-stale"      // a cell whose result a change above has made out of date
	AttrPredicts = "data-prediction" // on a fold: the quiz it waits for
	// On a course page: the author's cell attributes (README), and the
	// Gradbook site's address, which embed.js sets on <html>.
	AttrCell = "data-cell"
	AttrID   = "data-id"
	AttrBase = "data-gradbook-base"
)

// The values of data-kind: the kinds of block.
const (
	KindPython   = "python"
	KindQuiz     = "quiz"
	KindExplore  = "explore"
	KindExercise = "exercise"
)

// The values of data-quiz: the kinds of quiz.
const (
	QuizChoice  = "choice"
	QuizNumeric = "numeric"
	QuizOpen    = "open"
)

// Selectors of HTML's own inputs that the page reads, and of the
// elements inside blocks it reads.
const (
	SelHintItems     = "." + ClassHintList + " li" // an exercise's hints, one an item
	SelCodeCells     = "section." + ClassCodeCell
	SelEmbeddedCells = "." + ClassEmbed + " " + SelCodeCells // on a course page: the cells Gradbook placed
	SelLink          = "a"
	SelRadio         = "input[type=radio]"
	SelRange         = "input[type=range]"
	SelNumber        = "input[type=number]"
)

// Sel is a CSS selector of an element with a class: Sel("button",
// ClassRun) is "button.run".
func Sel(tag, class string) string { return tag + "." + class }

// Of is a selector of any element with a class: ".run".
func Of(class string) string { return "." + class }

// Kind is the selector of the blocks of a kind: section[data-kind="quiz"].
func Kind(kind string) string { return `section[` + AttrKind + `="` + kind + `"]` }

// With is the selector of elements with an attribute: li[data-items].
func With(tag, attr string) string { return tag + "[" + attr + "]" }

// Where each selector the page uses must be found: the renders the test
// makes ("cell", "quiz choice", "quiz numeric", "quiz open", "explore",
// "exercise", and the pages "lesson", "index", "scratch", "frame", and
// "scorm", a SCORM package's lesson).
var Selectors = []struct {
	Sel string
	In  []string
}{
	{Sel("section", ClassCodeCell), []string{"cell", "lesson", "scratch", "scorm"}},
	{Sel("button", ClassRun), []string{"cell", "exercise"}},
	{Sel("button", ClassReset), []string{"cell", "exercise"}},
	{Sel("button", ClassShare), []string{"cell"}},
	{Sel("button", ClassCheck), []string{"exercise"}},
	{Sel("button", ClassHint), []string{"exercise"}},
	{Sel("textarea", ClassEditor), []string{"cell", "exercise"}},
	{Sel("output", ClassOut), []string{"cell", "exercise"}},
	{Sel("div", ClassDrawings), []string{"cell", "exercise", "explore"}},
	{Of(ClassCellLabel), []string{"cell", "exercise"}},
	{Of(ClassCellState), []string{"cell"}},
	{Of(ClassCellBar), []string{"cell", "exercise"}},
	{Sel("script", ClassBlockData), []string{"quiz choice", "quiz numeric", "explore"}},
	{Of(ClassReport), []string{"exercise"}},
	{Sel("template", ClassTest), []string{"exercise"}},
	{SelHintItems, []string{"exercise"}},
	{Sel("button", ClassAnswer), []string{"quiz choice", "quiz numeric", "quiz open"}},
	{Sel("input", ClassAnswerInput), []string{"quiz numeric"}},
	{SelRadio, []string{"quiz choice"}},
	{Of(ClassFeedback), []string{"quiz choice", "quiz numeric", "quiz open"}},
	{Of(ClassExplain), []string{"quiz numeric"}},
	{Of(ClassModel), []string{"quiz open"}},
	{Sel("textarea", ClassOpenAnswer), []string{"quiz open"}},
	{Of(ClassLeaf), []string{"explore"}},
	{SelRange, []string{"explore"}},
	{SelNumber, []string{"explore"}},
	{Sel("li", ClassTask), []string{"explore"}},
	{Of(ClassTick), []string{"explore"}},
	{Of(ClassTaskState), []string{"explore"}},
	{Of(ClassExploreCap), []string{"explore"}},
	{Of(ClassExploreSt), []string{"explore"}},
	{Kind(KindQuiz), []string{"quiz choice", "quiz numeric", "quiz open"}},
	{Kind(KindExplore), []string{"explore"}},
	{Kind(KindExercise), []string{"exercise"}},
	{With("li", AttrItems), []string{"index"}},
	{With("li", AttrRecords), []string{"index"}},
	{With("li", AttrLesson), []string{"index"}},
	{Of(ClassCompletion), []string{"index"}},
	{"#" + IDNotices, []string{"lesson", "index", "scratch", "frame", "scorm"}},
	{"#" + IDStatus, []string{"lesson", "scratch", "frame", "scorm"}},
	{"#" + IDSaveStatus, []string{"lesson", "index", "scratch", "frame", "scorm"}},
	{"#" + IDRunAll, []string{"lesson", "scratch", "scorm"}},
	{"#" + IDAddCell, []string{"scratch"}},
	{"#" + IDDownload, []string{"lesson", "scratch"}},
	{"#" + IDDownload + "[" + AttrFile + "]", []string{"lesson", "scratch"}},
	{"#" + IDCells, []string{"scratch", "frame"}},
	{"#" + IDContinue, []string{"index"}},
	{"#" + IDProgressPanel, []string{"lesson", "index", "scratch", "scorm"}},
	{"#" + IDStorage, []string{"lesson", "index", "scratch", "scorm"}},
	{"#" + IDExport, []string{"lesson", "index", "scratch", "scorm"}},
	{"#" + IDImport, []string{"lesson", "index", "scratch", "scorm"}},
	{"#" + IDResetLesson, []string{"lesson", "scorm"}},
	{"#" + IDLMSStatus, []string{"scorm"}},
	{"#" + IDResetAll, []string{"lesson", "index", "scratch"}},
	{"body[" + AttrPage + "=lesson]", []string{"lesson", "scorm"}},
	{"body[" + AttrPage + "=scratch]", []string{"scratch"}},
	{"body[" + AttrPage + "=frame]", []string{"frame"}},
	{"body[" + AttrLesson + "]", []string{"lesson", "scorm"}},
	{"body[" + AttrPassing + "]", []string{"scorm"}},
	{"body[" + AttrLMS + "]", []string{"scorm"}},
	{"body[" + AttrItems + "]", []string{"scorm"}},
	{"body[" + AttrRecords + "]", []string{"scorm"}},
}
