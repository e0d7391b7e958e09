// "Let's build GPT" in the page: tiny Shakespeare fetched on first use,
// every rung trained by Run all with its validation loss and time printed
// (each training cell is one cell, under a cell's minute), the sampled
// text; Stop during a rung's training; the LayerNorm exercise naming the
// usual mistakes.
const path = require("path");
const { test, expect, open, skipPredictions, runAll, checkSays, stopMidRun, solutionOf } = require("./helpers");

const lesson = path.join(__dirname, "..", "site", "lessons", "lets-build-gpt.md");
const rungs = ["rung-bigram", "rung-head", "rung-heads", "rung-ffwd", "rung-blocks", "rung-layernorm"];

async function seconds(page, id) {
  return Number(await page.locator(`#cell-${id}`).getAttribute("data-ms")) / 1000;
}

test("Let's build GPT: Run all trains every rung in the page to the lecture's losses, then writes; figures", async ({ page, errors }) => {
  test.setTimeout(400_000);
  const fetched = [];
  page.on("response", (r) => { if (r.url().endsWith("/data/tinyshakespeare.txt")) fetched.push(r.status()); });
  await open(page, "lessons/lets-build-gpt.html");
  await skipPredictions(page);
  const t0 = Date.now();
  await runAll(page, 360_000);
  const all = (Date.now() - t0) / 1000;
  await expect(page.locator("output.out")).not.toContainText(["✗"]);
  await expect(page.locator('section.code-cell:not([data-state="passed"])')).toHaveCount(0);
  expect(fetched).toEqual([200]);
  await expect(page.locator("#cell-data output.out")).toContainText("1115394 characters");
  await expect(page.locator("#cell-summary output.out")).toContainText("bigram: 2.51\none head: 2.41\nfour heads: 2.27\nfeed-forward: 2.25\nresidual blocks: 2.15\nLayerNorm: 2.09");
  for (const id of rungs) {
    const loss = (await page.locator(`#cell-${id} output.out`).textContent()).split("\n").find((l) => l.includes("validation loss"));
    console.log(`build-gpt: ${id}: ${(await seconds(page, id)).toFixed(1)} s in the page; ${loss}`);
  }
  console.log(`build-gpt: Run all ${all.toFixed(1)} s`);
  const sample = await page.locator("#cell-sample output.out").textContent();
  console.log(`build-gpt: the sample:\n${sample}`);
  // Lines under speakers' names in capitals, as the plays are written.
  expect(sample).toMatch(/^[A-Z][A-Z ]+:$/m);
  expect(sample.split("\n").length).toBeGreaterThan(10);
});

test("Let's build GPT: Stop ends a rung's training at once, and the next run works", async ({ page, errors }) => {
  test.setTimeout(120_000);
  await open(page, "lessons/lets-build-gpt.html");
  await skipPredictions(page);
  console.log(`build-gpt: Stop during training took ${await stopMidRun(page.locator("#cell-rung-heads"), 4)} ms to show`);
  const avg = page.locator("#cell-avg-softmax");
  await avg.getByRole("button", { name: "Run", exact: true }).click();
  await expect(avg).toHaveAttribute("data-state", "passed", { timeout: 30_000 });
  await expect(avg.locator("output.out")).toContainText("✓ all three ways give the same means");
});

test("Let's build GPT: the LayerNorm exercise names BatchNorm's axis, n − 1 and a missing gain, then passes", async ({ page, errors }) => {
  await open(page, "lessons/lets-build-gpt.html");
  const ex = page.locator("#exercise-layer-norm");
  const right = solutionOf(lesson, "layer-norm") + "\n";
  for (const [from, to, says] of [
    ["mean(-1, keepdim=True)", "mean(0, keepdim=True)", "BatchNorm's way"],
    ["(x - mu).pow(2).mean(-1, keepdim=True)", "(x - mu).pow(2).sum(-1, keepdim=True) / (x.shape[-1] - 1)", "divides the variance by n − 1"],
    [" * g + b", "", "the gain and the bias are left out"],
  ]) {
    expect(right).toContain(from);
    await checkSays(ex, right.replaceAll(from, to), says);
  }
  await checkSays(ex, right, "All tests pass");
});
