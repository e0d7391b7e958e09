// Runs off the page's thread: a cell runs in a Web Worker, prints as it
// goes, shows for how long it has run, and can be stopped at any time;
// the page keeps painting meanwhile, and a runner that dies is replaced.
const { test, expect, open, cell, typeInto, editorOf } = require("./helpers");

// A cell that prints at once, then computes for about the given seconds.
const busyFor = (s) => `print("started")
n = 0
for i in range(${s} * 1000000):
    n += 1
print("done")`;

test("a long run streams its output, counts its time, and Stop ends it while the page keeps painting", async ({ page, errors }) => {
  test.setTimeout(90_000);
  await open(page, "scratch.html");
  const c = cell(page, 1);
  await editorOf(c).fill("while True:\n    pass");
  await page.getByRole("button", { name: "Add a cell" }).click();
  const other = editorOf(cell(page, 2));
  // Let the browser finish compiling the wasm it has just loaded: in the
  // first seconds its compiler threads share this machine's two cores
  // with the page (frame gaps up to 180 ms then, none over 40 ms after).
  await page.waitForTimeout(4_000);
  // Count the frames the page paints, and the longest gap between two.
  await page.evaluate(() => {
    window.frames_ = { n: 0, last: performance.now(), gap: 0 };
    const tick = (t) => {
      window.frames_.gap = Math.max(window.frames_.gap, t - window.frames_.last);
      window.frames_.last = t;
      window.frames_.n++;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await c.getByRole("button", { name: "Run", exact: true }).click();
  await expect(c.getByRole("button", { name: "Stop", exact: true })).toBeVisible();
  await page.evaluate(() => { window.frames_.n = 0; window.frames_.gap = 0; window.frames_.last = performance.now(); });
  // The page answers while the cell runs: a learner types into another cell.
  await other.fill("print('typed while it ran')");
  await expect(other).toHaveValue("print('typed while it ran')");
  await page.waitForTimeout(10_000);
  const frames = await page.evaluate(() => window.frames_);
  await expect(c.getByRole("timer")).toHaveText(/Running… 1\d\.\d s/);
  // Stop's latency, measured in the page: from the click to the message.
  await page.evaluate(() => {
    const stop = document.querySelector("section.code-cell button.run");
    const out = document.querySelector("section.code-cell output");
    stop.addEventListener("click", () => { window.stopAt = performance.now(); }, { capture: true, once: true });
    new MutationObserver((_, o) => {
      if (out.textContent.includes("as you asked")) { window.stoppedAt = performance.now(); o.disconnect(); }
    }).observe(out, { childList: true, characterData: true, subtree: true });
  });
  await c.getByRole("button", { name: "Stop", exact: true }).click();
  await expect(c.getByRole("status")).toContainText(/stopped after 1\d\.\d s, as you asked/);
  const stopMs = await page.evaluate(() => window.stoppedAt - window.stopAt);
  console.log(`figures: during a 10 s run the page painted ${frames.n} frames, longest gap ${frames.gap.toFixed(1)} ms; Stop took ${stopMs.toFixed(1)} ms to show`);
  expect(frames.n).toBeGreaterThan(100); // a frozen page paints none
  await expect(c.getByRole("button", { name: "Run", exact: true })).toBeVisible();
  await expect(c.getByRole("timer")).toBeHidden();
  // A fresh runner answers the next run.
  await editorOf(c).fill("print(6 * 7)");
  await c.getByRole("button", { name: "Run", exact: true }).click();
  await expect(c.getByRole("status")).toHaveText("42");
});

test("printed lines show while the cell runs, and Escape stops it, even from inside the editor", async ({ page, errors }) => {
  await open(page, "scratch.html");
  const c = cell(page, 1);
  const editor = editorOf(c);
  await editor.fill(busyFor(30));
  await editor.press("Shift+Enter");
  await expect(c.getByRole("status")).toHaveText("started");
  await expect(c.getByRole("timer")).toHaveText(/Running… \d+\.\d s/);
  expect(await page.evaluate(() => document.activeElement.classList.contains("code-editor"))).toBe(true);
  await page.keyboard.press("Escape");
  await expect(c.getByRole("status")).toContainText(/started\s+cell 1\s+Error: stopped after [\d.]+ m?s, as you asked/);
  // Run again at once: the run goes to the fresh runner, not the one just
  // ended (a line printed before a long computation shows while it runs).
  await editor.press("Shift+Enter");
  await expect(c.getByRole("status")).toHaveText("started");
  await page.keyboard.press("Escape");
  await expect(c.getByRole("status")).toContainText("as you asked");
});

test("a runner that dies is replaced: the cell says why, the page stays, every edit is kept", async ({ page, errors }) => {
  test.setTimeout(120_000);
  await open(page, "scratch.html");
  await page.evaluate(() => { window.samePage = true; });
  await page.getByRole("button", { name: "Add a cell" }).click();
  await editorOf(cell(page, 2)).fill('print("kept")');
  const c = cell(page, 1);
  await editorOf(c).fill("x = [0] * 100000000\ny = x + x");
  await c.getByRole("button", { name: "Run", exact: true }).click();
  await expect(c.getByRole("status")).toContainText(/the runner stopped \(fatal error: out of memory\) and was started again/, { timeout: 100_000 });
  expect(await page.evaluate(() => window.samePage)).toBe(true);
  await expect(cell(page, 2).locator("textarea.editor")).toHaveValue('print("kept")');
  await editorOf(c).fill("x = [0] * 10");
  await cell(page, 2).getByRole("button", { name: "Run", exact: true }).click();
  await expect(cell(page, 2).getByRole("status")).toHaveText("kept");
});

test("a runner that dies of its job again and again is replaced by a fresh one each time: runs never move onto the page", async ({ page, errors }) => {
  test.setTimeout(90_000);
  // Keep the page's Worker objects, to tell the page that one died as a
  // runner out of memory does (a real one takes 20 s to die).
  await page.addInitScript(() => {
    const Base = window.Worker;
    window.workers_ = [];
    window.Worker = class extends Base {
      constructor(...args) {
        super(...args);
        window.workers_.push(this);
      }
    };
  });
  await open(page, "scratch.html");
  const c = cell(page, 1);
  await editorOf(c).fill(busyFor(30));
  for (let i = 1; i <= 5; i++) {
    await c.getByRole("button", { name: "Run", exact: true }).click();
    await expect(c.getByRole("status")).toHaveText("started");
    await page.evaluate(() => window.workers_.at(-1).onmessage({ data: { gradbook: "died", why: "fatal error: out of memory" } }));
    await expect(c.getByRole("status")).toContainText("the runner stopped (fatal error: out of memory) and was started again");
  }
  expect(await page.evaluate(() => window.workers_.length)).toBe(6);
  await expect(page.getByText("cells run on the page itself")).toHaveCount(0);
  // The sixth runner is a worker too: a run that never ends still stops.
  await editorOf(c).fill("while True:\n    pass");
  await c.getByRole("button", { name: "Run", exact: true }).click();
  await expect(c.getByRole("timer")).toHaveText(/Running… [1-9]\.\d s/);
  await c.getByRole("button", { name: "Stop", exact: true }).click();
  await expect(c.getByRole("status")).toContainText("as you asked");
});
