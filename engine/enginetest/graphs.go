// Package enginetest builds the graphs that tests and benchmarks share,
// and reads the list of ops that engine's and tensor's package comments
// keep.
package enginetest

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"gradbook/engine"
)

// MLP returns a scalar multi-layer perceptron 2→16→16→1 (tanh hidden
// units) applied to points random 2-D points with labels ±1, and a hinge
// loss Σ relu(1 − label·score): about 645 nodes a point, 64,000 for 100.
// The graph and leaves are deterministic for a given points.
func MLP(points int) (engine.Graph, map[string]float64) {
	r := rand.New(rand.NewPCG(1, 2))
	leaves := map[string]float64{"one": 1}
	var g engine.Graph
	add := func(name, op string, in ...string) string {
		g = append(g, engine.Node{Name: name, Op: op, Inputs: in})
		return name
	}
	sizes := []int{2, 16, 16, 1}
	for l := 1; l < len(sizes); l++ {
		for j := 0; j < sizes[l]; j++ {
			leaves[fmt.Sprintf("b%d_%d", l, j)] = r.Float64()*2 - 1
			for i := 0; i < sizes[l-1]; i++ {
				leaves[fmt.Sprintf("w%d_%d_%d", l, j, i)] = (r.Float64()*2 - 1) / 2
			}
		}
	}
	total := ""
	for p := 0; p < points; p++ {
		in := []string{}
		for i := 0; i < 2; i++ {
			x := fmt.Sprintf("x%d_%d", p, i)
			leaves[x] = r.Float64()*2 - 1
			in = append(in, x)
		}
		label := "y" + strconv.Itoa(p)
		leaves[label] = float64(1 - 2*r.IntN(2))
		for l := 1; l < len(sizes); l++ {
			var next []string
			for j := 0; j < sizes[l]; j++ {
				pre := fmt.Sprintf("b%d_%d", l, j)
				for i, x := range in {
					m := add(fmt.Sprintf("m%d_%d_%d_%d", p, l, j, i), "mul", fmt.Sprintf("w%d_%d_%d", l, j, i), x)
					pre = add(fmt.Sprintf("s%d_%d_%d_%d", p, l, j, i), "add", pre, m)
				}
				if l < len(sizes)-1 {
					pre = add(fmt.Sprintf("h%d_%d_%d", p, l, j), "tanh", pre)
				}
				next = append(next, pre)
			}
			in = next
		}
		ys := add("ys"+strconv.Itoa(p), "mul", label, in[0])
		margin := add("margin"+strconv.Itoa(p), "sub", "one", ys)
		hinge := add("hinge"+strconv.Itoa(p), "relu", margin)
		if total == "" {
			total = hinge
		} else {
			total = add("total"+strconv.Itoa(p), "add", total, hinge)
		}
	}
	add("loss", "neg", add("negloss", "neg", total))
	return g, leaves
}

// TanhChain returns x → tanh → tanh → … with n tanh nodes, the last called
// "out", and its leaf x = 0.5.
func TanhChain(n int) (engine.Graph, map[string]float64) {
	g := make(engine.Graph, n)
	prev := "x"
	for i := range g {
		name := "t" + strconv.Itoa(i)
		if i == n-1 {
			name = "out"
		}
		g[i] = engine.Node{Name: name, Op: "tanh", Inputs: []string{prev}}
		prev = name
	}
	return g, map[string]float64{"x": 0.5}
}

// Random returns a random valid graph of n nodes over a few leaves, using
// every op but detach (whose gradient is by design not the finite
// difference), with leaf values that keep every op smooth and finite (log and
// div inputs away from 0, relu inputs away from 0 in the leaves).
func Random(r *rand.Rand, n int) (engine.Graph, map[string]float64) {
	leaves := map[string]float64{}
	var names []string
	for i := 0; i < 3+r.IntN(3); i++ {
		name := "l" + strconv.Itoa(i)
		leaves[name] = 0.5 + r.Float64() // in [0.5, 1.5): positive
		names = append(names, name)
	}
	var ops []string
	for _, op := range engine.OpNames() {
		if op != "detach" {
			ops = append(ops, op)
		}
	}
	var g engine.Graph
	for i := 0; i < n; i++ {
		name := "n" + strconv.Itoa(i)
		op := ops[r.IntN(len(ops))]
		arity, _ := engine.Arity(op)
		node := engine.Node{Name: name, Op: op}
		for j := 0; j < arity; j++ {
			node.Inputs = append(node.Inputs, names[r.IntN(len(names))])
		}
		if op == "pow" {
			node.K = float64(r.IntN(5) - 1)
		}
		g = append(g, node)
		names = append(names, name)
	}
	return g, leaves
}
