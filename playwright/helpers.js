// Shared helpers for the notebook specs.
const fs = require("fs");
const path = require("path");
const { test: base, expect } = require("@playwright/test");

// port gives one of the test servers' ports (playwright.config.js) as
// moved by GRADBOOK_PORT_BASE, so that two checkouts can run their specs
// side by side: port(8183) is the course page's port, 8183 when the
// variable is unset.
const portBase = Number(process.env.GRADBOOK_PORT_BASE || 8181);
function port(p) {
  return portBase + p - 8181;
}

// coursePage is a course page of its own with the README's embed example
// in it, the Gradbook site's address put in, and head in its <head> (a
// CSP, say): what a course author pastes. The README is read once.
const readme = fs.readFileSync(path.join(__dirname, "..", "README.md"), "utf8");
function coursePage(site, head = "") {
  const snippet = readme.split("## Embedding cells in a course page")[1].match(/```html\n([\s\S]*?)```/)[1]
    .replaceAll("https://example.org/gradbook/", site);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}<title>A course page</title><link rel="icon" href="data:,"></head>
<body><main><h1>Week 3</h1>
${snippet}
</main></body></html>`;
}

// expected drops from errors (the test's fixture, below) the ones a
// browser logs for what a spec makes it refuse on purpose (the probe that
// finds a host sends no CORS headers, a CSP that blocks a script), that
// match one of patterns.
function expected(errors, ...patterns) {
  const keep = errors.filter((e) => !patterns.some((p) => p.test(e)));
  errors.splice(0, errors.length, ...keep);
}

// test records, on every page of the test's browser contexts (its own,
// and any it makes with browser.newContext), console errors, uncaught
// errors, unhandled rejections and Content-Security-Policy violations (the
// last two through listeners that go into every frame before its scripts:
// crossbrowser/watch.js, the cross-engine suite's watch); each test ends
// by asserting there were none. A spec that causes one on purpose takes it
// out of errors (expected, above).
const { watch } = require("../crossbrowser/watch");
const test = base.extend({
  errors: [async ({ browser, context }, use) => {
    const errors = [];
    const listen = (p) => {
      p.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
      p.on("pageerror", (e) => errors.push(e.message));
    };
    const watchContext = async (c) => {
      await c.exposeBinding("__gradbookProblem", (_, p) => {
        // Chromium says uncaught errors and console.error itself (above).
        if (p.kind === "unhandled rejection" || p.kind === "Content-Security-Policy violation") errors.push(`${p.kind}: ${p.text}`);
      });
      await c.addInitScript(`(${watch})((p) => window.__gradbookProblem(p))`);
      for (const p of c.pages()) listen(p);
      c.on("page", listen);
    };
    await watchContext(context);
    const newContext = browser.newContext;
    browser.newContext = async function (...args) {
      const c = await newContext.apply(this, args);
      await watchContext(c);
      return c;
    };
    try {
      await use(errors);
    } finally {
      browser.newContext = newContext;
    }
    expect(errors, "console errors, uncaught errors, unhandled rejections, CSP violations").toEqual([]);
  }, { auto: true }],
});

// open goes to a notebook page and waits until its cells can run.
async function open(page, path) {
  await page.goto(path);
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
}

// reloadOffline waits until the site's service worker controls the page,
// cuts the network (service-worker fetches included) and reloads the page
// from what the service worker keeps.
async function reloadOffline(page, context) {
  await page.evaluate(async () => { await navigator.serviceWorker.ready; });
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  await context.setOffline(true);
  await context.route("**/*", (route) => route.abort("internetdisconnected"));
  await page.reload();
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
}

// skipPredictions skips every prediction still folding what follows it,
// as a learner who wants the whole lesson at once does, so that Run all
// runs every cell.
async function skipPredictions(page) {
  const skips = page.getByRole("button", { name: "skip the prediction" });
  for (let n = await skips.count(); n > 0; n--) {
    const first = skips.first();
    if (!(await first.isVisible())) break;
    await first.click();
  }
  await expect(page.locator(".after-prediction:not(.open)")).toHaveCount(0);
}

// runAll presses Run all and waits until the status line says that all
// ran. It runs every cell of a lesson, drawings and all: on CI's machine
// a lesson of a few cells has taken more than expect's default 5 s, so
// the wait fits the work (timeout, 60 s unless a lesson trains longer).
async function runAll(page, timeout = 60_000) {
  await page.getByRole("button", { name: "Run all" }).click();
  await expect(page.locator("#notebook-status")).toContainText("Ran all", { timeout });
}

// runLesson opens lessons/<slug>.html, skips its predictions and runs it
// all (runAll, with its timeout), as a learner who wants the whole lesson
// at once does, then checks that every code cell passed and no output
// says ✗. It returns how long Run all took, in ms.
async function runLesson(page, slug, timeout) {
  await open(page, `lessons/${slug}.html`);
  await skipPredictions(page);
  const t0 = Date.now();
  await runAll(page, timeout);
  const ms = Date.now() - t0;
  await expect(page.locator("output.out")).not.toContainText(["✗"]);
  await expect(page.locator('section.code-cell:not([data-state="passed"])')).toHaveCount(0);
  return ms;
}

// outputsSay checks that the output of each cell named in says (by its
// id, without "cell-") contains the text given for it.
async function outputsSay(page, says) {
  for (const [id, text] of Object.entries(says)) await expect(page.locator(`#cell-${id} output.out`), id).toContainText(text);
}

// cell returns the locator of the n-th code cell (from 1).
function cell(page, n) {
  return page.locator("section.code-cell").nth(n - 1);
}

// embedded returns the locator of the n-th cell (from 0) that a course
// page embeds, inline or by reference.
function embedded(page, n) {
  return page.locator(".gradbook-embed section.code-cell").nth(n);
}

// editorOf returns the code editor of a cell or an exercise (CodeMirror)
// as the locator of the textarea that keeps its code, so that
// toHaveValue and inputValue read the code; its fill replaces the code as
// a paste into the editor would, and press presses a key in the editor.
function editorOf(c) {
  const content = c.locator(".cm-content");
  const area = c.locator("textarea.editor");
  area.content = content;
  area.fill = async (code) => {
    await content.click();
    await content.press("ControlOrMeta+a");
    await content.press("Delete");
    if (code) await c.page().keyboard.insertText(code);
    await expect(area).toHaveValue(code);
  };
  area.press = (key) => content.press(key);
  return area;
}

// runMs runs the first cell of the page with src and returns the time
// the page says it took (data-ms, from Run to the result shown) and the
// output, which must hold no error; timeout bounds the wait for it (two
// minutes unless told).
async function runMs(page, src, timeout = 120_000) {
  const c = cell(page, 1);
  await editorOf(c).fill(src);
  await page.evaluate(() => document.querySelector("section.code-cell").removeAttribute("data-ms"));
  await c.getByRole("button", { name: "Run", exact: true }).click();
  await expect(c).toHaveAttribute("data-ms", /\d/, { timeout });
  const out = await c.locator("output.out").textContent();
  expect(out).not.toContain("Error");
  return { ms: Number(await c.getAttribute("data-ms")), out };
}

// answer gives the quiz q an answer and presses "Check my answer": given
// is the label of a choice to check (a string or a RegExp), or an object
// of the labels of number fields and what to type in each. It returns
// the quiz's feedback.
async function answer(q, given) {
  if (typeof given === "string" || given instanceof RegExp) await q.getByLabel(given).check();
  else for (const [label, value] of Object.entries(given)) await q.getByLabel(label).fill(value);
  await q.getByRole("button", { name: "Check my answer" }).click();
  return q.locator(".feedback");
}

// typeInto replaces a cell's code, as a paste would.
async function typeInto(c, code) {
  await editorOf(c).fill(code);
}

// solution is the solution of the exercise that `--- check <check>` marks
// in site/lessons/<slug>.md, as the lesson file writes it (the page never
// has it).
function solution(slug, check) {
  const md = fs.readFileSync(path.join(__dirname, "..", "site", "lessons", slug + ".md"), "utf8");
  const after = md.split(`\n--- check ${check}\n`)[1];
  if (after === undefined) throw new Error(`${slug}.md has no exercise checked by ${check}`);
  const body = after.split("\n--- solution\n")[1];
  if (body === undefined) throw new Error(`${slug}.md's ${check} exercise has no solution`);
  return body.slice(0, body.indexOf("\n```")) + "\n";
}

// checkSays puts code into the exercise ex (a locator), presses its
// Check and waits until its report says says (options: expect's, such as
// a timeout).
async function checkSays(ex, code, says, options) {
  await editorOf(ex).fill(code);
  await ex.getByRole("button", { name: "Check" }).click();
  await expect(ex.locator(".report")).toContainText(says, options);
}

// runSays presses the Run of the cell c (a locator) and waits until its
// status says says, all of it (options: expect's, such as a timeout).
async function runSays(c, says, options) {
  await c.getByRole("button", { name: "Run", exact: true }).click();
  await expect(c.getByRole("status")).toHaveText(says, options);
}

// stopMidRun runs the cell c (a locator), presses its Stop once it has
// run for at least seconds, as its timer says, and waits for the message
// that says it was stopped as asked. It returns the ms from the click to
// the message.
async function stopMidRun(c, seconds) {
  await c.getByRole("button", { name: "Run", exact: true }).click();
  await expect(c.getByRole("button", { name: "Stop" })).toBeVisible();
  await expect.poll(async () => Number((await c.getByRole("timer").textContent()).match(/[\d.]+/)?.[0] ?? 0), { timeout: 60_000 }).toBeGreaterThanOrEqual(seconds);
  const t0 = Date.now();
  await c.getByRole("button", { name: "Stop" }).click();
  await expect(c.locator("output.out")).toContainText(/stopped after .*, as you asked/, { timeout: 5_000 });
  return Date.now() - t0;
}

// solutionOf is the solution of the exercise id in a lesson file (a path),
// as the file writes it.
function solutionOf(file, id) {
  const src = fs.readFileSync(file, "utf8");
  const block = src.slice(src.indexOf("```exercise id=" + id));
  return block.slice(block.indexOf("--- solution\n") + "--- solution\n".length, block.indexOf("\n```"));
}

// goodBackward is the write-backward exercise's solution; withBackward
// puts a backward in place of the starter's.
const goodBackward = solution("reverse-accumulation", "backward");

function withBackward(starter, body) {
  return starter.replace(/def backward\(graph, values, out\):[\s\S]*?return \{\}\n/, body);
}

// The lessons in teaching order, as the index lists them.
const lessons = ["a-derivative-is-a-nudge", "chain-rule", "fan-out", "reverse-accumulation", "gradient-flow",
  "every-path", "checking-gradients", "neurons-and-mlp", "training-on-moons", "capstone-micrograd",
  "gpt-from-values", "training-a-gpt", "from-values-to-tensors", "backprop-ninja", "forward-or-reverse",
  "activations-and-gradients", "lets-build-gpt", "attention-backward"];
// The lessons whose Run all trains for seconds: gpt.spec, tensors.spec
// and buildgpt.spec run them whole, with their figures, so the
// per-lesson loops leave them out.
const long = ["gpt-from-values", "training-a-gpt", "backprop-ninja", "activations-and-gradients", "lets-build-gpt"];
// The lessons whose cells draw no graph: their figures are plots and
// heatmaps, or tensors too big to draw as the scalars they stand for.
const undrawn = ["training-a-gpt", "backprop-ninja", "activations-and-gradients", "lets-build-gpt", "attention-backward"];

// products.program is a cell of matrix products, their gradients through
// tanh and a batched product, which prints every number in full
// (Starlark prints a float's shortest exact form), and products.prints is
// what it prints in every engine, with the runner's SIMD kernels or
// without: the kernels add up each element in the plain Go loops' order
// (playwright/kernels.spec.js, crossbrowser/specs.js).
const products = {};
products.program = [
  "torch.manual_seed(36)",
  "a = torch.randn(37, 53, requires_grad=True)",
  "b = torch.randn(53, 29, requires_grad=True)",
  "loss = a.matmul(b).tanh().sum()",
  "loss.backward()",
  "print(loss.item(), a.grad.sum().item(), b.grad[5, 7].item())",
  "q = torch.randn(4, 3, 9, 8)",
  "k = torch.randn(4, 3, 8, 9)",
  "print(q.matmul(k).sum().item())",
].join("\n");
products.prints = "-17.292820746957087 84.92150754491091 -0.4575423829779649\n1.176999222541503";

module.exports = { expected, checkSays, runSays, embedded, stopMidRun, solutionOf, undrawn, skipPredictions, runAll, runLesson, outputsSay, test, expect, open, reloadOffline, cell, typeInto, editorOf, runMs, answer, solution, goodBackward, withBackward, lessons, long, port, coursePage, products };
