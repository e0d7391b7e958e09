package page_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"gradbook/notebook/page"
	"gradbook/notebook/progress"
)

// cachedStore is a progress store that keeps its transactions out of the
// back/forward cache as the IndexedDB one does (package web's idb.go):
// each operation is a transaction, tracked while it is in flight and run
// through Again, and the window's pagehide and pageshow, persisted, are
// Hidden and Shown. A transaction begun while held waits, in flight, until
// it is let go or aborted.
type cachedStore struct {
	mem    *progress.MemStore
	cached *page.Cached

	mu      sync.Mutex
	held    chan struct{} // closed to let held transactions commit; nil: none held
	waiting chan struct{} // told when a transaction waits in flight
}

// errAborted is what a transaction that was aborted ends with.
var errAborted = errors.New("AbortError: the transaction was aborted")

func newCachedStore(doc page.Document, mem *progress.MemStore) *cachedStore {
	s := &cachedStore{mem: mem, cached: page.NewCached(), waiting: make(chan struct{}, 10)}
	doc.ListenWindow("pagehide", func(ev page.Event) {
		if ev.Persisted() {
			s.cached.Hidden()
		}
	})
	doc.ListenWindow("pageshow", func(ev page.Event) {
		if ev.Persisted() {
			s.cached.Shown()
		}
	})
	return s
}

// hold makes the transactions begun from now on wait in flight;
// release lets them commit.
func (s *cachedStore) hold() (release func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	held := make(chan struct{})
	s.held = held
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.held = nil
		close(held)
	}
}

// txn runs commit as one transaction in flight.
func (s *cachedStore) txn(commit func() error) error {
	aborted := make(chan struct{})
	var once sync.Once
	ended := s.cached.Track(func() error {
		once.Do(func() { close(aborted) })
		return nil
	})
	s.mu.Lock()
	held := s.held
	s.mu.Unlock()
	if held != nil {
		s.waiting <- struct{}{}
		select {
		case <-held:
		case <-aborted:
			return ended(errAborted)
		}
	}
	return ended(commit())
}

func (s *cachedStore) Load(ctx context.Context) (out map[string][]byte, err error) {
	err = s.cached.Again(func() error {
		return s.txn(func() (err error) { out, err = s.mem.Load(ctx); return err })
	})
	return out, err
}

func (s *cachedStore) Save(ctx context.Context, key string, value []byte) error {
	return s.cached.Again(func() error { return s.txn(func() error { return s.mem.Save(ctx, key, value) }) })
}

func (s *cachedStore) SaveAll(ctx context.Context, values map[string][]byte) error {
	return s.cached.Again(func() error { return s.txn(func() error { return s.mem.SaveAll(ctx, values) }) })
}

func (s *cachedStore) Update(ctx context.Context, key string, change func([]byte) []byte) error {
	return s.cached.Again(func() error { return s.txn(func() error { return s.mem.Update(ctx, key, change) }) })
}

// A save in flight as the page goes into the back/forward cache is
// aborted, so that it holds up no other page, and made again once the
// page is shown again: nothing typed is lost.
func TestSaveInTheBackForwardCache(t *testing.T) {
	var store *cachedStore
	b := open(t, blocks, func(b *bench) {
		b.env = func(e *page.Env) {
			store = newCachedStore(e.Doc, b.store)
			e.Storage = opener{store}
		}
	})
	release := store.hold()
	b.typeCode(b.cell("double"), "print('typed before leaving')")
	paused := make(chan struct{})
	go func() {
		defer close(paused)
		b.clock.Advance(time.Second) // the pause after typing: the save begins, and waits in flight
	}()
	<-store.waiting
	b.doc.FireWindow("pagehide", false) // a page that is not cached keeps its transaction
	b.doc.FireWindow("pagehide", true)  // into the back/forward cache
	if got := b.saveStatus(); got != "Saving…" {
		t.Errorf("in the cache the save status says %q", got)
	}
	release()
	// (Not b.kept: the page's work waits, as the browser's does, for the
	// page to be shown again.)
	if prog, _ := progress.Open(context.Background(), b.store); prog.Get(progress.KindCell, "test-blocks", "double") != nil {
		t.Error("the aborted save saved the code")
	}
	b.doc.FireWindow("pageshow", false)
	b.doc.FireWindow("pageshow", true) // back
	<-paused
	b.p.Settle()
	if got := b.keptSource("test-blocks", "double"); got != "print('typed before leaving')" {
		t.Errorf("after the page came back the store keeps %q", got)
	}
	if got := b.saveStatus(); got != "Saved." {
		t.Errorf("the save status says %q", got)
	}
	b.noNotices()
}

// Cached's protocol where the browser's events and transactions cross:
// a transaction whose abort fails (it had completed) ends as it ended;
// one aborted already is not aborted again; Shown and Hidden said twice
// change nothing more; an error of the operation's own is not retried.
func TestCachedProtocol(t *testing.T) {
	c := page.NewCached()
	c.Shown() // shown already
	aborts := 0
	done := errors.New("InvalidStateError: the transaction has finished")
	ended := c.Track(func() error { aborts++; return done })
	c.Hidden()
	if err := ended(nil); err != nil {
		t.Errorf("a transaction that had completed ended with %v", err)
	}

	ended = c.Track(func() error { aborts++; return nil })
	c.Hidden() // hidden twice: aborted once
	c.Shown()
	c.Hidden()
	if err := ended(errAborted); !errors.Is(err, page.ErrCached) {
		t.Errorf("an aborted transaction ended with %v", err)
	}
	if aborts != 2 {
		t.Errorf("%d aborts, want 2", aborts)
	}
	c.Shown()

	own := errors.New("QuotaExceededError")
	runs := 0
	if err := c.Again(func() error { runs++; return own }); err != own || runs != 1 {
		t.Errorf("Again returned %v after %d runs", err, runs)
	}
}
