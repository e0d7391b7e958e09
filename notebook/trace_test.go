package notebook

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"gradbook/notebook/kernel"
)

// The moons network: one forward and backward built by Starlark, and 100
// traced steps, with the time per Value op and per replayed node.
func BenchmarkMoons(b *testing.B) {
	model, err := os.ReadFile("testdata/moons.star")
	if err != nil {
		b.Fatal(err)
	}
	run := func(src string) kernel.CellResult {
		r := NewSession().Run(kernel.Request{Cells: []string{string(model) + src}, Limits: kernel.Limits{Time: 10 * time.Minute}}).Cells[0]
		if r.Err != nil {
			b.Fatal(r.Err)
		}
		return r
	}
	b.Run("starlark-step", func(b *testing.B) {
		n, _ := strconv.ParseFloat(strings.Fields(run("print(trace(loss_of, params).nodes)").Output)[0], 64)
		for b.Loop() {
			run("L = loss_of(params)\nL.backward()")
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/op-value")
	})
	b.Run("traced-100-steps", func(b *testing.B) {
		var n float64
		for b.Loop() {
			r := run(`step = trace(loss_of, params)
for k in range(100):
    step(params)
    for p in params:
        p.value -= rate(k) * p.grad
print(step.nodes)`)
			n, _ = strconv.ParseFloat(strings.Fields(r.Output)[0], 64)
		}
		b.ReportMetric(n, "nodes")
	})
}

// micrograd's recipe reaches at least 95% on the moons, and the plots
// come out: a loss curve and a decision boundary drawn through the tape.
func TestMoonsTrainingAndPlots(t *testing.T) {
	model, err := os.ReadFile("testdata/moons.star")
	if err != nil {
		t.Fatal(err)
	}
	r := NewSession().Run(kernel.Request{Limits: kernel.Limits{Time: 10 * time.Minute}, Cells: []string{string(model) + `
step = trace(loss_of, params)
losses = []
for k in range(100):
    losses.append(step(params))
    for p in params:
        p.value -= rate(k) * p.grad
score = trace(lambda xy: forward(model, xy), [Value(0.0), Value(0.0)])
right = len([1 for xy, yi in zip(X, y) if (score(xy) > 0) == (yi > 0)])
print("accuracy", right, "of", len(X))
plot(losses, title="Loss", ylabel="loss")
boundary(score, X, y, title="Decision boundary")
`}}).Cells[0]
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	var right int
	if _, err := fmt.Sscanf(r.Output, "accuracy %d of 100", &right); err != nil || right < 95 {
		t.Errorf("output %q: want an accuracy of 95 or more", r.Output)
	}
	if len(r.Plots) != 2 || !strings.Contains(r.Plots[0].Summary, "loss goes from") || !strings.Contains(r.Plots[1].Summary, "of 100 points") {
		t.Fatalf("plots %+v", r.Plots)
	}
	t.Log(r.Output, r.Plots[0].Summary, r.Plots[1].Summary)
}
