package testlog

import (
	"slices"
	"strconv"
	"sync"
	"testing"
)

func TestLogKeepsEveryLineAddedAtOnce(t *testing.T) {
	var l Log
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.Add(strconv.Itoa(i))
		}()
	}
	wg.Wait()
	all := l.All()
	if len(all) != 50 {
		t.Fatalf("%d lines, want 50", len(all))
	}
	if taken := l.Take(); !slices.Equal(taken, all) {
		t.Errorf("Take gave %q after All gave %q", taken, all)
	}
	if rest := l.All(); len(rest) != 0 {
		t.Errorf("after Take the log still has %q", rest)
	}
	l.Add("next")
	if got := l.Take(); !slices.Equal(got, []string{"next"}) {
		t.Errorf("a line after Take: %q", got)
	}
}
