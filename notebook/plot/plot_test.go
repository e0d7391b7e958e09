package plot

import (
	"fmt"
	"math"
	"regexp"
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

// A line plot of 10,000,000 points (119 MB of SVG before) draws at most
// MaxLinePoints of them, keeps a spike, and says how it was drawn; a
// plot of more than MaxSeries series draws MaxSeries and says so.
func TestLineOfAHugeSeries(t *testing.T) {
	ys := make([]float64, 10_000_000)
	for i := range ys {
		ys[i] = 0.5
	}
	ys[7_654_321] = 9
	p, err := Line([]Series{{Name: "y", Ys: ys}}, Options{XLabel: "step"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.SVG) > 50_000 {
		t.Errorf("the SVG is %d bytes", len(p.SVG))
	}
	points := strings.Fields(p.SVG[strings.Index(p.SVG, `points="`)+8:][:strings.Index(p.SVG[strings.Index(p.SVG, `points="`)+8:], `"`)])
	if len(points) > MaxLinePoints {
		t.Errorf("%d points drawn, more than %d", len(points), MaxLinePoints)
	}
	a := newAxes(0, float64(len(ys)-1), 0.5, 9)
	spike := fmt.Sprintf("%.1f,%.1f", a.px(7_654_321), a.py(9))
	if !slices.Contains(points, spike) {
		t.Errorf("the spike at %s is not drawn", spike)
	}
	if want := "y goes from 0.5 to 0.5 over 10,000,000 steps, going up at 1 of them (drawn as the lowest and the highest of each of 1000 equal stretches, so that spikes stay)."; p.Summary != want {
		t.Errorf("summary %q, want %q", p.Summary, want)
	}
	if len(p.Table) != 2 || p.Table[1][4] != "9 (7654321)" {
		t.Errorf("table %v", p.Table)
	}

	var many []Series
	for i := range 20 {
		many = append(many, Series{Name: fmt.Sprint("s", i), Ys: ys[:1_000_000]})
	}
	p, err = Line(many, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(p.SVG, "<polyline"); got != MaxSeries || len(p.SVG) > 400_000 || len(p.Table) != MaxSeries+1 {
		t.Errorf("%d lines drawn in %d bytes, a table of %d rows", got, len(p.SVG), len(p.Table))
	}
	if !strings.HasSuffix(p.Summary, " 8 more series are not drawn: a plot draws at most 12.") {
		t.Errorf("summary ends %q", p.Summary[max(0, len(p.Summary)-100):])
	}
}

// A scatter of 20,000 points in 20,000 classes (a 12.7 s run and a page
// frozen for 10.4 s before) draws the five classes with the most points
// in their own colours, the rest alike as "other", at most MaxPoints
// markers, and says so; its legend and table stay short.
func TestScatterOfManyPointsAndClasses(t *testing.T) {
	n := 20_000
	ps := Points{X: make([]float64, n), Y: make([]float64, n), Classes: make([]float64, n)}
	for i := range n {
		ps.X[i], ps.Y[i], ps.Classes[i] = float64(i), float64(i), float64(i)
	}
	for i := range 30 { // class 7 has the most points, then 3
		ps.Classes[100+i] = 7
		if i < 20 {
			ps.Classes[200+i] = 3
		}
	}
	p, err := Scatter(ps, Options{})
	if err != nil {
		t.Fatal(err)
	}
	markers := strings.Count(p.SVG, "<circle") + strings.Count(p.SVG, "<path") + strings.Count(p.SVG, "<rect") - 2 // the frame and the legend's box
	if markers > MaxPoints+MaxClasses || len(p.SVG) > 250_000 {
		t.Errorf("%d markers in %d bytes", markers, len(p.SVG))
	}
	want := "20,000 points in 19,950 classes. The 5 classes with the most points are drawn in colours of their own, the other 19,945 classes (19,945 points) alike in grey. 152 of the 20,000 points are drawn: one for each spot and class where several overlap."
	if p.Summary != want {
		t.Errorf("summary\n%q, want\n%q", p.Summary, want)
	}
	if len(p.Table) != 7 || p.Table[4][0] != "3" || p.Table[4][1] != "21" || p.Table[5][0] != "7" || p.Table[5][1] != "31" || p.Table[6][0] != "other (19,945 classes)" {
		t.Errorf("table %v", p.Table)
	}
	if !strings.Contains(p.SVG, ">other (19,945 classes)</text>") || strings.Count(p.SVG, `<g class="legend"`) != 1 || strings.Count(p.SVG, "<text") > 30 {
		t.Errorf("the legend is not six entries")
	}
	// Points all over the picture: one for each spot, then an even sample.
	for i := range n {
		ps.X[i], ps.Y[i], ps.Classes[i] = float64(i%200), float64(i/200), float64(i%2)
	}
	if p, err = Scatter(ps, Options{}); err != nil {
		t.Fatal(err)
	}
	if markers := strings.Count(p.SVG, "<circle") + strings.Count(p.SVG, "<path"); markers > MaxPoints+2 || len(p.SVG) > 250_000 {
		t.Errorf("%d markers in %d bytes", markers, len(p.SVG))
	}
	if !regexp.MustCompile(`^20,000 points in 2 classes\. [\d,]+ of the 20,000 points are drawn: one for each spot and class, then every \d+(st|nd|rd|th) of those\.$`).MatchString(p.Summary) {
		t.Errorf("summary %q", p.Summary)
	}
}

// NaN and infinite numbers are refused with what and where they are,
// by every plot alike; numbers no rounding can tell apart, and ranges as
// wide as float64 allows, are drawn.
func TestNonFiniteNumbersAreRefused(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	two := func(x, y, c float64) Points {
		return Points{X: []float64{0, x}, Y: []float64{0, y}, Classes: []float64{1, c}}
	}
	sign := func(v float64) func(x, y float64) (float64, error) {
		return func(x, y float64) (float64, error) { return v, nil }
	}
	for _, tc := range []struct {
		what string
		err  func() error
		want string
	}{
		{"line", func() error { _, err := Line([]Series{{Name: "loss", Ys: []float64{1, inf}}}, Options{}); return err }, `series "loss" holds +inf at index 1: the numbers plotted must be finite`},
		{"scatter class", func() error { _, err := Scatter(two(1, 1, nan), Options{}); return err }, "the class of point 1 is nan: a class must be a finite number"},
		{"scatter point", func() error { _, err := Scatter(two(nan, 1, 1), Options{}); return err }, "point 1 is [nan, 1]: a point's coordinates must be finite numbers"},
		{"boundary class", func() error { _, err := Boundary(two(1, 1, inf), sign(1), 10, Options{}); return err }, "the class of point 1 is +inf: a class must be a finite number"},
		{"boundary point", func() error { _, err := Boundary(two(1, -inf, 1), sign(1), 10, Options{}); return err }, "point 1 is [1, -inf]: a point's coordinates must be finite numbers"},
		{"boundary function", func() error { _, err := Boundary(two(1, 1, 2), sign(nan), 10, Options{}); return err }, "the function gives nan at [-0.4, -0.4]: a boundary needs a number with a sign"},
		{"heatmap", func() error { _, err := Heatmap([][]float64{{1, nan}}, nil, nil, Options{}); return err }, "the number in row 0, column 1 is nan"},
	} {
		if err := tc.err(); err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %q", tc.what, err, tc.want)
		}
	}
	for _, ys := range [][]float64{{1e16, 1e16 + 2}, {-1e308, 1e308}, {5e-324, 1e-323}} {
		p, err := Line([]Series{{Name: "y", Ys: ys}}, Options{})
		if err != nil || strings.Contains(p.SVG, "NaN") || strings.Contains(p.SVG, "Inf") {
			t.Errorf("%v: %v, or the SVG holds NaN", ys, err)
		}
	}
	if _, err := Scatter(two(1e308, -1e308, 1), Options{}); err != nil {
		t.Error(err)
	}
}

// BenchmarkLineOfAMillion draws a line plot of 1,000,000 points.
func BenchmarkLineOfAMillion(b *testing.B) {
	ys := make([]float64, 1_000_000)
	for i := range ys {
		ys[i] = math.Sin(float64(i) / 1000)
	}
	for b.Loop() {
		if _, err := Line([]Series{{Name: "y", Ys: ys}}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScatterOfManyClasses draws 20,000 points in 20,000 classes.
func BenchmarkScatterOfManyClasses(b *testing.B) {
	n := 20_000
	ps := Points{X: make([]float64, n), Y: make([]float64, n), Classes: make([]float64, n)}
	for i := range n {
		ps.X[i], ps.Y[i], ps.Classes[i] = float64(i), float64(i%300), float64(i)
	}
	for b.Loop() {
		if _, err := Scatter(ps, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
