// The GPT lessons in the page: both run whole with every check passing,
// the training cell takes its 1,000 traced steps (figures printed, not
// asserted on time), Stop ends the training at once, and sampled names
// come out. Figures: the training cell's time, steps per second, Run all
// of each lesson, the page's longest frame gap while it trains.
const { test, expect, open, skipPredictions, runAll, runLesson, stopMidRun } = require("./helpers");

test("the GPT lessons: Run all passes every check; 1,000 traced steps train in the page; figures", async ({ page, errors }) => {
  test.setTimeout(240_000);
  const first = await runLesson(page, "gpt-from-values", 90_000);
  await expect(page.locator("#cell-bigram output.out")).toContainText("the bigram model's loss: 2.4546");
  await expect(page.locator("#cell-untrained-attention svg.heatmap")).toHaveCount(1);

  await open(page, "lessons/training-a-gpt.html");
  // The page keeps painting while the training runs in its worker.
  await page.evaluate(() => {
    window.gaps = [];
    let last = performance.now();
    const tick = (t) => { window.gaps.push(t - last); last = t; window.raf = requestAnimationFrame(tick); };
    window.raf = requestAnimationFrame(tick);
  });
  await skipPredictions(page);
  const t0 = Date.now();
  await runAll(page, 180_000);
  const second = Date.now() - t0;
  const gap = await page.evaluate(() => { cancelAnimationFrame(window.raf); return Math.max(...window.gaps); });
  await expect(page.locator("output.out")).not.toContainText(["✗"]);
  await expect(page.locator('section.code-cell:not([data-state="passed"])')).toHaveCount(0);
  const train = page.locator("#cell-train");
  await expect(train.locator("output.out")).toContainText("mean of the last 100: 2.3315");
  await expect(train.locator("output.out")).toContainText("13 tapes of the loss");
  const ms = Number(await train.getAttribute("data-ms"));
  const out = await page.locator("#cell-sample output.out").textContent();
  const names = out.split("\n")[0].trim().split(" ");
  expect(names).toHaveLength(20);
  for (const n of names) expect(n).toMatch(/^[a-z]{2,15}$/);
  console.log(`gpt: the training cell, 1,000 traced steps with 13 recordings: ${(ms / 1000).toFixed(1)} s in the page (${(1000 / (ms / 1000)).toFixed(0)} steps/s); Run all ${(first / 1000).toFixed(1)} s and ${(second / 1000).toFixed(1)} s for the two lessons; longest frame gap while training ${gap.toFixed(0)} ms`);
  console.log(`gpt: sampled names: ${names.join(" ")}`);
});

test("Stop ends the GPT's training at once, and the next run works", async ({ page, errors }) => {
  test.setTimeout(120_000);
  await open(page, "lessons/training-a-gpt.html");
  await skipPredictions(page);
  const train = page.locator("#cell-train");
  console.log(`gpt: Stop during training took ${await stopMidRun(train, 1.5)} ms to show`);
  const c = page.locator("#cell-cross-entropy");
  await c.getByRole("button", { name: "Run", exact: true }).click();
  await expect(c.locator("output.out")).toContainText("p minus the one-hot answer");
});
