package library_test

import (
	"strings"
	"testing"

	"gradbook/notebook/internal/celltest"
)

// makemore part 3's picture: each layer's tanh outputs overlaid, in the
// dict's order, with the numbers the lecture prints beside them (mean,
// std, the share beyond ±0.97), from a tensor of any shape, a list of
// numbers or a list of Values.
func TestHistOfLayers(t *testing.T) {
	r := celltest.One(t, `h1 = torch.tensor([[-1.0, -0.99], [0.0, 0.5], [0.98, 1.0]])
h2 = [Value(-0.5), Value(0.0), 0, 0.5]
hist({"layer 2": h2, "layer 1": h1}, bins=4, title="tanh outputs", saturated=0.97)
hist([3, 1, 2])`)
	if r.Err != nil || len(r.Plots) != 2 {
		t.Fatalf("%v, %d plots", r.Err, len(r.Plots))
	}
	p := r.Plots[0]
	want := "A histogram in 4 bins from -1 to 1. layer 2: 4 numbers, mean 0, standard deviation 0.4082, 0.00% beyond ±0.97; layer 1: 6 numbers, mean 0.08167, standard deviation 0.9111, 66.67% beyond ±0.97."
	if p.Title != "tanh outputs" || p.Summary != want {
		t.Errorf("%q: %q\nwant %q", p.Title, p.Summary, want)
	}
	var rows []string
	for _, row := range p.Table {
		rows = append(rows, strings.Join(row, "|"))
	}
	if got := strings.Join(rows, "\n"); got != "from|to|layer 2|layer 1\n-1|-0.5|0|2\n-0.5|0|1|0\n0|0.5|2|1\n0.5|1|1|3" {
		t.Errorf("table:\n%s", got)
	}
	if s := r.Plots[1].Summary; s != "A histogram in 50 bins from 1 to 3. values: 3 numbers, mean 2, standard deviation 1." {
		t.Errorf("a list's histogram says %q", s)
	}
}

func TestHistRefusesBadInput(t *testing.T) {
	for code, want := range map[string]string{
		`hist({"layer 1": [1], "layer 2": torch.tensor([[1.0, 2.0], [float("nan"), 0.0]])})`: `hist: series "layer 2" holds nan at [1, 0]: the numbers counted must be finite`,
		`hist([1, float("inf")])`:           `hist: series "values" holds +inf at index 1: the numbers counted must be finite`,
		`hist({"a": [1, "x"]})`:             "hist: a[1] is string, not a number",
		`hist([1, 2], bins=1000)`:           "hist: bins must be from 1 to 200, got 1000",
		`hist([], bins=10)`:                 "hist: nothing to count: the series are empty",
		`hist([1], saturated=float("nan"))`: "hist: saturated must be a finite number of at least 0, got nan",
		`hist(3)`:                           "hist: values must be a list of numbers, got int",
	} {
		r := celltest.One(t, "x = 1\n"+code)
		if r.Err == nil || r.Err.Line != 2 || !strings.Contains(r.Err.Msg, want) || strings.Contains(r.Err.Error(), "internal error") {
			t.Errorf("%s: %v, want %q on line 2", code, r.Err, want)
		}
	}
}
