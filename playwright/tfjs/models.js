// The side-by-side spec's workloads in TensorFlow.js (tfjs.spec.js),
// the same work as Gradbook's: a matrix product, makemore's MLP step
// (mlp.star) and the lecture-sized GPT step (tensor/gpt_test.go). The
// spec loads this into its page after tf.min.js and the wasm backend;
// globalThis.sideBySide runs them on the backend set with tf.setBackend.
"use strict";
(function () {
  const tf = globalThis.tf;

  // timed runs fn n times and returns the milliseconds it took, the last
  // result read back so that nothing is left pending.
  function timed(n, fn) {
    const t = performance.now();
    let last;
    for (let i = 0; i < n; i++) {
      if (last) last.dispose();
      last = fn();
    }
    if (last) {
      last.dataSync();
      last.dispose();
    }
    return performance.now() - t;
  }

  // embed picks rows of table by the whole numbers of idx, as tf.gather
  // does, through a product with their one-hot vectors: the gradient of
  // tf.gather (UnsortedSegmentSum) has no kernel in tfjs's wasm backend.
  function embed(table, idx) {
    return tf.oneHot(idx.flatten(), table.shape[0]).toFloat().matMul(table).reshape([...idx.shape, table.shape[1]]);
  }

  // product returns a function that times n products of an (m, k) and a
  // (k, n) matrix of float32.
  function product(m, k, n) {
    const a = tf.randomNormal([m, k]), b = tf.randomNormal([k, n]);
    return (count) => timed(count, () => tf.matMul(a, b));
  }

  // mlp returns a function that times n training steps of makemore's MLP
  // with BatchNorm at batch 32 on random windows of 3 characters: forward,
  // autograd's backward (variableGrads), SGD.
  function mlp() {
    const p = (shape, scale, shift = 0) => tf.variable(tf.randomNormal(shape).mul(scale).add(shift));
    const C = p([27, 10], 1), W1 = p([30, 64], 5 / 3 / Math.sqrt(30)), b1 = p([64], 0.1);
    const W2 = p([64, 27], 0.1), b2 = p([27], 0.1), gain = p([1, 64], 0.1, 1), bias = p([1, 64], 0.1);
    const params = [C, W1, b1, W2, b2, gain, bias];
    const Xtr = tf.randomUniform([1000, 3], 0, 27, "int32"), Ytr = tf.randomUniform([1000], 0, 27, "int32");
    const opt = tf.train.sgd(0.1);
    const step = () => tf.tidy(() => {
      const ix = tf.randomUniform([32], 0, 1000, "int32");
      const Xb = tf.gather(Xtr, ix), Yb = tf.gather(Ytr, ix);
      const { value, grads } = tf.variableGrads(() => {
        const hprebn = embed(C, Xb).reshape([32, 30]).matMul(W1).add(b1);
        const bndiff = hprebn.sub(hprebn.mean(0, true));
        const bnvar = bndiff.square().sum(0, true).div(31);
        const h = gain.mul(bndiff).mul(bnvar.add(1e-5).rsqrt()).add(bias).tanh();
        return tf.losses.softmaxCrossEntropy(tf.oneHot(Yb, 27), h.matMul(W2).add(b2));
      }, params);
      opt.applyGradients(grads);
      return value;
    });
    return (count) => timed(count, step);
  }

  // gpt returns a function that times n training steps of the lecture's
  // GPT: a 65-character vocabulary, blocks of 8, batch 32, 32-wide
  // embeddings, 4 heads, 3 blocks with pre-LayerNorm and residuals, a
  // final LayerNorm, AdamW (lr 1e-3, weight decay 0.01): 42,369
  // parameters, weights (out, in) as nn.Linear's.
  function gpt() {
    const V = 65, T = 8, B = 32, C = 32, H = 4, hs = C / H;
    const w = (shape) => tf.variable(tf.randomNormal(shape).mul(1 / Math.sqrt(shape[1])));
    const c = (n, x) => tf.variable(tf.fill([n], x));
    const tok = tf.variable(tf.randomNormal([V, C])), pos = tf.variable(tf.randomNormal([T, C]));
    const blocks = [0, 1, 2].map(() => ({
      ln1w: c(C, 1), ln1b: c(C, 0), q: w([C, C]), k: w([C, C]), v: w([C, C]), proj: w([C, C]), projb: c(C, 0),
      ln2w: c(C, 1), ln2b: c(C, 0), fc: w([4 * C, C]), fcb: c(4 * C, 0), out: w([C, 4 * C]), outb: c(C, 0),
    }));
    const lnfw = c(C, 1), lnfb = c(C, 0), head = w([V, C]), headb = c(V, 0);
    const params = [tok, pos, ...blocks.flatMap((b) => Object.values(b)), lnfw, lnfb, head, headb];
    if (params.reduce((n, p) => n + p.size, 0) !== 42369) throw new Error("the GPT's parameters are not the lecture's 42,369");
    // The causal mask, added to the scores: −∞ where a position would see
    // the future, as masked_fill puts it.
    const future = tf.tensor2d(Array.from({ length: T * T }, (_, i) => (i % T > Math.floor(i / T) ? -Infinity : 0)), [T, T]);
    const linear = (x, W, b) => {
      const y = tf.matMul(x.reshape([-1, W.shape[1]]), W, false, true);
      return (b ? y.add(b) : y).reshape([...x.shape.slice(0, -1), W.shape[0]]);
    };
    const layerNorm = (x, g, b) => {
      const { mean, variance } = tf.moments(x, -1, true);
      return x.sub(mean).mul(variance.add(1e-5).rsqrt()).mul(g).add(b);
    };
    const heads = (x) => x.reshape([B, T, H, hs]).transpose([0, 2, 1, 3]);
    const loss = (idx, targets) => {
      let x = embed(tok, idx).add(pos);
      for (const b of blocks) {
        const h = layerNorm(x, b.ln1w, b.ln1b);
        const q = heads(linear(h, b.q)), k = heads(linear(h, b.k)), v = heads(linear(h, b.v));
        const wei = tf.softmax(tf.matMul(q, k, false, true).mul(1 / Math.sqrt(hs)).add(future));
        const att = tf.matMul(wei, v).transpose([0, 2, 1, 3]).reshape([B, T, C]);
        x = x.add(linear(att, b.proj, b.projb));
        x = x.add(linear(tf.relu(linear(layerNorm(x, b.ln2w, b.ln2b), b.fc, b.fcb)), b.out, b.outb));
      }
      const logits = linear(layerNorm(x, lnfw, lnfb), head, headb).reshape([B * T, V]);
      return tf.losses.softmaxCrossEntropy(tf.oneHot(targets.reshape([B * T]), V), logits);
    };
    // A batch of windows of a sequence with a period of 11 characters, as
    // the Go benchmark's.
    const idx = [], next = [];
    for (let b = 0; b < B; b++) {
      const s = b % 11;
      for (let t = 0; t < T; t++) {
        idx.push((s + t) % 11 * 5);
        next.push((s + t + 1) % 11 * 5);
      }
    }
    const X = tf.tensor2d(idx, [B, T], "int32"), Y = tf.tensor2d(next, [B, T], "int32");
    const opt = tf.train.adam(1e-3, 0.9, 0.999, 1e-8);
    const step = () => tf.tidy(() => {
      const { value, grads } = tf.variableGrads(() => loss(X, Y), params);
      for (const p of params) p.assign(p.mul(1 - 1e-3 * 0.01)); // AdamW's decoupled decay
      opt.applyGradients(grads);
      return value;
    });
    return (count) => timed(count, step);
  }

  globalThis.sideBySide = { product, mlp, gpt };
})();
