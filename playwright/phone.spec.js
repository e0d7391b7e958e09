// A learner on a phone: 390 px, fingers instead of a mouse. A tap must
// land where it was aimed (nothing moves under the finger between the
// press and the release), and nothing is wider than the screen.
const { test, expect, open, cell } = require("./helpers");

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

// tap taps the middle of target with a finger, as a phone does (touch,
// then the browser's mouse events and click), and returns what the page
// saw of it: for each event from the press to the click, where the
// target's top was and whether the event reached the target.
async function tap(page, target) {
  await target.scrollIntoViewIfNeeded();
  await target.evaluate((el) => {
    const seen = [];
    const note = (ev) => seen.push({ type: ev.type, top: Math.round(el.getBoundingClientRect().top), on: ev.composedPath().includes(el) });
    const types = ["pointerdown", "touchstart", "pointerup", "touchend", "mousedown", "mouseup", "click"];
    for (const t of types) document.addEventListener(t, note, true);
    window.__tapSeen = () => {
      for (const t of types) document.removeEventListener(t, note, true);
      return seen;
    };
  });
  const box = await target.boundingBox();
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
  return page.evaluate(() => window.__tapSeen());
}

// expectSteady asserts that the target stayed put from the press to the
// click and that the click reached it.
function expectSteady(seen) {
  expect(seen.map((s) => s.type)).toEqual(expect.arrayContaining(["pointerdown", "mousedown", "mouseup", "click"]));
  const tops = [...new Set(seen.map((s) => s.top))];
  expect(tops, `the target moved under the finger: ${JSON.stringify(seen)}`).toHaveLength(1);
  expect(seen.filter((s) => !s.on), "events that missed the target").toEqual([]);
}

test("after a cell, the first tap on the next cell's Run lands (the ninja's forward cell)", async ({ page, errors }) => {
  await open(page, "lessons/backprop-ninja.html");
  const params = cell(page, 2), forward = cell(page, 3);
  expectSteady(await tap(page, params.locator(".cm-content")));
  await expect(params.locator(".cm-content")).toBeFocused();
  expectSteady(await tap(page, params.getByRole("button", { name: "Run", exact: true })));
  await expect(params).toHaveAttribute("data-state", "passed", { timeout: 30_000 });
  expectSteady(await tap(page, params.locator(".cm-content")));
  expectSteady(await tap(page, forward.getByRole("button", { name: "Run", exact: true })));
  await expect(forward.getByRole("status")).toContainText("loss of the first batch", { timeout: 30_000 });
});

test("after typing in a cell, a tap on the quiz below it chooses the answer (fan-out)", async ({ page, errors }) => {
  await open(page, "lessons/fan-out.html");
  const nudge = page.locator("#cell-nudge");
  expectSteady(await tap(page, nudge.locator(".cm-content")));
  await expect(nudge.locator(".cm-content")).toBeFocused();
  const quiz = page.locator("#quiz-fan-out-quiz");
  const choice = quiz.getByLabel("The second slot's contribution replaced the first one's");
  expectSteady(await tap(page, choice));
  await expect(choice).toBeChecked();
  await quiz.getByRole("button", { name: "Check my answer" }).tap();
  await expect(quiz.locator(".feedback")).toContainText("Yes: 3 from the first slot plus 3 from the second make 6");
});

// cutOff lists the elements sel matches that are shown but not whole: a
// line that runs past its box, or a box past the window.
async function cutOff(page, sel) {
  return page.locator(sel).evaluateAll((els) => els.filter((el) => el.getClientRects().length).filter((el) =>
    el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
    .map((el) => `${el.tagName}.${el.className}: ${el.textContent.slice(0, 60)} (width ${el.scrollWidth}, shown ${el.clientWidth}, right ${el.getBoundingClientRect().right})`));
}

for (const [lesson, cmp] of [["backprop-ninja", true], ["neurons-and-mlp", false], ["from-values-to-tensors", true]]) {
  test(`${lesson} at 390 px after Run all, every graph table open: nothing widens the page, and every table can be read whole`, async ({ page, errors }) => {
    test.setTimeout(180_000);
    await open(page, `lessons/${lesson}.html`);
    const skips = page.getByRole("button", { name: "skip the prediction" });
    for (let n = await skips.count(); n > 0; n--) await skips.first().tap();
    await page.getByRole("button", { name: "Run all" }).tap();
    await expect(page.locator("#notebook-status")).toContainText("Ran all", { timeout: 150_000 });
    for (const summary of await page.locator("figure.drawing details > summary").all()) await summary.tap();
    if (cmp) await expect(page.locator("output.out .table").filter({ hasText: "| exact:" }).first()).toBeVisible();
    else await expect(page.locator("table.graph-table").first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), "the page scrolls sideways").toBe(0);
    expect(await cutOff(page, "table.graph-table"), "graph tables cut off").toEqual([]);
    // A printed table keeps its columns: one wider than the screen
    // scrolls sideways in its box, and a shadow at its right edge says so
    // (the box drawn without its background looks different).
    const printed = page.locator("output.out .table").filter({ hasText: "|" });
    let scrolled = 0;
    for (const table of await printed.all()) {
      const { scrolls, right } = await table.evaluate((t) => ({ scrolls: t.scrollWidth > t.clientWidth + 1, right: t.getBoundingClientRect().right }));
      expect(right, "a printed table's box is wider than the screen").toBeLessThanOrEqual(390);
      if (!scrolls) continue;
      scrolled++;
      await table.scrollIntoViewIfNeeded();
      const cued = await table.screenshot();
      await table.evaluate((t) => { t.style.background = "none"; });
      const bare = await table.screenshot();
      await table.evaluate((t) => { t.style.background = ""; });
      expect(cued.equals(bare), `no cue that ${(await table.textContent()).slice(0, 40)}… scrolls`).toBe(false);
    }
    if (cmp) expect(scrolled, "cmp's lines fit a phone: nothing to cue").toBeGreaterThan(0);
  });
}
