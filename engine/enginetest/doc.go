package enginetest

import (
	"os"
	"strings"
	"testing"
)

// DocOps returns the entries of the list of ops in the package comment of
// the test's package (its doc.go, under "# Ops"), as engine's and
// tensor's write it: each entry a line that starts with an op's name in
// lower case, its continuation lines left out.
func DocOps(tb testing.TB) []string {
	tb.Helper()
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		tb.Fatal(err)
	}
	_, list, _ := strings.Cut(string(doc), "// # Ops\n")
	list, _, _ = strings.Cut(list, "// # ")
	var entries []string
	for _, line := range strings.Split(list, "\n") {
		if rest, ok := strings.CutPrefix(line, "//\t"); ok && rest != "" && rest[0] >= 'a' && rest[0] <= 'z' {
			entries = append(entries, rest)
		}
	}
	return entries
}
