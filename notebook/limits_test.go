package notebook

import (
	"errors"
	"strings"
	"testing"
)

// Every limit of a run gives a clean error that names the cell's line, and
// the next run works.
func TestLimits(t *testing.T) {
	limits := Limits{Heap: 64 << 20, Values: 10_000}
	s := NewSession()
	tests := []struct {
		name, src, says string
		why             Reason
		line            int
	}{
		{"deep recursion", "def f(n):\n    if n == 0:\n        return 0\n    return f(n - 1) + 1\nprint(f(10000))", "recursion too deep: more than 1000 calls", ErrTooDeep, 2},
		{"too many Values", "xs = []\nwhile True:\n    xs.append(Value(1.0))", "more than 10,000 Values", ErrTooManyValues, 3},
		{"too much memory", "x = [0] * 20000000\nfor i in range(1000000):\n    pass", "more than 64 MB of data", ErrTooMuchMemory, 0},
		{"too much memory in one statement", "x = [0] * 20000000", "more than 64 MB of data", ErrTooMuchMemory, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := s.Run(Request{Cells: []string{tc.src}, Limits: limits}).Last()
			if r.Err == nil || !strings.Contains(r.Err.Error(), tc.says) {
				t.Fatalf("error %v, want one saying %q", r.Err, tc.says)
			}
			if !errors.Is(r.Err, tc.why) {
				t.Errorf("the error's reason is %v, want %v", r.Err.Stop, tc.why)
			}
			if tc.line > 0 && r.Err.Line != tc.line {
				t.Errorf("the error names line %d, want %d: %v", r.Err.Line, tc.line, r.Err)
			}
			if r := s.Run(Request{Cells: []string{"print(1 + 1)"}, Limits: limits}).Last(); r.Err != nil || r.Output != "2\n" {
				t.Errorf("the next run: %q %v", r.Output, r.Err)
			}
		})
	}
}

func TestOutputIsCapped(t *testing.T) {
	r := runOne(t, `print("a" * 3000000)`+"\n"+`print("after")`)
	if r.Err != nil || len(r.Output) > MaxOutput+200 || !strings.HasSuffix(r.Output, "… output truncated: a run may print at most 1 MB.\n") {
		t.Errorf("%d bytes, error %v, ending %q", len(r.Output), r.Err, r.Output[max(0, len(r.Output)-80):])
	}
}

func TestCheckWithNaN(t *testing.T) {
	r := runOne(t, `check(1, 1, tol=float("nan"))`+"\n"+`check(float("nan"), float("nan"))`+"\n"+`check(1, 2, tol=float("nan"))`)
	if len(r.Checks) != 3 || !r.Checks[0].Passed || !r.Checks[1].Passed || r.Checks[2].Passed {
		t.Errorf("checks %+v", r.Checks)
	}
}

// An allocation larger than the address space panics in Go; the cell
// shows the memory limit, not an internal error.
func TestHugeAllocationIsTheMemoryLimit(t *testing.T) {
	var r any
	func() {
		defer func() { r = recover() }()
		n := -1 // what a size beyond the address space comes to in the browser
		_ = make([]int, n)
	}()
	l := Limits{}.withDefaults()
	if got, want := panicMessage(r, l), stopMessage(ErrTooMuchMemory, l); got != want {
		t.Errorf("a makeslice panic shows %q, want %q", got, want)
	}
	if got := panicMessage("a bug", l); !strings.HasPrefix(got, "internal error in Gradbook: a bug") {
		t.Errorf("another panic shows %q", got)
	}
}

// check compares strings as strings, and lists and dicts of them; a list
// that holds itself is an error, not an endless comparison.
func TestCheckStrings(t *testing.T) {
	r := runOne(t, `check("a", "a")
check(["x"], ["x"])
check({"k": "v"}, {"k": "v"})
check("a", "b")`)
	if r.Err != nil || len(r.Checks) != 4 || !r.Checks[0].Passed || !r.Checks[1].Passed || !r.Checks[2].Passed || r.Checks[3].Passed {
		t.Fatalf("checks %+v, error %v", r.Checks, r.Err)
	}
	if got := r.Checks[3].Text; got != `✗ "a": got "a", expected "b"` {
		t.Errorf("the failed check reads %q", got)
	}
	r = runOne(t, "xs = [1]\nxs.append(xs)\ncheck(xs, xs)")
	if r.Err == nil || !strings.Contains(r.Err.Msg, "nested more than 64 deep") {
		t.Errorf("a list that holds itself: %v", r.Err)
	}
}

// No message a run sends to the page is larger than the caps: not an
// error's, not a check's, however large the values in them.
func TestMessagesAreCapped(t *testing.T) {
	for name, src := range map[string]string{
		"an error about a huge value": "x = \"a\" * 5000000\nint(x)",
		"a huge fail":                 `fail("b" * 3000000)`,
		"a huge line of code":         "x = 1 + " + strings.Repeat("1 + ", 200000) + "nope",
		"a check of huge strings":     `check("a" * 3000000, "b" * 3000000)`,
		"a check with a huge label":   `check(1, 2, label="L" * 3000000)`,
		"a Value with a huge label":   "v = Value(1.0, \"w\" * 3000000)\nprint(len(v.label))",
		"a million checks":            "for i in range(1000000):\n    check(i, i)",
		"a million failing checks":    "for i in range(1000000):\n    check(i, -1)",
		"a plot with a huge title":    `plot([1, 2], title="t" * 3000000)`,
	} {
		t.Run(name, func(t *testing.T) {
			r := runOne(t, src)
			total := len(r.Output)
			if e := r.Err; e != nil {
				total += len(e.Msg) + len(e.Code) + len(e.Hint) + len(e.Where)
				for _, s := range []string{e.Msg, e.Code, e.Hint, e.Where} {
					if len(s) > MaxMessage+40 {
						t.Errorf("an error's text has %d bytes", len(s))
					}
				}
			}
			for _, c := range r.Checks {
				total += len(c.Text) + len(c.Label)
			}
			if len(r.Checks) > MaxChecks {
				t.Errorf("%d checks recorded", len(r.Checks))
			}
			for _, p := range r.Plots {
				total += len(p.SVG) + len(p.Title)
			}
			if total > MaxOutput+MaxChecks*2*MaxMessage {
				t.Errorf("the result carries %d bytes", total)
			}
		})
	}
	r := runOne(t, "for i in range(2000):\n    check(i, i if i != 1500 else -1)")
	if r.Passed() || r.MoreChecks != 1000 || r.MoreFailed != 1 {
		t.Errorf("a failure past the recorded checks: passed %v, %d more, %d failed", r.Passed(), r.MoreChecks, r.MoreFailed)
	}
}
