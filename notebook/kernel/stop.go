package kernel

import (
	"fmt"
	"strconv"
	"time"

	"gradbook/internal/words"
)

// Reason is why a run was stopped before its code ended: each is set
// where its limit fires, and a cell's error carries it (CellError.Stop)
// and unwraps to it, so that a caller asks errors.Is(err, ErrTooLong)
// instead of reading the message. A Reason is a number, so it crosses to
// the page inside a result like any other field.
type Reason uint8

// The reasons.
const (
	// ErrTooLong: the run went on past its time (Limits.Time).
	ErrTooLong Reason = iota + 1
	// ErrTooDeep: more calls were open at once than Limits.Depth.
	ErrTooDeep
	// ErrTooMuchMemory: live data went over Limits.Heap, or one
	// allocation was larger than the address space.
	ErrTooMuchMemory
	// ErrTooManyValues: a cell made more Values than Limits.Values.
	ErrTooManyValues
)

func (r Reason) Error() string {
	switch r {
	case ErrTooLong:
		return "the run took too long"
	case ErrTooDeep:
		return "the recursion went too deep"
	case ErrTooMuchMemory:
		return "the run held too much memory"
	case ErrTooManyValues:
		return "a cell made too many Values"
	}
	return "not stopped"
}

// stopMessage is what a cell stopped for why says, in a learner's words.
func stopMessage(why Reason, l Limits) string {
	switch why {
	case ErrTooLong:
		return fmt.Sprintf("stopped after %s: the cell ran too long (an endless loop?)", seconds(l.Time))
	case ErrTooDeep:
		return fmt.Sprintf("recursion too deep: more than %d calls were open at once (is the base case missing, or never reached?)", l.Depth)
	case ErrTooMuchMemory:
		return fmt.Sprintf("stopped: the cell holds more than %s of data, more than a page can spare", words.Bytes(l.Heap))
	case ErrTooManyValues:
		return fmt.Sprintf("stopped: the cell made more than %s, more than a page can hold (an endless loop?)", words.Count(l.Values, "Value"))
	}
	return why.Error()
}

// stopError is the error a built-in returns when a limit fires inside it:
// it carries the reason through Starlark's EvalError, which unwraps to it.
type stopError struct {
	why Reason
	msg string
}

func (e *stopError) Error() string { return e.msg }
func (e *stopError) Unwrap() error { return e.why }

// seconds writes a duration for a learner: "60 s", "0.8 s".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}
