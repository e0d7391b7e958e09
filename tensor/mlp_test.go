package tensor_test

import . "gradbook/tensor"

// mlp is the forward pass of makemore part 4's MLP (C, W1, b1, bngain,
// bnbias, W2, b2 in p), in the steps of "Becoming a backprop ninja", with
// BatchNorm's variance under Bessel's correction. It returns the loss and
// every step, by name.
func mlp(p []*Tensor, Xb, Yb *Tensor) (*Tensor, map[string]*Tensor) {
	C, W1, b1, bngain, bnbias, W2, b2 := p[0], p[1], p[2], p[3], p[4], p[5], p[6]
	n := Xb.Shape()[0]
	s := map[string]*Tensor{}
	step := func(name string) func(*Tensor, error) *Tensor {
		return func(t *Tensor, err error) *Tensor {
			if err != nil {
				panic(name + ": " + err.Error())
			}
			t.Label = name
			s[name] = t
			return t
		}
	}
	emb := step("emb")(C.Take(Xb))
	embcat := step("embcat")(emb.Reshape(n, -1))
	hprebn := step("hprebn")(Must(embcat.Matmul(W1)).Add(b1))
	bnmeani := step("bnmeani")(Scalar(1 / float64(n)).Mul(Must(hprebn.Sum(0, true))))
	bndiff := step("bndiff")(hprebn.Sub(bnmeani))
	bndiff2 := step("bndiff2")(bndiff.Pow(2), nil)
	bnvar := step("bnvar")(Scalar(1 / float64(n-1)).Mul(Must(bndiff2.Sum(0, true))))
	bnvarinv := step("bnvar_inv")(Must(bnvar.Add(Scalar(1e-5))).Pow(-0.5), nil)
	bnraw := step("bnraw")(bndiff.Mul(bnvarinv))
	hpreact := step("hpreact")(Must(bngain.Mul(bnraw)).Add(bnbias))
	h := step("h")(hpreact.Tanh(), nil)
	logits := step("logits")(Must(h.Matmul(W2)).Add(b2))
	maxes, _, err := logits.Max(1, true)
	logitMaxes := step("logit_maxes")(maxes, err)
	normLogits := step("norm_logits")(logits.Sub(logitMaxes))
	counts := step("counts")(normLogits.Exp(), nil)
	countsSum := step("counts_sum")(counts.Sum(1, true))
	countsSumInv := step("counts_sum_inv")(countsSum.Pow(-1), nil)
	probs := step("probs")(counts.Mul(countsSumInv))
	logprobs := step("logprobs")(probs.Log(), nil)
	rows := Must(Arange(0, float64(n), 1))
	loss := step("loss")(Must(logprobs.Take(rows, Yb)).MeanAll().Neg(), nil)
	return loss, s
}
