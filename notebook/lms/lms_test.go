package lms

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"gradbook/notebook/progress"

	"gradbook/notebook/lms/lmstest"
)

var ctx = context.Background()

// clock is a time that moves only when told.
type clock struct{ t time.Time }

func (c *clock) now() time.Time       { return c.t }
func (c *clock) pass(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *clock                { return &clock{t: time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)} }
func valuesOf(vs []Value) map[string]string {
	m := map[string]string{}
	for _, v := range vs {
		m[v.Element] = v.Value
	}
	return m
}

// What each version is told for a lesson's status: completion by its own
// rule, a score once tried, success only with a passing score.
func TestValues(t *testing.T) {
	half := Status{Done: 1, Items: 3, Right: 1, Scored: 2, Tried: true}
	all := Status{Done: 3, Items: 3, Right: 2, Scored: 2, Tried: true}
	for _, tc := range []struct {
		name    string
		v       Version
		st      Status
		passing float64
		want    map[string]string
	}{
		{"2004, opened", SCORM2004, Status{Items: 3, Scored: 2}, 0, map[string]string{
			"cmi.completion_status": "incomplete", "cmi.progress_measure": "0", "cmi.suspend_data": "S", "cmi.exit": "suspend"}},
		{"2004, half", SCORM2004, half, 0, map[string]string{
			"cmi.completion_status": "incomplete", "cmi.progress_measure": "0.3333333", "cmi.score.scaled": "0.5",
			"cmi.score.raw": "50", "cmi.score.min": "0", "cmi.score.max": "100", "cmi.suspend_data": "S", "cmi.exit": "suspend"}},
		{"2004, half, passing 80%", SCORM2004, half, 0.8, map[string]string{
			"cmi.completion_status": "incomplete", "cmi.progress_measure": "0.3333333", "cmi.success_status": "failed", "cmi.score.scaled": "0.5",
			"cmi.score.raw": "50", "cmi.score.min": "0", "cmi.score.max": "100", "cmi.suspend_data": "S", "cmi.exit": "suspend"}},
		{"2004, half, passing 50%", SCORM2004, half, 0.5, map[string]string{
			"cmi.completion_status": "incomplete", "cmi.progress_measure": "0.3333333", "cmi.success_status": "passed", "cmi.score.scaled": "0.5",
			"cmi.score.raw": "50", "cmi.score.min": "0", "cmi.score.max": "100", "cmi.suspend_data": "S", "cmi.exit": "suspend"}},
		{"2004, all done", SCORM2004, all, 0.8, map[string]string{
			"cmi.completion_status": "completed", "cmi.progress_measure": "1", "cmi.success_status": "passed", "cmi.score.scaled": "1",
			"cmi.score.raw": "100", "cmi.score.min": "0", "cmi.score.max": "100", "cmi.suspend_data": "S", "cmi.exit": "suspend"}},
		{"2004, a lesson without items", SCORM2004, Status{}, 0.8, map[string]string{
			"cmi.completion_status": "completed", "cmi.progress_measure": "1", "cmi.suspend_data": "S", "cmi.exit": "suspend"}},
		{"1.2, opened", SCORM12, Status{Items: 3, Scored: 2}, 0, map[string]string{
			"cmi.core.lesson_status": "incomplete", "cmi.suspend_data": "S", "cmi.core.exit": "suspend"}},
		{"1.2, a third, two-thirds right", SCORM12, Status{Done: 1, Items: 3, Right: 2, Scored: 3, Tried: true}, 0, map[string]string{
			"cmi.core.lesson_status": "incomplete", "cmi.core.score.raw": "66.67", "cmi.core.score.min": "0", "cmi.core.score.max": "100",
			"cmi.suspend_data": "S", "cmi.core.exit": "suspend"}},
		{"1.2, half, mastery 50", SCORM12, half, 0.5, map[string]string{
			"cmi.core.lesson_status": "passed", "cmi.core.score.raw": "50", "cmi.core.score.min": "0", "cmi.core.score.max": "100",
			"cmi.suspend_data": "S", "cmi.core.exit": "suspend"}},
		{"1.2, half, mastery 80", SCORM12, half, 0.8, map[string]string{
			"cmi.core.lesson_status": "incomplete", "cmi.core.score.raw": "50", "cmi.core.score.min": "0", "cmi.core.score.max": "100",
			"cmi.suspend_data": "S", "cmi.core.exit": "suspend"}},
		{"1.2, all done", SCORM12, all, 0, map[string]string{
			"cmi.core.lesson_status": "completed", "cmi.core.score.raw": "100", "cmi.core.score.min": "0", "cmi.core.score.max": "100",
			"cmi.suspend_data": "S", "cmi.core.exit": "suspend"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := valuesOf(tc.v.Values(tc.st, tc.passing, "S")); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %v\nwant %v", got, tc.want)
			}
		})
	}
	if got := valuesOf(SCORM2004.Values(half, 0, "")); got["cmi.suspend_data"] != "" {
		t.Errorf("no suspend data set the LMS's to %q", got["cmi.suspend_data"])
	}
}

func TestDuration(t *testing.T) {
	for _, tc := range []struct {
		d          time.Duration
		iso, scorm string
	}{
		{0, "PT0S", "0000:00:00.00"},
		{5250 * time.Millisecond, "PT5.25S", "0000:00:05.25"},
		{65*time.Second + 200*time.Millisecond, "PT1M5.2S", "0000:01:05.20"},
		{3*time.Hour + 7*time.Second, "PT3H0M7S", "0003:00:07.00"},
		{-time.Second, "PT0S", "0000:00:00.00"},
	} {
		if got := SCORM2004.Duration(tc.d); got != tc.iso {
			t.Errorf("2004 %v: %s, want %s", tc.d, got, tc.iso)
		}
		if got := SCORM12.Duration(tc.d); got != tc.scorm {
			t.Errorf("1.2 %v: %s, want %s", tc.d, got, tc.scorm)
		}
	}
}

// A session reads what the LMS holds, sets only what changed, commits
// nothing itself, and says when what it set is due: a change the LMS
// grades by CommitSoon, others CommitEvery after the last commit; it ends
// once, with the session time and exit.
func TestSession(t *testing.T) {
	c := newClock()
	lms := lmstest.New(map[string]string{"cmi.learner_id": "learner-7", "cmi.mode": "normal", "cmi.suspend_data": "gradbook1:x"})
	s, err := Open(SCORM2004, lms, c.now, 0.8, false)
	if err != nil {
		t.Fatal(err)
	}
	if s.LearnerID != "learner-7" || s.SuspendData != "gradbook1:x" || s.SuspendErr != nil || s.Review || s.Passing != 0.8 {
		t.Fatalf("read %+v", s)
	}
	due := func() time.Duration {
		t.Helper()
		d, ok := s.Due()
		if !ok {
			return -1
		}
		return d
	}
	st := Status{Items: 2, Scored: 2}
	if waiting, err := s.Report(SCORM2004.Values(st, s.Passing, "gradbook1:a")); err != nil || !waiting || len(lms.Commits) != 0 || due() != CommitSoon {
		t.Fatalf("the first report: waiting %v, %v, %d commits, due in %v", waiting, err, len(lms.Commits), due())
	}
	if err := s.Commit(); err != nil || len(lms.Commits) != 1 || due() != -1 {
		t.Fatalf("its commit: %v, %d commits, due in %v", err, len(lms.Commits), due())
	}
	if got := lms.Commits[0]["cmi.completion_status"]; got != "incomplete" {
		t.Errorf("committed completion %q", got)
	}

	// The same again sets nothing; new code waits for a commit, due
	// CommitEvery after the last one.
	lms.Set = nil
	c.pass(time.Second)
	s.Report(SCORM2004.Values(st, s.Passing, "gradbook1:a"))
	if len(lms.Set) != 0 || due() != -1 {
		t.Errorf("an unchanged report set %v, due in %v", lms.Set, due())
	}
	c.pass(time.Second)
	if waiting, _ := s.Report(SCORM2004.Values(st, s.Passing, "gradbook1:b")); !waiting || due() != CommitEvery-2*time.Second {
		t.Errorf("new code: waiting %v, due in %v", waiting, due())
	}
	c.pass(CommitEvery)
	if due() != 0 {
		t.Errorf("CommitEvery later: due in %v", due())
	}
	s.Commit()
	if got := lms.Commits[1]["cmi.session_time"]; got != "PT32S" {
		t.Errorf("session time %q, want PT32S", got)
	}

	// A quiz right is due CommitSoon.
	c.pass(time.Second)
	st.Right, st.Done, st.Tried = 1, 1, true
	if waiting, _ := s.Report(SCORM2004.Values(st, s.Passing, "gradbook1:d")); !waiting || due() != CommitSoon {
		t.Errorf("a quiz right: waiting %v, due in %v", waiting, due())
	}
	s.Commit()
	if got := lms.Commits[2]; got["cmi.score.scaled"] != "0.5" || got["cmi.success_status"] != "failed" {
		t.Errorf("committed %v", got)
	}

	c.pass(time.Minute)
	if err := s.End(); err != nil || !lms.Terminated {
		t.Fatalf("End: %v, terminated %v", err, lms.Terminated)
	}
	if got := lms.Values; got["cmi.session_time"] != "PT1M33S" || got["cmi.exit"] != "suspend" {
		t.Errorf("at the end: %v", got)
	}
	if err := s.End(); err != nil {
		t.Errorf("a second End: %v", err)
	}
	if _, err := s.Report(SCORM2004.Values(st, s.Passing, "gradbook1:e")); !errors.Is(err, ErrEnded) {
		t.Errorf("a report after the end: %v", err)
	}
}

// What the LMS says it holds: the passing score it gives wins over the
// page's own, in each version's scale; review mode reports nothing; an
// API the page initialised before is used as it is.
func TestOpen(t *testing.T) {
	c := newClock()
	for _, tc := range []struct {
		name   string
		v      Version
		values map[string]string
		page   float64
		want   float64
	}{
		{"2004, the LMS's", SCORM2004, map[string]string{"cmi.scaled_passing_score": "0.6"}, 0.8, 0.6},
		{"2004, the page's", SCORM2004, nil, 0.8, 0.8},
		{"2004, nonsense", SCORM2004, map[string]string{"cmi.scaled_passing_score": "lots"}, 0, 0},
		{"1.2, mastery 70", SCORM12, map[string]string{"cmi.student_data.mastery_score": "70"}, 0.8, 0.7},
		{"1.2, out of range", SCORM12, map[string]string{"cmi.student_data.mastery_score": "700"}, 0, 0},
	} {
		s, err := Open(tc.v, lmstest.New(tc.values), c.now, tc.page, false)
		if err != nil || s.Passing != tc.want {
			t.Errorf("%s: passing %v, %v; want %v", tc.name, s.Passing, err, tc.want)
		}
	}

	review := lmstest.New(map[string]string{"cmi.core.lesson_mode": "review", "cmi.core.student_id": "s1"})
	s, _ := Open(SCORM12, review, c.now, 0, false)
	if _, err := s.Report(SCORM12.Values(Status{Items: 1}, 0, "gradbook1:a")); err != nil || len(review.Set) != 0 || len(review.Commits) != 0 {
		t.Errorf("review mode set %v, committed %d, %v", review.Set, len(review.Commits), err)
	}

	again := lmstest.New(map[string]string{"cmi.learner_id": "learner-7"})
	again.Initialized = true
	if s, err := Open(SCORM2004, again, c.now, 0, true); err != nil || s.LearnerID != "learner-7" {
		t.Errorf("an API this page initialised before it reloaded itself: %v", err)
	}
	if _, err := Open(SCORM2004, again, c.now, 0, false); err == nil {
		t.Errorf("an API initialised by someone else is taken as this page's")
	}
	again.Terminated = true
	if _, err := Open(SCORM2004, again, c.now, 0, true); err == nil {
		t.Errorf("an API whose session ended is taken as going on")
	}
}

// A refused call is an error with the LMS's code and message, and what
// it refused is tried again at the next report.
func TestRefusals(t *testing.T) {
	c := newClock()
	lms := lmstest.New(nil)
	lms.Refuse["Initialize"] = 102
	var r *Refused
	if _, err := Open(SCORM2004, lms, c.now, 0, false); !errors.As(err, &r) || r.Call != "Initialize" || r.Code != 102 {
		t.Fatalf("a refused Initialize: %v", err)
	} else if got := err.Error(); got != "it refused Initialize: 102 General Initialization Failure" {
		t.Errorf("said %q", got)
	}

	lms = lmstest.New(nil)
	s, err := Open(SCORM2004, lms, c.now, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	lms.Refuse["Commit"] = 391
	st := Status{Items: 1, Scored: 1}
	s.Report(SCORM2004.Values(st, 0, "gradbook1:a"))
	if err := s.Commit(); !errors.As(err, &r) || r.Call != "Commit" || r.Code != 391 {
		t.Errorf("a refused commit: %v", err)
	}
	lms.Refuse["Commit"] = 0
	lms.Refuse["SetValue cmi.suspend_data"] = 405
	c.pass(time.Second)
	_, err = s.Report(SCORM2004.Values(st, 0, "gradbook1:b"))
	if !errors.As(err, &r) || r.Element != "cmi.suspend_data" || r.Error() != "it refused SetValue cmi.suspend_data: 405 Incorrect Data Type" {
		t.Errorf("a refused suspend data: %v", err)
	}
	if len(lms.Commits) != 0 {
		t.Errorf("the refused commit counted: %d commits", len(lms.Commits))
	}
	// At the next report, both go through.
	lms.Refuse["SetValue cmi.suspend_data"] = 0
	c.pass(CommitEvery)
	_, err = s.Report(SCORM2004.Values(st, 0, "gradbook1:b"))
	if err = firstOf(err, s.Commit()); err != nil || len(lms.Commits) != 1 || lms.Commits[0]["cmi.suspend_data"] != "gradbook1:b" {
		t.Errorf("tried again: %v, commits %v", err, lms.Commits)
	}
}

func open(t *testing.T) *progress.Progress {
	t.Helper()
	p, err := progress.Open(ctx, progress.NewMemStore())
	if err != nil {
		t.Fatal(err)
	}
	c := newClock()
	p.Now = func() time.Time { c.pass(time.Second); return c.t }
	return p
}

func put(t *testing.T, p *progress.Progress, r progress.Record) {
	t.Helper()
	if err := p.Put(ctx, r); err != nil {
		t.Fatal(err)
	}
}

// The status counts the lesson's items by its own rule, and scores its
// quizzes and exercises.
func TestMeasure(t *testing.T) {
	p := open(t)
	items := []string{"quiz/q1", "quiz/q2", "exercise/ex", "task/e:t"}
	if st := Measure(p, "l", items); st != (Status{Items: 4, Scored: 3}) {
		t.Errorf("nothing done: %+v", st)
	}
	put(t, p, progress.Record{Kind: progress.KindQuiz, Lesson: "l", ID: "q1", Answer: "1", Passed: false})
	put(t, p, progress.Record{Kind: progress.KindQuiz, Lesson: "l", ID: "q2", Answer: "2", Passed: true})
	put(t, p, progress.Record{Kind: progress.KindTask, Lesson: "l", ID: "e:t", Passed: true})
	put(t, p, progress.Record{Kind: progress.KindExercise, Lesson: "other", ID: "ex", Passed: true})
	if st := Measure(p, "l", items); st != (Status{Done: 2, Items: 4, Right: 1, Scored: 3, Tried: true}) {
		t.Errorf("some done: %+v", st)
	}
}

// records of a lesson: cells run with the lesson's code and with the
// learner's, a quiz, an exercise and where the learner was.
func lessonWork(t *testing.T, p *progress.Progress, code string) {
	authored := "x = Value(2.0)\ny = x * x\n"
	put(t, p, progress.Record{Kind: progress.KindCell, Lesson: "l", ID: "plain", Source: authored, Authored: progress.Hash(authored), Ran: true, Clean: true})
	put(t, p, progress.Record{Kind: progress.KindCell, Lesson: "l", ID: "mine", Source: code, Authored: progress.Hash(authored), Ran: true, Clean: true})
	put(t, p, progress.Record{Kind: progress.KindQuiz, Lesson: "l", ID: "why", Answer: "Because " + code, Passed: true})
	put(t, p, progress.Record{Kind: progress.KindExercise, Lesson: "l", ID: "ex", Source: "def f():\n" + code, Authored: "h", Passed: true})
	put(t, p, progress.Record{Kind: progress.KindVisit, Lesson: "l", ID: "last", Anchor: "cell-mine"})
}

var records = []string{"cell/plain", "cell/mine", "quiz/why", "exercise/ex"}

// The suspend data brings a lesson's work back whole into an empty
// browser, the lesson's own code excepted, which it leaves to the page.
func TestEncodeRestore(t *testing.T) {
	p := open(t)
	lessonWork(t, p, "print('mine')\n")
	data, left := Encode(Collect(p, "l", records), SCORM12.SuspendLimit())
	if !left.Empty() || !strings.HasPrefix(data, Prefix) || len(data) > 1000 {
		t.Fatalf("%d characters, left %+v", len(data), left)
	}
	q := open(t)
	q.Now = func() time.Time { return time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC) } // a later day
	n, err := Restore(ctx, q, data, "l")
	if err != nil || n != 5 {
		t.Fatalf("restored %d: %v", n, err)
	}
	for _, name := range append(records, "visit/last") {
		kind, id, _ := strings.Cut(name, "/")
		want, got := p.Get(kind, "l", id), q.Get(kind, "l", id)
		if id == "plain" {
			want.Source, want.Authored = "", ""
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s came back as\n%+v, want\n%+v", name, got, want)
		}
	}
}

// Work larger than the limit keeps what fits: every pass and right answer,
// and as much code as fits, largest cell code first to go; restored where
// the code is, the code stays.
func TestEncodeFits(t *testing.T) {
	p := open(t)
	// Code that does not compress away: numbers of every kind.
	var big strings.Builder
	for i := range 1500 {
		big.WriteString("w" + strings.Repeat("x", i%7) + " = " + progress.Hash(string(rune(i)))[:12] + "\n")
	}
	lessonWork(t, p, big.String())
	put(t, p, progress.Record{Kind: progress.KindExercise, Lesson: "l", ID: "ex", Source: "def f():\n    return 1\n", Authored: "h", Passed: true})
	recs := Collect(p, "l", records)
	if full, _ := Encode(recs, 1<<20); len(full) <= SCORM12.SuspendLimit() {
		t.Fatalf("the work takes %d characters: not enough to test", len(full))
	}
	data, left := Encode(recs, SCORM12.SuspendLimit())
	if len(data) > SCORM12.SuspendLimit() || data == "" {
		t.Fatalf("%d characters", len(data))
	}
	t.Logf("%d characters, left out: %s", len(data), left)
	if got, want := left.String(), "your code in mine and your answer to why"; got != want {
		t.Errorf("said %q, want %q", got, want)
	}

	// Another browser gets every pass.
	q := open(t)
	if _, err := Restore(ctx, q, data, "l"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"quiz/why", "exercise/ex"} {
		kind, id, _ := strings.Cut(name, "/")
		if r := q.Get(kind, "l", id); r == nil || !r.Passed {
			t.Errorf("%s came back as %+v", name, r)
		}
	}
	if r := q.Get(progress.KindVisit, "l", "last"); r == nil || r.Anchor != "cell-mine" {
		t.Errorf("where the learner was, which fits, came back as %+v", r)
	}
	if r := q.Get(progress.KindExercise, "l", "ex"); r.Source != "def f():\n    return 1\n" {
		t.Errorf("the exercise's code, which fits, came back as %q", r.Source)
	}
	// The browser that has the code keeps it.
	before := p.Get(progress.KindExercise, "l", "ex")
	if _, err := Restore(ctx, p, data, "l"); err != nil {
		t.Fatal(err)
	}
	if after := p.Get(progress.KindExercise, "l", "ex"); after.Source != before.Source || !after.Passed {
		t.Errorf("the exercise's code was lost: %q", after.Source)
	}

	// A limit nothing fits in leaves it all out.
	if data, left := Encode(recs, 10); data != "" || left.Records == 0 {
		t.Errorf("limit 10: %q, %+v", data, left)
	}
}

// Suspend data from elsewhere: the newer record wins either way, a pass
// stays, other lessons' records are left out, an earlier name's are
// taken (the page moves them), and what cannot be read changes nothing.
func TestRestoreRules(t *testing.T) {
	lms := open(t)
	put(t, lms, progress.Record{Kind: progress.KindExercise, Lesson: "l", ID: "ex", Source: "old", Passed: true})
	put(t, lms, progress.Record{Kind: progress.KindQuiz, Lesson: "was-l", ID: "q", Answer: "2", Passed: true})
	put(t, lms, progress.Record{Kind: progress.KindQuiz, Lesson: "other", ID: "q", Answer: "1", Passed: true})
	put(t, lms, progress.Record{Kind: progress.KindCell, Lesson: "l", ID: "c", Source: "from the LMS"})
	var recs []*progress.Record
	for _, r := range [][3]string{{progress.KindExercise, "l", "ex"}, {progress.KindQuiz, "was-l", "q"}, {progress.KindQuiz, "other", "q"}, {progress.KindCell, "l", "c"}} {
		recs = append(recs, lms.Get(r[0], r[1], r[2]))
	}
	data, _ := Encode(recs, SCORM2004.SuspendLimit())

	here := open(t)
	here.Now = func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) } // before the LMS's
	put(t, here, progress.Record{Kind: progress.KindCell, Lesson: "l", ID: "c", Source: "older, here"})
	here.Now = func() time.Time { return time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC) } // after
	put(t, here, progress.Record{Kind: progress.KindExercise, Lesson: "l", ID: "ex", Source: "newer, here"})
	n, err := Restore(ctx, here, data, "l", "was-l")
	if err != nil || n != 3 {
		t.Fatalf("took %d: %v", n, err)
	}
	if r := here.Get(progress.KindExercise, "l", "ex"); r.Source != "newer, here" || !r.Passed {
		t.Errorf("the exercise: %+v", r)
	}
	if r := here.Get(progress.KindCell, "l", "c"); r.Source != "from the LMS" {
		t.Errorf("the cell: %+v", r)
	}
	if here.Get(progress.KindQuiz, "was-l", "q") == nil || here.Get(progress.KindQuiz, "other", "q") != nil {
		t.Errorf("an earlier name's record not taken, or another lesson's taken")
	}

	before := string(here.Export())
	for name, bad := range map[string]string{
		"another program's":    "viewed=1,2,3|lastviewedslide=3",
		"a later format":       "gradbook2:AAAA",
		"not base64":           Prefix + "%%%",
		"not deflated":         Prefix + "aGVsbG8",
		"a newer schema":       pack([]byte(`{"gradbook":"progress","version":99,"records":[]}`)),
		"a bad record":         pack([]byte(`{"gradbook":"progress","version":2,"records":[{"v":2,"kind":"nonsense","lesson":"l","id":"x"}]}`)),
		"too long":             Prefix + strings.Repeat("A", MaxRead),
		"inflating past 5 MB":  pack([]byte(`{"gradbook":"progress","version":2,"records":[],"pad":"` + strings.Repeat(" ", progress.MaxImport) + `"}`)),
		"an old program's too": "gradbook0:x",
	} {
		if _, err := Restore(ctx, here, bad, "l"); !errors.Is(err, ErrUnreadable) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if after := string(here.Export()); after != before {
		t.Errorf("unreadable suspend data changed the progress")
	}
	if n, err := Restore(ctx, here, "", "l"); n != 0 || err != nil {
		t.Errorf("no suspend data: %d %v", n, err)
	}
}
