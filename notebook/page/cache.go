package page

import (
	"errors"
	"sync"
)

// Cached keeps a store's transactions out of the browser's back/forward
// cache. WebKit puts a page that is left with a transaction still in
// flight (a save just after a run, say) into that cache with the
// transaction open and frozen, and every later transaction on the store
// waits behind it, the next page's included, until the cached page is
// thrown away: the next lesson showed "Loading the notebook…" for a
// minute, then came up without the learner's progress. So when the page
// goes into the cache (pagehide, persisted), the transactions still in
// flight are aborted, and each operation whose transaction was aborted so
// runs again once the page is shown again (pageshow, persisted).
//
// The IndexedDB store (package web) tracks each transaction with Track,
// runs each operation through Again, and calls Hidden and Shown from the
// window's events.
type Cached struct {
	mu    sync.Mutex
	live  map[int]*transaction // in flight
	next  int
	shown chan struct{} // closed while the page is shown
}

type transaction struct {
	abort   func() error
	aborted bool // by Hidden
}

// ErrCached is what an operation whose transaction was aborted as the
// page went into the back/forward cache returns; Again runs it anew.
var ErrCached = errors.New("the page went into the back/forward cache")

// NewCached returns a Cached for a page that is shown.
func NewCached() *Cached {
	c := &Cached{live: map[int]*transaction{}, shown: make(chan struct{})}
	close(c.shown)
	return c
}

// Hidden aborts every transaction in flight: the page is going into the
// back/forward cache.
func (c *Cached) Hidden() {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.shown:
		c.shown = make(chan struct{})
	default:
	}
	for _, t := range c.live {
		if !t.aborted && t.abort() == nil {
			t.aborted = true
		}
	}
}

// Shown says the page is shown again, out of the back/forward cache.
func (c *Cached) Shown() {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.shown:
	default:
		close(c.shown)
	}
}

// Track notes a transaction in flight, which abort aborts; the function
// it returns notes that it has ended, and returns ErrCached if Hidden
// aborted it, else err.
func (c *Cached) Track(abort func() error) (ended func(err error) error) {
	c.mu.Lock()
	id := c.next
	c.next++
	t := &transaction{abort: abort}
	c.live[id] = t
	c.mu.Unlock()
	return func(err error) error {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.live, id)
		if t.aborted {
			return ErrCached
		}
		return err
	}
}

// Again runs op until it ends other than by the page's going into the
// back/forward cache, each time after the page is shown again.
func (c *Cached) Again(op func() error) error {
	for {
		err := op()
		if !errors.Is(err, ErrCached) {
			return err
		}
		c.mu.Lock()
		shown := c.shown
		c.mu.Unlock()
		<-shown
	}
}
