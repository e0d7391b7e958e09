package kernel

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// Every limit of a run gives a clean error that names the cell's line, and
// the next run works.
func TestLimits(t *testing.T) {
	limits := Limits{Heap: 64_000_000, Values: 10_000}
	s, _ := countersSession()
	tests := []struct {
		name, src, says string
		why             Reason
		line            int
	}{
		{"deep recursion", "def f(n):\n    if n == 0:\n        return 0\n    return f(n - 1) + 1\nprint(f(10000))", "recursion too deep: more than 1000 calls", ErrTooDeep, 2},
		{"too many Values", "xs = []\nwhile True:\n    xs.append(value())", "more than 10,000 Values", ErrTooManyValues, 3},
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

// The page clips what a runner sends it as the kernel clips a run's
// output: a run's own output, capped or not, is shown whole; more than
// that is cut, on a character, with the same last line.
func TestClipOutput(t *testing.T) {
	for _, code := range []string{
		`print("a" * 3000000)`,
		`for i in range(25000):` + "\n" + `    print("line", i, "y" * 50)`,
		`print("é" * 600000)`,
		`print("short")`,
	} {
		r := runOne(t, code)
		if got := ClipOutput(r.Output, MaxOutput); got != r.Output {
			t.Errorf("%s: ClipOutput changed the run's own output of %d bytes to %d", code, len(r.Output), len(got))
		}
		if len(r.Output) > OutputBound(MaxOutput) {
			t.Errorf("%s: %d bytes, beyond OutputBound's %d", code, len(r.Output), OutputBound(MaxOutput))
		}
	}
	long := strings.Repeat("é", 2*MaxOutput)
	got := ClipOutput(long, MaxOutput)
	if len(got) > OutputBound(MaxOutput) || !utf8.ValidString(got) || !strings.HasSuffix(got, "é\n… output truncated: a run may print at most 1 MB.\n") {
		t.Errorf("%d bytes, valid %v, ending %q", len(got), utf8.ValidString(got), got[max(0, len(got)-80):])
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

// Afford refuses up front what cannot finish in the time left even at
// the rate given, saying how much work it is, as the run's time limit
// (issue 34, finding 5).
func TestAffordRefusesWhatCannotFinish(t *testing.T) {
	r := newRun(nil, nil, Limits{Time: time.Minute}.withDefaults())
	r.start = time.Now()
	if err := r.Afford(1e9, 1e10, "multiply-adds"); err != nil {
		t.Errorf("0.1 s of work in a minute: %v", err)
	}
	err := r.Afford(1e12, 1e10, "multiply-adds")
	if err == nil || !errors.Is(err, ErrTooLong) || !strings.HasPrefix(err.Error(), "too long to compute: this needs about 1,000,000,000,000 multiply-adds, which take at least 100 s, and the cell has ") || !strings.HasSuffix(err.Error(), " left of its 60 s") {
		t.Errorf("100 s of work in a minute: %v", err)
	}
	var none *Run
	if err := none.Afford(1e12, 1, "visits"); err != nil {
		t.Errorf("outside a run: %v", err)
	}
}
