package lms

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"gradbook/notebook/progress"
)

// Version is a version of SCORM: what a package's manifest declares and
// which API its pages talk to.
type Version string

// The versions Gradbook writes packages for.
const (
	SCORM12   Version = "1.2"
	SCORM2004 Version = "2004" // 4th edition
)

// ParseVersion returns the version s names ("1.2", "2004"), as a page's
// data-lms carries it.
func ParseVersion(s string) (Version, bool) {
	switch v := Version(s); v {
	case SCORM12, SCORM2004:
		return v, true
	}
	return "", false
}

// APIName is the name of the LMS's API object on a window of its frames:
// API for 1.2, API_1484_11 for 2004.
func (v Version) APIName() string {
	if v == SCORM12 {
		return "API"
	}
	return "API_1484_11"
}

// SuspendLimit is the most characters of cmi.suspend_data every LMS of
// the version keeps: 4,096 in 1.2, 64,000 in 2004.
func (v Version) SuspendLimit() int {
	if v == SCORM12 {
		return 4096
	}
	return 64000
}

// String names the version for people: "SCORM 2004".
func (v Version) String() string { return "SCORM " + string(v) }

// elements names the data model elements a version reads and writes.
type elements struct {
	learner, mode, passing, suspend, exit, sessionTime   string
	completion, success, progress, scaled, raw, min, max string
}

func (v Version) el() elements {
	if v == SCORM12 {
		return elements{
			learner: "cmi.core.student_id", mode: "cmi.core.lesson_mode", passing: "cmi.student_data.mastery_score",
			suspend: "cmi.suspend_data", exit: "cmi.core.exit", sessionTime: "cmi.core.session_time",
			completion: "cmi.core.lesson_status",
			raw:        "cmi.core.score.raw", min: "cmi.core.score.min", max: "cmi.core.score.max",
		}
	}
	return elements{
		learner: "cmi.learner_id", mode: "cmi.mode", passing: "cmi.scaled_passing_score",
		suspend: "cmi.suspend_data", exit: "cmi.exit", sessionTime: "cmi.session_time",
		completion: "cmi.completion_status", success: "cmi.success_status", progress: "cmi.progress_measure",
		scaled: "cmi.score.scaled", raw: "cmi.score.raw", min: "cmi.score.min", max: "cmi.score.max",
	}
}

// graded reports whether an element is one the LMS grades by: a change to
// it is committed at once.
func (v Version) graded(element string) bool {
	e := v.el()
	switch element {
	case e.completion, e.success, e.scaled, e.raw:
		return true
	}
	return false
}

// Status is what a lesson's progress comes to.
type Status struct {
	// Done of Items: the lesson's quizzes answered right, exercises
	// passed and explore tasks met, of all of them.
	Done, Items int
	// Right of Scored: the quizzes answered right and exercises passed,
	// of the lesson's quizzes and exercises.
	Right, Scored int
	// Tried is true once the learner has answered a quiz or worked on an
	// exercise: from then on a score is reported.
	Tried bool
}

// Complete reports whether the lesson is complete by its own rule: every
// item done (a lesson without items is complete once opened).
func (s Status) Complete() bool { return s.Done >= s.Items }

// Scaled is the score from 0 to 1.
func (s Status) Scaled() float64 {
	if s.Scored == 0 {
		return 0
	}
	return float64(s.Right) / float64(s.Scored)
}

// HasScore reports whether a score is reported.
func (s Status) HasScore() bool { return s.Tried && s.Scored > 0 }

// Passed says whether the score reaches passing (0 to 1; 0 is no passing
// score, so nothing passes); the LMS and the page's status line both ask.
func (s Status) Passed(passing float64) bool {
	return s.HasScore() && passing > 0 && s.Scaled() >= passing-1e-9
}

// Measure reads a lesson's status from the learner's progress. items are
// what counts towards its completion, named as progress records name them
// ("quiz/x-plus-x", "exercise/write-backward", "task/linear:db"): the
// lesson package's Items.
func Measure(prog *progress.Progress, lesson string, items []string) Status {
	st := Status{Items: len(items), Done: prog.Completion(lesson, items)}
	for _, it := range items {
		kind, id, _ := strings.Cut(it, "/")
		if kind != progress.KindQuiz && kind != progress.KindExercise {
			continue
		}
		st.Scored++
		if r := prog.Get(kind, lesson, id); r != nil {
			st.Tried = true
			if r.Passed {
				st.Right++
			}
		}
	}
	return st
}

// A Value is a data model element and what to set it to.
type Value struct{ Element, Value string }

// Values are what a report of st sets, in this order, with passing the
// passing score from 0 to 1 (0 for none) and suspend the suspend data
// (Encode's; "" leaves the LMS's as it is). The session time is set at
// each commit, not here.
func (v Version) Values(st Status, passing float64, suspend string) []Value {
	e := v.el()
	var out []Value
	add := func(el, val string) { out = append(out, Value{el, val}) }
	completion := "incomplete"
	if st.Complete() {
		completion = "completed"
	}
	passed := st.Passed(passing)
	if v == SCORM12 && passed {
		completion = "passed"
	}
	add(e.completion, completion)
	if v != SCORM12 {
		progress := 1.0
		if st.Items > 0 {
			progress = float64(st.Done) / float64(st.Items)
		}
		add(e.progress, decimal(progress, 7))
		if st.HasScore() && passing > 0 {
			success := "failed"
			if passed {
				success = "passed"
			}
			add(e.success, success)
		}
	}
	if st.HasScore() {
		if v == SCORM2004 {
			add(e.scaled, decimal(st.Scaled(), 7))
		}
		add(e.raw, decimal(100*st.Scaled(), 2))
		add(e.min, "0")
		add(e.max, "100")
	}
	if suspend != "" {
		add(e.suspend, suspend)
	}
	add(e.exit, "suspend")
	return out
}

// decimal writes x with at most places decimals and no trailing zeros.
func decimal(x float64, places int) string {
	p := math.Pow(10, float64(places))
	return strconv.FormatFloat(math.Round(x*p)/p, 'f', -1, 64)
}

// Duration writes d as the version's time span: ISO 8601 in 2004
// (PT1H5M12.25S), HHHH:MM:SS.SS in 1.2 (0001:05:12.25); to the
// hundredth of a second.
func (v Version) Duration(d time.Duration) string {
	cs := int64(d / (10 * time.Millisecond))
	if cs < 0 {
		cs = 0
	}
	h, m, s := cs/360000, cs/6000%60, float64(cs%6000)/100
	if v == SCORM12 {
		return fmt.Sprintf("%04d:%02d:%05.2f", min(h, 9999), m, s)
	}
	var b strings.Builder
	b.WriteString("PT")
	if h > 0 {
		fmt.Fprintf(&b, "%dH", h)
	}
	if h > 0 || m > 0 {
		fmt.Fprintf(&b, "%dM", m)
	}
	b.WriteString(strconv.FormatFloat(s, 'f', -1, 64) + "S")
	return b.String()
}

// passingOf reads the passing score the LMS gives, from 0 to 1: 2004's
// cmi.scaled_passing_score, 1.2's cmi.student_data.mastery_score (0 to
// 100). It returns 0 for none or nonsense.
func (v Version) passingOf(s string) float64 {
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(x) {
		return 0
	}
	if v == SCORM12 {
		x /= 100
	}
	if x <= 0 || x > 1 {
		return 0
	}
	return x
}
