package tensor_test

import (
	"math"
	"testing"

	. "gradbook/tensor"
)

// The lecture-sized GPT of "Let's build GPT: from scratch, in code,
// spelled out" (Karpathy), at the size the lecture trains it on its
// laptop before it scales up: a 65-character vocabulary, blocks of 8
// characters, batches of 32, 32-wide embeddings, 4 heads of 8, 3 blocks
// with pre-LayerNorm and residuals, a final LayerNorm, and AdamW. It is
// the next issue's model, written here with tensor's ops alone, as
// PyTorch's nn.Linear, F.layer_norm, masked_fill and softmax compute it
// (weights of shape (out, in), biases of shape (out,)).
const (
	gptVocab  = 65
	gptBlock  = 8
	gptBatch  = 32
	gptEmbd   = 32
	gptHeads  = 4
	gptLayers = 3
)

// gpt holds the model's parameters, each requiring a gradient, and
// AdamW's moments for each.
type gpt struct {
	tok, pos *Tensor
	blocks   []gptBlockParams
	lnfW     *Tensor
	lnfB     *Tensor
	head     *Tensor
	headB    *Tensor
	params   []*Tensor
	m, v     [][]float64
	steps    int
	mask     *Tensor // (T, T): 1 where a position would see the future
}

type gptBlockParams struct {
	ln1W, ln1B, q, k, v, proj, projB, ln2W, ln2B, fc, fcB, out, outB *Tensor
}

func newGPT(g *Generator) *gpt {
	m := &gpt{}
	param := func(scale float64, shape ...int) *Tensor {
		t := Must(g.Randn(shape...))
		for i := range t.Data() {
			t.Data()[i] *= scale
		}
		t.SetRequiresGrad(true)
		m.params = append(m.params, t)
		return t
	}
	constant := func(x float64, shape ...int) *Tensor {
		t := Must(Full(x, shape...)).SetRequiresGrad(true)
		m.params = append(m.params, t)
		return t
	}
	const C = gptEmbd
	m.tok, m.pos = param(1, gptVocab, C), param(1, gptBlock, C)
	for range gptLayers {
		m.blocks = append(m.blocks, gptBlockParams{
			ln1W: constant(1, C), ln1B: constant(0, C),
			q: param(1/math.Sqrt(C), C, C), k: param(1/math.Sqrt(C), C, C), v: param(1/math.Sqrt(C), C, C),
			proj: param(1/math.Sqrt(C), C, C), projB: constant(0, C),
			ln2W: constant(1, C), ln2B: constant(0, C),
			fc: param(1/math.Sqrt(C), 4*C, C), fcB: constant(0, 4*C),
			out: param(1/math.Sqrt(4*C), C, 4*C), outB: constant(0, C),
		})
	}
	m.lnfW, m.lnfB = constant(1, C), constant(0, C)
	m.head, m.headB = param(1/math.Sqrt(C), gptVocab, C), constant(0, gptVocab)
	for _, p := range m.params {
		m.m = append(m.m, make([]float64, p.Size()))
		m.v = append(m.v, make([]float64, p.Size()))
	}
	m.mask = Must(Zeros(gptBlock, gptBlock))
	for i := range gptBlock {
		for j := i + 1; j < gptBlock; j++ {
			m.mask.Data()[i*gptBlock+j] = 1
		}
	}
	return m
}

// heads splits (B, T, C) into (B, heads, T, C/heads).
func heads(x *Tensor) *Tensor {
	s := x.Shape()
	return Must(Must(x.Reshape(s[0], s[1], gptHeads, s[2]/gptHeads)).Transpose(1, 2))
}

// loss is the forward pass on idx (B, T) to the cross-entropy of the
// next characters, targets (B, T).
func (m *gpt) loss(idx, targets *Tensor) *Tensor {
	B, T, C := idx.Shape()[0], idx.Shape()[1], gptEmbd
	x := Must(Must(m.tok.Take(idx)).Add(m.pos))
	for _, b := range m.blocks {
		h := Must(LayerNorm(x, b.ln1W, b.ln1B, 1e-5))
		q, k, v := heads(Must(Linear(h, b.q, nil))), heads(Must(Linear(h, b.k, nil))), heads(Must(Linear(h, b.v, nil)))
		wei := Must(q.Matmul(Must(k.Transpose(-2, -1))))
		wei = Must(wei.Mul(Scalar(1 / math.Sqrt(float64(C/gptHeads)))))
		wei = Must(Must(wei.MaskedFill(m.mask, math.Inf(-1))).Softmax(-1))
		att := Must(Must(Must(wei.Matmul(v)).Transpose(1, 2)).Reshape(B, T, C))
		x = Must(x.Add(Must(Linear(att, b.proj, b.projB))))
		h = Must(LayerNorm(x, b.ln2W, b.ln2B, 1e-5))
		f := Must(Linear(h, b.fc, b.fcB)).Relu()
		x = Must(x.Add(Must(Linear(f, b.out, b.outB))))
	}
	x = Must(LayerNorm(x, m.lnfW, m.lnfB, 1e-5))
	logits := Must(Linear(x, m.head, m.headB))
	return Must(CrossEntropy(Must(logits.Reshape(B*T, gptVocab)), Must(targets.Reshape(B*T))))
}

// step is one training step: forward, backward and AdamW (lr 1e-3,
// PyTorch's defaults otherwise: betas 0.9 and 0.999, eps 1e-8, weight
// decay 0.01). It returns the loss.
func (m *gpt) step(idx, targets *Tensor) float64 {
	loss := m.loss(idx, targets)
	if err := loss.Backward(); err != nil {
		panic(err)
	}
	const lr, b1, b2, eps, wd = 1e-3, 0.9, 0.999, 1e-8, 0.01
	m.steps++
	c1, c2 := 1-math.Pow(b1, float64(m.steps)), 1-math.Pow(b2, float64(m.steps))
	for i, p := range m.params {
		x, g, mi, vi := p.Data(), p.Grad.Data(), m.m[i], m.v[i]
		for j := range x {
			x[j] -= lr * wd * x[j]
			mi[j] = b1*mi[j] + (1-b1)*g[j]
			vi[j] = b2*vi[j] + (1-b2)*g[j]*g[j]
			x[j] -= lr * (mi[j] / c1) / (math.Sqrt(vi[j]/c2) + eps)
		}
		p.ZeroGrad()
	}
	l, err := loss.Item()
	if err != nil {
		panic(err)
	}
	return l
}

// gptBatchOf returns a batch of windows of a sequence that repeats with a
// period of 11 characters, and the characters that follow them: a
// sequence the model can learn to predict.
func gptBatchOf(g *Generator) (idx, targets *Tensor) {
	starts := Must(g.RandInt(0, 11, gptBatch))
	idx, targets = Must(Zeros(gptBatch, gptBlock)), Must(Zeros(gptBatch, gptBlock))
	for b, s := range starts.Data() {
		for t := range gptBlock {
			idx.Data()[b*gptBlock+t] = float64((int(s) + t) % 11 * 5)
			targets.Data()[b*gptBlock+t] = float64((int(s) + t + 1) % 11 * 5)
		}
	}
	return idx, targets
}

// TestGPTLearns trains the GPT on a periodic sequence: its loss starts
// near ln 65, a guess among 65 characters, and falls.
func TestGPTLearns(t *testing.T) {
	g := NewGenerator(36)
	m := newGPT(g)
	count := 0
	for _, p := range m.params {
		count += p.Size()
	}
	if count != 42369 {
		t.Errorf("the GPT has %d parameters, not the lecture's 42,369", count)
	}
	first, last := 0.0, 0.0
	for i := range 60 {
		l := m.step(gptBatchOf(g))
		if i == 0 {
			first = l
		}
		last = l
	}
	if math.Abs(first-math.Log(gptVocab)) > 0.5 || last > first/2 {
		t.Errorf("the loss went from %.4f to %.4f in 60 steps; it should start near ln 65 = %.4f and halve", first, last, math.Log(gptVocab))
	}
	t.Logf("loss %.4f, then %.4f after 60 steps", first, last)
}

// BenchmarkGPTStep is one training step of the lecture-sized GPT:
// forward, backward and AdamW, at batch 32 and block 8.
func BenchmarkGPTStep(b *testing.B) {
	g := NewGenerator(36)
	m := newGPT(g)
	idx, targets := gptBatchOf(g)
	b.ReportAllocs()
	for b.Loop() {
		m.step(idx, targets)
	}
}
