package library_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"gradbook/notebook/internal/celltest"
	"gradbook/notebook/library"
)

// sum adds as Python's sum does, on its fast path (one list) and its
// general one alike.
func TestSum(t *testing.T) {
	for _, c := range []struct{ name, src, out, err string }{
		{"empty list", "print(sum([]))", "0\n", ""},
		{"numbers", "print(sum([1, 2.5]), sum((1, 2)), sum([1, 2], 10), sum([1], start=0.5))", "3.5 3 13 1.5\n", ""},
		{"Values", "a, b = Value(2.0), Value(3.0)\ns = sum([a, b, 1])\ns.backward()\nprint(s.value, a.grad, s.op)", "6.0 1.0 add\n", ""},
		{"generator-free iterable", "print(sum(range(4)))", "6\n", ""},
		{"a string in the list", "sum([Value(1.0), \"x\"])", "", "sum: unknown binary op: Value + string"},
		{"no argument", "sum()", "", "sum: missing argument for xs"},
	} {
		r := celltest.One(t, c.src)
		switch {
		case c.err == "" && (r.Err != nil || r.Output != c.out):
			t.Errorf("%s: output %q, error %v; want %q", c.name, r.Output, r.Err, c.out)
		case c.err != "" && (r.Err == nil || r.Err.Msg != c.err):
			t.Errorf("%s: error %v; want %q", c.name, r.Err, c.err)
		}
	}
}

// printsExactly runs the cell src in a Session of its own, which must
// end without an error and print want, no more and no less.
func printsExactly(t *testing.T, src, want string) {
	t.Helper()
	if r := celltest.One(t, src); r.Err != nil || r.Output != want {
		t.Errorf("output %q, error %v", r.Output, r.Err)
	}
}

// bringData makes data file name available to the built-ins. Under
// WebAssembly the data sets are not in the binary: the test brings them,
// as the page brings them to the runner.
func bringData(t *testing.T, name string) {
	t.Helper()
	if _, ok := library.DataFile(name); ok {
		return
	}
	text, err := os.ReadFile("data/" + name)
	if err != nil {
		t.Fatal(err)
	}
	if err := library.SetDataFile(name, string(text)); err != nil {
		t.Fatal(err)
	}
}

// names() reads the 32,033 names of names.txt.
func TestNames(t *testing.T) {
	bringData(t, "names.txt")
	printsExactly(t, "ns = names()\nprint(len(ns), ns[0], ns[-1])", "32033 emma zzyzx\n")
}

// shakespeare() reads the whole of tinyshakespeare.txt, as one string:
// 1,115,394 characters, 65 distinct, starting with the first speaker.
func TestShakespeare(t *testing.T) {
	bringData(t, "tinyshakespeare.txt")
	printsExactly(t, "text = shakespeare()\nprint(len(text), len(set(text.elems())), repr(text[:22]))", `1115394 65 "First Citizen:\nBefore "`+"\n")
}

// NeedsData finds the data files that cells need by the built-ins'
// identifiers, not their text, once each, in the sources' order;
// SetDataFile takes only the data files.
func TestNeedsData(t *testing.T) {
	for srcs, want := range map[string]string{
		"ns = names()":                             "names.txt",
		"f = names\nns = f()":                      "names.txt",
		"# names\nprint('names')":                  "",
		"x = (names":                               "", // does not parse: cannot run
		"print(1)|||docs = names()[:10]":           "names.txt",
		"text = shakespeare()":                     "tinyshakespeare.txt",
		"# shakespeare\nprint('shakespeare')":      "",
		"ns = names()|||text = shakespeare()[:10]": "names.txt,tinyshakespeare.txt",
		"t = shakespeare(); ns = names()":          "tinyshakespeare.txt,names.txt",
	} {
		got := strings.Join(library.NeedsData(strings.Split(srcs, "|||")...), ",")
		if got != want {
			t.Errorf("library.NeedsData(%q) = %q, want %q", srcs, got, want)
		}
	}
	if got := library.DataFiles(); !slices.Equal(got, []string{"names.txt", "tinyshakespeare.txt"}) {
		t.Errorf("DataFiles() = %q", got)
	}
	if err := library.SetDataFile("secrets.txt", "x"); err == nil {
		t.Error("SetDataFile takes a file that is no data file")
	}
}
