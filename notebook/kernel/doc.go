// Package kernel runs the cells of a notebook, as a notebook's kernel
// does: a Session takes a Request (the cells up to the one to run, its
// Limits and Hooks), runs the cells in order as one Starlark program, and
// returns a CellResult for each, with its output, checks, drawings,
// plots and error. It is the only way cells run: in the worker, in
// -check, in the lesson tests and the benchmarks. It knows the cells'
// dialect of Starlark and nothing of the cell language's built-ins, which
// a Session is given (package notebook's NewSession gives it all of
// them):
//
//	s := kernel.NewSession(nil, nil) // plain Starlark
//	res := s.Run(kernel.Request{Cells: []string{"x = 6", "print(x * 7)"}})
//	fmt.Print(res.Last().Output) // 42
//
// A cell sees the globals that the cells above it leave, as they are
// written now, and nothing else: each cell is its own Starlark file over
// one shared environment, so that a function reads a global's latest
// value as in Python (env.go). The Session keeps the state after each
// cell, keyed by the sources up to it, and a run starts from the longest
// unchanged stretch above (kept.go).
//
// A run is bounded by Limits (limits.go); a limit that fires stops the
// run with a Reason that errors.Is recognises (stop.go), and the error
// names the cell and line, in a learner's words, with the Starlark way
// for a Python habit (hints.go). The few Starlark messages the kernel
// must recognise are read in one file (messages.go). What a run sends to
// the page is capped (cap.go). Cells' str, repr and print, and Format
// and Short for built-ins that quote a learner's value, write nested data
// without recursion (format.go); what a cell leaves nested deeper than
// MaxNesting is refused when it ends, before Starlark freezes it (kept.go).
//
// # What built-ins use
//
// A built-in reaches the run it is called in with RunOf(thread), and
// uses a few methods of the Run: Caller and Here (the learner's line),
// Check and CallQuietly (output.go), Made, Built and Show (the budget of
// Values and the drawings, graphs.go), Plot (plots.go), Globals, Stop, and
// Afford, which keeps a built-in's long computation (a matrix product, a
// Jacobian's passes) to the run's time.
// State that a package keeps from run to run beside the globals (the
// numbers of Values and tensors, random generators) is that package's
// Part of each chain of cells (parts.go), which the kernel tells of runs
// and cells and asks for what to keep with a cell's state, without
// knowing what it holds.
package kernel
