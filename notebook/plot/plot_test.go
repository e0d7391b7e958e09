package plot

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestTicksAreRound(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   []float64
	}{
		{0, 99, []float64{0, 20, 40, 60, 80, 100}},
		{0.012, 1.35, []float64{0, 0.5, 1, 1.5}},
		{-1.2, 2.3, []float64{-2, -1, 0, 1, 2, 3}},
		{3, 3, []float64{2.4, 2.6, 2.8, 3, 3.2, 3.4, 3.6}},
	} {
		got, _, _ := ticks(tc.lo, tc.hi)
		if !slices.Equal(got, tc.want) {
			t.Errorf("ticks(%v, %v) = %v, want %v", tc.lo, tc.hi, got, tc.want)
		}
	}
}

func TestLineSaysWhatItShows(t *testing.T) {
	p, err := Line([]Series{{Name: "loss <train>", Ys: []float64{2, 1, 1.5, 0.5}}, {Name: "test", Ys: []float64{3, 2}}}, Options{Title: `"L" & co`, XLabel: "step"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(p.SVG, "<train>") || !strings.Contains(p.SVG, "loss &lt;train&gt;") || !strings.Contains(p.SVG, `aria-label="&#34;L&#34; &amp; co"`) {
		t.Errorf("names are not escaped in the SVG")
	}
	if want := "loss <train> goes from 2 to 0.5 over 4 steps, going up at 1 of them; test goes from 3 to 2 over 2 steps."; p.Summary != want {
		t.Errorf("summary %q, want %q", p.Summary, want)
	}
	if len(p.Table) != 3 || p.Table[1][3] != "0.5 (3)" {
		t.Errorf("table %v", p.Table)
	}
	// Only a one-word x label is made plural; the lessons' others name
	// the points beside them.
	for xlabel, want := range map[string]string{
		"steps / 25":                    "over 2 points (steps / 25).",
		"log₂ n, for n = 1, 2, 4, … 32": "over 2 points (log₂ n, for n = 1, 2, 4, … 32).",
		"steps":                         "over 2 steps.",
		"epoch":                         "over 2 epochs.",
		"":                              "over 2 points.",
	} {
		p, err := Line([]Series{{Name: "loss", Ys: []float64{2, 1}}}, Options{XLabel: xlabel})
		if err != nil || !strings.HasSuffix(p.Summary, want) {
			t.Errorf("x label %q: summary %q, want it to end %q", xlabel, p.Summary, want)
		}
	}
	if _, err := Line([]Series{{Name: "x", Ys: []float64{math.NaN()}}}, Options{}); err == nil {
		t.Error("NaN was plotted")
	}
}

func TestBoundaryShadesBySign(t *testing.T) {
	ps := Points{X: []float64{-1, 1, 1}, Y: []float64{0, 0, 1}, Classes: []float64{-1, 1, 1}}
	p, err := Boundary(ps, func(x, y float64) (float64, error) { return x, nil }, 10, Options{Title: "x > 0"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Summary, "positive (class 1) over 50% of the area") || !strings.Contains(p.Summary, "3 of 3 points (100%)") {
		t.Errorf("summary %q", p.Summary)
	}
	// One shaded run per side in each of the 10 rows.
	if n := strings.Count(p.SVG, "<rect x=") - 2; n != 20 { // the frame and the legend's box
		t.Errorf("%d region rects, want 20", n)
	}
	if _, err := Boundary(Points{X: []float64{0}, Y: []float64{0}, Classes: []float64{1, 2}}, nil, 10, Options{}); err == nil {
		t.Error("one point with two classes was plotted")
	}
}

// A heat map writes each cell's number while the grid is small, labels its
// rows and columns, and names each row's largest column in its summary;
// ragged or non-finite grids are refused.
func TestHeatmap(t *testing.T) {
	p, err := Heatmap([][]float64{{1, 0, 0}, {0.5, 0.5, 0}, {0.2, 0.3, 0.5}}, []string{"BOS", "a", "b"}, []string{"BOS", "a", "b"}, Options{Title: "weights"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{">0.50<", ">BOS<", `aria-label="weights"`} {
		if !strings.Contains(p.SVG, want) {
			t.Errorf("the SVG lacks %s", want)
		}
	}
	if !strings.Contains(p.Summary, "A 3 × 3 grid of numbers from 0 to 1") || !strings.Contains(p.Summary, "b: b (0.5)") {
		t.Errorf("summary %q", p.Summary)
	}
	if len(p.Table) != 4 || p.Table[0][1] != "BOS" || p.Table[3][3] != "0.5" {
		t.Errorf("table %v", p.Table)
	}
	for _, bad := range [][][]float64{{{1, 2}, {3}}, {{math.NaN()}}, {}} {
		if _, err := Heatmap(bad, nil, nil, Options{}); err == nil {
			t.Errorf("%v is drawn", bad)
		}
	}
}
