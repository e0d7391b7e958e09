// Package values is the cell language's Value, a scalar that records how
// it was made (value.go), with trace, which records the graph a function
// builds as a tape and replays it without running Starlark again
// (trace.go):
//
//	w = Value(2.0, "w")
//	y = (w * 3 + 1).tanh()      # + - * / with Values or numbers, unary -
//	y = w.relu() + w.exp() + w.log() + w.sigmoid() + w.pow(3)
//	y.backward()                # clears every gradient it reaches, then adds
//	print(w.value, w.data, w.grad)
//	skip = detach(p)            # passes p's value on but no gradient back
//	top = max(xs)               # a Value: the whole gradient to the largest
//	step = trace(loss_of, params)
//	L = step(params)            # sets each parameter's .grad
//
// A Value is an engine.Value behind a Starlark face. The Values of a
// chain of cells share their part (part.go, a kernel.Part): the run going
// on now, which a Value's operators count towards (they are given no
// thread), the recording trace makes, the names cells gave Values, and
// the kept states' numbers. Its drawing (Graph) shows the program's own
// state: the values and gradients backward left.
//
// The built-ins are Builtins; a Session of the cell language also gives
// each chain of cells a NewPart.
package values
