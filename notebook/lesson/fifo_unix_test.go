//go:build unix

package lesson

import (
	"syscall"
	"testing"
)

// mkfifo makes a named pipe: reading one never ends.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
}

const fifoSkipped = "fifo.md: a named pipe, and lessons are read from regular files only: skipped"
