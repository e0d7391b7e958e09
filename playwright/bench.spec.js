// Figures, not assertions on time: the engine from JavaScript, end to end
// (arrays in, objects out), beside a micrograd-style JavaScript Value class
// and a flat-array JavaScript tape, on the same graphs in the same page.
// Run alone with: npx playwright test bench --reporter=list
const { test, expect } = require("@playwright/test");

test("engine from JavaScript vs plain JavaScript: figures", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto("engine.html");
  await page.evaluate(() => autodiff.ready);
  const r = await page.evaluate(() => {
    // Graph (a): the same MLP 2→16→16→1 over 100 points with a hinge loss
    // as engine/enginetest.MLP, about 64,000 nodes.
    function mlp(points) {
      let seed = 12345;
      const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
      const leaves = { one: 1 };
      const g = [];
      const add = (name, op, ...ins) => (g.push([name, op, ins]), name);
      const sizes = [2, 16, 16, 1];
      for (let l = 1; l < sizes.length; l++)
        for (let j = 0; j < sizes[l]; j++) {
          leaves[`b${l}_${j}`] = rand() * 2 - 1;
          for (let i = 0; i < sizes[l - 1]; i++) leaves[`w${l}_${j}_${i}`] = (rand() * 2 - 1) / 2;
        }
      let total = "";
      for (let p = 0; p < points; p++) {
        let inp = [];
        for (let i = 0; i < 2; i++) { leaves[`x${p}_${i}`] = rand() * 2 - 1; inp.push(`x${p}_${i}`); }
        leaves[`y${p}`] = rand() < 0.5 ? 1 : -1;
        for (let l = 1; l < sizes.length; l++) {
          const next = [];
          for (let j = 0; j < sizes[l]; j++) {
            let pre = `b${l}_${j}`;
            inp.forEach((x, i) => {
              const m = add(`m${p}_${l}_${j}_${i}`, "mul", `w${l}_${j}_${i}`, x);
              pre = add(`s${p}_${l}_${j}_${i}`, "add", pre, m);
            });
            if (l < sizes.length - 1) pre = add(`h${p}_${l}_${j}`, "tanh", pre);
            next.push(pre);
          }
          inp = next;
        }
        const ys = add(`ys${p}`, "mul", `y${p}`, inp[0]);
        const hinge = add(`hinge${p}`, "relu", add(`margin${p}`, "sub", "one", ys));
        total = total === "" ? hinge : add(`total${p}`, "add", total, hinge);
      }
      add("loss", "neg", add("negloss", "neg", total));
      return { g, leaves };
    }

    // A micrograd-style Value class with closures, built from the list.
    class Value {
      constructor(data, children = [], op = "") { this.data = data; this.grad = 0; this._prev = children; this._op = op; this._backward = () => {}; }
      add(o) { const out = new Value(this.data + o.data, [this, o], "add"); out._backward = () => { this.grad += out.grad; o.grad += out.grad; }; return out; }
      sub(o) { const out = new Value(this.data - o.data, [this, o], "sub"); out._backward = () => { this.grad += out.grad; o.grad -= out.grad; }; return out; }
      mul(o) { const out = new Value(this.data * o.data, [this, o], "mul"); out._backward = () => { this.grad += o.data * out.grad; o.grad += this.data * out.grad; }; return out; }
      tanh() { const t = Math.tanh(this.data); const out = new Value(t, [this], "tanh"); out._backward = () => { this.grad += (1 - t * t) * out.grad; }; return out; }
      relu() { const out = new Value(this.data > 0 ? this.data : 0, [this], "relu"); out._backward = () => { this.grad += (this.data > 0 ? 1 : 0) * out.grad; }; return out; }
      neg() { const out = new Value(-this.data, [this], "neg"); out._backward = () => { this.grad -= out.grad; }; return out; }
      backward() {
        const topo = [], visited = new Set();
        const build = (v) => { if (!visited.has(v)) { visited.add(v); for (const c of v._prev) build(c); topo.push(v); } };
        build(this);
        for (const v of topo) v.grad = 0;
        this.grad = 1;
        for (let i = topo.length - 1; i >= 0; i--) topo[i]._backward();
      }
    }
    function micrograd(g, leaves, out) {
      const v = new Map();
      for (const k in leaves) v.set(k, new Value(leaves[k]));
      for (const [name, op, ins] of g) {
        const a = v.get(ins[0]), b = v.get(ins[1]);
        v.set(name, op === "tanh" || op === "relu" || op === "neg" ? a[op]() : a[op](b));
      }
      v.get(out).backward();
      const vals = {}, grads = {};
      for (const [k, x] of v) { vals[k] = x.data; grads[k] = x.grad; }
      return { vals, grads };
    }

    // A flat-array JavaScript tape with the same API as the engine:
    // evaluate(graph, leaves) and backward(graph, values, out), each taking
    // the list, resolving names to indices and running typed arrays.
    const OP = { add: 0, sub: 1, mul: 2, tanh: 3, relu: 4, neg: 5 };
    function compile(g, known) {
      const index = new Map(), names = [];
      const slot = (k) => { let i = index.get(k); if (i === undefined) { i = names.length; index.set(k, i); names.push(k); } return i; };
      for (const k of known) slot(k);
      const n = g.length, op = new Uint8Array(n), a = new Int32Array(n), b = new Int32Array(n), self = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        const [name, o, ins] = g[i];
        op[i] = OP[o]; a[i] = slot(ins[0]); b[i] = ins.length > 1 ? slot(ins[1]) : a[i]; self[i] = slot(name);
      }
      return { index, names, n, op, a, b, self };
    }
    function tapeEvaluate(g, leaves) {
      const keys = Object.keys(leaves);
      const t = compile(g, keys);
      const v = new Float64Array(t.names.length);
      for (let i = 0; i < keys.length; i++) v[i] = leaves[keys[i]];
      const { op, a, b, self } = t;
      for (let i = 0; i < t.n; i++) {
        const x = v[a[i]], y = v[b[i]];
        let r;
        switch (op[i]) {
          case 0: r = x + y; break; case 1: r = x - y; break; case 2: r = x * y; break;
          case 3: r = Math.tanh(x); break; case 4: r = x > 0 ? x : 0; break; case 5: r = -x; break;
        }
        v[self[i]] = r;
      }
      const out = {};
      for (let i = 0; i < t.names.length; i++) out[t.names[i]] = v[i];
      return out;
    }
    function tapeBackward(g, values, out) {
      const keys = Object.keys(values);
      const t = compile(g, keys);
      const v = new Float64Array(t.names.length), gr = new Float64Array(t.names.length);
      for (let i = 0; i < keys.length; i++) v[i] = values[keys[i]];
      const { op, a, b, self } = t;
      gr[t.index.get(out)] = 1;
      for (let i = t.n - 1; i >= 0; i--) {
        const up = gr[self[i]]; if (up === 0) continue;
        switch (op[i]) {
          case 0: gr[a[i]] += up; gr[b[i]] += up; break; case 1: gr[a[i]] += up; gr[b[i]] -= up; break;
          case 2: gr[a[i]] += up * v[b[i]]; gr[b[i]] += up * v[a[i]]; break;
          case 3: { const y = v[self[i]]; gr[a[i]] += up * (1 - y * y); break; }
          case 4: gr[a[i]] += v[a[i]] > 0 ? up : 0; break; case 5: gr[a[i]] -= up; break;
        }
      }
      const res = {};
      for (let i = 0; i < keys.length; i++) res[keys[i]] = gr[i];
      return res;
    }
    function tape(g, leaves, out) {
      const vals = tapeEvaluate(g, leaves);
      return { vals, grads: tapeBackward(g, vals, out) };
    }

    function ours(g, leaves, out) {
      const vals = autodiff.evaluate(g, leaves);
      return { vals, grads: autodiff.backward(g, vals, out) };
    }

    // Median milliseconds of runs after a warm-up.
    function time(f, runs) {
      f(); f();
      const ms = [];
      for (let i = 0; i < runs; i++) { const t0 = performance.now(); f(); ms.push(performance.now() - t0); }
      ms.sort((x, y) => x - y);
      return ms[ms.length >> 1];
    }

    const { g, leaves } = mlp(100);
    const a = ours(g, leaves, "loss"), m = micrograd(g, leaves, "loss"), t = tape(g, leaves, "loss");
    let maxDiff = 0;
    for (const k in m.grads) maxDiff = Math.max(maxDiff, Math.abs(a.grads[k] - m.grads[k]), Math.abs(a.grads[k] - t.grads[k]));

    const chain = [];
    for (let i = 0; i < 1_000_000; i++) chain.push([i === 999_999 ? "out" : "t" + i, "tanh", [i === 0 ? "x" : "t" + (i - 1)]]);
    const lesson = [["p", "mul", ["a", "b"]], ["u", "add", ["p", "c"]], ["L", "sq", ["u"]]];
    const lessonLeaves = { a: 2, b: 3, c: 1 };
    const roundTrips = 2000;
    const lessonMs = time(() => { for (let i = 0; i < roundTrips; i++) ours(lesson, lessonLeaves, "L"); }, 5) / roundTrips;
    const chainResult = ours(chain, { x: 0.5 }, "out");

    return {
      nodes: g.length,
      maxDiff,
      oursMs: time(() => ours(g, leaves, "loss"), 15),
      microgradMs: time(() => micrograd(g, leaves, "loss"), 15),
      tapeMs: time(() => tape(g, leaves, "loss"), 15),
      chainMs: time(() => ours(chain, { x: 0.5 }, "out"), 3),
      chainGradX: chainResult.grads.x,
      lessonUs: lessonMs * 1000,
    };
  });
  const fig = (x) => x.toFixed(2);
  console.log(`graph (a) MLP: ${r.nodes} nodes; largest gradient difference between the three: ${r.maxDiff}`);
  console.log(`  engine via autodiff.evaluate+backward: ${fig(r.oursMs)} ms`);
  console.log(`  micrograd-style JS Value class:        ${fig(r.microgradMs)} ms  (engine takes ${fig(r.oursMs / r.microgradMs)} of its time; target ≤ 0.25)`);
  console.log(`  flat-array JS tape:                    ${fig(r.tapeMs)} ms  (engine takes ${fig(r.oursMs / r.tapeMs)} of its time; target ≤ 1)`);
  console.log(`graph (b) 1,000,000-node tanh chain, engine end to end: ${fig(r.chainMs)} ms`);
  console.log(`lesson-size graph, evaluate+backward round trip: ${fig(r.lessonUs)} µs (target < 50 µs)`);
  expect(r.nodes).toBeGreaterThan(60_000);
  expect(r.maxDiff).toBeLessThan(1e-9);
  expect(r.chainGradX).toBeGreaterThan(0);
});
