package plot

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Two layers overlaid on shared bins: the summary gives each one's count,
// mean, standard deviation and share beyond ±0.97; the table the edges
// and each one's counts; the picture one outline per layer, told apart
// by dash as well as colour, and a legend naming both.
func TestHistOverlaysLayers(t *testing.T) {
	l1 := []float64{-1, -0.99, 0, 0.5, 0.98, 1}
	l2 := []float64{-0.5, 0, 0, 0.5}
	p, err := Hist([]Series{{Name: "layer <1>", Ys: l1}, {Name: "layer 2", Ys: l2}}, 4, 0.97, Options{Title: "tanh outputs"})
	if err != nil {
		t.Fatal(err)
	}
	want := "A histogram in 4 bins from -1 to 1. layer <1>: 6 numbers, mean 0.08167, standard deviation 0.9111, 66.67% beyond ±0.97; layer 2: 4 numbers, mean 0, standard deviation 0.4082, 0.00% beyond ±0.97."
	if p.Summary != want {
		t.Errorf("summary:\n got %q\nwant %q", p.Summary, want)
	}
	table := [][]string{
		{"from", "to", "layer <1>", "layer 2"},
		{"-1", "-0.5", "2", "0"},
		{"-0.5", "0", "0", "1"},
		{"0", "0.5", "1", "2"},
		{"0.5", "1", "3", "1"},
	}
	if !slices.EqualFunc(p.Table, table, slices.Equal) {
		t.Errorf("table %q, want %q", p.Table, table)
	}
	if got := strings.Count(p.SVG, "<polyline"); got != 2 {
		t.Errorf("%d outlines, want 2", got)
	}
	if !strings.Contains(p.SVG, `stroke-dasharray="6 3"`) {
		t.Error("the second layer is not dashed: colour alone tells them apart")
	}
	if !strings.Contains(p.SVG, "layer &lt;1&gt;") || strings.Contains(p.SVG, "layer <1>") {
		t.Error("the legend does not name the first layer, escaped")
	}
	if got := strings.Count(p.SVG, `class="saturated"`); got != 2 {
		t.Errorf("%d guide lines at ±0.97, want 2", got)
	}
	// The first layer's outline rises to 2 in the first bin and 3 in the
	// last: the tallest count is the top of the axis.
	if !regexp.MustCompile(`<text[^>]*>3</text>`).MatchString(p.SVG) {
		t.Error("the count axis does not reach 3")
	}
}

// One number, all alike, a huge range, and every number counted however
// many there are.
func TestHistEdges(t *testing.T) {
	p, err := Hist([]Series{{Name: "values", Ys: []float64{2, 2, 2}}}, 2, 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Summary != "A histogram in 2 bins from 1.5 to 2.5. values: 3 numbers, mean 2, standard deviation 0." {
		t.Errorf("summary %q", p.Summary)
	}
	if p.Table[2][2] != "3" {
		t.Errorf("table %q", p.Table)
	}
	wide, err := Hist([]Series{{Name: "v", Ys: []float64{-math.MaxFloat64, math.MaxFloat64, math.MaxFloat64}}}, 2, 0, Options{})
	if err != nil || !strings.Contains(wide.Summary, "mean 5.992e+307") || wide.Table[2][1] != "1.798e+308" || wide.Table[2][2] != "2" {
		t.Errorf("the widest range: %v %q %q", err, wide.Summary, wide.Table)
	}
	big := make([]float64, 1_000_003)
	for i := range big {
		big[i] = float64(i % 10)
	}
	p, err = Hist([]Series{{Name: "v", Ys: big}}, 10, 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, row := range p.Table[1:] {
		total += atoi(t, row[2])
	}
	if total != len(big) || p.Table[10][2] != "100000" {
		t.Errorf("counted %d of %d; last bin %q", total, len(big), p.Table[10][2])
	}
}

func TestHistRefusesBadInput(t *testing.T) {
	for _, tc := range []struct {
		name      string
		series    []Series
		bins      int
		saturated float64
		want      string
	}{
		{"nan", []Series{{Name: "a", Ys: []float64{1}}, {Name: "layer 2", Ys: []float64{0, math.NaN()}}}, 10, 0, `series "layer 2" holds nan at index 1: the numbers counted must be finite`},
		{"empty", []Series{{Name: "a"}}, 10, 0, "nothing to count: the series are empty"},
		{"bins", []Series{{Name: "a", Ys: []float64{1}}}, 201, 0, "bins must be from 1 to 200, got 201"},
		{"no bins", []Series{{Name: "a", Ys: []float64{1}}}, 0, 0, "bins must be from 1 to 200, got 0"},
		{"saturated", []Series{{Name: "a", Ys: []float64{1}}}, 10, -1, "saturated must be a finite number of at least 0, got -1"},
		{"many", make([]Series, 13), 10, 0, "a histogram overlays from 1 to 12 series, got 13"},
	} {
		if _, err := Hist(tc.series, tc.bins, tc.saturated, Options{}); err2s(err) != tc.want {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

func err2s(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func atoi(t *testing.T, s string) int {
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			t.Fatalf("%q is not a count", s)
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// Four layers of 250,000 tanh outputs each, on 200 bins.
func BenchmarkHistOfFourLayers(b *testing.B) {
	ss := make([]Series, 4)
	for i := range ss {
		ss[i] = Series{Name: "layer", Ys: make([]float64, 250_000)}
		for j := range ss[i].Ys {
			ss[i].Ys[j] = math.Tanh(float64(i+1) * math.Sin(float64(j)))
		}
	}
	for b.Loop() {
		if _, err := Hist(ss, MaxBins, 0.97, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
