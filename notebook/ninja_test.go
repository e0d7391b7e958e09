package notebook_test

import (
	"testing"
	"time"

	"gradbook/notebook"
)

// The ninja program's backward pass by hand gives autograd's gradients,
// and its training takes the held-out loss below the bigram model's.
func TestNinjaProgram(t *testing.T) {
	s := notebook.NewSession()
	prog := benchProgram(t, "ninja")
	start := time.Now()
	out := runCells(t, s, prog, `
print(Xtr.shape, Xdev.shape, sum([p.numel() for p in parameters]))
ix = torch.randint(0, Xtr.shape[0], (batch,))
f = forward(Xtr[ix], Ytr[ix])
f["loss"].backward()
for p, g in zip(parameters, backward_by_hand(f, Xtr[ix], Ytr[ix])):
    cmp("p", g, p)
for p in parameters:
    p.grad = None
`)
	t.Logf("%s (%v)", out, time.Since(start))
	start = time.Now()
	out = runCells(t, s, prog, `
losses = [train_step(k) for k in range(2000)]
print(losses[0], sum(losses[-100:]) / 100, dev_loss())
`)
	el := time.Since(start)
	t.Logf("%s (%v, %v a step)", out, el, el/2000)
}
