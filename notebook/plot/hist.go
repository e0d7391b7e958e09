package plot

// This file draws histograms: one series of numbers, or several overlaid
// on the same bins (a network's layers, as makemore part 3 shows them).

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gradbook/internal/words"
)

// MaxBins is the most bins a histogram has; MaxSeries series at most are
// overlaid. Counting is one pass over the numbers, so a histogram takes
// every number, however many: none is thinned.
const MaxBins = 200

// Hist counts each series' numbers in bins equal-width bins over the
// range of all of them, the same bins for every series, and draws each
// as a step outline in its colour and dash, with a legend when there are
// several. Its summary gives each series' count, mean and standard
// deviation (Bessel-corrected, as PyTorch's std), and, when saturated is
// above 0, the share of its numbers beyond ±saturated (|x| > saturated:
// a tanh layer's saturation); its table gives the bins' edges and each
// series' count in each.
func Hist(series []Series, bins int, saturated float64, o Options) (*Plot, error) {
	if bins < 1 || bins > MaxBins {
		return nil, fmt.Errorf("bins must be from 1 to %d, got %d", MaxBins, bins)
	}
	if len(series) == 0 || len(series) > MaxSeries {
		return nil, fmt.Errorf("a histogram overlays from 1 to %d series, got %d", MaxSeries, len(series))
	}
	if math.IsNaN(saturated) || math.IsInf(saturated, 0) || saturated < 0 {
		return nil, fmt.Errorf("saturated must be a finite number of at least 0, got %s", words.Number(saturated))
	}
	lo, hi, n := math.Inf(1), math.Inf(-1), 0
	for _, s := range series {
		n += len(s.Ys)
		for i, y := range s.Ys {
			if !finite(y) {
				return nil, fmt.Errorf("series %q holds %s at index %d: the numbers counted must be finite", s.Name, words.Number(y), i)
			}
			lo, hi = math.Min(lo, y), math.Max(hi, y)
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("nothing to count: the series are empty")
	}
	if !(hi > lo) {
		d := math.Max(math.Abs(lo)*0.1, 0.5)
		lo, hi = lo-d, hi+d
	}
	// Halves keep a range as wide as float64 allows finite.
	edge := func(k int) float64 { return 2 * (lo/2 + (hi/2-lo/2)*(float64(k)/float64(bins))) }
	counts := make([][]int, len(series))
	most := 0
	for i, s := range series {
		counts[i] = make([]int, bins)
		for _, y := range s.Ys {
			k := min(int((y/2-lo/2)/(hi/2-lo/2)*float64(bins)), bins-1)
			counts[i][k]++
			most = max(most, counts[i][k])
		}
	}
	a := newAxes(lo, hi, 0, float64(most))
	guides := func(b *strings.Builder) {
		for _, x := range []float64{-saturated, saturated} {
			if saturated > 0 && x >= a.x0 && x <= a.x1 {
				fmt.Fprintf(b, `<line class="saturated" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#555" stroke-dasharray="3 3"/>`, a.px(x), top, a.px(x), height-bottom)
			}
		}
	}
	fill := func(i int) string { return `fill="` + tints[i%len(tints)] + `" fill-opacity="0.35"` }
	svg := seriesSVG(a, o, series, guides, fill, func(b *strings.Builder, i int) {
		fmt.Fprintf(b, `%.1f,%.1f `, a.px(lo), a.py(0))
		for k, m := range counts[i] {
			fmt.Fprintf(b, "%.1f,%.1f %.1f,%.1f ", a.px(edge(k)), a.py(float64(m)), a.px(edge(k+1)), a.py(float64(m)))
		}
		fmt.Fprintf(b, `%.1f,%.1f`, a.px(hi), a.py(0))
	})
	p := &Plot{Title: o.Title, SVG: svg}
	names := make([]string, len(series))
	for i, s := range series {
		names[i] = s.Name
	}
	head := []string{"from", "to"}
	head = append(head, names...)
	p.Table = [][]string{head}
	for k := range bins {
		row := []string{short(edge(k)), short(edge(k + 1))}
		for i := range series {
			row = append(row, strconv.Itoa(counts[i][k]))
		}
		p.Table = append(p.Table, row)
	}
	var sum []string
	for _, s := range series {
		line := s.Name + ": " + words.Count(len(s.Ys), "number")
		if len(s.Ys) > 0 {
			mean, std, beyond := describe(s.Ys, saturated, math.Max(-lo, hi))
			line += fmt.Sprintf(", mean %s, standard deviation %s", short(mean), short(std))
			if saturated > 0 {
				line += fmt.Sprintf(", %s%% beyond ±%s", strconv.FormatFloat(100*float64(beyond)/float64(len(s.Ys)), 'f', 2, 64), short(saturated))
			}
		}
		sum = append(sum, line)
	}
	p.Summary = fmt.Sprintf("A histogram in %s from %s to %s. %s.", words.Count(bins, "bin"), short(lo), short(hi), strings.Join(sum, "; "))
	return p, nil
}

// describe returns the mean and the standard deviation of ys (not
// empty), with Bessel's correction as PyTorch's std (0 for one number),
// and how many of them are beyond ±saturated. scale, above every |y|,
// keeps the sums finite for numbers as large as float64 allows.
func describe(ys []float64, saturated, scale float64) (mean, std float64, beyond int) {
	// Welford's running mean and sum of squared deviations of y/scale:
	// one pass, no sum that loses the small differences.
	var m2 float64
	for i, y := range ys {
		y /= scale
		d := y - mean
		mean += d / float64(i+1)
		m2 += d * (y - mean)
		if math.Abs(y*scale) > saturated {
			beyond++
		}
	}
	if len(ys) > 1 {
		std = math.Sqrt(m2 / float64(len(ys)-1))
	}
	return mean * scale, std * scale, beyond
}
