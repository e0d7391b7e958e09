package kernel

import (
	"strings"
	"testing"

	"go.starlark.net/starlark"
)

// The Starlark and Go messages that messages.go reads, produced by the
// versions go.mod requires: a rewording in an upgrade fails here.
func TestForeignMessages(t *testing.T) {
	exec := func(src string, predeclared func(string) bool) error {
		f, err := fileOptions.Parse("cell 1", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := starlark.FileProgram(f, predeclared)
		if err != nil {
			t.Fatal(err)
		}
		_, err = prog.Init(&starlark.Thread{}, starlark.StringDict{})
		return err
	}
	err := exec("print(later)", func(name string) bool { return name == "later" })
	if ee, ok := err.(*starlark.EvalError); !ok {
		t.Errorf("an unbound predeclared name: %v", err)
	} else if name, ok := uninitialized(ee.Msg); !ok || name != "later" {
		t.Errorf("uninitialized(%q) = %q, %v", ee.Msg, name, ok)
	}
	for _, src := range []string{"xs.append(1)", "d['k'] = 1", "xs[0] = 2", "s.add(1)"} {
		xs := starlark.NewList([]starlark.Value{starlark.MakeInt(1)})
		d := starlark.NewDict(1)
		s := starlark.NewSet(1)
		env := starlark.StringDict{"xs": xs, "d": d, "s": s}
		for _, v := range env {
			v.Freeze()
		}
		_, err := starlark.ExecFileOptions(fileOptions, &starlark.Thread{}, "cell 1", src, env)
		if err == nil || !frozenMutation(err.(*starlark.EvalError).Msg) {
			t.Errorf("%s on a frozen value: %v is not recognised", src, err)
		}
	}
	func() {
		defer func() {
			if r := recover(); !tooLarge(r) {
				t.Errorf("a slice beyond the address space: %v is not recognised", r)
			}
		}()
		n := -1
		_ = make([]int, n)
	}()
	if tooLarge("a bug") {
		t.Error("any panic is taken for the memory limit")
	}
}

// Stop reasons come from where the limit fires, not from the message:
// a cell that prints the words of one is not stopped for it.
func TestStopReasonsAreNotReadFromText(t *testing.T) {
	r := runOne(t, `fail("stopped after 60 s: the cell ran too long")`)
	if r.Err == nil || r.Err.Stop != 0 {
		t.Errorf("a cell's own failure has the reason %v", r.Err.Stop)
	}
	if !strings.Contains(r.Err.Msg, "fail: stopped after 60 s") {
		t.Errorf("message %q", r.Err.Msg)
	}
}

// The parser's messages in plain words, on the line the mistake is on.
func TestPlainSyntax(t *testing.T) {
	for _, tc := range []struct {
		src  string
		line int
		says string
	}{
		{"x = (1 + 2\ny = 3", 1, "'(' opened on line 1 is never closed"},
		{"a = 1\nx = [1, 2,\n  3\n", 2, "'[' opened on line 2 is never closed"},
		{"print('a (b'", 1, "'(' opened on line 1 is never closed"},
		{"if x > 0\n    y = 1", 1, "a ':' is missing at the end of this line"},
		{"\tx = 1", 1, "this line is indented, but no line above it opens a block"},
		{"x = 1 +", 1, "the cell ends in the middle of an expression"},
		{"x = y = )", 1, "'=' assigns a value and cannot stand here: to compare two values, write =="},
	} {
		r := runOne(t, tc.src)
		if r.Err == nil || r.Err.Line != tc.line || !strings.Contains(r.Err.Msg, tc.says) {
			t.Errorf("%q: %+v, want line %d saying %q", tc.src, r.Err, tc.line, tc.says)
		}
	}
}
