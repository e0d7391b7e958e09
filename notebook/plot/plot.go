// Package plot draws the plots of cells as SVG: a line plot of series
// (a loss per step), a scatter of 2-D points coloured by class, and a
// decision boundary (a function's sign over a grid, shaded under the
// points), a heat map, and histograms of several series on shared bins
// (hist.go). Every plot comes with a text alternative: a summary sentence
// and a table. Colours are the Okabe–Ito palette, safe for colour
// blindness, and classes and series differ by marker and dash too.
package plot

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"gradbook/internal/htmltext"
	"gradbook/internal/words"
)

// Plot is a finished plot: SVG markup made here (every text in it
// escaped), and its text alternative.
type Plot struct {
	Title   string
	SVG     string
	Summary string
	Table   [][]string // the header row first
}

// Options are a plot's title and axis labels.
type Options struct {
	Title, XLabel, YLabel string
}

// Series is one line of a line plot: y at x = 0, 1, 2, …
type Series struct {
	Name string
	Ys   []float64
}

// The picture's size in SVG units and its margins.
const (
	width  = 480.0
	height = 300.0
	left   = 60.0
	right  = 14.0
	top    = 14.0
	bottom = 46.0
)

// Okabe–Ito colours, for series and classes in order.
var colours = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"}

// tints are light versions of colours, for shaded regions.
var tints = []string{"#cfe3f0", "#f6d9c6", "#c9ebdf", "#f2dfea", "#f8e7c2", "#d8edf9"}

var dashes = []string{"", "6 3", "2 3", "8 3 2 3", "4 2", "1 2"}

// axes maps data to the picture.
type axes struct {
	x0, x1, y0, y1 float64 // data range
	xt, yt         []float64
}

// px and py map data to the picture; halves keep a range as wide as
// float64 allows (-1e308 to 1e308) finite.
func (a *axes) px(x float64) float64 {
	return left + (x/2-a.x0/2)/(a.x1/2-a.x0/2)*(width-left-right)
}
func (a *axes) py(y float64) float64 {
	return height - bottom - (y/2-a.y0/2)/(a.y1/2-a.y0/2)*(height-top-bottom)
}

func newAxes(x0, x1, y0, y1 float64) *axes {
	a := &axes{}
	a.xt, a.x0, a.x1 = ticks(x0, x1)
	a.yt, a.y0, a.y1 = ticks(y0, y1)
	return a
}

// ticks returns about five round tick values covering [lo, hi], and the
// range they span. Where round values cannot be told apart in float64
// (1e16 to 1e16 + 2), or the range is as wide as float64 allows, the
// ticks are the range's ends.
func ticks(lo, hi float64) (t []float64, from, to float64) {
	if !(hi > lo) {
		d := math.Max(math.Abs(lo)*0.1, 0.5)
		lo, hi = lo-d, hi+d
	}
	raw := hi/5 - lo/5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	from = math.Floor(lo/step) * step
	to = math.Ceil(hi/step) * step
	n := math.Round(to/step - from/step)
	if !(n >= 1 && n <= 20) || from+step == from || to-step == to || math.IsInf(to/2-from/2, 0) {
		return []float64{lo, hi}, lo, hi
	}
	for i := range int(n) + 1 {
		v := (from/2 + float64(i)*(step/2)) * 2 // halves: no overflow at float64's ends
		r, _ := strconv.ParseFloat(strconv.FormatFloat(math.Round(v/step)*step, 'g', 12, 64), 64)
		t = append(t, r)
	}
	return t, from, to
}

// label writes a tick value briefly.
func label(v float64) string {
	if v == 0 {
		return "0" // never -0
	}
	return strings.Replace(short(v), "e-0", "e-", 1)
}

func (a *axes) frame(b *strings.Builder, o Options) {
	fmt.Fprintf(b, `<g class="axes" font-size="13" fill="#333">`)
	for _, x := range a.xt {
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`, a.px(x), top, a.px(x), height-bottom)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, a.px(x), height-bottom+17, label(x))
	}
	for _, y := range a.yt {
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`, left, a.py(y), width-right, a.py(y))
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`, left-6, a.py(y)+4, label(y))
	}
	fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#555"/>`, left, top, width-left-right, height-top-bottom)
	if o.XLabel != "" {
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, (left+width-right)/2, height-8, htmltext.Escape(o.XLabel))
	}
	if o.YLabel != "" {
		fmt.Fprintf(b, `<text transform="translate(14 %.1f) rotate(-90)" text-anchor="middle">%s</text>`, (top+height-bottom)/2, htmltext.Escape(o.YLabel))
	}
	b.WriteString(`</g>`)
}

func open(b *strings.Builder, o Options) {
	fmt.Fprintf(b, `<svg class="plot" viewBox="0 0 %.0f %.0f" width="100%%" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg">`, width, height, htmltext.Escape(o.Title))
}

// legend writes a legend box in the top right corner.
func legend(b *strings.Builder, names []string, mark func(b *strings.Builder, i int, x, y float64)) {
	if len(names) < 2 {
		return
	}
	w := 0.0
	for _, n := range names {
		w = math.Max(w, 7.5*float64(len([]rune(n))))
	}
	w += 40
	x := width - right - w - 6
	y := top + 6
	fmt.Fprintf(b, `<g class="legend" font-size="13"><rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#fff" fill-opacity="0.9" stroke="#999"/>`, x, y, w, 8+18*float64(len(names)))
	for i, n := range names {
		cy := y + 14 + 18*float64(i)
		mark(b, i, x+16, cy)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" fill="#222">%s</text>`, x+32, cy+4, htmltext.Escape(n))
	}
	b.WriteString(`</g>`)
}

// seriesSVG draws series on axes a: what under draws (if not nil) under
// them, then each series as a line in its colour and dash, filled as its
// fill attributes say, through the points that points writes, and a
// legend that names them when there are several.
func seriesSVG(a *axes, o Options, series []Series, under func(b *strings.Builder), fill func(i int) string, points func(b *strings.Builder, i int)) string {
	var b strings.Builder
	open(&b, o)
	a.frame(&b, o)
	if under != nil {
		under(&b)
	}
	names := make([]string, len(series))
	for i, s := range series {
		names[i] = s.Name
		b.WriteString(`<polyline ` + fill(i) + ` stroke-width="2.2" stroke-linejoin="round" stroke="` + colours[i%len(colours)] + `"`)
		if d := dashes[i%len(dashes)]; d != "" {
			b.WriteString(` stroke-dasharray="` + d + `"`)
		}
		b.WriteString(` points="`)
		points(&b, i)
		b.WriteString(`"/>`)
	}
	legend(&b, names, func(b *strings.Builder, i int, x, y float64) {
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2.2" stroke-dasharray="%s"/>`, x-10, y, x+10, y, colours[i%len(colours)], dashes[i%len(dashes)])
	})
	b.WriteString(`</svg>`)
	return b.String()
}

// The most a line plot draws, so that a plot of any length stays a
// picture a page shows at once: MaxSeries lines (a dict of more is drawn
// in part, and said), each of at most MaxLinePoints points. A longer
// series is drawn from the lowest and the highest point of each of
// MaxLinePoints/2 equal stretches, in order, so that its shape and its
// spikes stay; the summary says so.
const (
	MaxSeries     = 12
	MaxLinePoints = 2000
)

// Line plots series against their index.
func Line(series []Series, o Options) (*Plot, error) {
	n := 0
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range series {
		n = max(n, len(s.Ys))
		for i, y := range s.Ys {
			if math.IsNaN(y) || math.IsInf(y, 0) {
				return nil, fmt.Errorf("series %q holds %s at index %d: the numbers plotted must be finite", s.Name, words.Number(y), i)
			}
			lo, hi = math.Min(lo, y), math.Max(hi, y)
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("nothing to plot: the series are empty")
	}
	drawn := series[:min(len(series), MaxSeries)]
	a := newAxes(0, float64(max(n-1, 1)), lo, hi)
	svg := seriesSVG(a, o, drawn, nil, func(int) string { return `fill="none"` }, func(b *strings.Builder, i int) {
		ys := drawn[i].Ys
		for _, x := range thin(ys) {
			fmt.Fprintf(b, "%.1f,%.1f ", a.px(float64(x)), a.py(ys[x]))
		}
	})
	p := &Plot{Title: o.Title, SVG: svg}
	p.Table = [][]string{{"series", "points", "first", "lowest (at)", "highest (at)", "last"}}
	var sum []string
	for _, s := range drawn {
		if len(s.Ys) == 0 {
			continue
		}
		imin, imax := 0, 0
		for i, y := range s.Ys {
			if y < s.Ys[imin] {
				imin = i
			}
			if y > s.Ys[imax] {
				imax = i
			}
		}
		last := s.Ys[len(s.Ys)-1]
		p.Table = append(p.Table, []string{s.Name, strconv.Itoa(len(s.Ys)), short(s.Ys[0]), fmt.Sprintf("%s (%d)", short(s.Ys[imin]), imin), fmt.Sprintf("%s (%d)", short(s.Ys[imax]), imax), short(last)})
		ups := 0
		for i := 1; i < len(s.Ys); i++ {
			if s.Ys[i] > s.Ys[i-1] {
				ups++
			}
		}
		line := fmt.Sprintf("%s goes from %s to %s over %s %s", s.Name, short(s.Ys[0]), short(last), words.Int(len(s.Ys)), overWhat(o.XLabel))
		if ups > 0 {
			line += fmt.Sprintf(", going up at %s of them", words.Int(ups))
		}
		if len(s.Ys) > MaxLinePoints {
			line += fmt.Sprintf(" (drawn as the lowest and the highest of each of %s equal stretches, so that spikes stay)", words.Int(MaxLinePoints/2))
		}
		sum = append(sum, line)
	}
	p.Summary = strings.Join(sum, "; ") + "."
	if more := len(series) - len(drawn); more > 0 {
		p.Summary += fmt.Sprintf(" %s more series %s not drawn: a plot draws at most %d.", words.Int(more), words.Plural(more, "is", "are"), MaxSeries)
	}
	return p, nil
}

// overWhat names what a line's points are, after "over 40": the x
// label made plural where it is one word ("step": "steps"), else points,
// with the label beside them ("points (steps / 25)").
func overWhat(xlabel string) string {
	switch {
	case xlabel == "":
		return "points"
	case strings.IndexFunc(xlabel, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0:
		return "points (" + xlabel + ")"
	case strings.HasSuffix(xlabel, "s"):
		return xlabel
	}
	return xlabel + "s"
}

// thin returns the indexes of the points of ys to draw: all of them if
// there are at most MaxLinePoints, else the lowest and the highest of
// each of MaxLinePoints/2 equal stretches, in order.
func thin(ys []float64) []int {
	n := len(ys)
	if n <= MaxLinePoints {
		xs := make([]int, n)
		for i := range xs {
			xs[i] = i
		}
		return xs
	}
	stretches := MaxLinePoints / 2
	xs := make([]int, 0, MaxLinePoints)
	for k := range stretches {
		from, to := k*n/stretches, (k+1)*n/stretches
		lo, hi := from, from
		for i := from; i < to; i++ {
			if ys[i] < ys[lo] {
				lo = i
			}
			if ys[i] > ys[hi] {
				hi = i
			}
		}
		xs = append(xs, min(lo, hi))
		if hi != lo {
			xs = append(xs, max(lo, hi))
		}
	}
	return xs
}

// short writes a number to four significant digits, for summaries,
// tables and tick labels.
func short(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }

// The most a scatter (and the points of a boundary) draws, so that a
// plot of any size stays a picture a page shows at once: MaxClasses
// classes in colours and markers of their own (those with the most
// points; the rest are drawn alike, in grey, as "other"), and at most
// MaxPoints markers (where there are more, one for each spot and class
// where several overlap, then an even sample of those). The summary says
// what was left out.
const (
	MaxClasses = 6
	MaxPoints  = 2000
)

// other is the style of the classes drawn alike, as "other".
const other = -1

// classes are the classes of points: the distinct ones, smallest first,
// each point's among them, how many points each has, and the style each
// is drawn in (its place among those drawn on their own, or other).
type classes struct {
	distinct []float64
	index    []int
	count    []int
	style    []int
	own      []int // the distinct classes drawn on their own, in order
	others   int   // how many are drawn as other, and their points
	otherPts int
}

// classIndex numbers the distinct classes, smallest first, and chooses
// the MaxClasses with the most points (the smaller class first where
// they have as many) to draw on their own if there are more.
func classIndex(cs []float64) classes {
	var c classes
	c.distinct = slices.Clone(cs)
	slices.Sort(c.distinct)
	c.distinct = slices.Compact(c.distinct)
	c.index = make([]int, len(cs))
	c.count = make([]int, len(c.distinct))
	for i, v := range cs {
		c.index[i], _ = slices.BinarySearch(c.distinct, v)
		c.count[c.index[i]]++
	}
	c.style = make([]int, len(c.distinct))
	keep := make([]int, len(c.distinct))
	for k := range keep {
		keep[k] = k
	}
	if len(keep) > MaxClasses {
		keep = keep[:0]
		byCount := make([]int, len(c.distinct))
		for k := range byCount {
			byCount[k] = k
		}
		slices.SortStableFunc(byCount, func(a, b int) int { return c.count[b] - c.count[a] })
		keep = append(keep, byCount[:MaxClasses-1]...)
		slices.Sort(keep)
	}
	for k := range c.style {
		c.style[k] = other
	}
	for i, k := range keep {
		c.style[k] = i
	}
	c.own = keep
	for k, st := range c.style {
		if st == other {
			c.others++
			c.otherPts += c.count[k]
		}
	}
	return c
}

// marker draws style k's marker at (x, y): a circle, a triangle, a
// square, in its colour; other's is a small grey circle.
func marker(b *strings.Builder, k int, x, y float64) {
	if k == other {
		fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="3" fill="#8a8a8a" stroke="#fff" stroke-width="0.6"/>`, x, y)
		return
	}
	c := colours[k%len(colours)]
	switch k % 3 {
	case 0:
		fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="4.5" fill="%s" stroke="#fff" stroke-width="0.8"/>`, x, y, c)
	case 1:
		fmt.Fprintf(b, `<path d="M%.1f %.1fl5.2 9h-10.4z" fill="%s" stroke="#fff" stroke-width="0.8"/>`, x, y-6, c)
	default:
		fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="8.5" height="8.5" fill="%s" stroke="#fff" stroke-width="0.8"/>`, x-4.25, y-4.25, c)
	}
}

// Points are 2-D points with a class each.
type Points struct {
	X, Y    []float64
	Classes []float64
}

// check refuses what cannot be drawn: no points, a class missing, and
// numbers that are not finite (NaN has no place on an axis, nor among
// classes), naming the first.
func (ps Points) check() error {
	if len(ps.X) == 0 {
		return fmt.Errorf("no points to plot")
	}
	if len(ps.Classes) != len(ps.X) {
		return fmt.Errorf("%d points but %d classes: give one class per point", len(ps.X), len(ps.Classes))
	}
	for i := range ps.X {
		if !finite(ps.X[i]) || !finite(ps.Y[i]) {
			return fmt.Errorf("point %d is [%s, %s]: a point's coordinates must be finite numbers", i, words.Number(ps.X[i]), words.Number(ps.Y[i]))
		}
		if !finite(ps.Classes[i]) {
			return fmt.Errorf("the class of point %d is %s: a class must be a finite number", i, words.Number(ps.Classes[i]))
		}
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func (ps Points) axes() *axes {
	x0, x1 := slices.Min(ps.X), slices.Max(ps.X)
	y0, y1 := slices.Min(ps.Y), slices.Max(ps.Y)
	px, py := 0.1*(x1/2-x0/2)*2+0.1, 0.1*(y1/2-y0/2)*2+0.1
	return newAxes(x0-px, x1+px, y0-py, y1+py)
}

// draw draws the points (those thin keeps) and their legend, and returns
// a sentence on what it left out ("" for nothing).
func (ps Points) draw(b *strings.Builder, a *axes, c classes) string {
	keep, how := ps.thin(a, c)
	for _, i := range keep {
		marker(b, c.style[c.index[i]], a.px(ps.X[i]), a.py(ps.Y[i]))
	}
	var names []string
	for _, k := range c.own {
		names = append(names, "class "+short(c.distinct[k]))
	}
	if c.others > 0 {
		names = append(names, fmt.Sprintf("other (%s)", classCount(c.others)))
	}
	legend(b, names, func(b *strings.Builder, i int, x, y float64) {
		if i >= len(c.own) {
			i = other
		}
		marker(b, i, x, y)
	})
	var said []string
	if c.others > 0 {
		said = append(said, fmt.Sprintf("The %s with the most points %s drawn in colours of their own, the other %s (%s) alike in grey.",
			classCount(len(c.own)), words.Plural(len(c.own), "is", "are"), classCount(c.others), words.Count(c.otherPts, "point")))
	}
	if how != "" {
		said = append(said, how)
	}
	return strings.Join(said, " ")
}

// thin returns the points to draw, in order: all of them if there are at
// most MaxPoints, else one for each spot (a cell of 3 × 3 units of the
// picture, smaller than a marker) and style, then, if those are still too
// many, an even sample of them; and a sentence that says which.
func (ps Points) thin(a *axes, c classes) (keep []int, how string) {
	n := len(ps.X)
	if n <= MaxPoints {
		keep = make([]int, n)
		for i := range keep {
			keep[i] = i
		}
		return keep, ""
	}
	type spot struct{ x, y, style int }
	seen := map[spot]bool{}
	for i := range n {
		s := spot{int(a.px(ps.X[i]) / 3), int(a.py(ps.Y[i]) / 3), c.style[c.index[i]]}
		if !seen[s] {
			seen[s] = true
			keep = append(keep, i)
		}
	}
	spots := len(keep)
	if spots > MaxPoints {
		every := (spots + MaxPoints - 1) / MaxPoints
		sample := keep[:0]
		for j := 0; j < spots; j += every {
			sample = append(sample, keep[j])
		}
		keep = sample
		return keep, fmt.Sprintf("%s of the %s points are drawn: one for each spot and class, then every %s of those.", words.Int(len(keep)), words.Int(n), ordinal(every))
	}
	return keep, fmt.Sprintf("%s of the %s points are drawn: one for each spot and class where several overlap.", words.Int(len(keep)), words.Int(n))
}

// classCount writes "1 class", "20,000 classes".
func classCount(n int) string { return words.Int(n) + words.Plural(n, " class", " classes") }

// ordinal writes "2nd", "3rd", "10th".
func ordinal(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return words.Int(n) + "th"
	case n%10 == 1:
		return words.Int(n) + "st"
	case n%10 == 2:
		return words.Int(n) + "nd"
	case n%10 == 3:
		return words.Int(n) + "rd"
	}
	return words.Int(n) + "th"
}

// Scatter plots points coloured, and shaped, by class.
func Scatter(ps Points, o Options) (*Plot, error) {
	if err := ps.check(); err != nil {
		return nil, err
	}
	a := ps.axes()
	c := classIndex(ps.Classes)
	var b strings.Builder
	open(&b, o)
	a.frame(&b, o)
	said := ps.draw(&b, a, c)
	b.WriteString(`</svg>`)
	p := &Plot{Title: o.Title, SVG: b.String()}
	// One row per class drawn on its own, and one for the others.
	type extent struct{ n, x0, x1, y0, y1 float64 }
	rows := make([]extent, len(c.own)+1)
	for r := range rows {
		rows[r] = extent{x0: math.Inf(1), x1: math.Inf(-1), y0: math.Inf(1), y1: math.Inf(-1)}
	}
	row := func(k int) int {
		if st := c.style[k]; st != other {
			return st
		}
		return len(c.own)
	}
	for i := range ps.X {
		e := &rows[row(c.index[i])]
		e.n++
		e.x0, e.x1 = math.Min(e.x0, ps.X[i]), math.Max(e.x1, ps.X[i])
		e.y0, e.y1 = math.Min(e.y0, ps.Y[i]), math.Max(e.y1, ps.Y[i])
	}
	p.Table = [][]string{{"class", "points", "x from", "x to", "y from", "y to"}}
	for r, e := range rows {
		if e.n == 0 {
			continue
		}
		name := fmt.Sprintf("other (%s)", classCount(c.others))
		if r < len(c.own) {
			name = short(c.distinct[c.own[r]])
		}
		p.Table = append(p.Table, []string{name, strconv.Itoa(int(e.n)), short(e.x0), short(e.x1), short(e.y0), short(e.y1)})
	}
	p.Summary = fmt.Sprintf("%s in %s.", words.Count(len(ps.X), "point"), classCount(len(c.distinct)))
	if said != "" {
		p.Summary += " " + said
	}
	return p, nil
}

// Boundary shades where f is positive and where it is not, over a steps ×
// steps grid covering the points, and draws the points on top. With two
// classes, a positive f means the larger class.
func Boundary(ps Points, f func(x, y float64) (float64, error), steps int, o Options) (*Plot, error) {
	if err := ps.check(); err != nil {
		return nil, err
	}
	a := ps.axes()
	c := classIndex(ps.Classes)
	distinct, index := c.distinct, c.index
	if len(distinct) > 2 {
		return nil, fmt.Errorf("a decision boundary needs two classes, got %s", words.Int(len(distinct)))
	}
	hiClass := len(distinct) - 1
	var b strings.Builder
	open(&b, o)
	cw := (a.x1 - a.x0) / float64(steps)
	ch := (a.y1 - a.y0) / float64(steps)
	positive := 0
	b.WriteString(`<g class="regions" shape-rendering="crispEdges">`)
	for r := range steps {
		y := a.y0 + (float64(r)+0.5)*ch
		run, start := -1, 0
		flush := func(end int) {
			if run < 0 {
				return
			}
			k := 0
			if run == 1 {
				k = hiClass
			}
			x0, x1 := a.x0+float64(start)*cw, a.x0+float64(end)*cw
			fmt.Fprintf(&b, `<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"/>`, a.px(x0), a.py(y+ch/2), a.px(x1)-a.px(x0), a.py(y-ch/2)-a.py(y+ch/2), tints[k%len(tints)])
		}
		for c := range steps {
			x := a.x0 + (float64(c)+0.5)*cw
			v, err := f(x, y)
			if err != nil {
				return nil, err
			}
			if math.IsNaN(v) {
				return nil, noSign(x, y)
			}
			side := 0
			if v > 0 {
				side = 1
				positive++
			}
			if side != run {
				flush(c)
				run, start = side, c
			}
		}
		flush(steps)
	}
	b.WriteString(`</g>`)
	a.frame(&b, Options{XLabel: o.XLabel, YLabel: o.YLabel})
	said := ps.draw(&b, a, c)
	b.WriteString(`</svg>`)
	right := 0
	for i := range ps.X {
		v, err := f(ps.X[i], ps.Y[i])
		if err != nil {
			return nil, err
		}
		if math.IsNaN(v) {
			return nil, noSign(ps.X[i], ps.Y[i])
		}
		if (v > 0) == (index[i] == hiClass && hiClass > 0) {
			right++
		}
	}
	p := &Plot{Title: o.Title, SVG: b.String()}
	share := 100 * float64(positive) / float64(steps*steps)
	p.Summary = fmt.Sprintf("The function is positive (class %s) over %.0f%% of the area shown and not positive (class %s) over the rest; %d of %d points (%.0f%%) lie on their class's side.",
		short(distinct[hiClass]), share, short(distinct[0]), right, len(ps.X), 100*float64(right)/float64(len(ps.X)))
	if said != "" {
		p.Summary += " " + said
	}
	p.Table = [][]string{{"region", "share of the area"},
		{"positive: class " + short(distinct[hiClass]), fmt.Sprintf("%.0f%%", share)},
		{"not positive: class " + short(distinct[0]), fmt.Sprintf("%.0f%%", 100-share)}}
	return p, nil
}

// noSign is the error of a boundary's function that gives NaN at (x, y):
// it has no sign to shade.
func noSign(x, y float64) error {
	return fmt.Errorf("the function gives nan at [%s, %s]: a boundary needs a number with a sign", short(x), short(y))
}

// MaxHeatmap is the largest heat map drawn, in rows and in columns.
const MaxHeatmap = 32

// Heatmap shades a grid of numbers, rows top to bottom and columns left
// to right, darker for larger (from the smallest number shown to the
// largest), with each cell's number written in it while the grid is
// small enough to read, the rows' labels on the left and the columns' on
// top: an attention head's weights, each query's row over the keys. Its
// summary names each row's largest column.
func Heatmap(values [][]float64, rows, cols []string, o Options) (*Plot, error) {
	nr := len(values)
	if nr == 0 || nr > MaxHeatmap {
		return nil, fmt.Errorf("a heat map has from 1 to %d rows, got %d", MaxHeatmap, nr)
	}
	nc := len(values[0])
	if nc == 0 || nc > MaxHeatmap {
		return nil, fmt.Errorf("a heat map has from 1 to %d columns, got %d", MaxHeatmap, nc)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, r := range values {
		if len(r) != nc {
			return nil, fmt.Errorf("row %d has %d numbers, row 0 has %d: every row needs as many", i, len(r), nc)
		}
		for j, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("the number in row %d, column %d is %s", i, j, words.Number(v))
			}
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	label := func(ls []string, i int) string {
		if i < len(ls) {
			return ls[i]
		}
		return strconv.Itoa(i)
	}
	// Cells are square, as large as fit, the labels' room kept.
	rowW := 12.0
	for i := range nr {
		rowW = math.Max(rowW, 7.5*float64(len([]rune(label(rows, i)))))
	}
	lw, lt := math.Min(rowW, 120)+8, 26.0
	cell := math.Min((width-lw-right)/float64(nc), (height-lt-top)/float64(nr))
	cell = math.Floor(math.Min(cell, 48))
	w, h := lw+cell*float64(nc)+right, lt+cell*float64(nr)+top
	numbers := cell >= 30
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="plot heatmap" viewBox="0 0 %.0f %.0f" width="100%%" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg"><g font-size="12">`, w, h, htmltext.Escape(o.Title))
	for j := range nc {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#333">%s</text>`, lw+cell*(float64(j)+0.5), lt-8, htmltext.Escape(clipRunes(label(cols, j), int(cell/7)+1)))
	}
	for i, r := range values {
		y := lt + cell*float64(i)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end" fill="#333">%s</text>`, lw-6, y+cell/2+4, htmltext.Escape(clipRunes(label(rows, i), 16)))
		for j, v := range r {
			t := 0.0
			if hi > lo {
				t = (v - lo) / (hi - lo)
			}
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" stroke="#fff"/>`, lw+cell*float64(j), y, cell, cell, shade(t))
			if numbers {
				ink := "#1d2430"
				if t > 0.55 {
					ink = "#ffffff"
				}
				fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="%s" font-size="11">%s</text>`, lw+cell*(float64(j)+0.5), y+cell/2+4, ink, strconv.FormatFloat(v, 'f', 2, 64))
			}
		}
	}
	b.WriteString(`</g></svg>`)
	p := &Plot{Title: o.Title, SVG: b.String()}
	head := []string{""}
	for j := range nc {
		head = append(head, label(cols, j))
	}
	p.Table = [][]string{head}
	var most []string
	for i, r := range values {
		row := []string{label(rows, i)}
		top := 0
		for j, v := range r {
			row = append(row, short(v))
			if v > r[top] {
				top = j
			}
		}
		p.Table = append(p.Table, row)
		most = append(most, fmt.Sprintf("%s: %s (%s)", label(rows, i), label(cols, top), short(r[top])))
	}
	p.Summary = fmt.Sprintf("A %d × %d grid of numbers from %s to %s, darker for larger. The largest in each row: %s.", nr, nc, short(lo), short(hi), strings.Join(most, "; "))
	return p, nil
}

// shade is a colour from white (t = 0) to the first colour's dark blue
// (t = 1).
func shade(t float64) string {
	t = math.Max(0, math.Min(1, t))
	mix := func(a, b int) int { return int(math.Round(float64(a) + (float64(b)-float64(a))*t)) }
	return fmt.Sprintf("#%02x%02x%02x", mix(0xf7, 0x08), mix(0xfb, 0x3d), mix(0xff, 0x77))
}

func clipRunes(s string, n int) string {
	r := []rune(s)
	if n < 1 || len(r) <= n {
		return s
	}
	return string(r[:n])
}
