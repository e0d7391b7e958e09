package library_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"gradbook/notebook"
	"gradbook/notebook/internal/celltest"
	"gradbook/notebook/kernel"
)

// micrograd's recipe reaches at least 95% on the moons, and the plots
// come out: a loss curve and a decision boundary drawn through the tape.
func TestMoonsTrainingAndPlots(t *testing.T) {
	model := celltest.Program(t, "moons")
	r := notebook.NewSession().Run(kernel.Request{Limits: kernel.Limits{Time: 10 * time.Minute}, Cells: []string{model + `
losses = train(100)
score = trace(lambda xy: forward(model, xy), [Value(0.0), Value(0.0)])
right = len([1 for xy, yi in zip(X, y) if (score(xy) > 0) == (yi > 0)])
print("accuracy", right, "of", len(X))
plot(losses, title="Loss", ylabel="loss")
boundary(score, X, y, title="Decision boundary")
`}}).Cells[0]
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	var right int
	if _, err := fmt.Sscanf(r.Output, "accuracy %d of 100", &right); err != nil || right < 95 {
		t.Errorf("output %q: want an accuracy of 95 or more", r.Output)
	}
	if len(r.Plots) != 2 || !strings.Contains(r.Plots[0].Summary, "loss goes from") || !strings.Contains(r.Plots[1].Summary, "of 100 points") {
		t.Fatalf("plots %+v", r.Plots)
	}
	t.Log(r.Output, r.Plots[0].Summary, r.Plots[1].Summary)
}
