package notebook

import (
	"fmt"
	"gradbook/notebook/kernel"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The traced loop gives the plain loop's numbers, step for step, on
// micrograd's moons network.
func TestTraceMatchesPlainLoop(t *testing.T) {
	model, err := os.ReadFile("testdata/moons.star")
	if err != nil {
		t.Fatal(err)
	}
	steps := 100
	if testing.Short() {
		steps = 5
	}
	loop := func(traced bool) []float64 {
		step := "loss_of(params)\n    L.backward()\n    L = L.value"
		pre := ""
		if traced {
			step = "step(params)"
			pre = "step = trace(loss_of, params)\n"
		}
		src := string(model) + pre + `
for k in range(` + strconv.Itoa(steps) + `):
    L = ` + step + `
    print(repr(L), repr(params[0].grad), repr(params[-1].grad))
    for p in params:
        p.value -= rate(k) * p.grad
`
		r := NewSession().Run(kernel.Request{Cells: []string{src}, Limits: kernel.Limits{Time: 10 * time.Minute, Values: 100_000_000}}).Cells[0]
		if r.Err != nil {
			t.Fatalf("traced %v: %v", traced, r.Err)
		}
		var out []float64
		for _, line := range strings.Fields(strings.Split(r.Output, "(The graph")[0]) {
			f, err := strconv.ParseFloat(line, 64)
			if err != nil {
				t.Fatalf("output %q", line)
			}
			out = append(out, f)
		}
		return out
	}
	plain, traced := loop(false), loop(true)
	if len(plain) != 3*steps || len(traced) != len(plain) {
		t.Fatalf("%d and %d numbers, want %d", len(plain), len(traced), 3*steps)
	}
	for i := range plain {
		if math.Abs(plain[i]-traced[i]) > 1e-12 {
			t.Errorf("step %d, number %d: plain %v, traced %v", i/3, i%3, plain[i], traced[i])
		}
	}
	t.Logf("loss %v after the first step, %v after the last", plain[0], plain[len(plain)-3])
}

func TestTraceRefusesAGraphThatDependsOnTheNumbers(t *testing.T) {
	r := runOne(t, `w = Value(1.0)
def f(ps):
    v = ps[0] * 2
    if v.value > 0:
        return v
    return -v
step = trace(f, [w])`)
	if r.Err == nil || !strings.Contains(r.Err.Msg, "f reads the number of a Value while it builds its graph (.value, in cell 1: if v.value > 0:)") {
		t.Fatalf("error %v", r.Err)
	}
	// relu is on the tape: fine.
	r = runOne(t, `w = Value(-1.0)
step = trace(lambda ps: (ps[0] * 2).relu(), [w])
print(step([w]), w.grad)
w.value = 3
print(step([w]), w.grad)
print(step([0.5]))`)
	if r.Err != nil || r.Output != "0.0 0.0\n6.0 2.0\n1.0\n" {
		t.Errorf("output %q, error %v", r.Output, r.Err)
	}
}

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
