package library_test

import (
	"testing"

	"gradbook/notebook/internal/celltest"
)

func TestShowDraws(t *testing.T) {
	r := celltest.One(t, `a = Value(1.0, "a")
show(a * 2)
show([["q", "add", ["a", "a"]]], {"a": 1.0}, "q")`)
	if len(r.Drawings) != 2 {
		t.Fatalf("%d drawings, want 2", len(r.Drawings))
	}
	d := r.Drawings[1]
	if len(d.Edges) != 2 || d.Nodes[d.Out].Label != "q" || d.Nodes[0].Grad != 2 {
		t.Errorf("x+x drawing: %+v", d)
	}
}
