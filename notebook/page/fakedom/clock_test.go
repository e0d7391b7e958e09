package fakedom

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestClock(t *testing.T) {
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	c := NewClock(start)
	var mu sync.Mutex
	var ran []string
	at := func(name string) func() {
		return func() {
			mu.Lock()
			defer mu.Unlock()
			ran = append(ran, fmt.Sprintf("%s@%v", name, c.Now().Sub(start)))
		}
	}
	took := func() string {
		mu.Lock()
		defer mu.Unlock()
		s := strings.Join(ran, " ")
		ran = nil
		return s
	}
	c.AfterFunc(300*time.Millisecond, at("c"))
	c.AfterFunc(100*time.Millisecond, at("a"))
	stopB := c.AfterFunc(200*time.Millisecond, at("b"))
	c.AfterFunc(100*time.Millisecond, at("a2")) // due with a: after it
	c.AfterFunc(200*time.Millisecond, func() {
		at("d")()
		c.AfterFunc(50*time.Millisecond, at("set by d")) // due within the Advance
		c.AfterFunc(time.Second, at("later"))
	})
	if c.Pending() != 5 || c.Now() != start {
		t.Fatalf("before Advance: %d pending, now %v", c.Pending(), c.Now())
	}
	if !stopB() || stopB() {
		t.Error("stop did not report that it stopped the call, once")
	}
	c.Advance(99 * time.Millisecond)
	if got := took(); got != "" {
		t.Errorf("ran too soon: %s", got)
	}
	c.Advance(201 * time.Millisecond)
	if got := took(); got != "a@100ms a2@100ms d@200ms set by d@250ms c@300ms" {
		t.Errorf("ran %s", got)
	}
	if c.Now() != start.Add(300*time.Millisecond) || c.Pending() != 1 {
		t.Errorf("after: now %v, %d pending", c.Now().Sub(start), c.Pending())
	}
	// Advance waits for each function to return.
	done := false
	c.AfterFunc(0, func() {
		time.Sleep(10 * time.Millisecond)
		done = true
	})
	c.Advance(0)
	if !done {
		t.Error("Advance returned before the function did")
	}
	c.Advance(time.Hour)
	if got := took(); got != "later@1.2s" || c.Pending() != 0 {
		t.Errorf("the last: %s, %d pending", got, c.Pending())
	}
	defer func() {
		if recover() == nil {
			t.Error("a negative Advance did not panic")
		}
	}()
	c.Advance(-time.Second)
}
