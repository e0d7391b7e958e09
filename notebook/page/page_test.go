package page

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gradbook/notebook"
	"gradbook/notebook/kernel"
	"gradbook/notebook/runner"
)

func TestShow(t *testing.T) {
	tests := []struct {
		name string
		r    kernel.CellResult
		cell int
		want Shown
	}{
		{"clean", kernel.CellResult{Ran: true, Output: "42\n"}, 0, Shown{"42\n", Passed, 0}},
		{"nothing printed", kernel.CellResult{Ran: true}, 0, Shown{"(ran; nothing printed)", Passed, 0}},
		{"failed check", kernel.CellResult{Ran: true, Output: "✗ x: got 1, expected 2\n", Checks: []kernel.CheckResult{{Passed: false}}}, 0, Shown{"✗ x: got 1, expected 2\n", Failed, 0}},
		{"error after output without a newline", kernel.CellResult{Ran: true, Output: "partial", Err: &kernel.CellError{Cell: 0, Line: 2, Msg: "boom"}}, 0,
			Shown{"partial\ncell 1, line 2\nError: boom", Error, 2}},
		{"error in a function defined above", kernel.CellResult{Ran: true, Err: &kernel.CellError{Cell: 1, Line: 3, Msg: "boom", Where: "in f, defined in cell 1"}}, 1,
			Shown{"cell 2, line 3 (in f, defined in cell 1)\nError: boom", Error, 0}},
		{"error above", kernel.CellResult{Err: &kernel.CellError{Cell: 0, Above: true}}, 1,
			Shown{"not run: cell 1 above has an error; fix it first", Error, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Show(&tc.r, tc.cell); got != tc.want {
				t.Errorf("Show = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// A lesson's cell the learner changed shows a check that no longer holds
// as the result of their experiment.
func TestShowEdited(t *testing.T) {
	r := notebook.NewSession().Run(kernel.Request{Cells: []string{"L = -2.0\nprint('L is', L)\ncheck(L, -8)"}}).Last()
	got := ShowEdited(r, 0)
	if got.State != Changed || got.Text != "L is -2.0\n• L: the lesson expects -8; yours gives -2\n" {
		t.Errorf("ShowEdited = %+v", got)
	}
	if got := Show(r, 0); got.State != Failed || !strings.Contains(got.Text, "✗ L: got -2, expected -8") {
		t.Errorf("Show = %+v", got)
	}
}

func TestOutcomeAndWhy(t *testing.T) {
	res := runner.Result{Cells: []kernel.CellResult{{Ran: true, Output: "a\n"}, {Ran: true, Output: "b\n"}}}
	if got := Outcome(res, 1, 1, nil, "", 10); got.Output != "b\n" {
		t.Errorf("the second cell's result: %q", got.Output)
	}
	stopped := Outcome(runner.Result{}, 0, 2, runner.ErrStopped, "step 1\n", 3200)
	if stopped.Output != "step 1\n" || stopped.Err.Cell != 2 || stopped.Err.Msg != "stopped after 3.2 s, as you asked" {
		t.Errorf("stopped: %+v %+v", stopped, stopped.Err)
	}
	if got := Why(&runner.DiedError{Why: "fatal error: out of memory"}, 0); !strings.HasPrefix(got, "the runner stopped (fatal error: out of memory) and was started again") {
		t.Errorf("died: %q", got)
	}
	if got := Why(errors.New("bad message"), 0); got != "bad message" {
		t.Errorf("other: %q", got)
	}
	if got := Why(nil, 0); !strings.Contains(got, "no result") {
		t.Errorf("none: %q", got)
	}
}

func TestChainAndRunAll(t *testing.T) {
	cells := []Member{
		{Group: "inline", Source: "a = 1"},
		{Group: "ref:L/x", Prefix: []string{"h1", "h2"}, Source: "x"},
		{Group: "inline", Source: "b = a"},
		{Group: "inline", Source: "print(b)"},
	}
	srcs, members := Chain(cells, 2)
	if !slices.Equal(srcs, []string{"a = 1", "b = a"}) || !slices.Equal(members, []int{0, 2}) {
		t.Errorf("Chain(2) = %q %v", srcs, members)
	}
	srcs, members = Chain(cells, 1)
	if !slices.Equal(srcs, []string{"h1", "h2", "x"}) || !slices.Equal(members, []int{1}) {
		t.Errorf("Chain(1) = %q %v", srcs, members)
	}
	jobs := PlanRunAll(cells)
	if len(jobs) != 2 || !slices.Equal(jobs[0].Members, []int{0, 2, 3}) || jobs[0].Skip != 0 || !slices.Equal(jobs[1].Members, []int{1}) || jobs[1].Skip != 2 {
		t.Errorf("PlanRunAll = %+v", jobs)
	}
}

func TestDebouncer(t *testing.T) {
	var mu sync.Mutex
	var saved []string
	save := func(s string) func() {
		return func() {
			mu.Lock()
			saved = append(saved, s)
			mu.Unlock()
		}
	}
	d := NewDebouncer(20*time.Millisecond, RealClock{}, nil)
	d.Later("a", save("a1"))
	d.Later("a", save("a2")) // replaces a1
	d.Later("b", save("b1"))
	if !d.Waiting() {
		t.Error("nothing waits")
	}
	time.Sleep(80 * time.Millisecond)
	mu.Lock()
	got := slices.Sorted(slices.Values(saved))
	mu.Unlock()
	if !slices.Equal(got, []string{"a2", "b1"}) || d.Waiting() {
		t.Errorf("after the pause: %q, waiting %v", got, d.Waiting())
	}
	// Flush runs what waits at once, and once.
	var n atomic.Int32
	d = NewDebouncer(time.Hour, RealClock{}, nil)
	d.Later("c", func() { n.Add(1) })
	d.Flush()
	d.Flush()
	if n.Load() != 1 || d.Waiting() {
		t.Errorf("flushed %d times, waiting %v", n.Load(), d.Waiting())
	}
	// Flush waits for a save under way.
	d = NewDebouncer(time.Millisecond, RealClock{}, nil)
	started, finished := make(chan struct{}), atomic.Bool{}
	d.Later("slow", func() {
		close(started)
		time.Sleep(30 * time.Millisecond)
		finished.Store(true)
	})
	<-started
	d.Flush()
	if !finished.Load() {
		t.Error("Flush returned before the save under way ended")
	}
}

func TestShareLinks(t *testing.T) {
	link := ShareLink("https://example.org/lessons/x.html?frame#cell-worked", "worked", "print('<hi>')\n")
	if !strings.HasPrefix(link, "https://example.org/lessons/x.html?frame#share=worked:") {
		t.Fatalf("link %q", link)
	}
	_, hash, _ := strings.Cut(link, "#")
	id, code, ok := ParseShare("#" + hash)
	if !ok || id != "worked" || code != "print('<hi>')\n" {
		t.Errorf("ParseShare = %q %q %v", id, code, ok)
	}
	for _, bad := range []string{"", "#cell-x", "#share=", "#share=x", "#share=:abc", "#share=x:!!!"} {
		if _, _, ok := ParseShare(bad); ok {
			t.Errorf("ParseShare(%q) took it", bad)
		}
	}
}

func TestNextID(t *testing.T) {
	for _, tc := range []struct {
		ids  []string
		n    int
		want int
	}{
		{nil, 0, 1},
		{[]string{"scratch-1", "scratch-2"}, 2, 3},
		{[]string{"scratch-7"}, 1, 8},
		{[]string{"scratch-9223372036854775807"}, 1, 2},
		{[]string{"scratch--4", "scratch-x", "other-9"}, 3, 4},
	} {
		if got := NextID(tc.ids, tc.n); got != tc.want {
			t.Errorf("NextID(%q, %d) = %d, want %d", tc.ids, tc.n, got, tc.want)
		}
	}
}

// grad_check's table keeps its lines whole; the prose around it wraps.
func TestPieces(t *testing.T) {
	out := "Checking w:\nstep      left     right\n0.01      2.97     3.03\n1e-06     3        3\nbackward gives 3\nx  y\n"
	got := Pieces(out)
	want := []Piece{
		{"Checking w:\n", false},
		{"step      left     right\n0.01      2.97     3.03\n1e-06     3        3\n", true},
		{"backward gives 3\nx  y\n", false}, // a lone row is prose
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Pieces = %+v, want %+v", got, want)
	}
	var joined string
	for _, p := range got {
		joined += p.Text
	}
	if joined != out {
		t.Errorf("the pieces lose text: %q", joined)
	}
	for out, want := range map[string][]Piece{
		"a  b\nc  d":               {{"a  b\nc  d", true}},
		"x\na  b\nc  d\ny\nz  w\n": {{"x\n", false}, {"a  b\nc  d\n", true}, {"y\nz  w\n", false}},
		"x\n\ny":                   {{"x\n\ny", false}},
	} {
		if got := Pieces(out); !reflect.DeepEqual(got, want) {
			t.Errorf("Pieces(%q) = %+v, want %+v", out, got, want)
		}
	}
	if got := Pieces(""); len(got) != 0 {
		t.Errorf("Pieces of nothing = %+v", got)
	}
}

// BenchmarkPieces splits a megabyte of printed lines, as a cell that
// prints up to the cap shows them.
func BenchmarkPieces(b *testing.B) {
	var out strings.Builder
	for i := 0; out.Len() < kernel.MaxOutput; i++ {
		fmt.Fprintf(&out, "line %d %s\n", i, strings.Repeat("y", 50))
	}
	text := out.String()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Pieces(text)
	}
}
