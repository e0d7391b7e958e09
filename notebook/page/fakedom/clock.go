package fakedom

import (
	"slices"
	"sync"
	"time"

	"gradbook/notebook/page"
)

// Clock is a page.Clock whose time moves only when the test moves it
// (Advance).
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*timer
	made   int
}

var _ page.Clock = (*Clock)(nil)

type timer struct {
	at time.Time
	n  int // the order it was set in, among timers due at once
	f  func()
}

// NewClock returns a clock that shows start until it is advanced.
func NewClock(start time.Time) *Clock { return &Clock{now: start} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc sets f to be called once the clock has moved on by d; with d
// of 0 or less, at the next Advance, Advance(0) too. The stop it returns
// reports whether it stopped the call.
func (c *Clock) AfterFunc(d time.Duration, f func()) (stop func() bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &timer{at: c.now.Add(d), n: c.made, f: f}
	c.made++
	c.timers = append(c.timers, t)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		i := slices.Index(c.timers, t)
		if i >= 0 {
			c.timers = slices.Delete(c.timers, i, i+1)
		}
		return i >= 0
	}
}

// Advance moves the clock on by d, calling each function that falls due
// on the way in time order (those due at one time in the order they were
// set), each on a goroutine of its own as time.AfterFunc's are, and
// waits for each to return before the next: one set by a function that
// falls due within d is called too. While a function runs, Now is the
// time it was due at; after Advance, the start's time plus d.
func (c *Clock) Advance(d time.Duration) {
	if d < 0 {
		panic("fakedom: Clock.Advance by a negative duration")
	}
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		var next *timer
		for _, t := range c.timers {
			if !t.at.After(end) && (next == nil || t.at.Before(next.at) || t.at.Equal(next.at) && t.n < next.n) {
				next = t
			}
		}
		if next == nil {
			c.now = end
			c.mu.Unlock()
			return
		}
		c.timers = slices.DeleteFunc(c.timers, func(t *timer) bool { return t == next })
		if next.at.After(c.now) {
			c.now = next.at
		}
		c.mu.Unlock()
		done := make(chan struct{})
		go func() {
			defer close(done)
			next.f()
		}()
		<-done
	}
}

// Pending returns how many functions wait for their time.
func (c *Clock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}
