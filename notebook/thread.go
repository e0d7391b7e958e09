package notebook

import (
	"errors"
	"time"

	"go.starlark.net/starlark"
)

// NewThread returns a Starlark thread for learner or lesson code. Every
// thread gets it here, with the one budget every run has: once it has run
// for Budget it is cancelled with the message why, after calling stopped
// (if not nil) to note where it was. print receives what the code prints
// (nil discards it); cells cannot load modules.
func NewThread(name string, print func(msg string), why string, stopped func(*starlark.Thread)) *starlark.Thread {
	start := time.Now()
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
	// Checking the clock every step would cost; every 100,000 steps is
	// well under a millisecond of Starlark.
	const every = 100_000
	th.SetMaxExecutionSteps(every)
	th.OnMaxSteps = func(th *starlark.Thread) {
		if time.Since(start) > Budget {
			if stopped != nil {
				stopped(th)
			}
			th.Cancel(why)
			return
		}
		th.SetMaxExecutionSteps(th.ExecutionSteps() + every)
	}
	return th
}
