package kernel

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.starlark.net/starlark"
)

// A part of the tests' own, in place of package values': counters, numbers
// that stay changeable after the cell that made them ends, as a Value's
// number does, and a built-in that makes things that count towards
// Limits.Values.

// counter is a changeable number of the counters' part.
type counter struct {
	n int
	p *counters
}

var _ Changeable = (*counter)(nil)

func (c *counter) String() string        { return strconv.Itoa(c.n) }
func (c *counter) Type() string          { return "counter" }
func (c *counter) Freeze()               {}
func (c *counter) Truth() starlark.Bool  { return c.n != 0 }
func (c *counter) Hash() (uint32, error) { return uint32(c.n), nil }
func (c *counter) KeptBy() Part          { return c.p }

// counters is the part: what it was told, and the counters' numbers as
// each kept state saved them.
type counters struct {
	run      *Run
	runs     int      // how many runs it was given
	assigned []string // what the cells that ended assigned
}

func (p *counters) SetRun(r *Run) {
	if r != nil {
		p.runs++
	}
	p.run = r
}

func (p *counters) CellDone(_ int, assigned []string) {
	p.assigned = append(p.assigned, assigned...)
}

func (p *counters) Keep(held []Changeable) (func() error, int) {
	kept := map[*counter]int{}
	for _, h := range held {
		kept[h.(*counter)] = h.(*counter).n
	}
	return func() error {
		for c, n := range kept {
			c.n = n
		}
		return nil
	}, len(kept)
}

// countersSession is a Session whose cells have counter() and bump(c),
// and value(), which counts as a Value made.
func countersSession() (*Session, *[]*counters) {
	var made []*counters
	builtins := starlark.StringDict{
		"counter": starlark.NewBuiltin("counter", func(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return &counter{p: PartOf[*counters](thread)}, nil
		}),
		"bump": starlark.NewBuiltin("bump", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var c *counter
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &c); err != nil {
				return nil, err
			}
			c.n++
			return starlark.None, nil
		}),
		"value": starlark.NewBuiltin("value", func(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			if _, _, err := RunOf(thread).Made(); err != nil {
				return nil, err
			}
			return starlark.None, nil
		}),
	}
	return NewSession(builtins, func() []Part {
		p := new(counters)
		made = append(made, p)
		return []Part{p}
	}), &made
}

// What a part keeps with a cell's state comes back when a run starts from
// it: a counter a later cell bumped is as its cell left it, and the part
// hears of the runs and of the names the cells assigned.
func TestPartsKeepTheirState(t *testing.T) {
	s, parts := countersSession()
	cells := []string{"c = counter()\nbump(c)\nd = [counter()]", "bump(c)\nbump(d[0])\nprint(c, d[0])"}
	for i := range 3 {
		if got := s.Run(Request{Cells: cells}).Last(); got.Err != nil || got.Output != "2 1\n" {
			t.Errorf("run %d: %q %v", i+1, got.Output, got.Err)
		}
	}
	if len(*parts) != 1 {
		t.Fatalf("%d chains of cells, want 1", len(*parts))
	}
	p := (*parts)[0]
	if p.runs != 3 || p.run != nil {
		t.Errorf("the part was given %d runs, and %v after the last; want 3 and none", p.runs, p.run)
	}
	if want := []string{"c", "d"}; !slices.Equal(p.assigned[:2], want) {
		t.Errorf("the first cell assigned %q, want %q", p.assigned, want)
	}
	// A fresh run keeps nothing and starts a chain of its own.
	if got := s.Run(Request{Cells: cells, Fresh: true}).Last(); got.Output != "2 1\n" || len(*parts) != 2 {
		t.Errorf("a fresh run: %q, %d chains", got.Output, len(*parts))
	}
}

// A cell that makes more than Limits.Values is stopped at the line that
// made them, with the reason, and the next run works.
func TestMadeCountsValues(t *testing.T) {
	s, _ := countersSession()
	limits := Limits{Values: 10_000}
	r := s.Run(Request{Cells: []string{"n = 0\nfor i in range(20000):\n    value()"}, Limits: limits}).Last()
	if r.Err == nil || r.Err.Stop != ErrTooManyValues || r.Err.Line != 3 || !strings.Contains(r.Err.Msg, "more than 10,000 Values") {
		t.Errorf("error %+v", r.Err)
	}
	// The budget is per cell.
	cells := []string{"for i in range(6000):\n    value()", "for i in range(6000):\n    value()\nprint('ok')"}
	if r := s.Run(Request{Cells: cells, Limits: limits}).Last(); r.Err != nil || r.Output != "ok\n" {
		t.Errorf("two cells of 6,000: %q %v", r.Output, r.Err)
	}
}

// A kept generator goes on from where it was when kept, however far it
// has gone since, each time it is made again; one never drawn from stays
// nil.
func TestKeepGenerator(t *testing.T) {
	if again := KeepGenerator[rand.PCG]((*rand.PCG)(nil)); again() != nil {
		t.Fatal("a generator never drawn from came back")
	}
	g := rand.NewPCG(1, 2)
	g.Uint64()
	again := KeepGenerator(g)
	want := []uint64{g.Uint64(), g.Uint64()}
	for range 2 {
		h := again()
		if got := []uint64{h.Uint64(), h.Uint64()}; !slices.Equal(got, want) {
			t.Fatalf("made again, the generator draws %v, want %v", got, want)
		}
	}
}
