// Figures, not assertions on time: Gradbook beside TensorFlow.js 4.22 in
// one Chromium page, alternating, on the same work: matrix products
// (64³, 256³, 512×64×256), makemore's MLP step (tfjs/mlp.star) and the
// lecture-sized GPT step (tensor/gpt_test.go), against tfjs's wasm
// backend (XNNPACK, SIMD, one thread: no cross-origin isolation here) and
// its plain-JavaScript cpu backend, float32 both; Gradbook is float64.
// Each figure is per step, by differencing a short and a long run.
// Gradbook's products and MLP step run as cells in the runner, with its
// SIMD kernels; the cell language has no GPT ops yet (issue 37), so its
// GPT step runs tensor's own Go benchmark (BenchmarkGPTStep), built as
// gradbook.wasm is built, in a Web Worker of the page with the kernels
// installed: the test binary is the test-only entry. Run it alone:
//   GRADBOOK_PORT_BASE=14181 npx playwright test tfjs --workers=1
// TensorFlow.js is a devDependency, served to this page from
// node_modules by the spec itself: it is never part of the site.
const fs = require("fs");
const os = require("os");
const path = require("path");
const { execFileSync } = require("child_process");
const { test, expect, open, cell, editorOf } = require("./helpers");

const root = path.join(__dirname, "..");
const served = {
  "tf.min.js": path.join(root, "node_modules/@tensorflow/tfjs/dist/tf.min.js"),
  "tf-backend-wasm.min.js": path.join(root, "node_modules/@tensorflow/tfjs-backend-wasm/dist/tf-backend-wasm.min.js"),
  "models.js": path.join(__dirname, "tfjs/models.js"),
  "go-worker.js": path.join(__dirname, "tfjs/go-worker.js"),
};
for (const f of ["tfjs-backend-wasm.wasm", "tfjs-backend-wasm-simd.wasm", "tfjs-backend-wasm-threaded-simd.wasm"]) {
  served[f] = path.join(root, "node_modules/@tensorflow/tfjs-backend-wasm/dist", f);
}
const mlpProgram = fs.readFileSync(path.join(__dirname, "tfjs/mlp.star"), "utf8");

test.use({ bypassCSP: true });

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const range = (xs) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;

// The products: their sizes, and how many the short and the long runs take.
const products = [
  { name: "64×64 by 64×64", m: 64, k: 64, n: 64, runs: [1, 1001] },
  { name: "256×256 by 256×256", m: 256, k: 256, n: 256, runs: [1, 21] },
  { name: "512×64 by 64×256", m: 512, k: 64, n: 256, runs: [1, 41] },
];

test("side by side: matrix products, makemore's MLP step and the GPT step in Gradbook and in TensorFlow.js: figures", async ({ page, context, errors }) => {
  test.setTimeout(1_200_000);
  // tensor's tests and benchmarks, compiled as serve.go compiles
  // gradbook.wasm (inlining only in the runtime, math, the engine and the
  // tensors).
  const binary = path.join(os.tmpdir(), `gradbook-tensor-${process.pid}.test.wasm`);
  execFileSync("go", ["test", "-c", "-o", binary, "-gcflags=all=-l", "-gcflags=runtime=", "-gcflags=math=", "-gcflags=gradbook/engine=", "-gcflags=gradbook/tensor=", "./tensor/"],
    { cwd: root, env: { ...process.env, GOOS: "js", GOARCH: "wasm" }, stdio: "inherit" });
  served["tensor.test.wasm"] = binary;
  served["wasm_exec.js"] = path.join(execFileSync("go", ["env", "GOROOT"]).toString().trim(), "lib/wasm/wasm_exec.js");
  // context.route sees the workers' fetches too.
  await context.route("**/__side/**", (route) => {
    const name = new URL(route.request().url()).pathname.replace(/^.*\/__side\//, "");
    if (!served[name]) return route.fulfill({ status: 404, body: "not found" });
    route.fulfill({ path: served[name], contentType: name.endsWith(".wasm") ? "application/wasm" : "text/javascript" });
  });

  await open(page, "scratch.html");
  for (const f of ["tf.min.js", "tf-backend-wasm.min.js", "models.js"]) await page.addScriptTag({ url: `__side/${f}` });
  const versions = await page.evaluate(async () => {
    tf.wasm.setWasmPaths(new URL("__side/", location.href).href);
    await tf.setBackend("wasm");
    await tf.ready();
    return { tf: tf.version.tfjs, simd: await tf.env().getAsync("WASM_HAS_SIMD_SUPPORT"), threads: await tf.env().getAsync("WASM_HAS_MULTITHREAD_SUPPORT") };
  });

  // runMs runs the first cell with src and returns the page's time for it
  // (data-ms, from Run to the result shown).
  const runMs = async (src) => {
    const c = cell(page, 1);
    await editorOf(c).fill(src);
    await page.evaluate(() => document.querySelector("section.code-cell").removeAttribute("data-ms"));
    await c.getByRole("button", { name: "Run", exact: true }).click();
    await expect(c).toHaveAttribute("data-ms", /\d/, { timeout: 300_000 });
    await expect(c).toHaveAttribute("data-state", "passed");
    return Number(await c.getAttribute("data-ms"));
  };
  // per is the time of one run of a workload: the long run less the
  // short one, divided by the runs between them. The long runs take
  // hundreds of milliseconds more than the short ones, so that a cell's
  // own round trip, which varies by tens of milliseconds on a busy
  // machine, cannot swamp the difference (20 MLP steps could: one round
  // came out at -0.12 ms a step).
  const per = async (time, [short, long]) => {
    const a = await time(short), b = await time(long);
    return (b - a) / (long - short);
  };
  const gradbook = {
    product: (p) => per((n) => runMs(`torch.manual_seed(1)\nA = torch.randn(${p.m}, ${p.k})\nB = torch.randn(${p.k}, ${p.n})\nfor i in range(${n}):\n    P = A.matmul(B)\nprint(P.shape)`), p.runs),
    mlp: () => per((n) => runMs(`${mlpProgram}\nprint(steps(${n}))`), [1, 201]),
  };
  // tfjs times a workload on a backend in the page.
  const tfjs = (backend, what, args, runs) => page.evaluate(async ({ backend, what, args, runs }) => {
    await tf.setBackend(backend);
    await tf.ready();
    const time = sideBySide[what](...args);
    time(2); // warm up
    const a = time(runs[0]), b = time(runs[1]);
    return (b - a) / (runs[1] - runs[0]);
  }, { backend, what, args, runs });
  // goBench runs benchmarks of tensor's test binary in a worker with the
  // kernels and returns the best ns/op of each.
  const goBench = (pattern, benchtime) => page.evaluate(async ({ pattern, benchtime }) => {
    const w = new Worker("__side/go-worker.js");
    const res = await new Promise((resolve) => {
      w.onmessage = (e) => resolve(e.data);
      w.postMessage({ url: "__side/tensor.test.wasm", args: ["-test.run=^$", `-test.bench=${pattern}`, `-test.benchtime=${benchtime}`, "-test.count=3"] });
    });
    w.terminate();
    if (res.error) throw new Error(res.error);
    const best = {};
    for (const [, name, ns] of res.out.matchAll(/^(Benchmark\S+)\s+\d+\s+([\d.]+) ns\/op/gm)) best[name] = Math.min(best[name] ?? Infinity, Number(ns) / 1e6);
    if (!Object.keys(best).length) throw new Error(`no benchmark ran: ${res.out}`);
    return best;
  }, { pattern, benchtime });

  await runMs(`${mlpProgram}\nprint(steps(1))`); // the runner is up, its kernels too
  const kernels = await page.evaluate(() => globalThis.gradbookRunners.kernels);
  expect(kernels).toBe("WebAssembly SIMD kernels (f64x2)");

  const rounds = 3;
  const fig = {}; // fig[workload][side] = [ms per run, …]
  const note = (w, side, ms) => ((fig[w] ??= {})[side] ??= []).push(ms);
  for (let r = 0; r < rounds; r++) {
    for (const p of products) {
      note(p.name, "gradbook", await gradbook.product(p));
      note(p.name, "tfjs wasm", await tfjs("wasm", "product", [p.m, p.k, p.n], p.runs));
      note(p.name, "tfjs cpu", await tfjs("cpu", "product", [p.m, p.k, p.n], [1, Math.ceil(p.runs[1] / 4)]));
    }
    note("MLP step", "gradbook", await gradbook.mlp());
    note("MLP step", "tfjs wasm", await tfjs("wasm", "mlp", [], [1, 21]));
    note("MLP step", "tfjs cpu", await tfjs("cpu", "mlp", [], [1, 11]));
    const go = await goBench("^BenchmarkGPTStep$", "20x");
    note("GPT step", "gradbook", go.BenchmarkGPTStep);
    note("GPT step", "tfjs wasm", await tfjs("wasm", "gpt", [], [1, 11]));
    note("GPT step", "tfjs cpu", await tfjs("cpu", "gpt", [], [1, 4]));
  }
  // The same Go benchmarks in the worker, for what the cells add.
  const go = await goBench("^Benchmark(Matmul|MLPStep)$", "30x");

  console.log(`side by side: TensorFlow.js ${versions.tf} (wasm backend with SIMD: ${versions.simd}, threads: ${versions.threads}); Gradbook's runner: ${kernels}; ${rounds} rounds, alternating`);
  for (const [w, sides] of Object.entries(fig)) {
    const p = products.find((x) => x.name === w);
    const rate = (ms) => (p ? ` = ${(2 * p.m * p.k * p.n / ms / 1e6).toFixed(1)} GFLOP/s` : "");
    const g = median(sides.gradbook);
    const parts = Object.entries(sides).map(([side, xs]) => `${side} ${median(xs).toFixed(2)} ms (${range(xs)})${rate(median(xs))}`);
    console.log(`side by side: ${w}: ${parts.join(", ")}; Gradbook ${(g / median(sides["tfjs wasm"])).toFixed(2)}× tfjs wasm's time, ${(g / median(sides["tfjs cpu"])).toFixed(2)}× tfjs cpu's`);
  }
  console.log(`side by side: tensor's Go benchmarks in a worker of the page, with the kernels: ${Object.entries(go).map(([n, ms]) => `${n} ${ms.toFixed(2)} ms`).join(", ")}`);
  fs.rmSync(binary, { force: true });
});
