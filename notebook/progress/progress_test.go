package progress

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

var ctx = context.Background()

func clock() func() time.Time {
	t := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(time.Second); return t }
}

func open(t *testing.T, s Store) *Progress {
	t.Helper()
	p, err := Open(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	p.Now = clock()
	return p
}

func TestPutAndReopen(t *testing.T) {
	s := NewMemStore()
	p := open(t, s)
	must(t, p.Put(ctx, Record{Kind: KindCell, Lesson: "l1", ID: "a", Source: "x = 1", Authored: Hash("x = 2"), Ran: true, Clean: true}))
	must(t, p.Put(ctx, Record{Kind: KindTask, Lesson: "l1", ID: "explore:t1", Passed: true}))
	must(t, p.Put(ctx, Record{Kind: KindQuiz, Lesson: "l1", ID: "q", Answer: "2", Passed: false}))
	must(t, p.Put(ctx, Record{Kind: KindVisit, Lesson: "l1", ID: "last", Anchor: "cell-a"}))
	must(t, p.Put(ctx, Record{Kind: KindVisit, Lesson: "l2", ID: "last"}))
	q := open(t, s)
	if r := q.Get(KindCell, "l1", "a"); r == nil || r.Source != "x = 1" || !r.Clean || r.Authored != Hash("x = 2") {
		t.Errorf("cell after reopening: %+v", r)
	}
	if got := q.Completion("l1", []string{"cell/a", "task/explore:t1", "quiz/q", "exercise/e"}); got != 2 {
		t.Errorf("completion %d, want 2", got)
	}
	if v := q.LastVisit(); v == nil || v.Lesson != "l2" {
		t.Errorf("last visit %+v", v)
	}
	if len(q.Notices) != 0 {
		t.Errorf("notices: %v", q.Notices)
	}
}

// A store holding records in the first schema, one corrupt record, and one
// from a newer version: the old ones migrate without loss, the rest is
// restored, and the learner is told.
func TestMigrationAndBadRecords(t *testing.T) {
	s := NewMemStore()
	s.m["cell/l1/a"] = []byte(`{"v":1,"lesson":"l1","cell":"a","code":"y = x * x","ok":true,"at":1700000000}`)
	s.m["cell/l1/b"] = []byte(`{"v":1,"lesson":"l1","cell":"b","code":"print(y)","ok":false,"at":1700000001}`)
	s.m["cell/l1/c"] = []byte(`{"v":2,"kind":"cell","lesson":"l1","id":"c","source":"z","clean":true,"updated":5}`)
	s.m["cell/l1/broken"] = []byte(`{"v":2,"kind":"cell","lesson":`)
	s.m["task/l1/future"] = []byte(`{"v":9,"kind":"task","lesson":"l1","id":"future"}`)
	p := open(t, s)
	a := p.Get(KindCell, "l1", "a")
	if a == nil || a.Source != "y = x * x" || !a.Clean || !a.Ran || a.Updated != 1700000000000 {
		t.Errorf("migrated a: %+v", a)
	}
	if b := p.Get(KindCell, "l1", "b"); b == nil || b.Clean || b.Source != "print(y)" {
		t.Errorf("migrated b: %+v", b)
	}
	if c := p.Get(KindCell, "l1", "c"); c == nil || c.Source != "z" {
		t.Errorf("current c: %+v", c)
	}
	// The migrated records were written back in the new shape.
	if !strings.Contains(string(s.m["cell/l1/a"]), `"v":2`) {
		t.Errorf("a was not rewritten: %s", s.m["cell/l1/a"])
	}
	// The unreadable ones are left alone, not deleted.
	if s.m["cell/l1/broken"] == nil || s.m["task/l1/future"] == nil {
		t.Error("an unreadable record was deleted")
	}
	notices := strings.Join(p.Notices, " ")
	for _, want := range []string{"1 record of your saved progress could not be read", "1 record was saved by a newer version", "2 records from an older version"} {
		if !strings.Contains(notices, want) {
			t.Errorf("notices %q lack %q", notices, want)
		}
	}
}

func TestExportImport(t *testing.T) {
	s := NewMemStore()
	p := open(t, s)
	must(t, p.Put(ctx, Record{Kind: KindCell, Lesson: "l1", ID: "a", Source: "mine"}))
	must(t, p.Put(ctx, Record{Kind: KindExercise, Lesson: "l2", ID: "ex", Source: "def backward(): pass", Passed: true}))
	file := p.Export()

	// Another machine: empty, then import.
	other := open(t, NewMemStore())
	n, err := importFile(ctx, other, file)
	if err != nil || n != 2 {
		t.Fatalf("import: %d %v", n, err)
	}
	if r := other.Get(KindExercise, "l2", "ex"); r == nil || !r.Passed {
		t.Errorf("imported exercise %+v", r)
	}

	// A bad or foreign file changes nothing.
	records := func() string {
		var lines []string
		for _, l := range strings.Split(string(other.Export()), "\n") {
			if !strings.Contains(l, `"exported"`) {
				lines = append(lines, l)
			}
		}
		return strings.Join(lines, "\n")
	}
	before := records()
	for name, bad := range map[string]string{
		"not JSON":          "hello",
		"foreign JSON":      `{"name": "something else"}`,
		"newer":             `{"gradbook":"progress","version":99,"records":[]}`,
		"one bad record":    `{"gradbook":"progress","version":2,"records":[{"v":2,"kind":"cell","lesson":"l1","id":"z","source":"ok"},{"v":2,"kind":"nonsense","lesson":"l1","id":"y"}]}`,
		"record without id": `{"gradbook":"progress","version":2,"records":[{"v":2,"kind":"cell","lesson":"l1"}]}`,
	} {
		if _, err := importFile(ctx, other, []byte(bad)); !errors.Is(err, ErrBadImport) {
			t.Errorf("%s: error %v", name, err)
		}
		if records() != before {
			t.Errorf("%s: a refused import changed the progress", name)
		}
	}
}

func TestMergeRules(t *testing.T) {
	have := &Record{Kind: KindQuiz, Lesson: "l", ID: "q", Answer: "1", Passed: true, Updated: 10}
	in := &Record{Kind: KindQuiz, Lesson: "l", ID: "q", Answer: "0", Passed: false, Updated: 20}
	m := merge(have, in)
	if m.Answer != "0" || !m.Passed {
		t.Errorf("newer answer wins but a right answer stays right: %+v", m)
	}
	old := &Record{Kind: KindCell, Lesson: "l", ID: "c", Source: "old", Updated: 5}
	if m := merge(&Record{Kind: KindCell, Lesson: "l", ID: "c", Source: "new", Updated: 9}, old); m.Source != "new" {
		t.Errorf("an older import replaced a newer edit: %+v", m)
	}
}

func TestResetAndFailingStore(t *testing.T) {
	s := NewMemStore()
	p := open(t, s)
	must(t, p.Put(ctx, Record{Kind: KindCell, Lesson: "l1", ID: "a", Source: "1"}))
	must(t, p.Put(ctx, Record{Kind: KindCell, Lesson: "l2", ID: "b", Source: "2"}))
	must(t, p.ResetLesson(ctx, "l1"))
	if p.Get(KindCell, "l1", "a") != nil || p.Get(KindCell, "l2", "b") == nil || len(s.m) != 1 {
		t.Errorf("reset lesson: %v", s.m)
	}
	// A full store: the error is reported, nothing already saved is lost.
	s.Err = errors.New("QuotaExceededError")
	if err := p.Put(ctx, Record{Kind: KindCell, Lesson: "l2", ID: "c", Source: "3"}); err == nil {
		t.Error("a failing store did not report")
	}
	if len(s.m) != 1 {
		t.Errorf("saved records changed: %v", s.m)
	}
	s.Err = nil
	must(t, p.ResetAll(ctx))
	if len(s.m) != 0 {
		t.Errorf("reset all left %v", s.m)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestRecordRoundTrip(t *testing.T) {
	r := Record{V: Version, Kind: KindQuiz, Lesson: "l", ID: "q\"1", Source: "a\nb", Authored: "h", Ran: true, Clean: true,
		Passed: true, Answer: `["-3","1/2"]`, Order: 3, Anchor: "cell-x", Updated: 1764500000123}
	back, old, err := decode(r.encode())
	if err != nil || old || *back != r {
		t.Errorf("round trip: %+v %v %v\nwant %+v", back, old, err, r)
	}
	if _, _, err := decode([]byte(`{"v":2,"kind":"cell","lesson":"l","id":"x","ran":"yes","updated":1}`)); err == nil {
		t.Error("a field of the wrong type was accepted")
	}
}

// An import is checked, not trusted: no bigger than MaxImport, no dates
// from the future, and code that differs from the saved code is replaced
// only when the learner says so.
func TestImportIsChecked(t *testing.T) {
	p := open(t, NewMemStore())
	must(t, p.Put(ctx, Record{Kind: KindCell, Lesson: "l1", ID: "a", Source: "mine"}))
	must(t, p.Put(ctx, Record{Kind: KindCell, Lesson: "l1", ID: "same", Source: "same code"}))
	file := func(recs ...string) []byte {
		return []byte(`{"gradbook":"progress","version":2,"records":[` + strings.Join(recs, ",") + `]}`)
	}
	data := file(
		`{"v":2,"kind":"cell","lesson":"l1","id":"a","source":"from the future","updated":9e15}`,
		`{"v":2,"kind":"cell","lesson":"l1","id":"same","source":"same code","clean":true,"ran":true,"updated":1}`,
		`{"v":2,"kind":"cell","lesson":"l1","id":"new","source":"only in the file","updated":9e15}`,
	)
	f, err := p.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Conflicts) != 1 || f.Conflicts[0].ID != "a" {
		t.Fatalf("conflicts %+v, want the one cell whose code differs", f.Conflicts)
	}
	now := p.Now().UnixMilli()
	for _, r := range f.recs {
		if r.Updated > now {
			t.Errorf("record %s keeps its date from the future: %d > %d", r.ID, r.Updated, now)
		}
	}
	if _, err := p.Merge(ctx, f, true); err != nil {
		t.Fatal(err)
	}
	if r := p.Get(KindCell, "l1", "a"); r.Source != "mine" {
		t.Errorf("keep mine: the saved code became %q", r.Source)
	}
	if r := p.Get(KindCell, "l1", "new"); r == nil || r.Source != "only in the file" || r.Updated > p.Now().UnixMilli() {
		t.Errorf("a new cell from the file: %+v", r)
	}
	f, _ = p.Read(data)
	if _, err := p.Merge(ctx, f, false); err != nil {
		t.Fatal(err)
	}
	if r := p.Get(KindCell, "l1", "a"); r.Source != "from the future" || r.Updated > p.Now().UnixMilli() {
		t.Errorf("take the file's: %+v", r)
	}

	big := file(`{"v":2,"kind":"cell","lesson":"l1","id":"b","source":"` + strings.Repeat("x", MaxImport) + `"}`)
	if _, err := p.Read(big); !errors.Is(err, ErrBadImport) || !strings.Contains(err.Error(), "at most 5 MB") {
		t.Errorf("a file over the limit: %v", err)
	}
}

// A lesson split in two: the records of the cells that moved follow them,
// through a reopening, and the rest stay.
func TestMove(t *testing.T) {
	s := NewMemStore()
	p := open(t, s)
	must(t, p.Put(ctx, Record{Kind: KindCell, Lesson: "old", ID: "kept", Source: "a = 1", Ran: true, Clean: true}))
	must(t, p.Put(ctx, Record{Kind: KindCell, Lesson: "old", ID: "moved", Source: "b = 2", Ran: true, Clean: true}))
	must(t, p.Put(ctx, Record{Kind: KindQuiz, Lesson: "old", ID: "q", Answer: "1", Passed: true}))
	must(t, p.Put(ctx, Record{Kind: KindExercise, Lesson: "new", ID: "x", Source: "newer"}))
	must(t, p.Put(ctx, Record{Kind: KindExercise, Lesson: "old", ID: "x", Source: "older"}))
	must(t, p.Put(ctx, Record{Kind: KindExercise, Lesson: "new", ID: "x", Source: "newest"}))
	n, err := p.Move(ctx, "old", "new", []string{"cell/moved", "quiz/q", "exercise/x", "cell/never-saved"})
	must(t, err)
	if n != 3 {
		t.Errorf("moved %d, want 3", n)
	}
	q := open(t, s)
	if r := q.Get(KindCell, "new", "moved"); r == nil || r.Source != "b = 2" || !r.Clean {
		t.Errorf("moved cell: %+v", r)
	}
	if q.Get(KindCell, "old", "moved") != nil || q.Get(KindCell, "old", "kept") == nil {
		t.Error("the old lesson should keep only what did not move")
	}
	if r := q.Get(KindExercise, "new", "x"); r == nil || r.Source != "newest" {
		t.Errorf("the newer record should win: %+v", r)
	}
	if got := q.Completion("new", []string{"cell/moved", "quiz/q"}); got != 2 {
		t.Errorf("completion after the move %d, want 2", got)
	}
	if n, _ := q.Move(ctx, "old", "new", []string{"cell/moved"}); n != 0 {
		t.Errorf("a second move moved %d", n)
	}
}

// importFile reads a file and merges it keeping the saved code, as the
// page does when there is nothing to ask.
func importFile(ctx context.Context, p *Progress, data []byte) (int, error) {
	f, err := p.Read(data)
	if err != nil {
		return 0, err
	}
	return p.Merge(ctx, f, true)
}

// Lesson "L/x" with id "y" and lesson "L" with id "x/y" are two records;
// a record stored under the unescaped key of older builds is renamed.
func TestKeysDoNotCollide(t *testing.T) {
	s := NewMemStore()
	p := open(t, s)
	must(t, p.Put(ctx, Record{Kind: KindCell, Lesson: "embed:/course/L/x", ID: "y", Source: "one"}))
	must(t, p.Put(ctx, Record{Kind: KindCell, Lesson: "embed:/course/L", ID: "x/y", Source: "two"}))
	again := open(t, s)
	a, b := again.Get(KindCell, "embed:/course/L/x", "y"), again.Get(KindCell, "embed:/course/L", "x/y")
	if a == nil || b == nil || a.Source != "one" || b.Source != "two" {
		t.Fatalf("records %+v %+v", a, b)
	}
	// An older build's key.
	old := NewMemStore()
	r := Record{V: Version, Kind: KindCell, Lesson: "embed:/course/page.html", ID: "inline-1", Source: "kept", Updated: 5}
	old.m["cell/embed:/course/page.html/inline-1"] = r.encode()
	p = open(t, old)
	if got := p.Get(KindCell, "embed:/course/page.html", "inline-1"); got == nil || got.Source != "kept" {
		t.Fatalf("the old record: %+v", got)
	}
	if _, ok := old.m["cell/embed:%2Fcourse%2Fpage.html/inline-1"]; !ok || len(old.m) != 1 {
		t.Errorf("the store holds %q", keysOf(old.m))
	}
	if len(p.Notices) > 0 {
		t.Errorf("notices %q", p.Notices)
	}
}

func keysOf(m map[string][]byte) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// Errors of many saves are said once each, with how many records.
func TestJoinErrs(t *testing.T) {
	full := errors.New("the browser's storage for this site is full")
	err := joinErrs([]error{full, nil, full, full})
	if err == nil || err.Error() != "the browser's storage for this site is full (3 records)" || !errors.Is(err, full) {
		t.Errorf("error %q", err)
	}
	if joinErrs([]error{nil, nil}) != nil {
		t.Error("no errors make an error")
	}
}

// Two tabs on one storage: a pass saved in one is never lost to a save
// from the other's older copy, and code saved in both is told of.
func TestTwoTabs(t *testing.T) {
	s := NewMemStore()
	a, b := open(t, s), open(t, s)
	var told []Record
	b.Elsewhere = func(r Record) { told = append(told, r) }
	must(t, a.Put(ctx, Record{Kind: KindExercise, Lesson: "l", ID: "ex", Source: "solved", Passed: true}))
	// b still holds no record of ex: typing saves its own, not passed.
	must(t, b.Put(ctx, Record{Kind: KindExercise, Lesson: "l", ID: "ex", Source: "solved "}))
	fresh := open(t, s)
	if r := fresh.Get(KindExercise, "l", "ex"); r == nil || !r.Passed || r.Source != "solved " {
		t.Errorf("after the other tab's save: %+v", r)
	}
	if len(told) != 1 || told[0].Source != "solved" {
		t.Errorf("told %+v", told)
	}
	// A tab that saves again what it knows is not told again.
	told = nil
	must(t, b.Put(ctx, Record{Kind: KindExercise, Lesson: "l", ID: "ex", Source: "solved  "}))
	if len(told) != 0 {
		t.Errorf("told %+v", told)
	}
}

// Saving the scratch notebook writes only what changed, in one batch.
func TestSetScratch(t *testing.T) {
	s := &countingStore{MemStore: NewMemStore()}
	p := open(t, s)
	cells := []ScratchCell{{"scratch-1", "a = 1"}, {"scratch-2", "print(a)"}, {"scratch-3", "b = 2"}}
	must(t, p.SetScratch(ctx, cells, nil))
	if s.batches != 1 || s.writes != 3 {
		t.Errorf("first save: %d batches, %d writes", s.batches, s.writes)
	}
	cells[1].Source = "print(a + 1)"
	must(t, p.SetScratch(ctx, cells, nil))
	if s.batches != 2 || s.writes != 4 {
		t.Errorf("one edit: %d batches, %d writes in all", s.batches, s.writes)
	}
	must(t, p.SetScratch(ctx, []ScratchCell{cells[2], cells[0]}, []string{"scratch-2"}))
	again := open(t, s.MemStore)
	recs := again.All(KindScratch, "scratch")
	SortByOrder(recs)
	if len(recs) != 2 || recs[0].ID != "scratch-3" || recs[1].ID != "scratch-1" {
		t.Errorf("after a move and a delete: %+v", recs)
	}
}

type countingStore struct {
	*MemStore
	batches, writes int
}

func (s *countingStore) SaveAll(ctx context.Context, values map[string][]byte) error {
	s.batches++
	s.writes += len(values)
	return s.MemStore.SaveAll(ctx, values)
}

// A file of some records alone reads back as those records, and Only
// leaves out the records of other lessons, conflicts included.
func TestFileOfAndOnly(t *testing.T) {
	p := open(t, NewMemStore())
	must(t, p.Put(ctx, Record{Kind: KindExercise, Lesson: "l1", ID: "ex", Source: "def f(): pass", Passed: true}))
	must(t, p.Put(ctx, Record{Kind: KindCell, Lesson: "l2", ID: "c", Source: "x = 1"}))
	data := FileOf([]*Record{p.Get(KindExercise, "l1", "ex"), p.Get(KindCell, "l2", "c")})
	if strings.Contains(string(data), `"exported"`) {
		t.Errorf("FileOf wrote a date: %s", data)
	}

	other := open(t, NewMemStore())
	must(t, other.Put(ctx, Record{Kind: KindCell, Lesson: "l2", ID: "c", Source: "x = 2"}))
	f, err := other.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Conflicts) != 1 {
		t.Fatalf("conflicts %v, want the cell of l2", f.Conflicts)
	}
	if left := f.Only("l1"); left != 1 || len(f.Conflicts) != 0 {
		t.Fatalf("Only left out %d records, kept conflicts %v", left, f.Conflicts)
	}
	if n, err := other.Merge(ctx, f, true); err != nil || n != 1 {
		t.Fatalf("merge: %d %v", n, err)
	}
	if r := other.Get(KindExercise, "l1", "ex"); r == nil || !r.Passed || r.Source != "def f(): pass" {
		t.Errorf("the exercise came back as %+v", r)
	}
	if r := other.Get(KindCell, "l2", "c"); r == nil || r.Source != "x = 2" {
		t.Errorf("another lesson's cell changed: %+v", r)
	}
}
