package lms

// This file holds the suspend data: the learner's work on a lesson, kept
// by the LMS so that it follows the learner to another browser.

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"gradbook/internal/words"
	"gradbook/notebook/progress"
)

// Prefix starts the suspend data Gradbook writes: the name and version of
// its format. What follows is a progress file (progress.FileOf), deflated
// and in base64url without padding.
const Prefix = "gradbook1:"

// Collect returns the learner's records of a lesson that its suspend data
// keeps: those that records names ("cell/worked", "quiz/x-plus-x", …: the
// lesson package's Records), and where the learner was.
func Collect(prog *progress.Progress, lesson string, records []string) []*progress.Record {
	var out []*progress.Record
	for _, name := range append(slices.Clip(records), progress.KindVisit+"/last") {
		kind, id, _ := strings.Cut(name, "/")
		if r := prog.Get(kind, lesson, id); r != nil {
			out = append(out, r)
		}
	}
	return out
}

// Left says what of the learner's work the suspend data left out to fit:
// it stays in the browser that has it.
type Left struct {
	Code    []string // ids of the cells and exercises whose code is not in it
	Answers []string // ids of the quizzes whose answer is not in it
	Place   bool     // where the learner was in the lesson
	Records int      // other records left out whole, passes and all
}

// Empty reports whether nothing was left out.
func (l Left) Empty() bool {
	return len(l.Code) == 0 && len(l.Answers) == 0 && !l.Place && l.Records == 0
}

// String says what was left out, for the learner: "your code in worked
// and write-backward, and where you were in the lesson".
func (l Left) String() string {
	var parts []string
	if len(l.Code) > 0 {
		parts = append(parts, "your code in "+words.And(l.Code))
	}
	if len(l.Answers) > 0 {
		parts = append(parts, "your answer to "+words.And(l.Answers))
	}
	if l.Place {
		parts = append(parts, "where you were in the lesson")
	}
	if l.Records > 0 {
		parts = append(parts, words.Count(l.Records, "record")+" whole, passes and all")
	}
	return words.And(parts)
}

// Encode writes a lesson's records (Collect's) as suspend data of at most
// limit characters. What does not fit is left out, least worth first:
// where the learner was, then the code of cells, the answers of quizzes
// and the code of exercises, each largest first, keeping every pass and
// right answer; then records whole, should even that not fit; and what
// was left out on the way but need not be is put back. Left says what
// was left out. A cell whose code is the lesson's keeps no code.
func Encode(recs []*progress.Record, limit int) (string, Left) {
	base := make([]progress.Record, len(recs))
	for i, r := range recs {
		c := *r
		if c.Kind == progress.KindCell && c.Source != "" && c.Authored == progress.Hash(c.Source) {
			c.Source, c.Authored = "", "" // the lesson's own code
		}
		base[i] = c
	}
	steps := shrinkSteps(base)
	// build applies the steps taken.
	build := func(taken []bool) (string, Left) {
		kept := slices.Clone(base)
		gone := make([]bool, len(kept))
		var left Left
		for j, st := range steps {
			r := &kept[st.i]
			if !taken[j] || gone[st.i] {
				continue
			}
			if !st.whole {
				switch {
				case r.Kind == progress.KindVisit:
					left.Place = true
				case r.Answer != "":
					left.Answers = append(left.Answers, r.ID)
				default:
					left.Code = append(left.Code, r.ID)
				}
				r.Source, r.Authored, r.Answer, r.Anchor = "", "", "", ""
				// Older than anything kept elsewhere: merged, it keeps
				// the code there and adds only its pass.
				r.Updated = 1
				gone[st.i] = !r.Passed
				continue
			}
			gone[st.i] = true
			left.Records++
		}
		var out []*progress.Record
		for i := range kept {
			if !gone[i] {
				out = append(out, &kept[i])
			}
		}
		return pack(progress.FileOf(out)), left
	}
	first := func(k int) []bool {
		taken := make([]bool, len(steps))
		for j := range k {
			taken[j] = true
		}
		return taken
	}
	if s, left := build(first(0)); len(s) <= limit {
		return s, left
	}
	lo, hi := 0, len(steps)
	if s, left := build(first(hi)); len(s) > limit {
		return "", left
	}
	// The fewest steps, in their order, that make it fit (each step makes
	// it smaller)…
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if s, _ := build(first(mid)); len(s) <= limit {
			hi = mid
		} else {
			lo = mid
		}
	}
	// …then each earlier step undone again where it still fits: where the
	// learner was stays when the code of a large cell is what did not fit.
	taken := first(hi)
	for j := range hi - 1 {
		taken[j] = false
		if s, _ := build(taken); len(s) > limit {
			taken[j] = true
		}
	}
	return build(taken)
}

// step is one way of making the suspend data smaller: leaving out the
// code, answer or place of a record (whole false), or the record itself.
type step struct {
	i     int
	whole bool
}

// shrinkSteps lists the steps in the order Encode takes them.
func shrinkSteps(recs []progress.Record) []step {
	rank := map[string]int{progress.KindVisit: 0, progress.KindCell: 1, progress.KindTask: 2, progress.KindQuiz: 3, progress.KindExercise: 4}
	weight := func(r progress.Record) int { return len(r.Source) + len(r.Answer) + len(r.Anchor) }
	var heavy, all []int
	for i, r := range recs {
		if weight(r) > 0 {
			heavy = append(heavy, i)
		}
		all = append(all, i)
	}
	slices.SortStableFunc(heavy, func(a, b int) int {
		if d := rank[recs[a].Kind] - rank[recs[b].Kind]; d != 0 {
			return d
		}
		return weight(recs[b]) - weight(recs[a])
	})
	slices.SortStableFunc(all, func(a, b int) int { return rank[recs[a].Kind] - rank[recs[b].Kind] })
	var steps []step
	for _, i := range heavy {
		steps = append(steps, step{i: i})
	}
	for _, i := range all {
		steps = append(steps, step{i: i, whole: true})
	}
	return steps
}

// pack deflates a progress file into suspend data.
func pack(file []byte) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write(file)
	w.Close()
	return Prefix + base64.RawURLEncoding.EncodeToString(b.Bytes())
}

// ErrUnreadable is wrapped by every reason suspend data cannot be read.
var ErrUnreadable = errors.New("the LMS's suspend data cannot be read")

// ErrNewer is wrapped too when a newer Gradbook wrote the suspend data:
// a newer format, or a newer schema of progress file.
var ErrNewer = errors.New("it was written by a newer version of Gradbook")

// Decode reads suspend data back into the progress file it holds, for
// progress.Read; "" holds nothing (nil). It refuses what Gradbook did not
// write, and what would inflate past progress.MaxImport.
func Decode(s string) ([]byte, error) {
	if s == "" {
		return nil, nil
	}
	rest, ok := strings.CutPrefix(s, Prefix)
	switch {
	case len(s) > MaxRead:
		return nil, fmt.Errorf("%w: it is longer than %s characters", ErrUnreadable, words.Int(MaxRead))
	case !ok && newer(s):
		return nil, fmt.Errorf("%w: %w", ErrUnreadable, ErrNewer)
	case !ok:
		return nil, fmt.Errorf("%w: it was not written by Gradbook", ErrUnreadable)
	}
	raw, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil {
		return nil, fmt.Errorf("%w: it is cut short or damaged (%v)", ErrUnreadable, err)
	}
	data, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(raw)), progress.MaxImport+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("%w: it is cut short or damaged", ErrUnreadable)
	case len(data) > progress.MaxImport:
		return nil, fmt.Errorf("%w: it holds more than %s", ErrUnreadable, words.Bytes(progress.MaxImport))
	}
	return data, nil
}

// newer reports whether suspend data starts as a newer Gradbook's would:
// "gradbook" and a version above Prefix's, then ":".
func newer(s string) bool {
	rest, ok := strings.CutPrefix(s, "gradbook")
	n, _, ok2 := strings.Cut(rest, ":")
	v, err := strconv.Atoi(n)
	return ok && ok2 && err == nil && len(n) < 10 && v > 1
}

// Restore takes the learner's work back from the LMS's suspend data into
// prog, as an import is taken (progress.Read: older schemas are migrated,
// a newer one or anything wrong refuses it whole and changes nothing),
// keeping only the records of lessons (the lesson, and its earlier names,
// whose records the page then moves to it). Each record merges with the
// one the browser holds by date: the newer wins, and a pass stays a pass.
// It returns how many records it took; an error that wraps ErrUnreadable
// changed nothing.
func Restore(ctx context.Context, prog *progress.Progress, data string, lessons ...string) (int, error) {
	file, err := Decode(data)
	if err != nil || file == nil {
		return 0, err
	}
	f, err := prog.Read(file)
	if errors.Is(err, progress.ErrNewerFile) {
		return 0, fmt.Errorf("%w: %w", ErrUnreadable, ErrNewer)
	}
	if err != nil {
		return 0, fmt.Errorf("%w: %s", ErrUnreadable, strings.TrimPrefix(err.Error(), progress.ErrBadImport.Error()+": "))
	}
	f.Only(lessons...)
	// Not the import's question of whose code to keep: the newer is the
	// learner's latest, on whichever machine it was written.
	f.Conflicts = nil
	return prog.Merge(ctx, f, false)
}
