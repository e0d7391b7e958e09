// Package testlog is a log of lines that goroutines may add to at once,
// for tests that record what callbacks heard (listeners, notices).
package testlog

import "sync"

// Log is a list of lines, safe for concurrent use; its zero value is an
// empty log.
type Log struct {
	mu    sync.Mutex
	lines []string
}

// Add appends s.
func (l *Log) Add(s string) {
	l.mu.Lock()
	l.lines = append(l.lines, s)
	l.mu.Unlock()
}

// All returns a copy of the lines so far.
func (l *Log) All() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}

// Take returns the lines so far and empties the log.
func (l *Log) Take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	lines := l.lines
	l.lines = nil
	return lines
}
