package tensor

import (
	"slices"
	"strings"
	"testing"

	"gradbook/engine/enginetest"
)

// OpNames returns the name of every op of the table, for the tests.
func OpNames() []string {
	names := make([]string, len(ops))
	for i, o := range ops {
		names[i] = o.name
	}
	return names
}

// The package comment's list of ops (doc.go) names every op of the table,
// and nothing else.
func TestDocListsEveryOp(t *testing.T) {
	var listed []string
	for _, entry := range enginetest.DocOps(t) {
		names, _, _ := strings.Cut(entry, "  ") // the names, then their description
		listed = append(listed, strings.Fields(names)...)
	}
	names := OpNames()
	slices.Sort(listed)
	slices.Sort(names)
	if !slices.Equal(listed, names) {
		t.Errorf("doc.go lists the ops %q; the op table has %q", listed, names)
	}
}
