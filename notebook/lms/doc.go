// Package lms reports a lesson's progress to a learning management system
// (Moodle, Canvas, Blackboard, …) through SCORM's runtime API, from a
// lesson page of a SCORM package (notebook/lesson's WriteSCORM). It is
// pure Go: package web finds the LMS's API object on a window and adapts
// it to API; what is reported, when, and how the learner's work fits the
// suspend data are decided here and tested natively against a fake LMS.
//
// A lesson page opens a Conn, which initialises the LMS's API and
// reads what the LMS holds (the learner, the mode, the passing score, the
// suspend data); it takes the learner's work back from the suspend data,
// then reports after every change and ends the session when the page
// goes away:
//
//	s, err := lms.Open(lms.SCORM2004, api, time.Now, 0.8, false)
//	restored, err := lms.Restore(ctx, prog, s.SuspendData, "chain-rule")
//	st := lms.Measure(prog, "chain-rule", items)
//	data, left := lms.Encode(lms.Collect(prog, "chain-rule", records), lms.SCORM2004.SuspendLimit())
//	waiting, err := s.Report(lms.SCORM2004.Values(st, s.Passing, data))
//	…
//	err = s.End() // on pagehide
//
// # What the LMS is told
//
// Completion follows the lesson's own rule, the one the index's "N of M
// done" counts: every quiz answered right, every exercise passed and every
// explore task met (a lesson with none of them is complete once opened).
// The score counts the quizzes answered right and the exercises passed,
// of the lesson's quizzes and exercises: scaled 0–1, and raw as a
// percentage with min 0 and max 100, the range LMS gradebooks read (an
// open question counts once answered). It is reported once the learner
// has answered a quiz or worked on an exercise. Where the author set a
// passing score, the lesson is passed at or above it.
//
//	                 SCORM 2004                    SCORM 1.2
//	completion       cmi.completion_status         cmi.core.lesson_status:
//	                 completed, incomplete         completed, incomplete, or
//	success          cmi.success_status            passed at the passing score
//	                 passed, failed
//	progress         cmi.progress_measure          —
//	score            cmi.score.scaled, .raw,       cmi.core.score.raw, .min,
//	                 .min, .max                    .max
//	the work         cmi.suspend_data (64,000)     cmi.suspend_data (4,096)
//	time             cmi.session_time, PT1M5.2S    cmi.core.session_time, 0000:01:05.20
//	exit             cmi.exit: suspend             cmi.core.exit: suspend
//
// A report sets only what changed, and never commits itself: an LMS's
// Commit may block the page while it sends, so a Link commits on the
// page's timer (Page.Later), CommitSoon after a change to what the LMS
// grades (completion, success, score), and at most CommitEvery after the
// last commit for other changes (code being written), once for changes
// that come together. The page also commits when it is hidden, and ends
// the session (Terminate or LMSFinish, which commit too) when it goes
// away. A call the LMS refuses is an error (*Refused) with the LMS's own
// code and message, and is tried again at the next report; the learner's
// work stays in the browser's IndexedDB either way. A GetValue that fails
// (throws, or sets an error) is an error, never a value: a learner id
// that cannot be read is none, and a learner with none gets no database
// (Link.Database is ""). What an LMS answers is read no further than the
// page uses (Object.Call's limit, applied in JavaScript).
//
// # The suspend data
//
// The learner's work on the lesson (package progress's records) is kept
// in cmi.suspend_data as a progress file (progress.FileOf), deflated and
// written in base64url after Prefix. A cell whose code is the lesson's
// own keeps only whether it ran clean. When the work does not fit the
// version's limit, Encode keeps what fits, giving up first where the
// learner was, then code of cells, answers of quizzes, code of exercises,
// each largest first, while keeping every pass, every right answer and
// every task done; Left says what was left out. Restore reads suspend
// data back as an import is read (progress.Read: older schemas migrated,
// a newer one or a bad file refused whole, dates from the future brought
// back), keeps only the lesson's records (and those of its earlier
// names, which the page then moves to it), and merges them with what the
// browser holds: the newer record wins, and a pass stays a pass.
//
// Suspend data that cannot be read never blocks the learner's work: not
// Gradbook's, cut short or damaged, it is set aside and replaced by the
// learner's work at their first change; not given (the LMS's GetValue
// failed), it is asked for again before that change is sent, and replaced
// if it still is not; written by a newer Gradbook (ErrNewer), it is left
// as it is for good, since a newer lesson can read it. Each is said.
package lms
