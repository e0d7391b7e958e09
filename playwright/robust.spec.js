// Robustness: no cell, file, link or deploy can break a learner's
// notebook or lose their work. Each test reproduces a finding and shows
// that it is fixed.
const fs = require("fs");
const { test, expect, open, cell, editorOf, skipPredictions, port } = require("./helpers");

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
    { v: 2, kind: "quiz", lesson: "reverse-accumulation", id: "x-plus-x", answer: '2"]', passed: false, updated: now },
    { v: 2, kind: "visit", lesson: 'nope"]', id: "last", anchor: 'x"]', updated: now + 1 },
  ]);
  // The index starts, and offers no way back to a lesson it does not list.
  await expect(page.locator("li[data-lesson] .completion").first()).toContainText("done");
  await expect(page.locator("#continue")).toBeHidden();
  // Lesson 02 starts: Run all, the quiz and the panel work.
  await open(page, "lessons/reverse-accumulation.html");
  await skipPredictions(page);
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

test("an import cannot overwrite saved code by faking its date: the learner is asked", async ({ page, errors }, info) => {
  await open(page, "lessons/reverse-accumulation.html");
  const editor = editorOf(page.locator("#cell-worked"));
  // runAndReload runs code in the cell, and finds it there after a reload.
  const runAndReload = async (code, prints) => {
    await editor.fill(code);
    await page.locator("#cell-worked").getByRole("button", { name: "Run" }).click();
    await expect(page.locator("#cell-worked output")).toContainText(prints);
    await page.reload();
    await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready");
    await expect(editor).toHaveValue(code);
  };
  await runAndReload('print("mine")', "mine");

  const file = info.outputPath("future.json");
  fs.writeFileSync(file, JSON.stringify({ gradbook: "progress", version: 2, records: [
    { v: 2, kind: "cell", lesson: "reverse-accumulation", id: "worked", source: 'print("from the file")', ran: true, clean: true, updated: 9e15 },
  ] }));
  // Asked first; keeping mine keeps mine.
  await page.locator("#progress-panel summary").click();
  await page.locator("#import-progress").setInputFiles(file);
  const question = page.getByRole("alertdialog");
  await expect(question).toContainText("The file has other code than yours for 1 cell (worked in reverse-accumulation)");
  await expect(page.getByRole("button", { name: "Keep mine" })).toBeFocused();
  await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: "Keep mine" }).click()]);
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready");
  await expect(page.locator("#notices")).toContainText("Imported 1 record of progress.");
  await expect(editor).toHaveValue('print("mine")');

  // Taking the file's takes it, with its date brought back to now: an edit
  // after it still wins.
  await page.locator("#progress-panel summary").click();
  await page.locator("#import-progress").setInputFiles(file);
  await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: "Take the file's" }).click()]);
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready");
  await expect(editor).toHaveValue('print("from the file")');
  await runAndReload('print("mine again")', "mine again");
});

test("an import over 5 MB is refused at once and changes nothing", async ({ page, errors }, info) => {
  await open(page, "lessons/reverse-accumulation.html");
  const file = info.outputPath("big.json");
  const records = [];
  for (let i = 0; i < 80_000; i++) records.push({ v: 2, kind: "cell", lesson: "reverse-accumulation", id: "c" + i, source: "x = " + i, updated: 1 });
  fs.writeFileSync(file, JSON.stringify({ gradbook: "progress", version: 2, records }));
  expect(fs.statSync(file).size).toBeGreaterThan(5 << 20);
  await page.locator("#progress-panel summary").click();
  await page.locator("#import-progress").setInputFiles(file);
  await expect(page.locator("#notices")).toContainText(/This file cannot be imported: it is \d+\.\d MB, and at most 5 MB can be imported\. Nothing was changed\./);
  await page.reload();
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready");
  await expect(page.locator("#notices")).not.toContainText("Imported");
});

test("Run all does not adopt shared code: the learner's version stays until they run that cell or keep it", async ({ page, errors }) => {
  await open(page, "lessons/fan-out.html");
  const c = page.locator("#cell-square");
  await editorOf(c).fill("print('mine')");
  await expect(page.locator("#save-status")).toHaveText("Saved.");
  const code = Buffer.from("print('shared')").toString("base64url");
  await page.goto("about:blank");
  await page.goto(`lessons/fan-out.html#share=square:${code}`);
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready");
  await expect(c.locator("textarea.editor")).toHaveValue("print('shared')");
  await skipPredictions(page);
  await page.getByRole("button", { name: "Run all" }).click();
  await expect(c.locator("output.out")).toHaveText("shared");
  await expect(c.getByRole("button", { name: "Back to my version" })).toBeVisible();
  // Nothing of the shared code was saved.
  await page.goto("about:blank");
  await page.goto("lessons/fan-out.html");
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready");
  await expect(c.locator("textarea.editor")).toHaveValue("print('mine')");
});

test("embed.js sizes only Gradbook's frames, to a capped height", async ({ page, errors }) => {
  await page.goto(`http://127.0.0.1:${port(8183)}/index.html`);
  const gradbookFrame = page.locator("iframe[title^='A Gradbook cell']");
  await expect(page.frameLocator("iframe[title^='A Gradbook cell']").locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
  // A third-party frame asks for 5,000,000 px: ignored.
  await page.evaluate(() => {
    const f = document.createElement("iframe");
    f.name = "third";
    f.title = "Someone else's frame";
    f.src = "about:blank";
    f.height = "100";
    document.querySelector("main").append(f);
  });
  const third = page.frame({ name: "third" });
  await third.evaluate(() => parent.postMessage({ gradbook: "height", height: 5e6 }, "*"));
  // Gradbook's own frame grown too tall (it tells its height after
  // embed.js's handshake) gets the cap.
  const ours = page.frames().find((f) => f.url().includes("embed.html"));
  await gradbookFrame.scrollIntoViewIfNeeded(); // Chromium paints no frame of another origin out of view
  await ours.evaluate(() => {
    const tall = document.createElement("div");
    tall.style.height = "5000000px";
    document.body.append(tall);
  });
  await expect.poll(async () => (await gradbookFrame.boundingBox()).height).toBeGreaterThanOrEqual(50000);
  expect((await gradbookFrame.boundingBox()).height).toBeLessThan(50010); // the cap, and the frame's border
  expect((await page.locator("iframe[name=third]").boundingBox()).height).toBeLessThan(200);
});

// The hostile-cell corpus: every case runs on one page, in sequence. After
// each, the notebook still runs a normal cell, and the edit saved before it
// is still there after a reload.
const hostile = [
  ["deep recursion", "def f(n):\n    if n == 0:\n        return 0\n    return f(n - 1) + 1\nprint(f(10000))", /recursion too deep: more than 1000 calls/],
  ["Values without end", "xs = []\nwhile True:\n    xs.append(Value(1.0))", /line 3[\s\S]*stopped: the cell (made more than 10,000,000 Values|holds more than 512 MB)/],
  ["one huge list", "x = [0] * 100000000", /stopped: the cell holds more than 512 MB of data|the runner stopped \(fatal error: out of memory\)/],
  ["a list larger than the browser's memory", "x = [0] * 300000000", /stopped: the cell holds more than 512 MB of data/],
  ["a huge list, then more", "x = [0] * 40000000\nfor i in range(10000000):\n    y = i", /stopped: the cell holds more than 512 MB of data/],
  ["giant output", 'print("a" * 5000000)\nprint("b" * 5000000)', /output truncated: a run may print at most 1 MB/],
  ["a giant string", 's = "a" * 200000000\nprint(len(s))', /200000000/],
  ["NaN and Inf in checks", 'check(1, 1, tol=float("nan"))\ncheck(float("inf"), float("inf"))\nprint("checked")', /✓ 1 = 1[\s\S]*✓ float\("inf"\) = \+inf[\s\S]*checked/],
  ["NaN in a Value", 'x = Value(float("nan"))', /Value: want a finite number, got nan/],
  ["an overflow in a drawing", 'x = Value(1e308, "x")\ny = x * x', /mul\(1e\+308, 1e\+308\) is \+inf: the result is not a finite number/],
  ["Inf in a graph", 'evaluate([["p", "mul", ["a", "b"]]], {"a": float("inf"), "b": 1.0})', /leaf "a": not a finite number/],
  ["check on strings", 'check("a", "a")\ncheck(["x"], ["x"])\ncheck({"k": "v"}, {"k": "v"})\nprint("compared")', /✓ "a" = "a"[\s\S]*compared/],
  ["a 50-million-character error", 'x = "a" * 50000000\nint(x)', /invalid literal[\s\S]*more characters\)/],
  ["a 30-million-character fail", 'fail("b" * 30000000)', /fail: b+… \(\d+ more characters\)/],
];

// Issue 34: data nested deeper than the browser's stack is refused when the
// cell ends, printed without recursion, and what still recurses in
// Starlark itself (a tuple hashed 50,000 deep) costs only the runner,
// which is started again: before, each was an uncaught "Maximum call
// stack size exceeded" in the worker, and the cell never finished.
const nested = [
  ["a list nested 20,000 deep", "x = []\nfor i in range(20000):\n    x = [x]\nprint('built')", /^built\s*cell 1, line 3[\s\S]*x is nested more than 1000 deep/],
  ["a list printed 50,000 deep", "def f():\n    x = []\n    for i in range(50000):\n        x = [x]\n    return x\ns = str(f())\nprint(len(s), s[:3])", /^100002 \[\[\[\s*$/],
  ["a tuple hashed 50,000 deep", "def f():\n    t = ()\n    for i in range(50000):\n        t = (t,)\n    return {t: 1}\nf()", /the runner failed: Maximum call stack size exceeded/],
];

for (const [title, cases] of [
  ["hostile cells: each gives a clean message, and the notebook and the saved work survive", hostile],
  ["deeply nested data: each gives a clean message, and the notebook and the saved work survive", nested],
]) test(title, async ({ page, errors }) => {
  test.setTimeout(240_000);
  await open(page, "scratch.html");
  const c = cell(page, 1);
  const editor = editorOf(c);
  for (const [what, code, says] of cases) {
    await test.step(what, async () => {
      // A saved edit in a second cell, typed just before the run.
      await page.getByRole("button", { name: "Add a cell" }).click();
      const kept = editorOf(cell(page, 2));
      await kept.fill(`print("kept before ${what}")`);
      await editor.fill(code);
      await c.getByRole("button", { name: "Run", exact: true }).click();
      await expect(c.locator("output.out")).toHaveText(says, { timeout: 60_000 });
      await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready");
      await editor.fill("print(6 * 7)");
      await c.getByRole("button", { name: "Run", exact: true }).click();
      await expect(c.locator("output.out")).toHaveText("42");
      await page.reload();
      await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
      await expect(cell(page, 2).locator("textarea.editor")).toHaveValue(`print("kept before ${what}")`);
      await cell(page, 2).getByRole("button", { name: "Delete cell 2" }).click();
      await cell(page, 2).getByRole("button", { name: "Delete the cell" }).click();
      await expect(page.locator("section.code-cell")).toHaveCount(1);
    });
  }
});

test("in a frame on another site, the frame says where its progress is kept", async ({ page, errors }) => {
  // localhost and 127.0.0.1 are different sites: the browser partitions
  // the frame's storage.
  await page.goto(`http://localhost:${port(8183)}/index.html`);
  const frame = page.frameLocator("iframe[title^='A Gradbook cell']");
  await expect(frame.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
  await expect(frame.getByRole("status").filter({ hasText: "In this frame" })).toContainText("your progress is kept for this course page only");
  // On the same site (another port), the frame uses Gradbook's own storage and says nothing.
  await page.goto(`http://127.0.0.1:${port(8183)}/index.html`);
  const same = page.frameLocator("iframe[title^='A Gradbook cell']");
  await expect(same.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
  await expect(same.locator(".frame-storage")).toHaveCount(0);
});

test("on a course page too, a dead runner is started again, and the page and every edit are kept", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto(`http://127.0.0.1:${port(8183)}/index.html`);
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
  const first = page.locator(".gradbook-embed section.code-cell").nth(0);
  const second = page.locator(".gradbook-embed section.code-cell").nth(1);
  await editorOf(second).fill('print("kept")');
  await editorOf(first).fill("x = [0] * 100000000\ny = x + x");
  await first.getByRole("button", { name: "Run", exact: true }).click();
  await expect(first.locator("output.out")).toContainText(/the runner stopped \(fatal error: out of memory\) and was started again/, { timeout: 150_000 });
  await expect(page.locator(".gradbook-embed section.code-cell")).toHaveCount(3);
  await expect(second.locator("textarea.editor")).toHaveValue('print("kept")');
  await editorOf(first).fill('x = Value(3.0, "x")');
  await second.getByRole("button", { name: "Run", exact: true }).click();
  await expect(second.locator("output.out")).toHaveText("kept");
  expect(await page.locator("main").textContent()).toContain("Week 3"); // the course page itself is untouched
});
