package block

import (
	"strings"
	"testing"
)

func TestCheckLayer(t *testing.T) {
	if r := CheckLayer(solution(t, "neurons-and-mlp", "layer")); !r.Passed || len(r.Lines) != 4 {
		t.Fatalf("a right layer: %+v", r)
	}
	for _, tc := range []struct{ name, src, says string }{
		{"numbers, not Values", `def layer(neurons, x):
    return [math.tanh(sum([w.value * xi for w, xi in zip(n[:-1], x)]) + n[-1].value) for n in neurons]`, "not a Value"},
		{"a Value made from numbers", `def layer(neurons, x):
    return [Value(math.tanh(sum([w.value * xi for w, xi in zip(n[:-1], x)]) + n[-1].value)) for n in neurons]`, "output 0 is a new Value made from a plain number"},
		{"no bias", `def layer(neurons, x):
    return [sum([w * xi for w, xi in zip(n[:-1], x)]).tanh() for n in neurons]`, "neuron 0 gives"},
		{"one output", `def layer(neurons, x):
    return [n[-1].tanh() for n in neurons] + [Value(0.0)]`, "returned 2 outputs for 1 neuron:"},
		{"no layer", `print(1)`, "Define a function layer(neurons, x)"},
		{"an error", `def layer(neurons, x):
    return neurons[5]`, "layer stopped with an error"},
	} {
		r := CheckLayer(tc.src)
		if r.Passed || !strings.Contains(r.Why, tc.says) {
			t.Errorf("%s: %+v, want a report saying %q", tc.name, r, tc.says)
		}
	}
}
