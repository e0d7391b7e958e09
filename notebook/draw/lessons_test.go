package draw_test

import (
	"fmt"
	"testing"

	"gradbook/engine"
	"gradbook/internal/words"
	"gradbook/notebook"
	"gradbook/notebook/block"
	"gradbook/notebook/draw"
	"gradbook/notebook/kernel"
	"gradbook/notebook/lesson"
)

// runCells runs cells as one program, as Run all does, and returns each
// cell's result with its drawings.
func runCells(cells []string) []kernel.CellResult {
	return notebook.NewSession().Run(kernel.Request{Cells: cells, All: true}).Cells
}

// lessonDrawing is one graph that a lesson draws.
type lessonDrawing struct {
	lesson, name string
	d            *draw.Drawing
}

// lessonDrawings runs every lesson as a learner would see it and returns
// every drawing: each code cell's (the cells run in order), each explore
// block's at its start values, and each exercise's, run with its starter
// code and with its solution.
func lessonDrawings(t *testing.T) []lessonDrawing {
	t.Helper()
	lessons, err := lesson.LoadDir("../../site/lessons")
	if err != nil {
		t.Fatal(err)
	}
	var all []lessonDrawing
	add := func(l *lesson.Lesson, cell string, ds []*draw.Drawing) {
		for k, d := range ds {
			all = append(all, lessonDrawing{l.Slug, fmt.Sprintf("%s/%s/d%d", l.Slug, cell, k+1), d})
		}
	}
	for _, l := range lessons {
		var srcs []string
		var ids []string
		for _, c := range l.Cells {
			switch c.Kind {
			case "python":
				srcs = append(srcs, c.Source)
				ids = append(ids, c.ID)
			case "explore":
				e, err := block.ParseExplore(c.ID, c.Source)
				if err != nil {
					t.Fatal(err)
				}
				add(l, c.ID, []*draw.Drawing{e.Drawing(e.Start())})
			case "exercise":
				x, err := block.ParseExercise(c.ID, c.Source)
				if err != nil {
					t.Fatal(err)
				}
				for _, run := range []struct{ name, src string }{{"starter", x.Starter}, {"solution", x.Starter + "\n\n" + x.Solution}} {
					add(l, c.ID+"-"+run.name, runCells([]string{run.src})[0].Drawings)
				}
			}
		}
		for i, r := range runCells(srcs) {
			add(l, ids[i], r.Drawings)
		}
	}
	return all
}

// views are the ways the page shows a drawing: left to right with the
// finished pass, both ways at the start of "you do the backward pass", the overwrite bug and every step of the reverse pass;
// top to bottom with the finished pass, the classic bugs and the first
// step; and, in a drawing that folds, every group open, and each group
// open alone.
func views(d *draw.Drawing) []draw.View {
	vs := []draw.View{{ID: "g"}, {ID: "g", Bug: engine.OverwriteBug}, {ID: "g", Vertical: true}, {ID: "g", Vertical: true, Bug: engine.OverwriteBug, Step: 1},
		{ID: "g", Bug: engine.TwiceBug}, {ID: "g", Vertical: true, Bug: engine.RecursiveBug}, {ID: "g", Practice: true}, {ID: "g", Vertical: true, Practice: true}}
	for k := 1; k <= len(d.Steps); k++ {
		vs = append(vs, draw.View{ID: "g", Step: k})
	}
	if d.Folds() {
		vs = append(vs, draw.View{ID: "g", Expanded: d.Groups()}, draw.View{ID: "g", Vertical: true, Expanded: d.Groups()})
		for _, g := range d.Groups() {
			vs = append(vs, draw.View{ID: "g", Expanded: []string{g}}, draw.View{ID: "g", Vertical: true, Expanded: []string{g}})
		}
	}
	return vs
}

// TestLessonDrawingsOverlap lays out every graph every lesson draws, in
// every view, and fails on any overlap or clipping, naming the drawing,
// the view and the two boxes.
func TestLessonDrawingsOverlap(t *testing.T) {
	for _, ld := range lessonDrawings(t) {
		seen := map[string]bool{}
		for _, v := range views(ld.d) {
			problems, err := draw.Overlaps(ld.d.SVG(v))
			if err != nil {
				t.Fatalf("%s: %v", ld.name, err)
			}
			for _, p := range problems {
				if !seen[p] {
					seen[p] = true
					t.Errorf("%s (step %d, bug %d, vertical %v, %d groups open): %s", ld.name, v.Step, v.Bug, v.Vertical, len(v.Expanded), p)
				}
			}
		}
		w, h := ld.d.Size(draw.View{})
		vw, vh := ld.d.Size(draw.View{Vertical: true})
		t.Logf("%s: %s, %gx%g left to right, %gx%g top to bottom", ld.name, words.Count(len(ld.d.Nodes), "value"), w, h, vw, vh)
	}
}
