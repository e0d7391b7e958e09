package lesson

import (
	"strings"
	"testing"

	"gradbook/notebook/block"
)

// lessonFile loads one of Gradbook's lessons, by its file name without .md.
func lessonFile(t *testing.T, file string) *Lesson {
	t.Helper()
	l, err := LoadFile("../../site/lessons/" + file + ".md")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// exercise returns the exercise id of the lesson file.
func exercise(t *testing.T, file, id string) *block.Exercise {
	t.Helper()
	for _, c := range lessonFile(t, file).Cells {
		if c.ID == id {
			x, err := block.ParseExercise(c.ID, c.Source)
			if err != nil {
				t.Fatal(err)
			}
			return x
		}
	}
	t.Fatalf("%s has no exercise %s", file, id)
	return nil
}

// The exercises of the GPT, tensor and forward-mode lessons name the
// usual mistakes in the tests' own words, not with a crash, a silent pass
// or bare numbers: a transpose on the wrong side, a missing sum over a
// broadcast dimension, a tensor used twice given one share, n where
// BatchNorm's variance has n − 1; Adam with g for g² (which made v
// negative and a parameter nan) or with 1 − βᵏ (a division by zero at the
// first step), logits without logit_maxes' share (which cmp cannot see),
// weights scaled by √fan_out, without the gain or not at all; a softmax's
// backward as its diagonal alone or leaking into masked scores, the
// scale forgotten and a transpose on the wrong side in attention,
// a softmax not normalised, math.exp cutting the graph, and db summed
// over the wrong dimension.
func TestExercisesNameTheUsualMistakes(t *testing.T) {
	adam := exercise(t, "training-a-gpt", "adam")
	softmax := exercise(t, "gpt-from-values", "softmax")
	layer := exercise(t, "from-values-to-tensors", "layer-backward")
	ninjaLoss := exercise(t, "backprop-ninja", "ninja-loss")
	ninjaBN := exercise(t, "backprop-ninja", "ninja-bn")
	tangents := exercise(t, "forward-or-reverse", "tangent-rules")
	initW := exercise(t, "activations-and-gradients", "init-weights")
	softmaxBack := exercise(t, "attention-backward", "softmax-backward")
	qk := exercise(t, "attention-backward", "qk-backward")
	saysWhy(t, []mistake{
		{softmaxBack, "wei * (dwei - (dwei * wei).sum(-1, keepdim=True))", "wei * (1 - wei) * dwei", "only the diagonal of the softmax's Jacobian"},
		{softmaxBack, "wei * (dwei - (dwei * wei).sum(-1, keepdim=True))", "dwei - (dwei * wei).sum(-1, keepdim=True)", "a gradient flows into masked positions"},
		{qk, "datt = dscaled * (1 / math.sqrt(head_size))", "datt = dscaled", "√head_size = 2 times autograd's"},
		{qk, "datt.transpose(-2, -1) @ q", "datt @ q", "dk: the transpose is on the wrong side"},
		{qk, "return datt @ k,", "return datt.transpose(-2, -1) @ k,", "dq: the transpose is on the wrong side"},
		{initW, "* gain / math.sqrt(sizes[i])", "* gain / math.sqrt(sizes[i + 1])", "you divided by √fan_out (the layer's outputs) instead of √fan_in"},
		{initW, "* gain / math.sqrt(sizes[i])", "/ math.sqrt(sizes[i])", "the gain is missing (5/3 for tanh"},
		{initW, "* gain / math.sqrt(sizes[i])", "", "the weights keep randn's spread of 1"},
		{initW, "* gain / math.sqrt(sizes[i])", "* gain", "too large"},
		{layer, "dW = x.T.matmul(dout)", "dW = dout.T.matmul(x)", "the transpose is on the wrong side"},
		{layer, "db = dout.sum(0)", "db = dout", "its gradient sums over them: dout.sum(0)"},
		{layer, "dx = dout.matmul(W.T)", "dx = dout.matmul(W).T.T if dout.shape[1] == W.shape[0] else dout.matmul(W.T)", "dout.matmul(W.T)"},
		{ninjaLoss, `+ torch.ones_like(f["counts"]) * d["counts_sum"]`, "", "counts is used twice"},
		{ninjaLoss, `(f["counts"] * d["probs"]).sum(1, keepdim=True)`, `f["counts"] * d["probs"]`, "stretched over the 7 columns"},
		{ninjaLoss, `-f["counts_sum"].pow(-2)`, `f["counts_sum"].pow(-2)`, "mind the minus"},
		{ninjaBN, `d["bnvar"] / (n - 1)`, `d["bnvar"] / n`, "Bessel's correction"},
		{ninjaBN, `d["bnbias"] = dhpreact.sum(0, keepdim=True)`, `d["bnbias"] = dhpreact`, "broadcast over the 10 examples"},
		{ninjaBN, ` + 2 * f["bndiff"] * d["bndiff2"]`, "", "bndiff is used twice"},
		{ninjaBN, ` + torch.ones_like(f["hprebn"]) * d["bnmeani"] / n`, "", "through bnmeani"},
		{tangents, "return da * b + a * db", "return da * b", "the product rule"},
		{tangents, "return da / b - a * db / (b * b)", "return (da * b + a * db) / (b * b)", "the sign of the second term"},
		{tangents, "return (1 - t * t) * da", "return t * da", "1 − tanh(a)²"},
		{adam, "v[i] = b2 * v[i] + (1 - b2) * g * g", "v[i] = b2 * v[i] + (1 - b2) * g", "v averages the squared gradient, g * g, not g"},
		{adam, "c1, c2 = 1 - math.pow(b1, k + 1), 1 - math.pow(b2, k + 1)", "c1, c2 = 1 - math.pow(b1, k), 1 - math.pow(b2, k)", "Use 1 - b^(k + 1): math.pow(b1, k + 1)."},
		{ninjaLoss, `d["logits"] = d["norm_logits"] + top * d["logit_maxes"]`, `d["logits"] = d["norm_logits"]`, "logits is used twice, directly and through logit_maxes"},
		{softmax, "return [e / total for e in exps]", "return exps", "not probabilities yet (e^(l − m) alone gives 0.1353, 0.3679, 1 here): divide each by their total"},
		{softmax, "exps = [(l - top).exp() for l in logits]", "exps = [Value(math.exp((l - top).value)) for l in logits]", "the graph is cut. math.exp(l.value)"},
		{layer, "db = dout.sum(0)", "db = dout.sum(1)", "dout.sum(1) adds up each example's row"},
	})
}

// mistake is a change to an exercise's solution, and what its tests must
// say to it.
type mistake struct {
	x        *block.Exercise
	from, to string
	says     string
}

// saysWhy checks each mistake with its exercise's tests: it must fail,
// saying what the mistake means.
func saysWhy(t *testing.T, mistakes []mistake) {
	t.Helper()
	for _, c := range mistakes {
		if !strings.Contains(c.x.Solution, c.from) {
			t.Fatalf("%s's solution has no %q", c.x.ID, c.from)
		}
		wrong := strings.Replace(c.x.Solution, c.from, c.to, 1)
		r := c.x.Judge(c.x.Starter + "\n\n" + wrong)
		if r.Passed || !strings.Contains(r.Why, c.says) {
			t.Errorf("%s with %q for %q: passed %v, %q; want it to say %q", c.x.ID, c.to, c.from, r.Passed, r.Why, c.says)
		}
	}
}
