// Progress that lasts: IndexedDB through go-indexeddb.
const fs = require("fs");
const { test, expect, open, cell, typeInto, goodBackward, withBackward, editorOf } = require("./helpers");

const L1 = "lessons/chain-rule.html";
const L2 = "lessons/reverse-accumulation.html";

// saved waits until the page says its last change was saved.
async function saved(page) {
  await expect(page.locator("#save-status")).toHaveText("Saved.");
}

// work does some of everything on lesson 2 and lesson 1.
async function work(page) {
  await open(page, L2);
  const c = page.locator("#cell-worked");
  await typeInto(c, 'print("my version")');
  await c.getByRole("button", { name: "Run", exact: true }).click();
  await expect(c.getByRole("status")).toHaveText("my version");
  await saved(page);
  const g1 = page.locator("#explore-linear-loss");
  for (const [n, v] of Object.entries({ w: 2, x: 2, b: 1, y: 5 })) await g1.getByRole("spinbutton", { name: `${n}, exact value` }).fill(String(v));
  await expect(g1.locator('li.task[data-task="loss-zero"]')).toHaveClass(/done/);
  await saved(page);
  const q = page.locator("#quiz-x-plus-x");
  await q.getByLabel("Two: each use").check();
  await q.getByRole("button", { name: "Check my answer" }).click();
  await saved(page);
  const ex = page.locator("#exercise-write-backward");
  const editor = editorOf(ex);
  await editor.fill(withBackward(await editor.inputValue(), goodBackward));
  await ex.getByRole("button", { name: "Check" }).click();
  await expect(ex.locator(".report")).toContainText("All tests pass");
  await saved(page);
}

// restored checks that the work above is all back.
async function restored(page) {
  await open(page, L2);
  await expect(page.locator("#cell-worked").locator("textarea.editor")).toHaveValue('print("my version")');
  await expect(page.locator("#cell-worked")).toHaveAttribute("data-state", "passed");
  await expect(page.locator('#explore-linear-loss li.task[data-task="loss-zero"]')).toHaveClass(/done/);
  await expect(page.locator("#quiz-x-plus-x").getByLabel("Two: each use")).toBeChecked();
  await expect(page.locator("#quiz-x-plus-x .feedback")).toContainText("Right.");
  await expect(page.locator("#exercise-write-backward")).toHaveAttribute("data-state", "passed");
  await expect(page.locator("#exercise-write-backward").locator("textarea.editor")).toHaveValue(/grads\[i\] \+= grads\[name\] \* d/);
}

test("edit, run, tick, answer, pass; reload: all restored; the index shows it", async ({ page, errors }) => {
  await work(page);
  await page.reload();
  await restored(page);
  await page.goto("index.html");
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready");
  const li = page.locator('li[data-lesson="reverse-accumulation"]');
  await expect(li.locator(".completion")).toHaveText(/^[1-9]\d* of \d+ done$/);
  await expect(page.locator("#continue")).toContainText("Continue where you left off");
  await expect(page.locator("#continue a")).toHaveAttribute("href", /reverse-accumulation\.html#cell-worked/);
});

test("a new browser context from the same storage state: restored", async ({ page, browser, errors }) => {
  await work(page);
  const state = await page.context().storageState({ indexedDB: true });
  const other = await browser.newContext({ storageState: state });
  const p2 = await other.newPage();
  await restored(p2);
  await other.close();
});

test("export, reset everything, import: restored; a bad file is refused and changes nothing", async ({ page, errors }, info) => {
  await work(page);
  await page.locator("#progress-panel summary").click();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export progress" }).click()]);
  const file = info.outputPath("progress.json");
  await download.saveAs(file);
  expect(JSON.parse(fs.readFileSync(file, "utf8")).gradbook).toBe("progress");

  await page.getByRole("button", { name: "Reset everything" }).click();
  await page.getByRole("button", { name: "Reset everything" }).last().click();
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready");
  await expect(page.locator("#notices")).toContainText("All your progress is reset.");
  await expect(page.locator("#cell-worked").locator("textarea.editor")).not.toHaveValue('print("my version")');

  // A bad file first: refused, nothing changes.
  const bad = info.outputPath("bad.json");
  fs.writeFileSync(bad, '{"something": "else"}');
  await page.locator("#progress-panel summary").click();
  await page.locator("#import-progress").setInputFiles(bad);
  await expect(page.locator("#notices")).toContainText("this file cannot be imported: it is not a Gradbook progress file. Nothing was changed.");
  await page.reload();
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready");
  await expect(page.locator("#cell-worked").locator("textarea.editor")).not.toHaveValue('print("my version")');

  await page.locator("#progress-panel summary").click();
  await page.locator("#import-progress").setInputFiles(file);
  await expect(page.locator("#notices")).toContainText(/Imported \d+ records of progress/);
  await restored(page);
});

test("resetting a lesson asks first and keeps other lessons", async ({ page, errors }) => {
  await open(page, L1);
  await typeInto(page.locator("#cell-engine"), "print('lesson one')");
  await saved(page);
  await work(page);
  await page.locator("#progress-panel summary").click();
  await page.getByRole("button", { name: "Reset this lesson" }).click();
  await page.getByRole("button", { name: "Cancel" }).click();
  await page.reload();
  await restored(page);
  await page.locator("#progress-panel summary").click();
  await page.getByRole("button", { name: "Reset this lesson" }).click();
  await page.getByRole("button", { name: "Reset the lesson" }).click();
  await expect(page.locator("#notices")).toContainText("This lesson is reset.");
  await expect(page.locator("#cell-worked").locator("textarea.editor")).not.toHaveValue('print("my version")');
  await open(page, L1);
  await expect(page.locator("#cell-engine").locator("textarea.editor")).toHaveValue("print('lesson one')");
  // A cell's Reset asks before throwing the learner's code away.
  await page.locator("#cell-engine").getByRole("button", { name: "Reset" }).click();
  await page.getByRole("button", { name: "Keep my code" }).click();
  await expect(page.locator("#cell-engine").locator("textarea.editor")).toHaveValue("print('lesson one')");
  await page.locator("#cell-engine").getByRole("button", { name: "Reset" }).click();
  await page.getByRole("button", { name: "Reset the cell" }).click();
  await expect(page.locator("#cell-engine").locator("textarea.editor")).toHaveValue(/Value\(2.0, "x"\)/);
  await saved(page);
  await page.reload();
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready");
  await expect(page.locator("#cell-engine").locator("textarea.editor")).toHaveValue(/Value\(2.0, "x"\)/);
});

test("without IndexedDB: a notice, and the cells still work", async ({ page, errors }) => {
  await page.addInitScript(() => { delete window.indexedDB; Object.defineProperty(window, "indexedDB", { value: undefined }); });
  await open(page, L1);
  await expect(page.locator("#notices")).toContainText("Your progress will not be kept");
  const c = page.locator("#cell-engine");
  await c.getByRole("button", { name: "Run", exact: true }).click();
  await expect(c.getByRole("status")).toContainText("dL/dw = -6.0");
  await expect(page.locator("#save-status")).toContainText("Not saved");
});

test("storage full: a notice, and nothing already saved is lost", async ({ page, errors }) => {
  await open(page, L1);
  await typeInto(page.locator("#cell-engine"), "print('kept')");
  await saved(page);
  await page.addInitScript(() => {
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function () { throw new DOMException("The quota has been exceeded.", "QuotaExceededError"); };
  });
  await page.reload();
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready");
  await expect(page.locator("#cell-engine").locator("textarea.editor")).toHaveValue("print('kept')");
  await typeInto(page.locator("#cell-engine"), "print('too much')");
  await expect(page.locator("#notices")).toContainText("storage for this site is full");
  await expect(page.locator("#save-status")).toHaveText("Not saved.");
});

test("two pages writing at once: both kept", async ({ page, context, errors }) => {
  const other = await context.newPage();
  await open(page, L1);
  await open(other, L1);
  await Promise.all([
    typeInto(page.locator("#cell-engine"), "print('from one')"),
    typeInto(other.locator("#cell-by-hand"), "print('from two')"),
  ]);
  await Promise.all([saved(page), saved(other)]);
  await Promise.all([
    page.locator("#cell-engine").getByRole("button", { name: "Run", exact: true }).click(),
    other.locator("#cell-by-hand").getByRole("button", { name: "Run", exact: true }).click(),
  ]);
  await Promise.all([saved(page), saved(other)]);
  const third = await context.newPage();
  await open(third, L1);
  await expect(third.locator("#cell-engine").locator("textarea.editor")).toHaveValue("print('from one')");
  await expect(third.locator("#cell-by-hand").locator("textarea.editor")).toHaveValue("print('from two')");
});

// putRecords writes raw records into the progress database, as an older
// version or another tab would have.
async function putRecords(page, records) {
  await page.evaluate(async (records) => {
    const db = await new Promise((ok, fail) => {
      const r = indexedDB.open("gradbook", 1);
      r.onupgradeneeded = () => r.result.createObjectStore("progress");
      r.onsuccess = () => ok(r.result);
      r.onerror = () => fail(r.error);
    });
    await new Promise((ok, fail) => {
      const t = db.transaction("progress", "readwrite");
      for (const [k, v] of Object.entries(records)) t.objectStore("progress").put(v, k);
      t.oncomplete = ok;
      t.onerror = () => fail(t.error);
    });
    db.close();
  }, records);
}

test("a lesson's code changed under a saved edit: the learner is told and chooses", async ({ page, errors }) => {
  await open(page, L1);
  await putRecords(page, {
    "cell/01-chain-rule/engine": JSON.stringify({ v: 2, kind: "cell", lesson: "01-chain-rule", id: "engine", source: "print('edited long ago')", authored: "0000000000000000", updated: 1 }),
  });
  await page.reload();
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready");
  const c = page.locator("#cell-engine");
  await expect(c.getByRole("alert")).toContainText("The lesson's code for this cell has changed since you edited it");
  await expect(c.locator("textarea.editor")).toHaveValue("print('edited long ago')");
  await c.getByRole("button", { name: "Use the new version" }).click();
  await expect(c.locator("textarea.editor")).toHaveValue(/Value\(2.0, "x"\)/);
  await saved(page);
  await page.reload();
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready");
  await expect(c.getByRole("alert")).toHaveCount(0);
});

test("old, corrupt and newer records: migrated, skipped with a notice, the rest restored, under the lesson's name now", async ({ page, errors }) => {
  await open(page, L1);
  await putRecords(page, {
    "cell/01-chain-rule/engine": JSON.stringify({ v: 1, lesson: "01-chain-rule", cell: "engine", code: "print('from version one')", ok: true, at: 1700000000 }),
    "cell/01-chain-rule/by-hand": "{not json",
    "task/01-chain-rule/x:y": JSON.stringify({ v: 99, kind: "task", lesson: "01-chain-rule", id: "x:y" }),
  });
  await page.reload();
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready");
  await expect(page.locator("#cell-engine").locator("textarea.editor")).toHaveValue("print('from version one')");
  await expect(page.locator("#cell-engine")).toHaveAttribute("data-state", "passed");
  await expect(page.locator("#notices")).toContainText("1 record of your saved progress could not be read and is skipped");
  await expect(page.locator("#notices")).toContainText("saved by a newer version of Gradbook");
  await expect(page.locator("#notices")).toContainText("1 record from an older version of Gradbook was updated");
});

test("a lesson split in two and renamed: the work saved in the cells that moved follows them, on the index and on their page, and the old address leads to the new page", async ({ page, errors }) => {
  await open(page, "index.html");
  const authored = "print('my check at the kink')";
  await putRecords(page, {
    "cell/05-every-path/kink": JSON.stringify({ v: 2, kind: "cell", lesson: "05-every-path", id: "kink", source: authored, ran: true, clean: true, updated: 1700000000000 }),
    "quiz/05-every-path/step-lowers": JSON.stringify({ v: 2, kind: "quiz", lesson: "05-every-path", id: "step-lowers", answer: "1", passed: true, updated: 1700000000000 }),
    "cell/05-every-path/detached": JSON.stringify({ v: 2, kind: "cell", lesson: "05-every-path", id: "detached", source: "print('stays')", ran: true, clean: true, updated: 1700000000000 }),
    "quiz/05-every-path/predict-detached": JSON.stringify({ v: 2, kind: "quiz", lesson: "05-every-path", id: "predict-detached", answer: '["24"]', passed: true, updated: 1700000000000 }),
  });
  await page.reload();
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready");
  // Only what the learner answers, solves or does counts: a quiz each.
  await expect(page.locator("li[data-lesson='checking-gradients'] .completion")).toHaveText(/^1 of \d+ done$/);
  await expect(page.locator("li[data-lesson='every-path'] .completion")).toHaveText(/^1 of \d+ done$/);
  await open(page, "lessons/checking-gradients.html");
  await expect(page.locator("#cell-kink").locator("textarea.editor")).toHaveValue(authored);
  await expect(page.locator("#cell-kink")).toHaveAttribute("data-state", "passed");
  await expect(page.locator("#quiz-step-lowers input[type=radio]").nth(1)).toBeChecked();
  // The lesson's old address, as bookmarks and course pages have it.
  await page.goto("lessons/05-every-path.html#cell-detached");
  await expect(page).toHaveURL(/\/lessons\/every-path\.html#cell-detached$/);
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready");
  await expect(page.locator("#cell-detached").locator("textarea.editor")).toHaveValue("print('stays')");
});

test("the scratch notebook keeps its cells, in order", async ({ page, errors }) => {
  await open(page, "scratch.html");
  await typeInto(cell(page, 1), "a = 1");
  await page.getByRole("button", { name: "Add a cell" }).click();
  await typeInto(cell(page, 2), "print(a + 1)");
  await cell(page, 2).getByRole("button", { name: "Move up cell 2" }).click();
  await saved(page);
  await page.reload();
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready");
  await expect(page.locator("section.code-cell")).toHaveCount(2);
  await expect(cell(page, 1).locator("textarea.editor")).toHaveValue("print(a + 1)");
  await expect(cell(page, 2).locator("textarea.editor")).toHaveValue("a = 1");
});

test("another tab that holds the database, or upgraded it, never hangs this one", async ({ page, context, errors }) => {
  // A tab that keeps a connection open and ignores requests to close it.
  const holder = await context.newPage();
  await holder.goto("engine.html");
  await holder.evaluate(() => new Promise((ok) => {
    const r = indexedDB.open("gradbook", 1);
    r.onupgradeneeded = () => r.result.createObjectStore("progress");
    r.onsuccess = () => { window.held = r.result; ok(); };
  }));
  await open(page, L1);
  await typeInto(page.locator("#cell-engine"), "print('while held')");
  await expect(page.locator("#save-status")).toHaveText("Saved.");
  await holder.evaluate(() => window.held.close());

  // A newer version upgraded the database: this tab says it cannot save,
  // within seconds, and the cells still run.
  await holder.evaluate(() => new Promise((ok) => {
    const r = indexedDB.open("gradbook", 2);
    r.onupgradeneeded = () => {};
    r.onsuccess = () => { r.result.close(); ok(); };
    r.onblocked = () => ok();
  }));
  await page.reload();
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 15_000 });
  await expect(page.locator("#notices")).toContainText("progress");
  const c = page.locator("#cell-engine");
  await c.getByRole("button", { name: "Reset" }).click().catch(() => {});
  await c.getByRole("button", { name: "Run", exact: true }).click();
  await expect(c.getByRole("status")).not.toBeEmpty();
});

test("the panel shows how much storage is used", async ({ page, errors }) => {
  await open(page, L1);
  await page.locator("#progress-panel summary").click();
  await expect(page.locator("#storage-estimate")).toContainText(/Using .* of about .* this browser allows here/);
});
