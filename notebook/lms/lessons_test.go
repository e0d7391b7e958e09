package lms_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"gradbook/internal/jsontext"
	"gradbook/notebook/block"
	"gradbook/notebook/lesson"
	"gradbook/notebook/lms"
	"gradbook/notebook/progress"
)

// done gives a learner's progress with every item of l done, as the page
// saves it: every code cell run clean (with its code, edited if edit),
// every quiz answered right (an open one with an answer as long as the
// model's), every exercise passed with its solution, every task met, and
// where the learner was.
func done(t *testing.T, l *lesson.Lesson, edit bool) *progress.Progress {
	t.Helper()
	ctx := context.Background()
	p, err := progress.Open(ctx, progress.NewMemStore())
	if err != nil {
		t.Fatal(err)
	}
	put := func(r progress.Record) {
		r.Lesson = l.Slug
		if err := p.Put(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range l.Cells {
		switch c.Kind {
		case "python":
			src := c.Source
			if edit {
				src += "\nprint(\"my own line\")"
			}
			put(progress.Record{Kind: progress.KindCell, ID: c.ID, Source: src, Authored: progress.Hash(c.Source), Ran: true, Clean: true})
		case "quiz":
			q, err := block.ParseQuiz(c.ID, c.Source)
			if err != nil {
				t.Fatal(err)
			}
			var answer string
			switch q.Kind() {
			case "choice":
				for i, ch := range q.Choices {
					if ch.Correct {
						answer = strconv.Itoa(i)
					}
				}
			case "numeric":
				want, err := q.Expected()
				if err != nil {
					t.Fatal(err)
				}
				var typed []any
				for _, x := range want {
					typed = append(typed, strconv.FormatFloat(x, 'g', 6, 64))
				}
				answer = string(jsontext.Encode(typed))
			default:
				answer = q.Model
			}
			put(progress.Record{Kind: progress.KindQuiz, ID: c.ID, Answer: answer, Passed: true})
		case "exercise":
			x, err := block.ParseExercise(c.ID, c.Source)
			if err != nil {
				t.Fatal(err)
			}
			put(progress.Record{Kind: progress.KindExercise, ID: c.ID, Source: x.Solution, Authored: progress.Hash(x.Starter), Passed: true})
		}
	}
	for _, it := range l.Items() {
		if kind, id, _ := cut(it); kind == progress.KindTask {
			put(progress.Record{Kind: kind, ID: id, Passed: true})
		}
	}
	put(progress.Record{Kind: progress.KindVisit, ID: "last", Anchor: "cell-" + l.Cells[len(l.Cells)-1].ID})
	return p
}

func cut(item string) (kind, id string, ok bool) {
	for i := range item {
		if item[i] == '/' {
			return item[:i], item[i+1:], true
		}
	}
	return item, "", false
}

// Every lesson of Gradbook's, fully done, fits the suspend data of both
// versions whole and comes back complete. With the learner's own edits in
// every cell it fits 2004's whole; in 1.2's 4,096 characters the code of
// a cell may be left out (the GPT lessons' cells are long), but never a
// pass, a right answer or where the learner was, and the lesson still
// comes back complete: the figures the README gives.
func TestFullyDoneLessonsFit(t *testing.T) {
	lessons, err := lesson.LoadDir("../../site/lessons")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lessons {
		for _, edit := range []bool{false, true} {
			p := done(t, l, edit)
			st := lms.Measure(p, l.Slug, l.Items())
			if !st.Complete() || st.Scaled() != 1 {
				t.Fatalf("%s: not fully done: %+v", l.Slug, st)
			}
			recs := lms.Collect(p, l.Slug, l.Records())
			whole, left := lms.Encode(recs, lms.SCORM2004.SuspendLimit())
			if !left.Empty() || whole == "" {
				t.Errorf("%s (cells edited: %v): SCORM 2004 left out %s", l.Slug, edit, left)
			}
			data, left := lms.Encode(recs, lms.SCORM12.SuspendLimit())
			switch {
			case data == "":
				t.Errorf("%s (cells edited: %v): SCORM 1.2 keeps nothing", l.Slug, edit)
			case !edit && !left.Empty():
				t.Errorf("%s: SCORM 1.2 left out %s", l.Slug, left)
			case len(left.Answers) > 0 || left.Place || left.Records > 0:
				t.Errorf("%s (cells edited): SCORM 1.2 left out more than code: %s", l.Slug, left)
			}
			note := ""
			if !left.Empty() {
				note = "; 1.2 leaves out " + left.String() + " (" + strconv.Itoa(len(data)) + " characters)"
			}
			t.Logf("%-26s cells edited %-5v: %5d characters (1.2 keeps 4,096; 2004 64,000)%s", l.Slug, edit, len(whole), note)

			// Another browser gets it back: the lesson is complete there,
			// from either version's suspend data.
			for _, d := range []string{whole, data} {
				q, _ := progress.Open(context.Background(), progress.NewMemStore())
				q.Now = func() time.Time { return time.Now().Add(time.Hour) }
				if _, err := lms.Restore(context.Background(), q, d, l.Slug); err != nil {
					t.Fatal(err)
				}
				if got := lms.Measure(q, l.Slug, l.Items()); got != st {
					t.Errorf("%s: restored as %+v, want %+v", l.Slug, got, st)
				}
			}
		}
	}
}
