package lesson

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"gradbook/notebook"
	"gradbook/notebook/kernel"
)

// The GPT lesson's traced step gives the plain step's loss and every one
// of its 4,192 gradients, to 1e-12, for a name of every length from 2 to
// 15 letters: one tape per length, each replayed again after the others.
func TestGPTTracedStepMatchesPlain(t *testing.T) {
	l, err := LoadFile("../../site/lessons/training-a-gpt.md")
	if err != nil {
		t.Fatal(err)
	}
	cell := func(id string) string {
		for _, c := range l.Cells {
			if c.ID == id {
				return c.Source
			}
		}
		t.Fatalf("the lesson has no cell %s", id)
		return ""
	}
	compare := `
by_length = {}
for doc in docs:
    if len(doc) not in by_length:
        by_length[len(doc)] = doc
lengths = sorted(by_length.keys())
step = trace(loss_traced, params, *pairs(by_length[lengths[0]]))
for rounds in range(2):
    for n in lengths:
        doc = by_length[n]
        for p in params:
            p.grad = 0
        L = loss_of(doc)
        L.backward()
        plain = [p.grad for p in params]
        traced = step(params, *pairs(doc))
        worst = max(abs(L.value - traced), max([abs(g - p.grad) for g, p in zip(plain, params)]))
        print(n, doc, repr(worst))
print("tapes", step.tapes)
`
	res := notebook.NewSession().Run(kernel.Request{Cells: []string{cell("model"), cell("traced"), compare}, Limits: kernel.Limits{Time: 5 * time.Minute}})
	for _, r := range res.Cells {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	out := res.Last().Output
	seen, tapes, largest := 0, "", 0.0
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "tapes" {
			tapes = f[1]
		}
		if len(f) != 3 {
			continue
		}
		worst, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			t.Fatalf("output %q", out)
		}
		largest = max(largest, worst)
		if worst > 1e-12 {
			t.Errorf("a name of %s letters (%s): the traced step differs from the plain one by %g", f[0], f[1], worst)
		}
		seen++
	}
	t.Logf("%d steps on names of 2 to 15 letters, %s tapes: the largest difference %g", seen, tapes, largest)
	if seen != 2*14 || tapes != "14" {
		t.Errorf("want 14 lengths (2 to 15 letters) twice, and 14 tapes; got\n%s", out)
	}
}
