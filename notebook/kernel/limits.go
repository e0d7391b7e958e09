package kernel

import (
	"errors"
	"runtime"
	"runtime/metrics"
	"time"

	"go.starlark.net/starlark"
)

// The limits of one run, so that no cell can take the page down with it:
// in the browser a stack overflow or running out of memory kills the
// WebAssembly runtime, not just the cell. A Request's Limits may lower
// them (tests do).
const (
	// MaxDepth is how many Starlark calls may be open at once, as in
	// Python (whose default recursion limit is 1000). Measured without a
	// limit, Chromium 156 ran f(7000) and died at f(10000); Firefox 153 ran
	// f(10000) and died at f(20000): 1000 leaves a margin of seven.
	MaxDepth = 1000
	// MaxHeap is how many bytes of live objects a run may hold.
	MaxHeap = 512_000_000
	// MaxOutput is how many bytes one run may print.
	MaxOutput = 1_000_000
	// MaxValues is how many Values one cell may make: a hundred plain
	// training steps of micrograd's moons network, or a GPT's 1,000
	// traced steps with their recordings. Values that are garbage cost
	// nothing; the live ones are bounded by MaxHeap too.
	MaxValues = 10_000_000
	// MaxNesting is how deeply the data a cell leaves may nest: lists in
	// lists, dicts in dicts, tuples, and functions' closures. Starlark
	// freezes, hashes and formats nested data with one call per level,
	// and Chromium died freezing a list nested 20,000 deep (5,000 was
	// fine), as Node does with the browsers' stack; 1000 leaves a margin
	// of five, as MaxDepth does for calls.
	MaxNesting = 1000
)

// How long code may run before it is stopped. Cells run off the page's
// thread, in a Web Worker that a learner can stop at any time, so a cell
// may run for a minute, each cell of a run (Run all, the cells above
// the one asked for) its own minute; a check runs on the learner's click and answers
// in seconds; an explore task is evaluated on the page at every slider
// move and must finish within a frame.
const (
	CellBudget  = 60 * time.Second
	CheckBudget = 5 * time.Second
	TaskBudget  = 100 * time.Millisecond
)

// NewThread returns a Starlark thread for evaluating an author's
// expression outside a run (a quiz's answer, an explore task's
// condition): it cannot load modules, prints nothing, and is cancelled
// with the message why once it has run for budget or opened more than
// MaxDepth calls.
func NewThread(name string, budget time.Duration, why string) *starlark.Thread {
	start := time.Now()
	since := func() time.Time { return start }
	return limitedThread(name, Limits{Time: budget}.withDefaults(), since, nil, func(th *starlark.Thread, reason Reason) {
		if reason == ErrTooLong {
			th.Cancel(why)
			return
		}
		th.Cancel(stopMessage(reason, Limits{Time: budget}.withDefaults()))
	})
}

// limitedThread returns a thread that runs within l: once it has run
// for l.Time since the time since returns, holds more than l.Depth calls
// open or more than l.Heap bytes, it calls stop with the reason, which
// must cancel it. print receives what the code prints (nil discards it).
func limitedThread(name string, l Limits, since func() time.Time, print func(msg string), stop func(th *starlark.Thread, why Reason)) *starlark.Thread {
	th := &starlark.Thread{
		Name: name,
		Print: func(_ *starlark.Thread, msg string) {
			if print != nil {
				print(msg)
			}
		},
		Load: func(*starlark.Thread, string) (starlark.StringDict, error) {
			return nil, errors.New("cells cannot load modules: math, Value and the other built-ins are already there")
		},
	}
	// The depth is checked every 1,000 steps, which a recursion cannot
	// deepen by more than a few hundred calls; the clock and the heap,
	// which cost more to read, every 16,000.
	const every = 1000
	checks, quietUntil := 0, 0
	heap := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	th.SetMaxExecutionSteps(every)
	th.OnMaxSteps = func(th *starlark.Thread) {
		th.SetMaxExecutionSteps(th.ExecutionSteps() + every)
		if th.CallStackDepth() > l.Depth {
			stop(th, ErrTooDeep)
			return
		}
		if checks++; checks%16 != 0 {
			return
		}
		if checks >= quietUntil && heapBytes(heap) > l.Heap {
			// Over the cap, garbage included: collect, then judge what is live.
			runtime.GC()
			if heapBytes(heap) > l.Heap {
				stop(th, ErrTooMuchMemory)
				return
			}
			quietUntil = checks + 64 // no forced collection for a million steps
		}
		if time.Since(since()) > l.Time {
			stop(th, ErrTooLong)
		}
	}
	return th
}

// overHeap reports whether live objects take more than max bytes,
// collecting garbage first if the heap is over it.
func overHeap(max uint64) bool {
	heap := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	if heapBytes(heap) <= max {
		return false
	}
	runtime.GC()
	return heapBytes(heap) > max
}

// heapBytes reads the bytes of heap objects, garbage included.
func heapBytes(s []metrics.Sample) uint64 {
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
