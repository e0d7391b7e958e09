// Figures for training in the page: Starlark per Value op, 100 traced
// steps of micrograd's moons network, a 50×50 decision boundary, and the
// plot cell of the training lesson run again under its training cell.
const fs = require("fs");
const path = require("path");
const { test, expect, open, cell, runMs } = require("./helpers");

const model = fs.readFileSync(path.join(__dirname, "../notebook/testdata/moons.star"), "utf8");

// best of n runs.
async function best(page, src, n = 3) {
  let r = null;
  for (let i = 0; i < n; i++) {
    const t = await runMs(page, src, 60_000);
    if (!r || t.ms < r.ms) r = t;
  }
  return r;
}

test("figures: training micrograd's moons network in the page", async ({ page, errors }) => {
  test.setTimeout(240_000);
  await open(page, "scratch.html");
  const base = await best(page, model + "\nprint(trace(loss_of, params).nodes)");
  const nodes = Number(base.out.trim().split(/\s+/)[0]);
  const built = await best(page, model);
  const oneStep = await best(page, model + "\nL = loss_of(params)\nL.backward()");
  const stepMs = oneStep.ms - built.ms;
  console.log(`figures: one forward+backward built by Starlark: ${stepMs.toFixed(0)} ms for ${nodes} values, ${(stepMs * 1e6 / nodes).toFixed(0)} ns per Value op in the page`);
  const traced = await best(page, model + "\nprint(train(100)[-1])");
  const trainMs = traced.ms - built.ms;
  console.log(`figures: 100 traced steps including the recording: ${trainMs.toFixed(0)} ms in the page (${(trainMs * 1e6 / (100 * nodes)).toFixed(1)} ns per node and step, recording included)`);
  expect(Number(traced.out.trim())).toBeLessThan(0.05);
  const scoreSrc = model + "\nscore = trace(lambda xy: forward(model, xy), [Value(0.0), Value(0.0)])";
  const scored = await best(page, scoreSrc);
  const drawn = await best(page, scoreSrc + "\nboundary(score, X, y, steps=50)");
  await expect(cell(page, 1).locator("figure.plot svg.plot")).toBeVisible();
  console.log(`figures: a 50×50 decision boundary through the traced score: ${(drawn.ms - scored.ms).toFixed(0)} ms`);
});

test("figures: the plot cell of the training lesson, run again", async ({ page, errors }) => {
  test.setTimeout(120_000);
  await open(page, "lessons/training-on-moons.html");
  const c = page.locator("#cell-boundary");
  const times = [];
  for (let i = 0; i < 3; i++) {
    await page.evaluate(() => document.querySelector("#cell-boundary").removeAttribute("data-ms"));
    await c.getByRole("button", { name: "Run", exact: true }).click();
    await expect(c).toHaveAttribute("data-ms", /\d/, { timeout: 60_000 });
    times.push(Number(await c.getAttribute("data-ms")));
  }
  console.log(`figures: the boundary cell under the training cell: ${times.map((t) => t.toFixed(0)).join(", ")} ms (first run, then again with nothing above changed)`);
});
