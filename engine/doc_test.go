package engine_test

import (
	"slices"
	"strings"
	"testing"

	"gradbook/engine"
	"gradbook/engine/enginetest"
)

// The package comment's table of ops (doc.go) has a line for every op
// of the table, in its order, and for nothing else.
func TestDocListsEveryOp(t *testing.T) {
	var listed []string
	for _, entry := range enginetest.DocOps(t) {
		listed = append(listed, strings.Fields(entry)[0])
	}
	if names := engine.TableOrder(); !slices.Equal(listed, names) {
		t.Errorf("doc.go's table lists the ops %q; the op table has %q", listed, names)
	}
}
