package tensor

import (
	"os"
	"slices"
	"strings"
	"testing"
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
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	_, list, _ := strings.Cut(string(doc), "// # Ops\n")
	list, _, _ = strings.Cut(list, "// # ")
	var listed []string
	for _, line := range strings.Split(list, "\n") {
		if rest, ok := strings.CutPrefix(line, "//\t"); ok && rest != "" && rest[0] >= 'a' && rest[0] <= 'z' {
			names, _, _ := strings.Cut(rest, "  ") // the names, then their description
			listed = append(listed, strings.Fields(names)...)
		}
	}
	names := OpNames()
	slices.Sort(listed)
	slices.Sort(names)
	if !slices.Equal(listed, names) {
		t.Errorf("doc.go lists the ops %q; the op table has %q", listed, names)
	}
}
