package block

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"go.starlark.net/starlark"

	"gradbook/engine"
	"gradbook/internal/words"
	"gradbook/notebook/values"
)

// layerTest is one hidden test of a learner's layer(neurons, x): each
// neuron is its weights then its bias, and the layer's outputs are
// tanh(w·x + b), one per neuron.
type layerTest struct {
	name     string
	neurons  [][]float64
	x        []float64
	xValues  bool // pass x as Values, whose gradients are checked too
	wantGrad bool
}

func layerTests() []layerTest {
	r := rand.New(rand.NewPCG(6, 1))
	random := func(n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = math.Round((r.Float64()*2-1)*100) / 100
		}
		return xs
	}
	three := [][]float64{random(4), random(4), random(4)}
	return []layerTest{
		{"the classic neuron: x = [2, 0], w = [−3, 1], b = 6.8813735870195432", [][]float64{{-3, 1, 6.8813735870195432}}, []float64{2, 0}, false, true},
		{"three neurons on three inputs", three, random(3), false, true},
		{"inputs that are Values: their gradients flow too", [][]float64{random(3), random(3)}, random(2), true, true},
		{"a neuron with one input", [][]float64{{0.5, -0.25}}, []float64{1.5}, false, true},
	}
}

// CheckLayer runs the learner's code, then calls the layer(neurons, x) it
// defines on hidden layers, checking every output's value and, by a
// backward pass from the sum of the outputs, the gradient of every weight,
// bias and Value input.
func CheckLayer(source string) Report {
	if why := stopsBefore(source); why != "" {
		return Report{Why: why}
	}
	return judge(layerTests(), func(tc layerTest) (string, string) { return tc.name, checkLayerOne(source, tc) })
}

func floats(xs []float64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprintf("%v", x)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func checkLayerOne(source string, tc layerTest) string {
	var hidden strings.Builder
	hidden.WriteString("\ncheck_neurons_ = [")
	for _, n := range tc.neurons {
		fmt.Fprintf(&hidden, "[Value(w) for w in %s], ", floats(n))
	}
	hidden.WriteString("]\n")
	if tc.xValues {
		fmt.Fprintf(&hidden, "check_x_ = [Value(x) for x in %s]\n", floats(tc.x))
	} else {
		fmt.Fprintf(&hidden, "check_x_ = %s\n", floats(tc.x))
	}
	hidden.WriteString("check_out_ = layer(check_neurons_, check_x_)\n")
	res := onBehalf(source, hidden.String())
	g := res.Globals
	if e := res.Last().Err; e != nil {
		if g == nil || g["layer"] == nil {
			return "Define a function layer(neurons, x) in your code."
		}
		return fmt.Sprintf("On %s, layer stopped with an error:\n%s", tc.name, e.Error())
	}
	out, ok := g["check_out_"].(starlark.Indexable)
	if !ok {
		return fmt.Sprintf("On %s, layer returned %s: return a list, one output per neuron.", tc.name, g["check_out_"].Type())
	}
	if out.Len() != len(tc.neurons) {
		return fmt.Sprintf("On %s, layer returned %s for %s: return one output per neuron.", tc.name, words.Count(out.Len(), "output"), words.Count(len(tc.neurons), "neuron"))
	}
	var outs []*engine.Value
	for j := range out.Len() {
		v, ok := values.EngineValue(out.Index(j))
		if !ok {
			return fmt.Sprintf("On %s, output %d is %s, not a Value: build it from the Values with + * and .tanh() (math.tanh and .value give plain numbers, and no gradient can flow back through a number).", tc.name, j, out.Index(j).Type())
		}
		if v.Op() == "" {
			return fmt.Sprintf("On %s, output %d is a new Value made from a plain number, so its graph does not reach the weights and no gradient can flow back. Build it from the Values with + * and .tanh(), not from .value or math.tanh.", tc.name, j)
		}
		outs = append(outs, v)
	}
	// What each output must be, and its gradients.
	ts := make([]float64, len(tc.neurons))
	for j, n := range tc.neurons {
		s := n[len(n)-1]
		for i, x := range tc.x {
			s += n[i] * x
		}
		ts[j] = math.Tanh(s)
		if math.Abs(outs[j].Data-ts[j]) > 1e-9 {
			return fmt.Sprintf("On %s, neuron %d gives %.6g; want tanh(w·x + b) = %.6g.", tc.name, j, outs[j].Data, ts[j])
		}
	}
	total := outs[0]
	for _, v := range outs[1:] {
		total = total.Add(v)
	}
	total.Backward()
	ns := g["check_neurons_"].(*starlark.List)
	for j, n := range tc.neurons {
		d := 1 - ts[j]*ts[j]
		ws := ns.Index(j).(*starlark.List)
		for i := range n {
			want := d // the bias
			what := fmt.Sprintf("neuron %d's bias", j)
			if i < len(n)-1 {
				want, what = d*tc.x[i], fmt.Sprintf("neuron %d's weight %d", j, i)
			}
			w, _ := values.EngineValue(ws.Index(i))
			if math.Abs(w.Grad-want) > 1e-9 {
				return fmt.Sprintf("On %s, the gradient of %s is %.6g; want %.6g. Each output must be tanh of the whole sum w·x + b, built from these very Values.", tc.name, what, w.Grad, want)
			}
		}
	}
	if tc.xValues {
		xs := g["check_x_"].(*starlark.List)
		for i := range tc.x {
			want := 0.0
			for j, n := range tc.neurons {
				want += (1 - ts[j]*ts[j]) * n[i]
			}
			x, _ := values.EngineValue(xs.Index(i))
			if math.Abs(x.Grad-want) > 1e-9 {
				return fmt.Sprintf("On %s, the gradient of input %d is %.6g; want %.6g: it collects a share from every neuron.", tc.name, i, x.Grad, want)
			}
		}
	}
	return ""
}

// LayerCase is one of the hidden tests of the layer checker, as data: for
// a notebook in another system that checks the same. Each neuron is its
// weights then its bias.
type LayerCase struct {
	Name    string
	Neurons [][]float64
	X       []float64
	XValues bool // x is passed as Values, whose gradients are checked too
}

// LayerCases returns the layer checker's hidden tests.
func LayerCases() []LayerCase {
	var cs []LayerCase
	for _, t := range layerTests() {
		cs = append(cs, LayerCase{t.name, t.neurons, t.x, t.xValues})
	}
	return cs
}
