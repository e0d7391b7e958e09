package library_test

import (
	"fmt"
	"strings"
	"testing"

	"gradbook/notebook/internal/celltest"
)

// micrograd's recipe reaches at least 95% on the moons, and the plots
// come out: a loss curve and a decision boundary drawn through the tape.
func TestMoonsTrainingAndPlots(t *testing.T) {
	model := celltest.Program(t, "moons")
	r := celltest.RunWith(celltest.Long, model+`
losses = train(100)
score = trace(lambda xy: forward(model, xy), [Value(0.0), Value(0.0)])
right = len([1 for xy, yi in zip(X, y) if (score(xy) > 0) == (yi > 0)])
print("accuracy", right, "of", len(X))
plot(losses, title="Loss", ylabel="loss")
boundary(score, X, y, title="Decision boundary")
`)[0]
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

// NaN and infinite numbers in a plot are an error that names the
// built-in, what is wrong and the line, for every plot alike (a NaN class
// was an internal error, "slices.Min: empty list", with no line).
func TestPlotsRefuseNonFiniteNumbers(t *testing.T) {
	for code, want := range map[string]string{
		`scatter([[0, 0], [1, 1]], [float("nan"), float("nan")])`:        "scatter: the class of point 0 is nan: a class must be a finite number",
		`scatter([[0, float("inf")], [1, 1]], [0, 1])`:                   "scatter: point 0 is [0, +inf]: a point's coordinates must be finite numbers",
		`boundary(lambda x, y: x, [[0, 0], [1, 1]], [0, float("-inf")])`: "boundary: the class of point 1 is -inf: a class must be a finite number",
		`boundary(lambda x, y: float("nan"), [[0, 0], [1, 1]], [0, 1])`:  "boundary: the function gives nan at",
		`plot([1, float("nan")])`:                                        `plot: series "y" holds nan at index 1: the numbers plotted must be finite`,
		`heatmap([[1, float("inf")]])`:                                   "heatmap: the number in row 0, column 1 is +inf",
	} {
		r := celltest.One(t, "x = 1\n"+code)
		if r.Err == nil || r.Err.Line != 2 || !strings.Contains(r.Err.Msg, want) || strings.Contains(r.Err.Error(), "internal error") {
			t.Errorf("%s: %v (line %d), want %q on line 2", code, r.Err, r.Err.Line, want)
		}
	}
}

// A scatter of 20,000 points in 20,000 classes (12.7 s in the runner, and
// a 10.4 s freeze of the page before) and a 10,000,000-point line plot
// (119 MB of SVG) come out as pictures a page shows at once, and say how.
func TestHugePlotsAreThinned(t *testing.T) {
	r := celltest.One(t, `scatter([[i, i] for i in range(20000)], list(range(20000)))
plot([0.5] * 10000000)`)
	if r.Err != nil || len(r.Plots) != 2 {
		t.Fatalf("%v, %d plots", r.Err, len(r.Plots))
	}
	for _, p := range r.Plots {
		if len(p.SVG) > 200_000 || len(p.Table) > 8 {
			t.Errorf("a plot of %d bytes and %d rows: %s", len(p.SVG), len(p.Table), p.Summary)
		}
	}
	if s := r.Plots[0].Summary; !strings.Contains(s, "the other 19,995 classes (19,995 points) alike in grey") {
		t.Errorf("the scatter says %q", s)
	}
	if s := r.Plots[1].Summary; !strings.Contains(s, "over 10,000,000 steps (drawn as the lowest and the highest of each of 1000 equal stretches") {
		t.Errorf("the plot says %q", s)
	}
}
