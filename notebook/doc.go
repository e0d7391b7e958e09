// Package notebook is the cell language of a Gradbook notebook,
// assembled: NewSession is the runtime (package kernel) with every
// built-in and, in each chain of cells, the parts of the packages that
// keep state from run to run. It is pure Go, tested natively. Its
// packages:
//
//	notebook/kernel     the runtime: Session, Request, results, limits,
//	                    stop reasons, kept states, messages and hints
//	notebook/values     the Value type and trace
//	notebook/torch      tensors, with PyTorch's names
//	notebook/library    the other built-ins, a file for each kind
//	notebook/cellindex  cells.json, the index of the lessons' cells
//
// and around them: notebook/draw (the drawings), notebook/block (the block
// kinds and all cell markup), notebook/lesson (lesson files to pages, at
// build time only), notebook/progress (the learner's progress),
// notebook/runner (the worker that runs cells) and notebook/web (the page
// in the browser, js/wasm only).
//
// Data crosses each boundary once: a built-in hands the engine a Graph
// (never text), a drawing keeps the compiled tape and its values, and a
// block's data reaches the browser as JSON next to the block.
//
// # Cells
//
// A cell is Starlark, a small Python-like language with no file, network
// or page access, with while loops, top-level if and for, reassigned
// globals and recursion allowed. A Session runs cells: its Run takes a
// Request, the cells up to the one to run with its limits and hooks, and
// runs the cells above that cell and the cell itself, in order: a cell
// sees the globals that the cells above it leave, as they are written
// now, and nothing else.
//
//	s := notebook.NewSession()
//	res := s.Run(kernel.Request{Cells: []string{"x = 6", "print(x * 7)"}})
//	fmt.Print(res.Last().Output) // 42
//
// The Session keeps the state after each cell, keyed by the sources up
// to it, and a run starts from the longest unchanged stretch above:
// frozen lists and dicts and restored Values and tensors make that
// invisible. A run is bounded by Limits; a limit that fires stops the run
// with a reason that errors.Is recognises, and the error names the cell
// and line (package kernel).
//
// # Built-ins
//
// Value(x) or Value(x, "w") is a scalar that records how it was made:
//
//	w = Value(2.0, "w")
//	y = (w * 3 + 1).tanh()      # + - * / with Values or numbers, unary -
//	y = w.relu() + w.exp() + w.log() + w.sigmoid() + w.pow(3)
//	y.backward()                # clears every gradient it reaches, then adds
//	print(w.value, w.data, w.grad)
//	y.backward(overwrite=True)  # the classic bug: assign instead of add
//
// detach(v) passes v's value on but no gradient back:
//
//	skip = detach(p)
//
// evaluate and backward take graphs in the lessons' list format (lists or
// tuples) and answer exactly as the JavaScript API does, errors included:
//
//	g = [["p", "mul", ["a", "b"]], ["u", "add", ["p", "c"]], ["L", "sq", ["u"]]]
//	vals = evaluate(g, {"a": 2.0, "b": 3.0, "c": 1.0})   # every value
//	grads = backward(g, vals, "L")                        # d L / d name
//
// check prints whether a result is right, within tol (relative above 1);
// it compares numbers, Values, dicts (the expected keys) and lists:
//
//	check(a.grad, 42)
//	check(grads, {"a": 42, "b": 28, "c": 14}, tol=1e-6, label="gradients")
//
// grad_check compares a derivative with left, right and central finite
// differences at steps 1e-2, 1e-4 and 1e-6, prints a table and flags a kink
// where the one-sided differences disagree:
//
//	grad_check(lambda w: loss_at(w), 1.0, analytic=32)
//	grad_check(g, {"a": 2.0, "b": 3.0, "c": 1.0}, "L", ["a", "b"])
//
// show draws a graph; without it, a cell draws the last graph it built:
//
//	show(L)
//	show(g, vals, "L")
//
// trace records the graph a function builds, once, and replays its tape
// with new numbers, forward and backward, without running Starlark again
// (package values); it refuses a function that reads a Value's number while it
// builds the graph:
//
//	step = trace(loss_of, params)
//	for k in range(100):
//	    L = step(params)            # sets each parameter's .grad
//	    for p in params:
//	        p.value -= 0.1 * p.grad
//
// plot, scatter and boundary draw plots under the cell (package plot);
// moons, uniform and sum make seeded data and starting weights and add
// Values:
//
//	X, y = moons(100, noise=0.1, seed=1)
//	plot(losses, title="Loss")
//	boundary(trace(score, [Value(0.0), Value(0.0)]), X, y)
//
// math is Starlark's math module (math.sqrt, math.exp, math.pi, …), and
// round(x) and round(x, n) round as Python 3 does.
//
// A cell's result holds its output, its checks, its error (with the cell
// and line), its drawings (package draw) and its plots (package plot).
//
// # Adding a built-in
//
// Write it in the file of its kind (package library's doc lists them, or
// values and torch) with its line in that file's table of built-ins,
// document it here and in the README's two tables (a test fails until
// both have it and the README names the file), and test it in the
// _test.go beside the file. A new op of the engine needs one more name in
// unaryMethods (values/value.go) to become a Value method, and a line in
// tensorMethods (torch/methods.go) to become a tensor's.
package notebook
