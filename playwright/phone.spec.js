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
