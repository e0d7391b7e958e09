// Figures, not assertions on time: one plain training step of micrograd's
// moons MLP and of microgpt as Gradbook cells, beside the same program text
// in Pyodide (CPython in WebAssembly) with a microgpt-style Value class,
// in one Chromium page; and trace's replay and recording. Runs alternate,
// so that a busy machine slows both sides alike. Run it alone:
//   GRADBOOK_PORT_BASE=9181 npx playwright test speed --workers=1
// Pyodide is a devDependency, served to this page from node_modules by the
// spec itself: it is never part of the site.
const fs = require("fs");
const path = require("path");
const { test, expect, open, runMs } = require("./helpers");

const bench = path.join(__dirname, "../notebook/testdata/bench");
const read = (f) => fs.readFileSync(path.join(bench, f), "utf8");
const programs = { moons: read("moons.star"), gpt: read("gpt.star") };
const prelude = read("prelude.py");
// The step each program takes, the same call on both sides.
const stepCall = { moons: "train(1)", gpt: 'train(1, "olivia")' };
const stepsCall = { moons: (n) => `train(${n})`, gpt: (n) => `train(${n}, "olivia")` };
const pyodideDir = path.join(__dirname, "../node_modules/pyodide");

test.use({ bypassCSP: true });

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const range = (xs) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;

test("speed: plain training steps in Gradbook and in Pyodide, trace replay: figures", async ({ page, context, errors }) => {
  test.setTimeout(900_000);
  // context.route sees the service worker's fetches too.
  await context.route("**/__pyodide/**", (route) => {
    const file = path.join(pyodideDir, new URL(route.request().url()).pathname.replace(/^.*\/__pyodide\//, ""));
    const type = file.endsWith(".wasm") ? "application/wasm" : file.endsWith(".json") ? "application/json"
      : file.endsWith(".zip") ? "application/zip" : "text/javascript";
    route.fulfill({ path: file, contentType: type });
  });
  await open(page, "scratch.html");
  await page.addScriptTag({ url: "__pyodide/pyodide.js" });
  const version = await page.evaluate(async ({ prelude, programs }) => {
    window.py = await loadPyodide({ indexURL: new URL("__pyodide/", location.href).href });
    py.globals.set("prelude", prelude);
    for (const [name, src] of Object.entries(programs)) {
      py.globals.set("src", src);
      py.runPython(`ns_${name} = {}\nexec(prelude, ns_${name})\nexec(src, ns_${name})`);
    }
    return py.runPython("import sys; sys.version.split()[0]");
  }, { prelude, programs });
  // pyStep times one step of a program in Python, in ms.
  const pyStep = (name) => page.evaluate(({ name, call }) => {
    const t = performance.now();
    py.runPython(`eval(${JSON.stringify(call)}, ns_${name})`);
    return performance.now() - t;
  }, { name, call: stepCall[name] });

  const rounds = 5;
  const plain = {};
  for (const name of ["moons", "gpt"]) {
    const g = [], p = [];
    await runMs(page, programs[name] + `\nprint(${stepsCall[name](1)})`); // warm up both sides
    await pyStep(name);
    for (let r = 0; r < rounds; r++) {
      // Gradbook: the cell with 3 steps less the cell with 1, halved, so
      // that the program's set-up and the end of the cell cancel out.
      const one = await runMs(page, programs[name] + `\nprint(${stepsCall[name](1)})`);
      p.push(await pyStep(name));
      const three = await runMs(page, programs[name] + `\nprint(${stepsCall[name](3)})`);
      p.push(await pyStep(name));
      g.push((three.ms - one.ms) / 2);
    }
    plain[name] = g;
    const ratio = median(g) / median(p);
    console.log(`speed: ${name}, one plain training step: Gradbook ${median(g).toFixed(0)} ms (${range(g)}), Pyodide ${version} with a microgpt-style Value ${median(p).toFixed(0)} ms (${range(p)}): ${ratio.toFixed(2)}× Pyodide's time`);
  }

  // The end of a cell whose globals keep the step's whole graph (L, about
  // 65k Values) against the same cell that lets it go: what keeping the
  // program's state, drawing the last graph and the rest cost at the end.
  const keeps = programs.moons + "\nL = loss_of(params)\nL.backward()\nprint(L.data)";
  const drops = keeps + "\nL = None";
  const kept = [];
  for (let r = 0; r < 2 * rounds - 1; r++) {
    kept.push((await runMs(page, keeps)).ms - (await runMs(page, drops)).ms);
  }
  console.log(`speed: the end of a cell whose globals hold the moons step's graph: ${median(kept).toFixed(0)} ms (${kept.map((x) => x.toFixed(0)).join(", ")}) more than the same cell without it`);

  // trace on the moons: replays alone, replays with the update, recording.
  const model = programs.moons;
  const nodes = Number((await runMs(page, model + "\nprint(trace(loss_of, params).nodes)")).out.trim().split(/\s+/)[0]);
  const replay = (n, update) => model + `\nstep = trace(loss_of, params)\nfor k in range(${n}):\n    step(params)\n` +
    (update ? "    for p in params:\n        p.data -= rate(k) * p.grad\n" : "") + "print(step.nodes)";
  const alone = [], withUpdate = [], record = [];
  const recordings = (n) => model + `\nfor k in range(${n}):\n    step = trace(loss_of, params)\nprint(step.nodes)`;
  for (let r = 0; r < rounds; r++) {
    // as for the steps: the cell that records 3 times less the one that
    // records once, halved
    record.push(((await runMs(page, recordings(3))).ms - (await runMs(page, recordings(1))).ms) / 2);
    alone.push(((await runMs(page, replay(410, false))).ms - (await runMs(page, replay(10, false))).ms) * 1e6 / (400 * nodes));
    withUpdate.push(((await runMs(page, replay(210, true))).ms - (await runMs(page, replay(10, true))).ms) * 1e6 / (200 * nodes));
  }
  console.log(`speed: trace replay on the moons (${nodes} nodes): ${median(alone).toFixed(1)} ns per node and step (${alone.map((x) => x.toFixed(1)).join(", ")}); with the update of the 337 parameters in Starlark, ${median(withUpdate).toFixed(1)} ns (${withUpdate.map((x) => x.toFixed(1)).join(", ")})`);
  console.log(`speed: recording the moons step with trace: ${median(record).toFixed(0)} ms (${range(record)}), against ${median(plain.moons).toFixed(0)} ms for a plain step`);
});
