//go:build lms

package page_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"gradbook/notebook/lms"
	"gradbook/notebook/lms/lmstest"
	"gradbook/notebook/page"
	"gradbook/notebook/progress"
)

// These tests run with the lms tag, as a SCORM package's gradbook.wasm is
// built: go test -tags lms ./notebook/page.

// relaunching is an LMS that holds values and begins a new session when
// the page, reloaded, initializes again.
func relaunching(values map[string]string) *lmstest.API {
	api := lmstest.New(values)
	api.Relaunch = true
	return api
}

// inLMS opens a lesson of a SCORM package of version, with its passing
// score, launched by api (nil: no LMS is found).
func inLMS(api *lmstest.API, slug, version string, passing float64) func(*bench) {
	return func(b *bench) {
		b.markup = scormPage(b.t, slug, version, passing)
		b.lms = page.LMSLink(func(v lms.Version) (lms.API, bool) {
			if api == nil || v != lms.Version(version) {
				return nil, false
			}
			return api, true
		})
	}
}

// lmsStatus is what the page says it told the LMS.
func (b *bench) lmsStatus() string { return b.doc.ByID("lms-status").Text() }

// answerChoice answers the quiz choice of test-blocks with its option n.
func (b *bench) answerChoice(n int) {
	b.t.Helper()
	b.click(fmt.Sprintf(`#quiz-choice input[value="%d"]`, n))
	b.click("#quiz-choice button.answer")
}

// A launched lesson keeps the learner's work in a database of their own,
// reports at once what the LMS grades by, commits other changes within
// CommitEvery and when the page is hidden, and ends the session when the
// page goes.
func TestLMSLaunch(t *testing.T) {
	api := relaunching(map[string]string{"cmi.learner_id": "learner-1"})
	b := open(t, blocks, inLMS(api, "test-blocks", "2004", 0.8))
	if want := "gradbook-lms-" + progress.Hash("learner-1"); b.browser.database != want {
		t.Errorf("the progress is kept in %q, want %q", b.browser.database, want)
	}
	if got := b.lmsStatus(); got != "Reported to your LMS: 0 of 6 done." {
		t.Errorf("on launch the LMS status says %q", got)
	}
	if got := api.Value("cmi.completion_status"); got != "incomplete" {
		t.Errorf("the LMS holds completion %q", got)
	}
	commits := api.Committed()
	b.answerChoice(1)
	if got := b.lmsStatus(); got != "Reported to your LMS: 1 of 6 done, score 20% (80% passes)." {
		t.Errorf("after a right answer the LMS status says %q", got)
	}
	if api.Value("cmi.score.raw") != "20" || api.Value("cmi.success_status") != "failed" {
		t.Errorf("a graded change: score %q, success %q", api.Value("cmi.score.raw"), api.Value("cmi.success_status"))
	}
	// The click and all the work it started have ended without a commit
	// (an LMS's Commit blocks the page while it sends): the commit comes
	// CommitSoon later, on the page's timer.
	if api.Committed() != commits {
		t.Errorf("%d commits in the click that answered", api.Committed()-commits)
	}
	b.wait(lms.CommitSoon)
	if api.Committed() != commits+1 {
		t.Errorf("%d commits CommitSoon after a graded change, want 1", api.Committed()-commits)
	}

	// Code is not graded: it is committed within CommitEvery.
	commits = api.Committed()
	b.typeCode(b.cell("double"), "print('in the LMS')")
	b.wait(time.Second)
	if !strings.HasPrefix(api.Value("cmi.suspend_data"), lms.Prefix) || api.Committed() != commits {
		t.Errorf("after typing: suspend data %.20q…, %d commits", api.Value("cmi.suspend_data"), api.Committed()-commits)
	}
	b.wait(lms.CommitEvery)
	if api.Committed() != commits+1 {
		t.Errorf("%d commits after CommitEvery", api.Committed()-commits)
	}

	// Hidden, the page saves what waits and commits it; shown again, it
	// does nothing more.
	commits = api.Committed()
	b.typeCode(b.cell("double"), "print('hidden')")
	b.doc.SetHidden(true)
	b.p.Settle()
	if api.Committed() != commits+1 || b.keptSource("test-blocks", "double") != "print('hidden')" {
		t.Errorf("hidden: %d commits, the store keeps %q", api.Committed()-commits, b.keptSource("test-blocks", "double"))
	}
	b.doc.SetHidden(false)
	b.p.Settle()
	if api.Committed() != commits+1 {
		t.Errorf("shown again: %d commits", api.Committed()-commits)
	}

	b.doc.FireWindow("pagehide", false)
	b.p.Settle()
	if !api.Ended() || api.Value("cmi.exit") != "suspend" {
		t.Errorf("after pagehide: ended %v, exit %q", api.Ended(), api.Value("cmi.exit"))
	}
}

// A lesson launched to review shows the work and reports nothing.
func TestLMSReview(t *testing.T) {
	api := relaunching(map[string]string{"cmi.mode": "review"})
	b := open(t, blocks, inLMS(api, "test-blocks", "2004", 0))
	if got := b.lmsStatus(); got != "Review: your LMS shows this lesson to review, and nothing is reported to it." {
		t.Errorf("the LMS status says %q", got)
	}
	b.answerChoice(1)
	b.typeCode(b.cell("double"), "print('reviewed')")
	b.settle()
	b.doc.FireWindow("pagehide", false)
	if len(api.Set) != 0 {
		t.Errorf("the page set %q", api.Set)
	}
}

// An LMS that refuses to start the session, or a commit, is said; the
// lesson works and keeps the learner's work; outside an LMS the page
// says that nothing is reported.
func TestLMSRefuses(t *testing.T) {
	api := relaunching(nil)
	api.Refuse["Initialize"] = 102
	b := open(t, blocks, inLMS(api, "test-blocks", "2004", 0))
	b.noticeWith("Your LMS did not start this lesson's session (it refused Initialize: 102 General Initialization Failure). The lesson works and your work is kept in this browser, but your LMS does not hear of it: open the lesson again from your course to report to it.")
	if got := b.lmsStatus(); got != "Not reported to your LMS." {
		t.Errorf("the LMS status says %q", got)
	}
	if b.browser.database != "gradbook" {
		t.Errorf("the progress is kept in %q", b.browser.database)
	}

	api = relaunching(nil)
	api.Refuse["Commit"] = 391
	b = open(t, blocks, inLMS(api, "test-blocks", "2004", 0))
	b.answerChoice(1)
	b.wait(lms.CommitSoon)
	b.noticeWith("Your LMS did not take your progress: it refused Commit: 391 General Commit Failure. Your work is kept in this browser, and is sent again with your next change.")
	if got := b.lmsStatus(); got != "Not reported to your LMS: see the notice above." {
		t.Errorf("the LMS status says %q", got)
	}

	b = open(t, blocks, inLMS(nil, "test-blocks", "2004", 0))
	if got := b.lmsStatus(); got != "Not in an LMS: your progress is kept in this browser only." {
		t.Errorf("outside an LMS the status says %q", got)
	}
	b.noNotices()

	// A page of a version this build does not know reports nothing.
	b = open(t, blocks, inLMS(api, "test-blocks", "2004", 0), func(b *bench) {
		b.markup = strings.Replace(b.markup, `data-lms="2004"`, `data-lms="3000"`, 1)
	})
	if got := b.lmsStatus(); got != "" {
		t.Errorf("the LMS status says %q", got)
	}
}

// A reset reloads the page in the session that goes on: the session is
// committed, not ended, as the page goes, and the reloaded page reports
// to it.
func TestLMSResetGoesOn(t *testing.T) {
	// The reloaded page asks the LMS for the learner's id to learn that
	// the session goes on: an LMS always has one (an element not set
	// would be an error, as it is in SCORM).
	api := relaunching(map[string]string{"cmi.learner_id": "learner-1"})
	b := open(t, blocks, inLMS(api, "test-blocks", "2004", 0))
	b.answerChoice(1)
	b.click("#progress-panel summary")
	b.click("#reset-lesson")
	b.answer(b.find("#progress-panel"), true)
	b.doc.FireWindow("pagehide", false) // the browser leaves the page to reload it
	b.p.Settle()
	if api.Ended() {
		t.Error("the reload ended the session")
	}
	if got := b.reloadedSaying(); got != "This lesson is reset." {
		t.Errorf("after the reset the page says %q", got)
	}
	if n := len(b.notices()); n != 1 {
		t.Errorf("the notices: %q", b.notices())
	}
	if got := b.lmsStatus(); got != "Reported to your LMS: 0 of 6 done." {
		t.Errorf("the reloaded page's LMS status says %q", got)
	}
}

// The work the LMS keeps comes back on launch, also under a lesson's
// earlier name and of cells moved from another lesson; suspend data
// that cannot be read is said, and left as it is.
func TestLMSSuspendData(t *testing.T) {
	work, _ := lms.Encode([]*progress.Record{
		{V: progress.Version, Kind: progress.KindCell, Lesson: "test-blocks", ID: "double", Source: "print('from the LMS')", Updated: 1},
		{V: progress.Version, Kind: progress.KindQuiz, Lesson: "test-blocks", ID: "choice", Answer: "1", Passed: true, Updated: 1},
	}, 64000)
	b := open(t, blocks, inLMS(relaunching(map[string]string{"cmi.suspend_data": work}), "test-blocks", "2004", 0))
	if got := b.code(b.cell("double")); got != "print('from the LMS')" {
		t.Errorf("the cell holds %q", got)
	}
	if got := b.find("#quiz-choice").Attr("data-state"); got != "right" {
		t.Errorf("the quiz is %q", got)
	}

	moved, _ := lms.Encode([]*progress.Record{{V: progress.Version, Kind: progress.KindCell, Lesson: "05-every-path", ID: "smooth", Source: "print('moved')", Updated: 1}}, 64000)
	b = open(t, "lessons/checking-gradients.html", inLMS(relaunching(map[string]string{"cmi.suspend_data": moved}), "checking-gradients", "2004", 0.8))
	if got := b.code(b.cell("smooth")); got != "print('moved')" {
		t.Errorf("the moved cell holds %q", got)
	}

	api := relaunching(map[string]string{"cmi.suspend_data": "gradbook9:from a newer Gradbook"})
	b = open(t, blocks, inLMS(api, "test-blocks", "2004", 0))
	b.noticeWith("The work your LMS keeps for this lesson was written by a newer version of Gradbook, which this lesson cannot read. So as not to lose it, it is left as it is: open the lesson from its newer package to get it back. Your work here is kept in this browser, and your completion and score are still reported.")
	b.typeCode(b.cell("double"), "print('mine')")
	b.settle()
	if got := api.Value("cmi.suspend_data"); got != "gradbook9:from a newer Gradbook" {
		t.Errorf("the LMS holds %q", got)
	}

	// Suspend data that is not Gradbook's, or cut short, is set aside
	// and said; the learner's first change takes its place, and reaches
	// a fresh browser.
	for _, held := range []string{"not Gradbook's", work[:len(work)/2]} {
		api = relaunching(map[string]string{"cmi.suspend_data": held})
		b = open(t, blocks, inLMS(api, "test-blocks", "2004", 0))
		b.noticeWith("The work your LMS keeps for this lesson could not be read: ")
		b.noticeWith("It is set aside: your work in this browser is shown, and once you change something, your work takes its place in your LMS.")
		if got := api.Value("cmi.suspend_data"); got != held {
			t.Errorf("at launch the LMS's suspend data became %q", got)
		}
		b.answerChoice(1)
		b.typeCode(b.cell("double"), "print('mine')")
		b.settle()
		again := open(t, blocks, inLMS(relaunching(map[string]string{"cmi.suspend_data": api.Value("cmi.suspend_data")}), "test-blocks", "2004", 0))
		if got := again.code(again.cell("double")); got != "print('mine')" {
			t.Errorf("relaunched in a fresh browser, the cell holds %q", got)
		}
		if got := again.find("#quiz-choice").Attr("data-state"); got != "right" {
			t.Errorf("relaunched in a fresh browser, the quiz is %q", got)
		}
	}

	b = open(t, blocks, inLMS(relaunching(map[string]string{"cmi.learner_id": "learner-1", "cmi.suspend_data": work}), "test-blocks", "2004", 0), func(b *bench) {
		b.store.Err = errors.New("the disk is full")
	})
	b.noticeWith("Your work from your LMS is shown, but this browser could not keep a copy: the disk is full.")
}

// hexCode is code of n characters that does not compress.
func hexCode(seed uint64, n int) string {
	r := rand.New(rand.NewPCG(seed, 1))
	var s strings.Builder
	s.WriteString("x = '")
	for s.Len() < n {
		fmt.Fprintf(&s, "%016x", r.Uint64())
	}
	s.WriteString("'")
	return s.String()
}

// Work that does not fit in the LMS's suspend data is said in one
// notice, changed as it changes, and taken away once all fits.
func TestLMSWorkThatDoesNotFit(t *testing.T) {
	b := open(t, blocks, inLMS(relaunching(nil), "test-blocks", "1.2", 0))
	left := func() []string {
		var out []string
		for _, n := range b.notices() {
			if strings.HasPrefix(n, "Your LMS keeps at most") {
				out = append(out, n)
			}
		}
		return out
	}
	b.typeCode(b.cell("double"), hexCode(1, 8000))
	b.settle()
	if got := left(); len(got) != 1 || got[0] != "Your LMS keeps at most 4096 characters of work for this lesson, and yours takes more: your code in double did not fit, and only this browser keeps that." {
		t.Errorf("the notices: %q", got)
	}
	b.typeCode(b.cell("worked"), hexCode(2, 9000))
	b.settle()
	if got := left(); len(got) != 1 || !strings.Contains(got[0], "your code in worked and double did not fit") {
		t.Errorf("the notices: %q", got)
	}
	b.typeCode(b.cell("double"), "print('short')")
	b.typeCode(b.cell("worked"), "print('short')")
	b.settle()
	if got := left(); len(got) != 0 {
		t.Errorf("once all fits the notices: %q", got)
	}
	b.typeCode(b.cell("double"), hexCode(3, 8000))
	b.settle()
	if got := left(); len(got) != 1 {
		t.Errorf("the notices: %q", got)
	}
	if box := b.find("#notices"); box.HasAttr("hidden") {
		t.Error("the notices are hidden")
	}
}

// A page that comes back from the back/forward cache after its session
// ended says so.
func TestLMSBackAfterTheSessionEnded(t *testing.T) {
	api := relaunching(map[string]string{"cmi.learner_id": "learner-1"})
	b := open(t, blocks, inLMS(api, "test-blocks", "2004", 0))
	b.doc.FireWindow("pagehide", true)
	b.doc.FireWindow("pageshow", false)
	b.p.Settle()
	b.noNotices()
	b.doc.FireWindow("pageshow", true)
	b.p.Settle()
	b.noticeWith("This lesson's session with your LMS has ended: open the lesson again from your course to report to it. Your work is kept in this browser.")
	if got := b.lmsStatus(); got != "Not reported to your LMS: this lesson's session has ended." {
		t.Errorf("the LMS status says %q", got)
	}
	if !api.Ended() {
		t.Error("the session did not end")
	}
}

// A learner whose LMS does not say who they are is kept in no database
// another learner would share: the page keeps nothing, says so, and
// reports to the LMS.
func TestLMSLearnerUnknown(t *testing.T) {
	api := relaunching(map[string]string{"cmi.learner_id": ""})
	b := open(t, blocks, inLMS(api, "test-blocks", "2004", 0))
	if b.browser.database != "" {
		t.Errorf("the progress is kept in %q", b.browser.database)
	}
	b.noticeWith("Your progress is not kept in this browser: your LMS does not say who you are, and the next learner here could see it. Your work is sent to your LMS, and the cells still work.")
	b.answerChoice(1)
	b.settle()
	if got := api.Value("cmi.score.raw"); got != "20" {
		t.Errorf("the LMS holds the score %q", got)
	}
}
