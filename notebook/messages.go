package notebook

import (
	"runtime"
	"strings"
)

// This file holds the only places where Gradbook reads another library's
// message text: the few Starlark (and Go runtime) errors that it turns
// into a learner's words and cannot tell apart otherwise. Each is pinned
// by a test at the versions go.mod requires (messages_test.go), so that an
// upgrade that rewords one fails there, not in a learner's cell. Stop
// reasons are never read back from messages: they are values (stop.go).

// uninitialized reads the name in Starlark's error for a global used
// before the cell that assigns it has run: every name a cell binds is
// predeclared for the cells above it, and reading one that is not bound
// yet says so.
func uninitialized(msg string) (name string, ok bool) {
	name, ok = strings.CutPrefix(msg, "internal error: predeclared variable ")
	if ok {
		name, ok = strings.CutSuffix(name, " is uninitialized")
	}
	return name, ok && name != "" && !strings.ContainsRune(name, ' ')
}

// frozenMutation reports whether msg is Starlark's refusal to change a
// frozen list, dict or set ("cannot append to frozen list").
func frozenMutation(msg string) bool {
	return strings.Contains(msg, "frozen")
}

// tooLarge reports whether a panic is Go's refusal to make a slice larger
// than the address space: in the browser, [0] * 300000000 asks for 4.8 GB
// at once, which is the memory limit met in one statement.
func tooLarge(r any) bool {
	e, ok := r.(runtime.Error)
	return ok && (strings.Contains(e.Error(), "len out of range") || strings.Contains(e.Error(), "cap out of range"))
}
