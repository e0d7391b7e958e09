// Package engine is a scalar reverse-mode automatic differentiation engine.
//
// A computation is a Graph in the lessons' list format, in forward order:
//
//	[["p", "mul", ["a", "b"]], ["u", "add", ["p", "c"]], ["L", "sq", ["u"]]]
//
// Each entry names a node, its op and its inputs; an input is a leaf or an
// earlier node. Evaluate computes every value from the leaves; Backward
// returns d(out)/d(name) for every name, walking the nodes once in reverse
// and adding every contribution that reaches a value (a value used twice,
// as in x*x, receives both).
//
// # Ops
//
// Each op is one entry of the table in ops.go, micrograd style: its name,
// its number of inputs, its forward rule and its local derivatives side by
// side; that entry is the only place that names it or states its rules
// (Rule hands them to package tensor). The local derivatives are those of
// the lessons' local_grads:
//
//	add     a+b        (1, 1)
//	sub     a−b        (1, −1)
//	mul     a·b        (b, a)
//	div     a/b        (1/b, −a/b²)
//	sq      a²         (2a)
//	tanh    tanh a     (1−tanh²a)
//	relu    max(0, a)  (1 if a > 0, else 0: the derivative at exactly 0 is 0)
//	neg     −a         (−1)
//	exp     eᵃ         (eᵃ)
//	log     ln a       (1/a), a > 0
//	sigmoid σ(a)       (σ(a)(1−σ(a)))
//	pow     aᵏ         (k·aᵏ⁻¹), with the constant k as a fourth element:
//	                   ["y", "pow", ["x"], 3]
//	detach  a          (0): a stop-gradient; it receives a gradient of its
//	                   own but passes none upstream
//	max     max(a, b)  (1, 0) if a ≥ b, else (0, 1): the larger input gets
//	                   the whole gradient; detach(max(…)) is the constant a
//	                   stable softmax subtracts, computed afresh on replay
//
// # Errors
//
// Bad input is reported, never a panic: each error names the node, leaf or
// entry at fault and says what is wrong, and wraps one of the Err variables
// for errors.Is.
//
// # Speed
//
// Compile resolves names to slots once; a Tape keeps values and gradients
// in flat slices and runs Forward and Reverse without allocating. Reuse a
// Tape to evaluate the same graph many times: Bind resolves named values
// to its slots, Load checks them, Gradients runs the reverse pass. The
// tape's loops and Value's Backward write the commonest ops' rules out
// instead of calling through the table, which costs time in WebAssembly;
// a test checks each such copy against the table, for every op.
//
// The engine knows nothing of transport: ParseGraph and ParseValues read
// the list format from JSON (through internal/jsontext), GraphOf and
// ValuesOf from values already decoded; the JavaScript API's wire format
// is wasm/engine's.
//
// # Values
//
// Value is the same machinery with a micrograd-style API: build expressions
// with methods and call Backward on the result, which walks the Values
// once and marks them as it goes (no map, no allocation per Value), then
// runs the reverse pass on their Grad fields. BackwardMode, like a Tape's
// Reverse, reproduces the classic bugs of a first backward pass, for
// teaching (and for the drawings that show them): OverwriteBug assigns
// gradients instead of adding them, TwiceBug calls backward twice without
// zeroing, RecursiveBug recurses in visiting order.
//
// GradCheck compares gradients with finite differences.
package engine
