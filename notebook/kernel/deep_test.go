package kernel

import (
	"strings"
	"testing"

	"go.starlark.net/starlark"
)

// Deeply nested data never takes the run down (issue 34, finding 1):
// what a cell leaves nested more than MaxNesting deep is refused when the
// cell ends, with the cell and the line that bound it, before Starlark's
// Freeze recurses into it; str, repr and print write any depth without
// recursion. Natively Go's stack would take it; under wasm in Node with
// the browsers' stack (testdata/go_js_wasm_exec), it did not: each case
// here was an uncaught "Maximum call stack size exceeded" that stopped
// the runtime, and the closure that holds itself overflowed Go's native
// stack too.
func TestDeepData(t *testing.T) {
	nested := "is nested more than 1000 deep"
	for _, tc := range []struct {
		name, src   string
		output, err string
		line        int
	}{
		{"a list 20,000 deep", "x = []\nfor i in range(20000):\n    x = [x]\nprint('built')", "built\n", "x " + nested, 3},
		{"a dict 30,000 deep", "d = {}\nfor i in range(30000):\n    d = {'d': d}\nprint('built')", "built\n", "d " + nested, 3},
		{"a tuple 20,000 deep", "t = ()\nfor i in range(20000):\n    t = (t,)", "", "t " + nested, 3},
		{"a chain made by append", "a = []\nc = a\nfor i in range(20000):\n    n = []\n    c.append(n)\n    c = n", "", "a " + nested, 1},
		{"a closure that holds itself", "def make():\n    def fact(n):\n        return 1 if n == 0 else n * fact(n - 1)\n    return fact\nf = make()\nprint(f(5))", "120\n", "f " + nested, 5},
		{"tuples that share a tuple", "t = ()\nfor i in range(60):\n    t = (t, t)", "", "t holds the same tuples or functions more than 1,000,000 times over", 3},
		{"a list 999 deep", "x = []\nfor i in range(999):\n    x = [x]\nprint(len(str(x)))", "2000\n", "", 0},
		{"str, repr and print 50,000 deep", "def f():\n    x = []\n    for i in range(50000):\n        x = [x]\n    print(len(str(x)), len(repr(x)))\n    print(x)\n    return 0\nf()", "100002 100002\n" + strings.Repeat("[", 50001) + strings.Repeat("]", 50001) + "\n", "", 0},
		{"a dict 30,000 deep, printed", "def f():\n    d = {}\n    for i in range(30000):\n        d = {'d': d}\n    return len(str(d))\nprint(f())", "210002\n", "", 0},
		{"lists that hold themselves", "a = [1]\na.append(a)\nd = {'a': a}\nd['d'] = d\nprint(a, d, str((a, d)), repr([a]))", "[1, [...]] {\"a\": [1, [...]], \"d\": {...}} ([1, [...]], {\"a\": [1, [...]], \"d\": {...}}) [[1, [...]]]\n", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runOne(t, tc.src)
			if r.Output != tc.output {
				t.Errorf("output %.200q, want %.200q", r.Output, tc.output)
			}
			switch {
			case tc.err == "" && r.Err != nil:
				t.Errorf("error %v", r.Err)
			case tc.err != "" && (r.Err == nil || !strings.Contains(r.Err.Msg, tc.err) || r.Err.Line != tc.line):
				t.Errorf("error %v, want %q on line %d", r.Err, tc.err, tc.line)
			}
		})
	}
	// The run that refused a global goes on from the cells above it, and
	// the cell is not kept.
	s := NewSession(nil, nil)
	cells := []string{"ok = [[1]]", "x = []\nfor i in range(5000):\n    x = [x]", "print(ok)"}
	res := s.Run(Request{Cells: cells}).Cells
	if res[1].Err == nil || !res[2].Err.Above {
		t.Fatalf("errors %v, %v", res[1].Err, res[2].Err)
	}
	if g := s.Run(Request{Cells: cells[:1]}).Globals; g["ok"] == nil || g["x"] != nil {
		t.Errorf("globals after the refused cell: %v", g)
	}
}

// Format writes what Starlark's str writes, for every kind of value and
// nesting, and stops at its limit.
func TestFormatIsStr(t *testing.T) {
	th := &starlark.Thread{}
	for _, src := range []string{
		`[1, 2.5, "a\nb", None, True, (1,), (), (1, 2), {"k": [1, {"j": ()}]}, set([1, 2]), len, [].append, lambda: 1]`,
		`{(1, "a"): [[], [[]]], 2: {}}`,
		`[[], [[], [[]]]]`,
	} {
		v, err := starlark.EvalOptions(fileOptions, th, "x", src, starlark.Universe)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := Format(v, MaxText); !ok || got != v.String() {
			t.Errorf("Format(%s) = %q, %v; str gives %q", src, got, ok, v.String())
		}
		if got, ok := Format(v, 5); ok || len(got) > 5+len(v.String()) {
			t.Errorf("Format(%s, 5) = %q, %v", src, got, ok)
		}
	}
	if s := Short(starlark.NewList([]starlark.Value{starlark.String(strings.Repeat("é", 300))})); len(s) > maxValue+len("…") || !strings.HasSuffix(s, "…") {
		t.Errorf("Short of a long string: %q", s)
	}
}
