package draw_test

import (
	"fmt"
	"testing"

	"gradbook/notebook"
	"gradbook/notebook/block"
	"gradbook/notebook/draw"
	"gradbook/notebook/lesson"
)

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
					r := notebook.Run([]string{run.src}, 0)
					add(l, c.ID+"-"+run.name, r[0].Drawings)
				}
			}
		}
		for i, r := range notebook.Run(srcs, len(srcs)-1) {
			add(l, ids[i], r.Drawings)
		}
	}
	return all
}

// views are the ways the page shows a drawing: the finished pass, the
// overwrite bug, and every step of the reverse pass.
func views(d *draw.Drawing) []draw.View {
	vs := []draw.View{{ID: "g"}, {ID: "g", Overwrite: true}}
	for k := 1; k <= len(d.Steps); k++ {
		vs = append(vs, draw.View{ID: "g", Step: k})
	}
	return vs
}

// TestLessonDrawingsOverlap lays out every graph every lesson draws, in
// every view, and reports any overlap or clipping.
func TestLessonDrawingsOverlap(t *testing.T) {
	perLesson := map[string]int{}
	var order []string
	for _, ld := range lessonDrawings(t) {
		if _, ok := perLesson[ld.lesson]; !ok {
			order = append(order, ld.lesson)
			perLesson[ld.lesson] = 0
		}
		seen := map[string]bool{}
		for _, v := range views(ld.d) {
			problems, err := draw.Overlaps(ld.d.SVG(v))
			if err != nil {
				t.Fatalf("%s: %v", ld.name, err)
			}
			for _, p := range problems {
				if !seen[p] {
					seen[p] = true
					t.Logf("%s (%+v): %s", ld.name, v, p)
				}
			}
		}
		perLesson[ld.lesson] += len(seen)
		t.Logf("%s: %d nodes, %gx%g, %d problems", ld.name, len(ld.d.Nodes), ld.d.Width, ld.d.Height, len(seen))
	}
	total := 0
	for _, l := range order {
		t.Logf("lesson %s: %d problems", l, perLesson[l])
		total += perLesson[l]
	}
	t.Logf("in all: %d problems", total)
}
