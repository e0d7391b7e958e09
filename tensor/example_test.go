package tensor_test

import (
	"fmt"
	"math"

	"gradbook/tensor"
)

// The first exercise of "Becoming a backprop ninja" (makemore part 4):
// makemore's MLP forward in small steps, backward by autograd, then
// backward by hand, step by step, each gradient compared with autograd's.
func Example() {
	must := tensor.Must
	x := tensor.Scalar // a constant
	g := tensor.NewGenerator(2147483647)
	const vocab, nEmbd, block, nHidden, n = 27, 10, 3, 64, 32

	// The parameters, initialized as in the notebook.
	param := func(t *tensor.Tensor, scale, shift float64) *tensor.Tensor {
		for i, v := range t.Data() {
			t.Data()[i] = v*scale + shift
		}
		return t.SetRequiresGrad(true)
	}
	C := param(must(g.Randn(vocab, nEmbd)), 1, 0)
	W1 := param(must(g.Randn(nEmbd*block, nHidden)), (5.0/3)/math.Sqrt(nEmbd*block), 0)
	b1 := param(must(g.Randn(nHidden)), 0.1, 0)
	W2 := param(must(g.Randn(nHidden, vocab)), 0.1, 0)
	b2 := param(must(g.Randn(vocab)), 0.1, 0)
	bngain := param(must(g.Randn(1, nHidden)), 0.1, 1)
	bnbias := param(must(g.Randn(1, nHidden)), 0.1, 0)

	// A batch: n contexts of block characters, and the character after each.
	Xb := must(g.RandInt(0, vocab, n, block))
	Yb := must(g.RandInt(0, vocab, n))

	// Forward, chunked into steps that are possible to backward one at a time.
	emb := must(C.Take(Xb)) // C[Xb]: (32, 3, 10)
	embcat := must(emb.View(n, -1))
	hprebn := must(must(embcat.Matmul(W1)).Add(b1))
	bnmeani := must(x(1.0 / n).Mul(must(hprebn.Sum(0, true))))
	bndiff := must(hprebn.Sub(bnmeani))
	bndiff2 := bndiff.Pow(2)
	bnvar := must(x(1.0 / (n - 1)).Mul(must(bndiff2.Sum(0, true)))) // Bessel's correction
	bnvarInv := must(bnvar.Add(x(1e-5))).Pow(-0.5)
	bnraw := must(bndiff.Mul(bnvarInv))
	hpreact := must(must(bngain.Mul(bnraw)).Add(bnbias))
	h := hpreact.Tanh()
	logits := must(must(h.Matmul(W2)).Add(b2))
	logitMaxes, maxIndices, _ := logits.Max(1, true)
	normLogits := must(logits.Sub(logitMaxes))
	counts := normLogits.Exp()
	countsSum := must(counts.Sum(1, true))
	countsSumInv := countsSum.Pow(-1)
	probs := must(counts.Mul(countsSumInv))
	logprobs := probs.Log()
	rows := must(tensor.Arange(0, n, 1))
	loss := must(logprobs.Take(rows, Yb)).MeanAll().Neg() // -logprobs[range(n), Yb].mean()

	for _, t := range []*tensor.Tensor{logprobs, probs, counts, countsSum, countsSumInv, normLogits, logitMaxes, logits,
		h, hpreact, bnraw, bnvarInv, bnvar, bndiff2, bndiff, hprebn, bnmeani, embcat, emb} {
		t.RetainGrad()
	}
	if err := loss.Backward(); err != nil {
		fmt.Println(err)
		return
	}
	l, _ := loss.Item()
	fmt.Printf("loss %.4f\n", l)

	cmp := func(name string, dt, t *tensor.Tensor) {
		exact, approx, maxDiff, err := tensor.Compare(dt, t.Grad)
		if err != nil {
			fmt.Println(name, err)
			return
		}
		fmt.Printf("%-15s | exact: %-5v | approximate: %-5v | maxdiff: %g\n", name, exact, approx, maxDiff)
	}

	// Backward by hand.
	dlogprobs := must(x(-1.0 / n).Mul(must(tensor.OneHot(Yb, vocab))))
	dprobs := must(must(x(1).Div(probs)).Mul(dlogprobs))
	dcountsSumInv := must(must(counts.Mul(dprobs)).Sum(1, true))
	dcounts := must(countsSumInv.Mul(dprobs))
	dcountsSum := must(countsSum.Pow(-2).Neg().Mul(dcountsSumInv))
	dcounts = must(dcounts.Add(must(tensor.OnesLike(counts).Mul(dcountsSum))))
	dnormLogits := must(counts.Mul(dcounts))
	dlogitMaxes := must(dnormLogits.Neg().Sum(1, true))
	dlogits := must(dnormLogits.Add(must(must(tensor.OneHot(must(maxIndices.View(n)), vocab)).Mul(dlogitMaxes))))
	dh := must(dlogits.Matmul(W2.T()))
	dW2 := must(h.T().Matmul(dlogits))
	db2 := must(dlogits.Sum(0, false))
	dhpreact := must(must(x(1).Sub(h.Pow(2))).Mul(dh))
	dbngain := must(must(bnraw.Mul(dhpreact)).Sum(0, true))
	dbnraw := must(bngain.Mul(dhpreact))
	dbnbias := must(dhpreact.Sum(0, true))
	dbndiff := must(bnvarInv.Mul(dbnraw))
	dbnvarInv := must(must(bndiff.Mul(dbnraw)).Sum(0, true))
	dbnvar := must(must(x(-0.5).Mul(must(bnvar.Add(x(1e-5))).Pow(-1.5))).Mul(dbnvarInv))
	dbndiff2 := must(must(x(1.0 / (n - 1)).Mul(tensor.OnesLike(bndiff2))).Mul(dbnvar))
	dbndiff = must(dbndiff.Add(must(must(x(2).Mul(bndiff)).Mul(dbndiff2))))
	dbnmeani := must(dbndiff.Neg().Sum(0, true))
	dhprebn := must(dbndiff.Add(must(x(1.0 / n).Mul(must(tensor.OnesLike(hprebn).Mul(dbnmeani))))))
	dembcat := must(dhprebn.Matmul(W1.T()))
	dW1 := must(embcat.T().Matmul(dhprebn))
	db1 := must(dhprebn.Sum(0, false))
	demb := must(dembcat.View(emb.Shape()...))
	dC := tensor.ZerosLike(C)
	for k, ix := range Xb.Data() { // dC[Xb[k]] += demb[k], row by row
		for j := range nEmbd {
			dC.Data()[int(ix)*nEmbd+j] += demb.Data()[k*nEmbd+j]
		}
	}

	cmp("logprobs", dlogprobs, logprobs)
	cmp("probs", dprobs, probs)
	cmp("counts_sum_inv", dcountsSumInv, countsSumInv)
	cmp("counts_sum", dcountsSum, countsSum)
	cmp("counts", dcounts, counts)
	cmp("norm_logits", dnormLogits, normLogits)
	cmp("logit_maxes", dlogitMaxes, logitMaxes)
	cmp("logits", dlogits, logits)
	cmp("h", dh, h)
	cmp("W2", dW2, W2)
	cmp("b2", db2, b2)
	cmp("hpreact", dhpreact, hpreact)
	cmp("bngain", dbngain, bngain)
	cmp("bnbias", dbnbias, bnbias)
	cmp("bnraw", dbnraw, bnraw)
	cmp("bnvar_inv", dbnvarInv, bnvarInv)
	cmp("bnvar", dbnvar, bnvar)
	cmp("bndiff2", dbndiff2, bndiff2)
	cmp("bndiff", dbndiff, bndiff)
	cmp("bnmeani", dbnmeani, bnmeani)
	cmp("hprebn", dhprebn, hprebn)
	cmp("embcat", dembcat, embcat)
	cmp("W1", dW1, W1)
	cmp("b1", db1, b1)
	cmp("emb", demb, emb)
	cmp("C", dC, C)
	// Output:
	// loss 3.4374
	// logprobs        | exact: true  | approximate: true  | maxdiff: 0
	// probs           | exact: true  | approximate: true  | maxdiff: 0
	// counts_sum_inv  | exact: true  | approximate: true  | maxdiff: 0
	// counts_sum      | exact: true  | approximate: true  | maxdiff: 0
	// counts          | exact: true  | approximate: true  | maxdiff: 0
	// norm_logits     | exact: true  | approximate: true  | maxdiff: 0
	// logit_maxes     | exact: true  | approximate: true  | maxdiff: 0
	// logits          | exact: true  | approximate: true  | maxdiff: 0
	// h               | exact: true  | approximate: true  | maxdiff: 0
	// W2              | exact: true  | approximate: true  | maxdiff: 0
	// b2              | exact: true  | approximate: true  | maxdiff: 0
	// hpreact         | exact: true  | approximate: true  | maxdiff: 0
	// bngain          | exact: true  | approximate: true  | maxdiff: 0
	// bnbias          | exact: true  | approximate: true  | maxdiff: 0
	// bnraw           | exact: true  | approximate: true  | maxdiff: 0
	// bnvar_inv       | exact: true  | approximate: true  | maxdiff: 0
	// bnvar           | exact: true  | approximate: true  | maxdiff: 0
	// bndiff2         | exact: true  | approximate: true  | maxdiff: 0
	// bndiff          | exact: true  | approximate: true  | maxdiff: 0
	// bnmeani         | exact: true  | approximate: true  | maxdiff: 0
	// hprebn          | exact: true  | approximate: true  | maxdiff: 0
	// embcat          | exact: true  | approximate: true  | maxdiff: 0
	// W1              | exact: true  | approximate: true  | maxdiff: 0
	// b1              | exact: true  | approximate: true  | maxdiff: 0
	// emb             | exact: true  | approximate: true  | maxdiff: 0
	// C               | exact: true  | approximate: true  | maxdiff: 0
}
