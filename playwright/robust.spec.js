// Robustness: no cell, file, link or deploy can break a learner's
// notebook or lose their work. Each test reproduces a finding and shows
// that it is fixed.
const fs = require("fs");
const { test, expect, open, cell } = require("./helpers");

// importRecords imports a progress file holding records, from the panel of
// the page that is open, and waits for the page to reload after it.
async function importRecords(page, info, records, name = "import.json") {
  const file = info.outputPath(name);
  fs.writeFileSync(file, JSON.stringify({ gradbook: "progress", version: 2, records }));
  await page.locator("#progress-panel summary").click();
  await Promise.all([page.waitForEvent("load"), page.locator("#import-progress").setInputFiles(file)]);
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
}

test("stored strings never become selectors: a quiz answer and a visit with quotes and brackets", async ({ page, errors }, info) => {
  await open(page, "index.html");
  const now = Date.now();
  await importRecords(page, info, [
    { v: 2, kind: "quiz", lesson: "02-reverse-accumulation", id: "x-plus-x", answer: '2"]', passed: false, updated: now },
    { v: 2, kind: "visit", lesson: 'nope"]', id: "last", anchor: 'x"]', updated: now + 1 },
  ]);
  // The index starts, and offers no way back to a lesson it does not list.
  await expect(page.locator("li[data-lesson] .completion").first()).toContainText("done");
  await expect(page.locator("#continue")).toBeHidden();
  // Lesson 02 starts: Run all, the quiz and the panel work.
  await open(page, "lessons/02-reverse-accumulation.html");
  await page.getByRole("button", { name: "Run all" }).click();
  await expect(cell(page, 1)).toHaveAttribute("data-state", "passed");
  const quiz = page.locator("#quiz-x-plus-x");
  await quiz.getByLabel(/^Two:/).check();
  await quiz.getByRole("button", { name: "Check my answer" }).click();
  await expect(quiz.locator(".feedback")).toContainText("Right.");
  await page.locator("#progress-panel summary").click();
  await expect(page.getByRole("button", { name: "Export progress" })).toBeEnabled();
});

test("the JavaScript API takes __proto__ and constructor as ordinary names", async ({ page, errors }) => {
  await page.goto("engine.html");
  const r = await page.evaluate(async () => {
    await autodiff.ready;
    const g = [["__proto__", "mul", ["constructor", "b"]], ["toString", "neg", ["__proto__"]]];
    const leaves = JSON.parse('{"constructor": 2, "b": 3}');
    const vals = autodiff.evaluate(g, leaves);
    const grads = autodiff.backward(g, vals, "toString");
    const own = (o) => Object.keys(o).map((k) => [k, o[k]]);
    return { vals: own(vals), grads: own(grads), proto: Object.getPrototypeOf(vals) === null };
  });
  expect(r.vals).toEqual([["constructor", 2], ["b", 3], ["__proto__", 6], ["toString", -6]]);
  expect(r.grads).toEqual([["constructor", -3], ["b", -2], ["__proto__", -1], ["toString", 1]]);
  expect(r.proto).toBe(true);
});
