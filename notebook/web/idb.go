//go:build js && wasm

package web

import (
	"context"
	"errors"
	"fmt"
	"syscall/js"
	"time"

	"github.com/hack-pad/go-indexeddb/idb"

	"gradbook/notebook/page"
	"gradbook/notebook/progress"
)

// The IndexedDB database that keeps progress: one object store of JSON
// text under string keys. In an LMS, each learner has a database of
// their own (Page.database).
const (
	dbName    = "gradbook"
	dbVersion = 1
	storeName = "progress"
	// waitFor bounds every wait on IndexedDB: go-indexeddb has no handler
	// for a blocked upgrade, and a tab must never hang on another. It is
	// long enough for a slow or busy device: a first open that creates
	// the database has taken more than 3 s in a frame on a loaded 2-core
	// machine, and the page then kept nothing for the whole visit.
	waitFor = 10 * time.Second
	// loadFor bounds reading every record, 5 MB of them at most.
	loadFor = 60 * time.Second
)

// idbStore is a progress.Store in IndexedDB. It opens a connection for each
// operation and closes it after, so that it never holds up a schema
// upgrade in another tab, and keeps its transactions out of the
// back/forward cache (page.Cached says why and how).
type idbStore struct {
	factory *idb.Factory
	name    string // the database's
	cached  *page.Cached
}

func newIDBStore(f *idb.Factory, name string) *idbStore {
	s := &idbStore{factory: f, name: name, cached: page.NewCached()}
	// The listeners run during the events, before the page is frozen
	// (never removed: they last as long as the page).
	win := js.Global()
	listen(win, "pagehide", func(ev page.Event) {
		if ev.Persisted() {
			s.cached.Hidden()
		}
	})
	listen(win, "pageshow", func(ev page.Event) {
		if ev.Persisted() {
			s.cached.Shown()
		}
	})
	return s
}

// errNoStorage says why progress cannot be kept here.
var errNoStorage = errors.New("this browser does not let this page keep data (private browsing, or storage is blocked)")

// storage is page.Storage: the learner's progress in IndexedDB.
type storage struct{}

// Open returns a store in the database name if IndexedDB is there and
// works.
func (storage) Open(name string) (progress.Store, error) {
	s, err := openIDB(name)
	if err != nil {
		return nil, err
	}
	return s, nil
}

func openIDB(name string) (s *idbStore, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, errNoStorage
		}
	}()
	g, ok := global("indexedDB")
	if !ok {
		return nil, errNoStorage
	}
	f, err := idb.WrapFactory(g)
	if err != nil {
		return nil, errNoStorage
	}
	s = newIDBStore(f, name)
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	db, err := s.open(ctx)
	if err != nil {
		return nil, err
	}
	db.Close()
	return s, nil
}

func (s *idbStore) open(ctx context.Context) (db *idb.Database, err error) {
	defer func() {
		if r := recover(); r != nil {
			db, err = nil, fmt.Errorf("%w: %v", errNoStorage, r)
		}
	}()
	req, err := s.factory.Open(ctx, s.name, dbVersion, func(db *idb.Database, oldVersion, newVersion uint) error {
		if oldVersion < 1 {
			_, err := db.CreateObjectStore(storeName, idb.ObjectStoreOptions{})
			return err
		}
		return nil
	})
	if err != nil {
		return nil, friendly(err)
	}
	db, err = req.Await(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, errors.New("the saved progress is locked by another Gradbook tab being updated: close the other tabs, then reload")
		}
		return nil, friendly(err)
	}
	return db, nil
}

// Load reads every record.
func (s *idbStore) Load(ctx context.Context) (out map[string][]byte, err error) {
	err = s.cached.Again(func() (err error) {
		out, err = s.load(ctx)
		return err
	})
	return out, err
}

// inTxn runs body in one transaction of mode on the store, opening the
// database within timeout and closing it after: what every operation
// shares. A panic of the browser's storage is an error, and a transaction
// the page's going into the back/forward cache ended is page.ErrCached (Again
// runs it once more).
func (s *idbStore) inTxn(ctx context.Context, mode idb.TransactionMode, timeout time.Duration, body func(ctx context.Context, txn *idb.Transaction, st *idb.ObjectStore) error) (err error) {
	defer recoverTo(&err)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	db, err := s.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	txn, err := db.Transaction(mode, storeName)
	if err != nil {
		return friendly(err)
	}
	ended := s.cached.Track(txn.Abort)
	defer func() { err = ended(err) }()
	st, err := txn.ObjectStore(storeName)
	if err != nil {
		return friendly(err)
	}
	return body(ctx, txn, st)
}

func (s *idbStore) load(ctx context.Context) (out map[string][]byte, err error) {
	err = s.inTxn(ctx, idb.TransactionReadOnly, waitFor, func(_ context.Context, _ *idb.Transaction, st *idb.ObjectStore) error {
		out, err = readAll(st)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// readAll reads every record of st.
func readAll(st *idb.ObjectStore) (map[string][]byte, error) {
	cur, err := st.OpenCursor(idb.CursorNext)
	if err != nil {
		return nil, friendly(err)
	}
	// Reading many records takes longer than opening the database: a
	// load that runs out of time fails whole, never as part of the
	// records (a page that saw only part would export only part).
	read, done := context.WithTimeout(context.Background(), loadFor)
	defer done()
	out := map[string][]byte{}
	err = cur.Iter(read, func(c *idb.CursorWithValue) error {
		k, err := c.Key()
		if err != nil {
			return err
		}
		v, err := c.Value()
		if err != nil {
			return err
		}
		if k.Type() == js.TypeString {
			if v.Type() == js.TypeString {
				out[k.String()] = []byte(v.String())
			} else {
				out[k.String()] = []byte("unreadable") // decoded as corrupt
			}
		}
		return nil
	})
	if err == nil && read.Err() != nil {
		err = read.Err()
	}
	if err != nil {
		return nil, friendly(err)
	}
	return out, nil
}

// Save writes or deletes one record, returning once the transaction has
// completed.
func (s *idbStore) Save(ctx context.Context, key string, value []byte) error {
	return s.cached.Again(func() error { return s.save(ctx, key, value) })
}

func (s *idbStore) save(ctx context.Context, key string, value []byte) error {
	return s.inTxn(ctx, idb.TransactionReadWrite, waitFor, func(ctx context.Context, txn *idb.Transaction, st *idb.ObjectStore) error {
		if err := put(st, key, value); err != nil {
			return friendly(err)
		}
		return friendly(txn.Await(ctx))
	})
}

// put writes value under key, or deletes the record when value is nil.
func put(st *idb.ObjectStore, key string, value []byte) (err error) {
	if value == nil {
		_, err = st.Delete(js.ValueOf(key))
	} else {
		_, err = st.PutKey(js.ValueOf(key), js.ValueOf(string(value)))
	}
	return err
}

// SaveAll writes or deletes every record of values in one transaction,
// returning once it has completed: an import of 60,000 records is one
// transaction, not 60,000.
func (s *idbStore) SaveAll(ctx context.Context, values map[string][]byte) error {
	return s.cached.Again(func() error { return s.saveAll(ctx, values) })
}

func (s *idbStore) saveAll(ctx context.Context, values map[string][]byte) error {
	return s.inTxn(ctx, idb.TransactionReadWrite, waitFor+time.Duration(len(values))*time.Millisecond, func(ctx context.Context, txn *idb.Transaction, st *idb.ObjectStore) error {
		for key, value := range values {
			if err := put(st, key, value); err != nil {
				_ = txn.Abort()
				return friendly(err)
			}
		}
		return friendly(txn.Await(ctx))
	})
}

// Update reads a record and writes what change makes of it in one
// transaction: change runs inside the read's success event, while the
// transaction is still active, so no other tab can write between.
func (s *idbStore) Update(ctx context.Context, key string, change func(old []byte) []byte) error {
	return s.cached.Again(func() error { return s.update(ctx, key, change) })
}

func (s *idbStore) update(ctx context.Context, key string, change func(old []byte) []byte) error {
	return s.inTxn(ctx, idb.TransactionReadWrite, waitFor, func(ctx context.Context, txn *idb.Transaction, st *idb.ObjectStore) error {
		return updateIn(ctx, txn, st, key, change)
	})
}

// updateIn is update's work in its transaction.
func updateIn(ctx context.Context, txn *idb.Transaction, st *idb.ObjectStore, key string, change func(old []byte) []byte) error {
	req, err := st.Get(js.ValueOf(key))
	if err != nil {
		return friendly(err)
	}
	var inner error
	err = req.Listen(ctx, func() {
		v, err := req.Result()
		if err != nil {
			inner = err
			return
		}
		var old []byte
		if v.Type() == js.TypeString {
			old = []byte(v.String())
		}
		inner = put(st, key, change(old))
	}, nil)
	if err != nil {
		return friendly(err)
	}
	if err := txn.Await(ctx); err != nil {
		return friendly(err)
	}
	return friendly(inner)
}

func recoverTo(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("the browser's storage failed: %v", r)
	}
}

// friendly says what an IndexedDB error means for the learner, by the
// DOMException's name (domException).
func friendly(err error) error {
	if err == nil {
		return nil
	}
	switch domException(err) {
	case "QuotaExceededError":
		return errors.New("the browser's storage for this site is full: free some space (or export your progress), then try again")
	case "VersionError":
		return errors.New("a newer version of Gradbook in another tab has updated the saved progress: reload this page to use it")
	case "InvalidStateError", "TransactionInactiveError":
		return errors.New("the saved progress was busy: try again")
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return errors.New("the browser's storage did not answer in time")
	}
	return fmt.Errorf("the browser's storage failed: %v", err)
}

// domException is the name of the DOMException behind err, or "". A
// request's or a transaction's comes as go-indexeddb's DOMException; one
// thrown at once (put, delete) comes as the JavaScript exception itself,
// wrapped by safejs (go-indexeddb v0.3.2 converts only an unwrapped one).
func domException(err error) string {
	for _, name := range []string{"QuotaExceededError", "VersionError", "InvalidStateError", "TransactionInactiveError"} {
		if errors.Is(err, idb.NewDOMException(name)) {
			return name
		}
	}
	var thrown js.Error
	if errors.As(err, &thrown) && thrown.Value.Type() == js.TypeObject {
		if name := thrown.Value.Get("name"); name.Type() == js.TypeString {
			return name.String()
		}
	}
	return ""
}
