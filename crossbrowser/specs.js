// The cross-engine smoke suite: what a learner does first, in each engine.
// Not a second copy of the Chromium specs (playwright/): one pass through
// each thing that depends on the engine — the wasm, the Web Worker runner
// and its Stop, the editor in its shadow root under real keys, IndexedDB,
// the service worker, the course page on another origin — and the figures
// each engine gives.
const fs = require("fs");
const path = require("path");
const { spawn } = require("child_process");
const { until } = require("./util");
const { coursePage, products } = require("../playwright/helpers");

const root = path.join(__dirname, "..");

const lesson = "lessons/chain-rule.html";
// How many times the last spec goes round (GRADBOOK_LOOP_ROUNDS).
const loopRounds = Number(process.env.GRADBOOK_LOOP_ROUNDS || 5);
const leaveRounds = Number(process.env.GRADBOOK_LEAVE_ROUNDS || 10);
const bench = fs.readFileSync(path.join(__dirname, "../notebook/testdata/bench/moons.star"), "utf8");

// check fails a spec with what was expected and what the page showed.
function check(ok, what) {
  if (!ok) throw new Error(what);
}

// stopLatency arms the page to time Stop: from the click on the first
// cell's Stop button to its message.
function armStopTimer() {
  const stop = document.querySelector("section.code-cell button.run");
  const out = document.querySelector("section.code-cell output");
  window.stopTimes = {};
  stop.addEventListener("click", () => { window.stopTimes.click = performance.now(); }, { capture: true, once: true });
  new MutationObserver((_, o) => {
    if (out.textContent.includes("as you asked")) { window.stopTimes.shown = performance.now(); o.disconnect(); }
  }).observe(out, { childList: true, characterData: true, subtree: true });
}

// needsPreload says why a spec that takes something away from the page
// before its scripts cannot run in an engine without preload scripts.
const needsPreload = (engine) => !engine.preload && "its WebDriver runs no script before a page's own (no preload scripts), so nothing can be taken away first";

const specs = [
  {
    name: "the console watch catches a CSP violation, an uncaught error and an unhandled rejection (so that a clean console means something)",
    async run(page) {
      await page.goto("scratch.html");
      await page.ready();
      await page.eval(() => {
        const s = document.createElement("script");
        s.textContent = "void 0"; // inline script: the page's CSP refuses it
        document.head.append(s);
        setTimeout(() => { throw new Error("deliberately uncaught"); });
        Promise.reject(new Error("deliberately unhandled"));
      });
      const want = [/Content-Security-Policy violation: script-src/, /deliberately uncaught/, /deliberately unhandled/];
      let got = [];
      await until(async () => {
        got.push(...await page.takeProblems());
        return want.every((re) => got.some((p) => re.test(`${p.kind}: ${p.text}`)));
      }, 10_000, "the watch to note all three").catch((err) => {
        throw new Error(`${err.message}; it noted ${JSON.stringify(got)}`);
      });
      // An engine may report each of them twice, from the page's watch
      // and from its own log, the second a little later: they are drained
      // here, until none has come for 1.5 s, so that none is put down to
      // the next spec (Firefox's next one failed so, now and then).
      // The engine's own log words them its own way: Firefox's says
      // "Content-Security-Policy: The page's settings blocked an inline
      // script (script-src-elem)…", not the watch's "violation: script-src".
      const echoes = [...want, /Content-Security-Policy\b.*\binline script\b.*\bscript-src/];
      for (let quiet = 0; quiet < 1500; quiet += 250) {
        await new Promise((r) => setTimeout(r, 250));
        const more = await page.takeProblems();
        const other = more.filter((p) => !echoes.some((re) => re.test(`${p.kind}: ${p.text}`)));
        if (other.length) throw new Error(`the console had more than the three: ${JSON.stringify(other)}`);
        if (more.length) quiet = -250;
      }
    },
  },
  {
    name: "a lesson opened from the index: its prediction quiz answered with the keyboard, wrong then right",
    async run(page, ctx) {
      await page.goto("index.html");
      ctx.figure("first runnable cell, cold (the index, the session's first page)", await page.ready(), "ms");
      await page.click({ css: "ol.lessons a", text: "The chain rule" });
      await page.waitFor("the lesson to open", () => location.pathname.endsWith("/lessons/chain-rule.html") && document.readyState === "complete");
      ctx.figure("first runnable cell, warm (a lesson after the index)", await page.ready(), "ms");
      const quiz = "#quiz-predict-two-branches";
      await page.click({ css: "input.answer-input", within: quiz });
      await page.type("12");
      await page.press("Enter");
      await page.see(".feedback", /the square's share alone/, { within: quiz });
      await page.press("Control+a");
      await page.type("13");
      await page.press("Enter");
      await page.see(".feedback", /^All right\./, { within: quiz });
      // The prediction made, what it folded opens.
      await page.waitFor("the fold to open", () => document.querySelector("#after-predict-two-branches").classList.contains("open"));
    },
  },
  {
    name: "Run all: every cell of the lesson runs clean, no ✗",
    async run(page) {
      await page.goto(lesson);
      await page.ready();
      for (;;) {
        const folded = await page.eval(() => document.querySelectorAll(".after-prediction:not(.open) button.skip-prediction").length);
        if (folded === 0) break;
        await page.click({ css: ".after-prediction:not(.open) button.skip-prediction" });
        await page.waitFor("the fold to open", (n) => document.querySelectorAll(".after-prediction:not(.open) button.skip-prediction").length < n, [folded]);
      }
      await page.click({ css: "#run-all" });
      const status = await page.see("#notebook-status", /Ran all \d+ cells/, { timeout: 60_000 });
      const [, all, clean] = status.match(/Ran all (\d+) cells .*: (\d+) ran clean/);
      check(all === clean && Number(all) >= 4, `Run all: ${status}`);
      const cells = await page.eval(() => [...document.querySelectorAll("section.code-cell")].map((c) => [c.id, c.dataset.state, c.querySelector("output").textContent]));
      for (const [id, state, out] of cells) {
        check(state === "passed", `${id} is ${state}: ${out}`);
        check(!out.includes("✗") && out.includes("✓"), `${id} shows ${JSON.stringify(out)}`);
      }
    },
  },
  {
    name: "a line typed into a cell runs with Shift+Enter, and is still there after a reload (IndexedDB)",
    async run(page, ctx) {
      await page.goto(lesson);
      await page.ready();
      const c = "#cell-engine";
      const line = `print("typed in", "${ctx.engine}", 6 * 7)`;
      await page.replaceCode(c, line);
      await page.press("Shift+Enter");
      await page.see("output", new RegExp(`^typed in ${ctx.engine} 42$`), { within: c });
      await page.see("#save-status", /^Saved\.$/);
      await page.reload();
      await page.ready();
      check(await page.code(c) === line, `after the reload the cell holds ${JSON.stringify(await page.code(c))}`);
    },
  },
  {
    name: "an exercise passes with Check after its line is rewritten with the keyboard",
    async run(page) {
      await page.goto(lesson);
      await page.ready();
      const ex = "#exercise-grads-by-hand";
      await page.editor(ex);
      // Line 3 is "    return (0.0, 0.0)": select it after its indentation
      // and type the answer (Enter keeps the indentation; brackets close
      // themselves and typing the closing one steps over it).
      await page.press("Control+Home");
      await page.press("ArrowDown");
      await page.press("ArrowDown");
      await page.press("End");
      await page.press("Shift+Home");
      await page.type("r = w * x + b - y\nreturn (r * x, r)");
      const code = await page.code(ex);
      check(code.includes("    r = w * x + b - y\n    return (r * x, r)\n"), `the exercise holds ${JSON.stringify(code)}`);
      await page.click({ css: "button.check", within: ex });
      await page.see(".report", /All tests pass/, { within: ex });
    },
  },
  {
    name: "a runaway loop is stopped with Stop, and the next run works",
    async run(page, ctx) {
      await page.goto("scratch.html");
      await page.ready();
      const c = "#cell-scratch-1";
      await page.replaceCode(c, "while True:\n    pass", "while True:\npass");
      await page.click({ css: "button.run", within: c });
      await page.see('[role="timer"]', /Running… [1-9]\.\d s/, { within: c });
      await page.eval(armStopTimer);
      await page.click({ css: "button.run", text: "Stop", within: c });
      await page.see("output", /stopped after [\d.]+ m?s, as you asked/, { within: c });
      const t = await page.eval(() => window.stopTimes);
      ctx.figure("Stop, from the click to its message", t.shown - t.click, "ms");
      await page.replaceCode(c, "print(6 * 7)");
      await page.press("Shift+Enter");
      await page.see("output", /^42$/, { within: c });
    },
  },
  {
    name: "matrix products run in the runner's WebAssembly SIMD kernels, and print Chromium's numbers to the last digit",
    timeout: 150_000, // WebKit types the timing cell key by key, six times
    async run(page, ctx) {
      const setup = "\nA = torch.randn(256, 256)\nB = torch.randn(256, 256)";
      // ?kernels: another address than the last spec's scratch page, so
      // that the browser loads the page (a change of the fragment alone
      // would not) and it shows the shared code.
      await page.goto(`scratch.html?kernels#share=scratch-1:${Buffer.from(products.program + setup).toString("base64url")}`);
      await page.ready();
      await page.click({ css: "button.keep-shared" });
      const c = "#cell-scratch-1";
      await page.click({ css: "button.run", within: c });
      const last = products.prints.split("\n").pop();
      await page.see("output", new RegExp(last.replace(/[.-]/g, "\\$&")), { within: c });
      const out = (await page.text("output", c)).trim();
      check(out === products.prints, `the products printed ${JSON.stringify(out)}, not ${JSON.stringify(products.prints)}`);
      const kernels = await page.eval(() => globalThis.gradbookRunners.kernels);
      check(kernels === "WebAssembly SIMD kernels (f64x2)", `the runner says its products run in: ${kernels}`);
      // A 256×256 product's time: a cell of 11 products less one of 1.
      await page.click({ css: "#add-cell" });
      const c2 = "#cell-scratch-2";
      await page.waitFor("the second cell", (c) => Boolean(document.querySelector(c)), [c2]);
      const ms = async (n) => {
        await page.replaceCode(c2, `P = [A.matmul(B) for i in range(${n})]`);
        await page.eval((c) => document.querySelector(c).removeAttribute("data-ms"), c2);
        await page.press("Shift+Enter");
        return Number(await page.waitFor("the products", (c) => document.querySelector(c).getAttribute("data-ms"), [c2], 60_000));
      };
      await ms(1);
      const per = [];
      for (let r = 0; r < 3; r++) per.push((await ms(11) - await ms(1)) / 10);
      ctx.figure("a 256×256 by 256×256 product in a cell, with the kernels (median of 3)", [...per].sort((x, y) => x - y)[1], "ms");
    },
  },
  {
    name: "a runner that dies of memory is replaced, the page stays, and the next run works",
    timeout: 150_000,
    async run(page) {
      await page.goto("scratch.html");
      await page.ready();
      await page.eval(() => { window.samePage = true; });
      const c = "#cell-scratch-1";
      await page.replaceCode(c, "x = [0] * 100000000\ny = x + x");
      await page.click({ css: "button.run", within: c });
      await page.see("output", /the runner stopped \(.*\) and was started again/, { within: c, timeout: 120_000 });
      check(await page.eval(() => window.samePage === true), "the page was reloaded");
      await page.replaceCode(c, "print('after', 6 * 7)");
      await page.press("Shift+Enter");
      await page.see("output", /^after 42$/, { within: c });
    },
  },
  {
    name: "offline after a first visit: with its host gone, the lesson reloads from the service worker and its cells run",
    async run(page, ctx) {
      const port = ctx.port(ctx.engine === "webkit" ? 8190 : 8191);
      const site = `http://127.0.0.1:${port}/site/`;
      const host = spawn(process.execPath, ["playwright/static-server.js", "playwright/.export", String(port), "/site/"], { cwd: root, stdio: "ignore" });
      const answers = () => fetch(site + "index.html").then((r) => r.ok, () => false);
      try {
        await until(answers, 10_000, "the host to answer");
        await page.goto(site + lesson);
        await page.ready();
        const how = await page.eval(() => ("serviceWorker" in navigator ? "yes" : "no service worker in this engine"));
        check(how === "yes", how);
        await page.waitFor("the service worker to control the page", () => Boolean(navigator.serviceWorker.controller), [], 60_000);
        host.kill();
        await until(async () => !(await answers()), 10_000, "the host to be gone");
        await page.reload();
        await page.ready();
        const c = "#cell-engine";
        await page.replaceCode(c, 'print("offline", 6 * 7)');
        await page.press("Shift+Enter");
        await page.see("output", /^offline 42$/, { within: c });
      } finally {
        host.kill();
      }
    },
  },
  ...["a host that sends CORS headers", "a host that sends none"].map((kind) => ({
    name: `an embedded cell runs on a course page of another origin, the Gradbook files on ${kind}`,
    // Without CORS headers, embed.js's first request (a HEAD of cells.json,
    // to learn that the host sends none) is refused, and Firefox says so
    // in the console as an error (the README says the console shows it).
    expected: kind.includes("none") ? [/^error in the console: Cross-Origin Request Blocked: .* at http:\/\/127\.0\.0\.1:\d+\/gradbook\/cells\.json\. \(Reason: CORS header ‘Access-Control-Allow-Origin’ missing\)/] : [],
    async run(page, ctx) {
      const cors = !kind.includes("none");
      const site = cors ? `http://127.0.0.1:${ctx.port(8182)}/courses/gradbook/` : `http://127.0.0.1:${ctx.port(8188)}/gradbook/`;
      const file = `crossbrowser-${ctx.engine}-${cors ? "cors" : "none"}.html`;
      fs.mkdirSync(path.join(root, "playwright/.courses"), { recursive: true });
      fs.writeFileSync(path.join(root, "playwright/.courses", file), coursePage(site));
      await page.goto(`http://127.0.0.1:${ctx.port(8189)}/${file}`);
      await page.ready();
      const frames = await page.eval(() => document.querySelectorAll('iframe[src$="proxy.html"]').length);
      check(frames === (cors ? 0 : 1), `${frames} proxy frames`);
      await page.click({ css: ".gradbook-embed section.code-cell button.run", text: "Run", exact: true });
      await page.see(".gradbook-embed section.code-cell output", /^dy\/dx = 6\.0$/);
      await page.click({ css: ".gradbook-embed section.code-cell button.run", text: "Run", exact: true, nth: 1 });
      await page.waitFor("the lesson cell's output", () => /loss 8\.0 {2}dL\/dw 24\.0/.test(document.querySelectorAll(".gradbook-embed section.code-cell output")[1].textContent));
    },
  })),
  {
    name: "where the engine lacks constructed style sheets, IndexedDB and Web Workers, the page says so, and its cells run in plain text boxes on the page",
    cannot: needsPreload,
    async run(page) {
      const undo = await page.engine.preload(() => {
        delete ShadowRoot.prototype.adoptedStyleSheets;
        delete Document.prototype.adoptedStyleSheets;
        delete window.indexedDB; // an attribute of the global object itself
        delete Window.prototype.indexedDB;
        delete window.Worker;
      });
      try {
        await page.goto(lesson);
        await page.ready();
        const c = "#cell-engine";
        check(await page.eval((c) => !document.querySelector(`${c} .code-editor`), c), "the cell has CodeMirror");
        await page.click({ css: "textarea.editor", within: c });
        await page.press("Control+a");
        await page.type('print("plain", 6 * 7)');
        await page.press("Shift+Enter");
        await page.see("output", /^plain 42$/, { within: c });
        const notices = await page.see("#notices", /constructed style sheets/);
        for (const want of [/lacks constructed style sheets, which the code editor needs here: cells are plain text boxes/,
          /Your progress will not be kept: /, /Cells run on the page itself here, since no worker could start \(this browser has no Web Workers\)/]) {
          check(want.test(notices), `the notices say ${JSON.stringify(notices)}, not ${want}`);
        }
      } finally {
        await undo();
      }
    },
  },
  {
    name: "without WebAssembly the lesson stays readable and says why its cells cannot run",
    cannot: needsPreload,
    async run(page) {
      const undo = await page.engine.preload(() => { delete globalThis.WebAssembly; });
      try {
        await page.goto(lesson);
        await page.waitFor("the notebook to give up", () => document.body.dataset.notebook === "failed");
        await page.see("#notebook-status", /^The notebook could not start \(this browser runs no WebAssembly here, which the cells need \(on an iPhone or iPad, Lockdown Mode turns it off\)\)\. The lesson is still readable/);
      } finally {
        await undo();
      }
    },
  },
  {
    name: "figures: micrograd's moons training step, plain and traced",
    timeout: 240_000,
    async run(page, ctx) {
      // The benchmark's program in the first cell, through a share link
      // (66 lines: typing them key by key would time the typing), and a
      // traced training loop beside the plain one.
      const traced = `

def traced(steps):
    step = trace(loss_of, params)
    L = 0.0
    for k in range(steps):
        L = step(params)
        for p in params:
            p.data -= rate(k) * p.grad
    return L
`;
      const code = Buffer.from(bench + traced).toString("base64url");
      await page.goto(`scratch.html?figures#share=scratch-1:${code}`);
      await page.ready();
      await page.click({ css: "button.keep-shared" });
      await page.click({ css: "#add-cell" });
      const c = "#cell-scratch-2";
      await page.waitFor("the second cell", (c) => Boolean(document.querySelector(`${c} .cm-content`) || document.querySelector(c)?.querySelector("textarea")), [c]);
      // ms runs the second cell with call and returns the page's time for
      // the run (data-ms: from Run to the result shown).
      const ms = async (call) => {
        await page.replaceCode(c, `print(${call})`);
        await page.eval((c) => document.querySelector(c).removeAttribute("data-ms"), c);
        await page.press("Shift+Enter");
        const t = await page.waitFor(`${call} to run`, (c) => document.querySelector(c).getAttribute("data-ms"), [c], 120_000);
        const out = await page.text("output", c);
        check(/^\d+\.\d+/.test(out.trim()), `${call} printed ${JSON.stringify(out)}`);
        return Number(t);
      };
      await ms("train(1)"); // the program's cell runs once, and is kept
      const plain = [], tr = [];
      for (let r = 0; r < 3; r++) {
        plain.push((await ms("train(3)") - await ms("train(1)")) / 2);
        tr.push((await ms("traced(21)") - await ms("traced(1)")) / 20);
      }
      const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
      ctx.figure("moons training step, plain (median of 3)", med(plain), "ms");
      ctx.figure("moons training step, traced: replay and update (median of 3)", med(tr), "ms");
    },
  },
  {
    name: "a lesson left just after a run: the next page is ready at once, its progress kept (WebKit froze the save in its back/forward cache, and the next page waited a minute)",
    timeout: 30_000 + 15_000 * leaveRounds,
    async run(page) {
      for (let i = 1; i <= leaveRounds; i++) {
        await page.goto(`${lesson}?leave=${i}`);
        const at = await page.ready(15_000).catch((err) => { throw new Error(`round ${i}: ${err.message}`); });
        const saving = await page.eval(() => document.getElementById("save-status").textContent);
        check(!/^Not saved/.test(saving) && !/not being saved/.test(saving), `round ${i}: the page says ${JSON.stringify(saving)}`);
        check(at < 10_000, `round ${i}: the notebook took ${at} ms to be ready`);
        // Every cell runs (and saves), and the page is left a moment
        // later, while the saves are still under way.
        await page.eval(async (wait) => {
          for (const b of document.querySelectorAll("section.code-cell button.run")) b.click();
          await new Promise((r) => setTimeout(r, wait));
        }, [0, 10, 30, 60, 100][i % 5]);
      }
    },
  },
  {
    name: "the page stays through runs, reloads and Stops, again and again (WebKit once lost it just after a run)",
    timeout: 30_000 + 30_000 * loopRounds,
    async run(page, ctx) {
      const rounds = loopRounds;
      for (let i = 1; i <= rounds; i++) {
        await page.goto(`${lesson}?round=${i}`);
        await page.ready();
        const c = "#cell-by-hand";
        await page.click({ css: "button.run", within: c });
        await page.see("output", /✓/, { within: c });
        await page.replaceCode("#cell-engine", `print("round", ${i})`);
        await page.press("Shift+Enter");
        await page.see("output", new RegExp(`^round ${i}$`), { within: "#cell-engine" });
        await page.see("#save-status", /^Saved\.$/);
        await page.reload();
        await page.ready();
        check(await page.code("#cell-engine") === `print("round", ${i})`, "the edit was not kept");
        await page.goto(`scratch.html?round=${i}`);
        await page.ready();
        const s = "#cell-scratch-1";
        await page.replaceCode(s, "while True:\n    pass", "while True:\npass");
        await page.press("Shift+Enter");
        await page.see('[role="timer"]', /Running… \d+\.\d s/, { within: s });
        await page.click({ css: "button.run", text: "Stop", within: s });
        await page.see("output", /as you asked/, { within: s });
        ctx.log(`round ${i} of ${rounds}`);
      }
    },
  },
];

module.exports = { specs };
