// Package progress keeps a learner's progress: every cell's edited source
// and whether its last run was clean, explore tasks done, quiz answers,
// exercises passed, scratch cells, and the last place visited. Records are
// small JSON documents under string keys in a Store: IndexedDB in the
// browser (package web), memory in tests.
//
// Records carry a schema version. Open migrates older records and
// rewrites them; it skips, with a notice, a record it cannot read or one
// written by a newer version, and restores the rest. Export and Import
// move all of it to another machine; Import checks the whole file before
// changing anything.
package progress

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"gradbook/internal/jsontext"
	"gradbook/internal/words"
)

// Version is the schema version of the records this package writes.
const Version = 2

// Store keeps records under keys. Save with a nil value deletes the key.
type Store interface {
	Load(ctx context.Context) (map[string][]byte, error)
	Save(ctx context.Context, key string, value []byte) error
}

// An Updater is a Store that can read a record and write it again in one
// transaction: change is given what the store holds now (nil if nothing)
// and returns what to write. Put uses it, so that a save from one tab
// never overwrites, unseen, what another tab saved since (IndexedDB is
// shared by every tab of the site).
type Updater interface {
	Update(ctx context.Context, key string, change func(old []byte) []byte) error
}

// A Batcher is a Store that saves many records in one transaction (a nil
// value deletes): imports and resets use it.
type Batcher interface {
	SaveAll(ctx context.Context, values map[string][]byte) error
}

// saveAll saves values in one transaction where the store can, else one
// by one.
func (p *Progress) saveAll(ctx context.Context, values map[string][]byte) error {
	if len(values) == 0 {
		return nil
	}
	if b, ok := p.store.(Batcher); ok {
		return b.SaveAll(ctx, values)
	}
	var errs []error
	for k, v := range values {
		errs = append(errs, p.store.Save(ctx, k, v))
	}
	return joinErrs(errs)
}

// The kinds of record.
const (
	KindCell     = "cell"     // a code cell: its source and last run
	KindTask     = "task"     // an explore task: done
	KindQuiz     = "quiz"     // a quiz: the answer and whether it was right
	KindExercise = "exercise" // an exercise: its source and whether it passed
	KindScratch  = "scratch"  // a cell of the scratch notebook
	KindVisit    = "visit"    // a lesson visited, and where: id "last"
)

var kinds = map[string]bool{KindCell: true, KindTask: true, KindQuiz: true, KindExercise: true, KindScratch: true, KindVisit: true}

// Record is one piece of progress.
type Record struct {
	V      int
	Kind   string
	Lesson string
	ID     string
	// Source is a cell's or an exercise's code as the learner left it, and
	// Authored the hash of the lesson's code it was edited from.
	Source   string
	Authored string
	// Ran and Clean tell whether the last run happened and had no error
	// and no failed check.
	Ran   bool
	Clean bool
	// Passed is a task done, a quiz answered right, an exercise passed.
	Passed bool
	// Answer is a quiz's answer as the learner gave it; Skipped is a
	// prediction the learner chose not to make.
	Answer  string
	Skipped bool
	// Order places a scratch cell; Anchor is where a visit ended.
	Order   int
	Anchor  string
	Updated int64 // milliseconds since 1970
}

// Key is where the record is kept.
func (r *Record) Key() string { return Key(r.Kind, r.Lesson, r.ID) }

// Key names a record: its kind, lesson and id joined by "/", each with its
// own "/" and "%" escaped, so that lesson "L/x" with id "y" and lesson "L"
// with id "x/y" are two records.
func Key(kind, lesson, id string) string {
	return keyPart.Replace(kind) + "/" + keyPart.Replace(lesson) + "/" + keyPart.Replace(id)
}

var keyPart = strings.NewReplacer("%", "%25", "/", "%2F")

// legacyKey is how builds before December 2026 named a record, unescaped:
// records stored so are renamed when progress is opened.
func legacyKey(r *Record) string { return r.Kind + "/" + r.Lesson + "/" + r.ID }

// Done reports whether the record counts towards a lesson's completion.
func (r *Record) Done() bool {
	if r.Kind == KindCell {
		return r.Clean
	}
	return r.Passed
}

func (r *Record) check() error {
	switch {
	case !kinds[r.Kind]:
		return fmt.Errorf("unknown kind %q", r.Kind)
	case r.Lesson == "":
		return errors.New("no lesson")
	case r.ID == "":
		return errors.New("no id")
	case r.V < 1 || r.V > Version:
		return fmt.Errorf("schema version %d", r.V)
	}
	return nil
}

// Hash identifies an authored source, so a saved edit knows which version
// of the lesson it was made from.
func Hash(source string) string {
	h := fnv.New64a()
	h.Write([]byte(source))
	return fmt.Sprintf("%016x", h.Sum64())
}

// Progress is the learner's progress, kept in a Store.
//
// Its methods may be called from several goroutines: it holds one lock
// for each, the store's work included, so that one operation sees and
// leaves the records whole. Saving and Elsewhere are called under that
// lock: they must not call back into the Progress.
type Progress struct {
	mu    sync.Mutex
	store Store
	recs  map[string]*Record
	// Notices are things the learner should be told: records skipped,
	// records migrated.
	Notices []string
	// Now returns the time; tests replace it.
	Now func() time.Time
	// Saving, if not nil, is told how many records of a Merge are saved
	// so far, and of how many.
	Saving func(done, total int)
	// Elsewhere, if not nil, is told of a record that another tab saved
	// with other code since this page read it, when Put saves this page's
	// code over it.
	Elsewhere func(theirs Record)
}

// Open loads every record from store, migrating old ones.
func Open(ctx context.Context, store Store) (*Progress, error) {
	p := &Progress{store: store, recs: map[string]*Record{}, Now: time.Now}
	raw, err := store.Load(ctx)
	if err != nil {
		return p, err
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	skipped, newer, migrated := 0, 0, 0
	for _, k := range keys {
		r, old, err := decode(raw[k])
		switch {
		case errors.Is(err, errNewer):
			newer++
			continue
		case err != nil:
			skipped++
			continue
		}
		if r.Key() != k && legacyKey(r) != k {
			skipped++
			continue
		}
		if r.Key() != k { // stored under the unescaped key of older builds
			if p.recs[r.Key()] == nil || p.recs[r.Key()].Updated < r.Updated {
				p.recs[r.Key()] = r
			}
			err := errors.Join(store.Save(ctx, r.Key(), p.recs[r.Key()].encode()), store.Save(ctx, k, nil))
			if err != nil {
				p.Notices = append(p.Notices, "Your saved progress was updated to this version but could not be written back: "+err.Error())
			}
			continue
		}
		if cur := p.recs[k]; cur != nil && cur.Updated >= r.Updated {
			continue // renamed from an older key, and newer
		}
		p.recs[k] = r
		if old {
			migrated++
			if err := store.Save(ctx, k, r.encode()); err != nil {
				p.Notices = append(p.Notices, "Your saved progress was updated to this version but could not be written back: "+err.Error())
			}
		}
	}
	if skipped > 0 {
		p.Notices = append(p.Notices, fmt.Sprintf("%s of your saved progress could not be read and %s skipped; everything else is restored.", words.Count(skipped, "record"), words.Plural(skipped, "is", "are")))
	}
	if newer > 0 {
		p.Notices = append(p.Notices, fmt.Sprintf("%s %s saved by a newer version of Gradbook: kept, but not shown.", words.Count(newer, "record"), words.Plural(newer, "was", "were")))
	}
	if migrated > 0 {
		p.Notices = append(p.Notices, fmt.Sprintf("%s from an older version of Gradbook %s updated.", words.Count(migrated, "record"), words.Plural(migrated, "was", "were")))
	}
	return p, nil
}

var errNewer = errors.New("written by a newer version")

// decode reads a record of any known version; old reports a migration.
//
// Version 1 was the first schema: code cells only, {"v":1,"lesson":…,
// "cell":…,"code":…,"ok":…,"at":…} with at in seconds.
func decode(b []byte) (r *Record, old bool, err error) {
	v, err := jsontext.Decode(b)
	if err != nil {
		return nil, false, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false, errors.New("not an object")
	}
	version, _ := jsontext.Number(m, "v")
	switch {
	case version > Version:
		return nil, false, errNewer
	case version == 1:
		str := func(k string) string { s, _ := jsontext.String(m, k); return s }
		ok, _ := jsontext.Bool(m, "ok")
		at, _ := jsontext.Number(m, "at")
		r = &Record{V: Version, Kind: KindCell, Lesson: str("lesson"), ID: str("cell"), Source: str("code"), Ran: true, Clean: ok, Updated: int64(at) * 1000}
		return r, true, r.check()
	case version == Version:
		r, err = fromMap(m)
		if err != nil {
			return nil, false, err
		}
		return r, false, r.check()
	}
	return nil, false, fmt.Errorf("schema version %v", version)
}

// fromMap reads a record in the current schema from a decoded object.
func fromMap(m map[string]any) (*Record, error) {
	r := &Record{}
	for k, v := range m {
		var ok bool
		switch p := r.field(k).(type) {
		case *string:
			*p, ok = v.(string)
		case *bool:
			*p, ok = v.(bool)
		case *int:
			var f float64
			f, ok = v.(float64)
			*p = int(f)
		case *int64:
			var f float64
			f, ok = v.(float64)
			*p = int64(f)
		default:
			ok = true // a field from elsewhere: ignored
		}
		if !ok {
			return nil, fmt.Errorf("field %q has the wrong type", k)
		}
	}
	return r, nil
}

// field returns a pointer to the field of r that the schema calls name,
// or nil.
func (r *Record) field(name string) any {
	switch name {
	case "v":
		return &r.V
	case "kind":
		return &r.Kind
	case "lesson":
		return &r.Lesson
	case "id":
		return &r.ID
	case "source":
		return &r.Source
	case "authored":
		return &r.Authored
	case "ran":
		return &r.Ran
	case "clean":
		return &r.Clean
	case "passed":
		return &r.Passed
	case "answer":
		return &r.Answer
	case "skipped":
		return &r.Skipped
	case "order":
		return &r.Order
	case "anchor":
		return &r.Anchor
	case "updated":
		return &r.Updated
	}
	return nil
}

// encode writes the record in the current schema, leaving out empty
// fields.
func (r *Record) encode() []byte {
	o := jsontext.Object{{Name: "v", Value: r.V}, {Name: "kind", Value: r.Kind}, {Name: "lesson", Value: r.Lesson}, {Name: "id", Value: r.ID}}
	for _, f := range []struct {
		name string
		v    any
		set  bool
	}{
		{"source", r.Source, r.Source != ""}, {"authored", r.Authored, r.Authored != ""},
		{"ran", r.Ran, r.Ran}, {"clean", r.Clean, r.Clean}, {"passed", r.Passed, r.Passed},
		{"answer", r.Answer, r.Answer != ""}, {"skipped", r.Skipped, r.Skipped}, {"order", r.Order, r.Order != 0}, {"anchor", r.Anchor, r.Anchor != ""},
	} {
		if f.set {
			o = append(o, jsontext.Member{Name: f.name, Value: f.v})
		}
	}
	o = append(o, jsontext.Member{Name: "updated", Value: r.Updated})
	return jsontext.Encode(o)
}

// Get returns the record of a kind, lesson and id, or nil.
func (p *Progress) Get(kind, lesson, id string) *Record {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r, ok := p.recs[Key(kind, lesson, id)]; ok {
		c := *r
		return &c
	}
	return nil
}

// All returns every record of a kind (in any lesson if lesson is ""),
// sorted by key.
func (p *Progress) All(kind, lesson string) []*Record {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.all(kind, lesson)
}

func (p *Progress) all(kind, lesson string) []*Record {
	var out []*Record
	for _, r := range p.recs {
		if r.Kind == kind && (lesson == "" || r.Lesson == lesson) {
			c := *r
			out = append(out, &c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}

// Put saves r. It is kept in memory even if the store fails, and the
// error says why it was not saved.
//
// Where the store is an Updater, r is merged with what the store holds
// now: if another tab saved the record since this page read it, a pass,
// a task done or a quiz right stays so, and if that tab saved other code,
// Elsewhere is called (this page's code is what is kept: it is the one
// the learner sees).
func (p *Progress) Put(ctx context.Context, r Record) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	r.V = Version
	r.Updated = p.Now().UnixMilli()
	if err := r.check(); err != nil {
		return err
	}
	key := r.Key()
	known := p.recs[key]
	p.recs[key] = &r
	u, ok := p.store.(Updater)
	if !ok {
		return p.store.Save(ctx, key, r.encode())
	}
	var theirs *Record
	err := u.Update(ctx, key, func(old []byte) []byte {
		now := r
		if stored, _, err := decode(old); err == nil && stored.Key() == key && (known == nil || stored.Updated > known.Updated) {
			theirs = stored // saved elsewhere since this page read it
			now.Passed = now.Passed || stored.Passed
			now.Clean = now.Clean || (stored.Clean && stored.Source == now.Source)
		}
		p.recs[key] = &now
		return now.encode()
	})
	if theirs != nil && theirs.Source != r.Source && theirs.Source != known.source() && p.Elsewhere != nil {
		p.Elsewhere(*theirs)
	}
	return err
}

// Outdated reports whether the lesson's code for r's cell or exercise is
// no longer the code r was edited from: the lesson changed under the
// learner's own version (authored is the lesson's code now).
func (r *Record) Outdated(authored string) bool {
	return r.Authored != "" && r.Authored != Hash(authored) && r.Source != authored
}

// source is a record's code, "" for none.
func (r *Record) source() string {
	if r == nil {
		return ""
	}
	return r.Source
}

// Delete removes the record of a kind, lesson and id.
func (p *Progress) Delete(ctx context.Context, kind, lesson, id string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	k := Key(kind, lesson, id)
	delete(p.recs, k)
	return p.store.Save(ctx, k, nil)
}

// Move gives lesson to the records of lesson from whose ids are in items
// ("kind/id", as Completion takes them): for a lesson split in two, or
// cells that changed lessons. Where to already has a record, the newer of
// the two is kept. It returns how many records moved.
func (p *Progress) Move(ctx context.Context, from, to string, items []string) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	values := map[string][]byte{}
	moved := 0
	for _, it := range items {
		kind, id, _ := strings.Cut(it, "/")
		old, ok := p.recs[Key(kind, from, id)]
		if !ok {
			continue
		}
		r := *old
		r.Lesson = to
		if cur, ok := p.recs[r.Key()]; !ok || cur.Updated < r.Updated {
			p.recs[r.Key()] = &r
			values[r.Key()] = r.encode()
		}
		delete(p.recs, Key(kind, from, id))
		values[Key(kind, from, id)] = nil
		moved++
	}
	return moved, p.saveAll(ctx, values)
}

// ResetLesson removes every record of a lesson.
func (p *Progress) ResetLesson(ctx context.Context, lesson string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	values := map[string][]byte{}
	for k, r := range p.recs {
		if r.Lesson == lesson {
			delete(p.recs, k)
			values[k] = nil
		}
	}
	return p.saveAll(ctx, values)
}

// ResetAll removes every record.
func (p *Progress) ResetAll(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	values := map[string][]byte{}
	for k := range p.recs {
		delete(p.recs, k)
		values[k] = nil
	}
	return p.saveAll(ctx, values)
}

// TryLesson returns a copy of a lesson's records, in a Progress of their
// own that keeps them in memory, unless another operation holds the
// records now (false): for a page that is going away, and must not wait.
func (p *Progress) TryLesson(lesson string) (*Progress, bool) {
	if !p.mu.TryLock() {
		return nil, false
	}
	defer p.mu.Unlock()
	c := &Progress{store: NewMemStore(), recs: map[string]*Record{}, Now: p.Now}
	for k, r := range p.recs {
		if r.Lesson == lesson {
			copied := *r
			c.recs[k] = &copied
		}
	}
	return c, true
}

// LastVisit returns the visit record changed last, or nil.
func (p *Progress) LastVisit() *Record {
	p.mu.Lock()
	defer p.mu.Unlock()
	var last *Record
	for _, r := range p.all(KindVisit, "") {
		if last == nil || r.Updated > last.Updated {
			last = r
		}
	}
	return last
}

// Completion counts how many of a lesson's items are done. An item is
// "kind/id": cell/<id>, task/<explore>:<task>, quiz/<id>, exercise/<id>.
func (p *Progress) Completion(lesson string, items []string) (done int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, it := range items {
		kind, id, _ := strings.Cut(it, "/")
		if r, ok := p.recs[Key(kind, lesson, id)]; ok && r.Done() {
			done++
		}
	}
	return done
}

// Export returns all progress as a JSON file:
// {"gradbook": "progress", "version": 2, "exported": …, "records": […]},
// one record a line.
func (p *Progress) Export() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	recs := make([]*Record, 0, len(p.recs))
	for _, k := range p.keys() {
		recs = append(recs, p.recs[k])
	}
	return file(recs, p.Now().UTC().Format(time.RFC3339))
}

// FileOf returns a progress file of recs alone, as Export writes one but
// without the date: what an LMS keeps of one lesson (package lms). Read
// reads it back.
func FileOf(recs []*Record) []byte { return file(recs, "") }

// file writes recs as a progress file, with the date exported if it is
// not "".
func file(recs []*Record, exported string) []byte {
	var b []byte
	b = append(b, `{"gradbook":"progress","version":`...)
	b = strconv.AppendInt(b, Version, 10)
	if exported != "" {
		b = append(b, `,"exported":`...)
		b = jsontext.AppendString(b, exported)
	}
	b = append(b, `,"records":[`...)
	for i, r := range recs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n "...)
		c := *r
		c.V = Version
		b = append(b, c.encode()...)
	}
	return append(b, "\n]}\n"...)
}

func (p *Progress) keys() []string {
	keys := make([]string, 0, len(p.recs))
	for k := range p.recs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ErrBadImport is wrapped by every reason Import refuses a file.
var ErrBadImport = errors.New("this file cannot be imported")

// ErrNewerFile is wrapped, beside ErrBadImport, when a newer version of
// Gradbook wrote the file.
var ErrNewerFile = errors.New("it was exported by a newer version of Gradbook")

// MaxImport is the largest file Import reads, in bytes: far more than a
// learner's progress (a few hundred kilobytes), and small enough that
// reading it never freezes the page.
const MaxImport = 5_000_000

// A File is a progress file that has been read and checked, ready to be
// merged with Merge.
type File struct {
	recs []*Record
	// Conflicts lists the saved code that the file would replace with other
	// code: the file's record for each, by lesson and id.
	Conflicts []*Record
}

// Read checks an exported progress file without changing anything. It
// refuses a file over MaxImport bytes or with anything wrong in it, and
// brings times from the future back to now, so that a record cannot win
// every later merge by its date. The File says which saved code it would
// replace.
func (p *Progress) Read(data []byte) (*File, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(data) > MaxImport {
		return nil, fmt.Errorf("%w: it is %s, and at most %s can be imported", ErrBadImport, words.Bytes(len(data)), words.Bytes(MaxImport))
	}
	v, err := jsontext.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%w: it is not a Gradbook progress file (%v)", ErrBadImport, err)
	}
	f, _ := v.(map[string]any)
	if kind, _ := jsontext.String(f, "gradbook"); kind != "progress" {
		return nil, fmt.Errorf("%w: it is not a Gradbook progress file", ErrBadImport)
	}
	version, _ := jsontext.Number(f, "version")
	if version > Version {
		return nil, fmt.Errorf("%w: %w (schema %v; this one reads up to %d)", ErrBadImport, ErrNewerFile, version, Version)
	}
	list, ok := f["records"].([]any)
	if !ok && f["records"] != nil {
		return nil, fmt.Errorf("%w: its records are not a list", ErrBadImport)
	}
	now := p.Now().UnixMilli()
	file := &File{}
	for i, x := range list {
		m, ok := x.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%w: record %d is not an object", ErrBadImport, i+1)
		}
		r, err := fromMap(m)
		if err != nil {
			return nil, fmt.Errorf("%w: record %d: %v", ErrBadImport, i+1, err)
		}
		if r.V == 0 {
			r.V = int(version)
		}
		if err := r.check(); err != nil {
			return nil, fmt.Errorf("%w: record %d: %v", ErrBadImport, i+1, err)
		}
		r.Updated = min(r.Updated, now)
		if have := p.recs[r.Key()]; have != nil && have.Source != "" && r.Source != "" && have.Source != r.Source {
			file.Conflicts = append(file.Conflicts, r)
		}
		file.recs = append(file.recs, r)
	}
	return file, nil
}

// Only keeps the file's records of the lessons named and leaves out the
// others, returning how many it left out: what an LMS keeps for one
// lesson never changes another's.
func (f *File) Only(lessons ...string) int {
	kept := f.recs[:0]
	for _, r := range f.recs {
		if slices.Contains(lessons, r.Lesson) {
			kept = append(kept, r)
		}
	}
	left := len(f.recs) - len(kept)
	f.recs = kept
	f.Conflicts = slices.DeleteFunc(f.Conflicts, func(r *Record) bool { return !slices.Contains(lessons, r.Lesson) })
	return left
}

// Merge takes a checked file into the progress. For the code in
// f.Conflicts, keepMine keeps the saved code and otherwise the file's is
// taken; every other record merges as merge says. It returns how many
// records it took.
func (p *Progress) Merge(ctx context.Context, f *File, keepMine bool) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	values := make(map[string][]byte, min(len(f.recs), mergeBatch))
	var errs []error
	for i, in := range f.recs {
		if len(values) == mergeBatch {
			errs = append(errs, p.saveAll(ctx, values))
			clear(values)
			if p.Saving != nil {
				p.Saving(i, len(f.recs))
			}
		}
		have := p.recs[in.Key()]
		m := merge(have, in)
		if have != nil && slices.Contains(f.Conflicts, in) {
			mine, theirs := *have, *in
			if keepMine {
				m = &mine
			} else {
				m = &theirs
			}
			m.Passed = have.Passed || in.Passed
			m.Updated = max(have.Updated, in.Updated)
		}
		m.V = Version
		p.recs[in.Key()] = m
		values[m.Key()] = m.encode()
	}
	errs = append(errs, p.saveAll(ctx, values))
	if p.Saving != nil {
		p.Saving(len(f.recs), len(f.recs))
	}
	return len(f.recs), joinErrs(errs)
}

// mergeBatch is how many records Merge saves in one transaction: a large
// import goes in steps, each said through Saving.
const mergeBatch = 5000

// merge combines a record kept here with one arriving: the one changed
// last wins, but a task done, a quiz right or an exercise passed stays so.
func merge(have, in *Record) *Record {
	if have == nil {
		c := *in
		return &c
	}
	win := *have
	if in.Updated >= have.Updated {
		win = *in
	}
	if have.Passed || in.Passed {
		win.Passed = true
	}
	return &win
}

// MemStore is a Store in memory, an Updater and a Batcher: two Progress
// values on one MemStore are two tabs on one browser's storage.
type MemStore struct {
	mu sync.Mutex
	m  map[string][]byte
	// Err, if set, is returned by every save, as a full disk would.
	Err error
}

// NewMemStore returns an empty MemStore.
func NewMemStore() *MemStore { return &MemStore{m: map[string][]byte{}} }

// Load returns a copy of every record.
func (s *MemStore) Load(context.Context) (map[string][]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string][]byte, len(s.m))
	for k, v := range s.m {
		out[k] = append([]byte(nil), v...)
	}
	return out, nil
}

// Save keeps or deletes a record.
func (s *MemStore) Save(ctx context.Context, key string, value []byte) error {
	return s.SaveAll(ctx, map[string][]byte{key: value})
}

// SaveAll keeps or deletes every record of values, or none.
func (s *MemStore) SaveAll(_ context.Context, values map[string][]byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Err != nil {
		return s.Err
	}
	for key, value := range values {
		if value == nil {
			delete(s.m, key)
		} else {
			s.m[key] = append([]byte(nil), value...)
		}
	}
	return nil
}

// Update writes what change makes of a record, at once.
func (s *MemStore) Update(_ context.Context, key string, change func(old []byte) []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Err != nil {
		return s.Err
	}
	if v := change(s.m[key]); v == nil {
		delete(s.m, key)
	} else {
		s.m[key] = append([]byte(nil), v...)
	}
	return nil
}

// SortByOrder sorts scratch records by their Order, keeping the order of
// records with the same Order.
func SortByOrder(recs []*Record) {
	slices.SortStableFunc(recs, func(a, b *Record) int { return cmp.Compare(a.Order, b.Order) })
}

// joinErrs joins the errors of many saves, each different one once, with
// how many saves it failed: a full disk fails them all alike.
func joinErrs(errs []error) error {
	var out []error
	count := map[string]int{}
	for _, err := range errs {
		if err == nil {
			continue
		}
		msg := err.Error()
		if count[msg] == 0 {
			out = append(out, err)
		}
		count[msg]++
	}
	for i, err := range out {
		if n := count[err.Error()]; n > 1 {
			out[i] = fmt.Errorf("%w (%s)", err, words.Count(n, "record"))
		}
	}
	if len(out) == 1 {
		return out[0]
	}
	return errors.Join(out...)
}

// ScratchCell is a scratch cell as the page has it.
type ScratchCell struct {
	ID, Source string
}

// SetScratch saves the scratch notebook: cells in order, and the ids of
// cells the learner deleted. Only what changed is written, in one
// transaction, so that an edit costs the same with 5 cells or 500; a cell
// keeps whether its last run was clean.
func (p *Progress) SetScratch(ctx context.Context, cells []ScratchCell, deleted []string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	values := map[string][]byte{}
	now := p.Now().UnixMilli()
	for i, c := range cells {
		r := Record{V: Version, Kind: KindScratch, Lesson: "scratch", ID: c.ID, Source: c.Source, Order: i + 1, Updated: now}
		if old := p.recs[r.Key()]; old != nil {
			if old.Source == r.Source && old.Order == r.Order {
				continue
			}
			r.Ran, r.Clean = old.Ran, old.Clean && old.Source == r.Source
		}
		if err := r.check(); err != nil {
			return err
		}
		p.recs[r.Key()] = &r
		values[r.Key()] = r.encode()
	}
	for _, id := range deleted {
		k := Key(KindScratch, "scratch", id)
		if _, ok := p.recs[k]; ok {
			delete(p.recs, k)
			values[k] = nil
		}
	}
	return p.saveAll(ctx, values)
}
