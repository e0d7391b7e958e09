// The code editor (CodeMirror 6) in every cell, driven by keyboard.
const fs = require("fs");
const path = require("path");
const zlib = require("zlib");
const { test, expect, open, cell, editorOf, port } = require("./helpers");

// codeOf reads a cell's code from the textarea that keeps it.
const codeOf = (c) => c.locator("textarea.editor").inputValue();

test("typing a loop indents it, Shift+Enter runs it; Tab stays in the editor, Shift+Tab dedents", async ({ page, errors }) => {
  await open(page, "scratch.html");
  const c = cell(page, 1);
  const editor = c.getByRole("textbox", { name: "Code of Cell 1" });
  await editorOf(c).fill("");
  await editor.focus();
  await page.keyboard.type("for i in range(3):");
  await page.keyboard.press("Enter");
  await page.keyboard.type("print(i * 10)");
  expect(await codeOf(c)).toBe("for i in range(3):\n    print(i * 10)");
  await page.keyboard.press("Shift+Enter");
  await expect(c.getByRole("status")).toHaveText("0\n10\n20");

  await editorOf(c).fill("");
  await editor.focus();
  await page.keyboard.type("if True:");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement.classList.contains("code-editor"))).toBe(true);
  expect(await codeOf(c)).toBe("if True:\n        ");
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Shift+Tab");
  expect(await codeOf(c)).toBe("if True:\n");
  // Escape, then Tab, moves on, as CodeMirror's guidance has it.
  await page.keyboard.press("Escape");
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => !document.activeElement.classList.contains("code-editor"))).toBe(true);
});

test("an error's line is marked until the code changes; undo restores; a saved edit survives a reload", async ({ page, errors }) => {
  await open(page, "scratch.html");
  const c = cell(page, 1);
  await editorOf(c).fill("x = 1\ny = x + nope\nprint(y)");
  await c.getByRole("button", { name: "Run", exact: true }).click();
  await expect(c.getByRole("status")).toContainText("cell 1, line 2");
  await expect(c.locator(".cm-line.cm-error-line")).toHaveCount(1);
  await expect(c.locator(".cm-line.cm-error-line")).toHaveText("y = x + nope");
  const editor = c.getByRole("textbox", { name: "Code of Cell 1" });
  await editor.press("End");
  await page.keyboard.type("  # fixed?");
  await expect(c.locator(".cm-error-line")).toHaveCount(0);
  await page.keyboard.press("ControlOrMeta+z");
  await expect.poll(() => codeOf(c)).toBe("x = 1\ny = x + nope\nprint(y)");
  await editorOf(c).fill("print('kept across a reload')");
  await c.getByRole("button", { name: "Run", exact: true }).click(); // a run saves every edit first
  await expect(c.getByRole("status")).toHaveText("kept across a reload");
  await page.reload();
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
  await expect(cell(page, 1).locator(".cm-content")).toHaveText("print('kept across a reload')");
});

test("lessons, exercises, embedded and framed cells all use the editor; without scripts the code is plain text", async ({ page, browser, errors }) => {
  await open(page, "lessons/reverse-accumulation.html");
  const cells = await page.locator("section.code-cell").count();
  await expect(page.locator("section.code-cell .cm-editor")).toHaveCount(cells);
  await expect(page.locator("#exercise-write-backward .cm-editor")).toHaveCount(1);
  await expect(page.locator("#exercise-write-backward").getByRole("textbox", { name: "Exercise: your code" })).toBeVisible();
  await expect(page.locator("section.code-cell textarea.editor:visible")).toHaveCount(0);

  await page.goto(`http://127.0.0.1:${port(8183)}/index.html`);
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
  const embedded = page.locator(".gradbook-embed section.code-cell");
  await expect(embedded.first().locator(".cm-editor")).toHaveCount(1);
  await expect(page.frameLocator("iframe").locator("section.code-cell .cm-editor")).toHaveCount(1);

  const off = await browser.newContext({ javaScriptEnabled: false });
  const plain = await off.newPage();
  await plain.goto(`http://127.0.0.1:${port(8181)}/lessons/reverse-accumulation.html`);
  await expect(plain.locator("#cell-worked textarea.editor")).toBeVisible();
  await expect(plain.locator("#cell-worked textarea.editor")).toHaveValue(/g = \[\["p", "mul", \["a", "b"\]\]/);
  await off.close();
});

test("at phone width the editor wraps long lines and the page does not scroll sideways", async ({ page, errors }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await open(page, "scratch.html");
  await editorOf(cell(page, 1)).fill("print('a long line of code that is much wider than a phone screen, to see it wrap rather than scroll')");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await cell(page, 1).getByRole("button", { name: "Run", exact: true }).click();
  await expect(cell(page, 1).getByRole("status")).toContainText("a long line of code");

  // A wrapped line keeps its indentation: the rest of an indented line
  // starts under its code, not at the margin.
  await editorOf(cell(page, 1)).fill("def f():\n    print('a long line of code that is much wider than a phone screen, wrapped')\nf()");
  const starts = await cell(page, 1).locator(".cm-line").nth(1).evaluate((line) => {
    const range = document.createRange();
    range.selectNodeContents(line);
    // Each visual row's start: the leftmost box at that height.
    const byTop = new Map();
    for (const r of range.getClientRects()) {
      if (r.width === 0) continue;
      const top = Math.round(r.top + r.height / 2);
      const key = [...byTop.keys()].find((k) => Math.abs(k - top) < 4) ?? top;
      byTop.set(key, Math.min(byTop.get(key) ?? Infinity, Math.round(r.left)));
    }
    const rows = [...byTop.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
    const code = document.createRange();
    const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    let node, at = null;
    while ((node = walker.nextNode()) && at === null) {
      const i = node.data.search(/\S/);
      if (i >= 0) { code.setStart(node, i); code.setEnd(node, i + 1); at = Math.round(code.getBoundingClientRect().left); }
    }
    return { rows, code: at, tall: line.getBoundingClientRect().height };
  });
  expect(starts.rows.length, "the line wraps").toBeGreaterThan(1);
  for (const left of starts.rows.slice(1)) expect(Math.abs(left - starts.code), "a wrapped row starts under the code").toBeLessThanOrEqual(1);

  // grad_check's table keeps its columns on a phone: its rows do not wrap,
  // and the table scrolls sideways inside the output.
  await editorOf(cell(page, 1)).fill("grad_check(lambda w: w * w * w, 1.0, analytic=3)");
  await cell(page, 1).getByRole("button", { name: "Run", exact: true }).click();
  const table = cell(page, 1).locator("output.out .table");
  await expect(table).toContainText("central");
  const lines = (await table.textContent()).trim().split("\n").length;
  const box = await table.evaluate((t) => ({ h: t.scrollHeight, w: t.scrollWidth, cw: t.clientWidth, line: parseFloat(getComputedStyle(t).lineHeight) }));
  expect(Math.round(box.h / box.line), "the table's rows wrap").toBe(lines);
  expect(box.w).toBeGreaterThan(box.cw);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

test("figures: the editor bundle, and the time to the first editable cell", async ({ browser }) => {
  const bundle = fs.readFileSync(path.join(__dirname, "../site/editor.js"));
  const gz = zlib.gzipSync(bundle, { level: 9 }).length;
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(() => {
    new MutationObserver((_, o) => {
      if (document.querySelector(".code-editor")) { window.editableAt = performance.now(); o.disconnect(); }
    }).observe(document, { childList: true, subtree: true });
    window.shifts = 0;
    new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.shifts += e.value; }).observe({ type: "layout-shift", buffered: true });
  });
  await page.goto("lessons/chain-rule.html");
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
  const cold = await page.evaluate(() => window.editableAt);
  const shifts = await page.evaluate(() => window.shifts);
  await page.reload();
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
  const warm = await page.evaluate(() => window.editableAt);
  console.log(`figures: editor bundle ${(bundle.length / 1e3).toFixed(0)} KB raw, ${(gz / 1e3).toFixed(1)} KB gzip (budget 150 KB); first editable cell ${cold.toFixed(0)} ms cold, ${warm.toFixed(0)} ms warm; layout shift while the editors replace the textareas: ${shifts.toFixed(3)}`);
  expect(gz).toBeLessThanOrEqual(150_000);
  expect(shifts).toBeLessThan(0.1); // the page does not jump
  await context.close();
});
