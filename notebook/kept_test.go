package notebook_test

import (
	"testing"

	"gradbook/notebook"
	"gradbook/notebook/kernel"
)

// A kept state checks the tensors inside a graph it keeps by a checksum
// instead of copying them: should a run from a state above have changed
// one, the cells run again, the numbers are right, and the cell says why
// the cells above it ran.
func TestKeptGraphChangedSince(t *testing.T) {
	s := notebook.NewSession()
	one := "W = torch.ones(2, 2, requires_grad=True)\nh = W * 2"
	two := "y = (h * h).sum()\nh = None" // h's tensor is now inside y's graph only
	three := "y.backward()\nprint(W.grad.tolist())"
	want := "[[8.0, 8.0], [8.0, 8.0]]\n"
	if got := runCells(t, s, one, two, three); got != want {
		t.Fatalf("first run: %q", got)
	}
	res := s.Run(kernel.Request{Cells: []string{one, two, three}})
	if got := res.Last(); got.Output != want || got.Above != "" {
		t.Errorf("from the kept state: %q, %q", got.Output, got.Above)
	}
	runCells(t, s, one, "h.data += 1") // another second cell changes h in place
	res = s.Run(kernel.Request{Cells: []string{one, two, three}})
	if got := res.Last(); got.Output != want || got.Above != "cells 1–2 ran first: a run from a state above them changed a tensor their state keeps" {
		t.Errorf("after h changed: %q, %q", got.Output, got.Above)
	}
}

// A state dropped for the Session's limit is run again, and the cell
// says so.
func TestKeptStateDropped(t *testing.T) {
	s := notebook.NewSession()
	one, two := "big = torch.zeros(2100000)", "print(big.shape)"
	runCells(t, s, one, two)
	res := s.Run(kernel.Request{Cells: []string{one, two}})
	if got := res.Last().Above; got != "cell 1 ran first: its kept state was dropped, as a session keeps at most 2,000,000 numbers" {
		t.Errorf("the cell says %q", got)
	}
}
