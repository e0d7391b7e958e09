package lesson

import (
	"testing"
	"time"

	"gradbook/notebook"
	"gradbook/notebook/kernel"
)

// The ninja's last two cells, run alone after Run all, run from the kept
// state of the cells above them: the training cell does not run again,
// and the numbers are the same. Their kept states hold the graph of the
// BatchNorm estimate over 22,808 training windows, which once made the
// held-out cell's state larger than all a Session keeps, so that every
// state was dropped and each run trained the network again.
func TestNinjaLastCellsRunFromKeptState(t *testing.T) {
	srcs := lessonFile(t, "backprop-ninja").Code("")
	s := notebook.NewSession()
	lim := kernel.Limits{Time: 5 * time.Minute}
	all := s.Run(kernel.Request{Cells: srcs, All: true, Limits: lim})
	for _, r := range all.Cells {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	last := len(srcs) - 1
	for _, upTo := range []int{last, last - 1, last} {
		var ran []int
		start := time.Now()
		one := s.Run(kernel.Request{Cells: srcs[:upTo+1], Limits: lim, Hooks: kernel.Hooks{Start: func(i int) { ran = append(ran, i) }}})
		t.Logf("cell %d alone: %v (its code %.0f ms; in Run all %.0f ms)", upTo+1, time.Since(start), one.Last().MS, all.Cells[upTo].MS)
		if len(ran) != 1 || ran[0] != upTo {
			t.Errorf("cell %d alone: cells %v ran, not it alone; it says %q", upTo+1, ran, one.Last().Above)
		}
		if got, want := one.Last().Output, all.Cells[upTo].Output; got != want {
			t.Errorf("cell %d alone prints\n%s\nnot, as in Run all,\n%s", upTo+1, got, want)
		}
		if one.Last().Above != "" || !one.Last().Passed() {
			t.Errorf("cell %d alone: %q, passed %v", upTo+1, one.Last().Above, one.Last().Passed())
		}
	}
	// With the sampling seed changed, only the cell changed runs.
	var ran []int
	seeded := append(srcs[:last:last], srcs[last]+"\n")
	s.Run(kernel.Request{Cells: seeded, Limits: lim, Hooks: kernel.Hooks{Start: func(i int) { ran = append(ran, i) }}})
	if len(ran) != 1 {
		t.Errorf("the sampling cell changed: cells %v ran", ran)
	}
}
