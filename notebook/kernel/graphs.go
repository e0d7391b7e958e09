package kernel

import (
	"fmt"
	"runtime"

	"gradbook/notebook/draw"
)

// This file is a run's graphs: how many Values the running cell has
// made, within Limits.Values, and what each cell draws when it ends: the
// graphs it asked show() to draw, or else the last graph it built.

// A Drawable is a graph a cell can draw: the graph behind a Value
// (package values), or a graph in the list format with its values
// (package library).
type Drawable interface {
	// Draw returns the drawing, or nil and how many values the graph has
	// when that is more than draw.MaxDrawnNodes.
	Draw() (*draw.Drawing, int)
}

// graphs are what the cells of a run built and asked to draw.
type graphs struct {
	made   int          // Values made by the running cell
	latest []Drawable   // per cell: the last graph it built
	shown  [][]Drawable // per cell: what it asked show() to draw
}

func (g *graphs) init(cells int) {
	g.latest = make([]Drawable, cells)
	g.shown = make([][]Drawable, cells)
}

// yieldEvery is how many Values a run makes between yields to the Go
// scheduler (see Made).
const yieldEvery = 1024

// Made counts a Value that the running cell made. It returns the error
// that stops the run once the cell has made more than Limits.Values;
// otherwise whether the Value's graph is to be recorded as the cell's
// latest (not while the run is quiet), and the latest graph so far, which
// the caller may update in place rather than record a new one for every
// Value (Built).
func (r *Run) Made() (latest Drawable, record bool, err error) {
	g := &r.graphs
	if g.made++; g.made > r.limits.Values {
		return nil, false, r.Stop(ErrTooManyValues)
	}
	if g.made%yieldEvery == 0 {
		// In WebAssembly the collector's mark worker runs only when the
		// code yields: without this, a collection that starts during a
		// training step lasts until the cell ends, with the heap growing
		// and every pointer write paying the write barrier.
		runtime.Gosched()
	}
	if r.out.quiet > 0 || r.current < 0 {
		return nil, false, nil
	}
	return g.latest[r.current], true, nil
}

// Built records d as the latest graph the running cell built, which it
// draws if it shows nothing else.
func (r *Run) Built(d Drawable) {
	if r.Quiet() {
		return
	}
	r.graphs.latest[r.current] = d
}

// Show adds d to what cell (the cell Caller names) draws.
func (r *Run) Show(cell int, d Drawable) {
	if r == nil || cell < 0 || cell >= len(r.cells) {
		return
	}
	r.graphs.shown[cell] = append(r.graphs.shown[cell], d)
}

// drawCell draws what cell i asked show() to draw, or the last graph it
// built; a note of a graph too large to draw goes to its output.
func (r *Run) drawCell(i int) {
	g := &r.graphs
	targets := g.shown[i]
	if len(targets) == 0 && g.latest[i] != nil {
		targets = []Drawable{g.latest[i]}
	}
	for _, t := range targets {
		d, n := t.Draw()
		switch {
		case d != nil && d.Trivial() && len(g.shown[i]) == 0:
			// A single value is not worth a drawing of its own, unless
			// the cell asked for it.
		case d != nil:
			r.res[i].Drawings = append(r.res[i].Drawings, d)
		case n > draw.MaxDrawnNodes:
			fmt.Fprintf(&r.out.lines[i], "(The graph has %d values, too many to draw: drawings show up to %d.)\n", n, draw.MaxDrawnNodes)
		}
	}
}
