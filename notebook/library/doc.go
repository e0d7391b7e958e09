// Package library is the cell language's built-ins besides the Value
// type's (package values) and the tensors' (package torch), a file for
// each kind, each with its table of built-ins (Builtins joins them):
//
//	graphs.go     evaluate, backward and show: graphs in the lessons'
//	              list format, answered as the JavaScript API answers
//	check.go      check, and grad_check's finite differences
//	math.go       math, round
//	plots.go      plot, scatter, boundary, heatmap, hist (package plot)
//	data.go       moons, uniform, sum: seeded data and starting weights
//	datafiles.go  names, from the data files the page brings the runner
//	random.go     the random module, whose generator is the library's
//	              part of each chain of cells (NewPart)
//	forward.go    jvp and jacobian: forward mode, on Values and tensors
//
// For example:
//
//	g = [["p", "mul", ["a", "b"]], ["L", "sq", ["p"]]]
//	vals = evaluate(g, {"a": 2.0, "b": 3.0})
//	check(backward(g, vals, "L"), {"a": 36, "b": 24})
//	grad_check(lambda w: w * w, 3.0, analytic=6)
//	X, y = moons(100, noise=0.1, seed=1)
//	plot([1.0, 0.5, 0.25], title="Loss")
//	y, dy = jvp(lambda x: x * x + x, [3.0], [1.0])
package library
