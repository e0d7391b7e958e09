// The notebook as a learner meets it: cells, drawings, keyboard, errors.
const fs = require("fs");
const { test, expect, open, cell, typeInto, editorOf, skipPredictions } = require("./helpers");

const valueExample = `a = Value(2.0, "a"); b = Value(3.0, "b"); c = Value(1.0, "c")
u = a*b + c
L = u*u
L.backward()
print(a.grad, b.grad, c.grad)`;

const listExample = `g = [["p", "mul", ["a", "b"]], ["u", "add", ["p", "c"]], ["L", "sq", ["u"]]]
vals = evaluate(g, {"a": 2.0, "b": 3.0, "c": 1.0})
print(backward(g, vals, "L"))`;

test("both examples, typed into a cell, run with the button and with Shift+Enter", async ({ page, errors }) => {
  await open(page, "scratch.html");
  const first = cell(page, 1);
  await typeInto(first, valueExample);
  await first.getByRole("button", { name: "Run", exact: true }).click();
  await expect(first.getByRole("status")).toHaveText("42.0 28.0 14.0");

  await page.getByRole("button", { name: "Add a cell" }).click();
  const second = cell(page, 2);
  await typeInto(second, listExample);
  await second.locator(".cm-content").press("Shift+Enter");
  await expect(second.getByRole("status")).toHaveText('{"a": 42.0, "b": 28.0, "c": 14.0, "p": 14.0, "u": 14.0, "L": 1.0}');
  // Shift+Enter ran the cell instead of adding a line.
  await expect(second.locator("textarea.editor")).toHaveValue(listExample);

  // Ctrl+Enter runs too, and the first cell's drawing shows the gradients.
  await first.locator(".cm-content").press("Control+Enter");
  await expect(first.locator("svg.graph g.node[data-name='a'] .grad")).toHaveText("grad 42");
  await expect(first.locator("svg.graph g.node[data-name='b'] .grad")).toHaveText("grad 28");
  await expect(first.locator("svg.graph g.node[data-name='c'] .grad")).toHaveText("grad 14");
});

test("a cell sees the cells above it as they are written now", async ({ page, errors }) => {
  await open(page, "scratch.html");
  await typeInto(cell(page, 1), "w = 2.0");
  await page.getByRole("button", { name: "Add a cell" }).click();
  await typeInto(cell(page, 2), "print(w * 10)");
  await cell(page, 2).getByRole("button", { name: "Run", exact: true }).click();
  await expect(cell(page, 2).getByRole("status")).toHaveText("20.0");
  // Edit the first cell without running it: the second cell follows.
  await typeInto(cell(page, 1), "w = 5.0");
  await cell(page, 2).getByRole("button", { name: "Run", exact: true }).click();
  await expect(cell(page, 2).getByRole("status")).toHaveText("50.0");
  // Reorder: the printing cell first now fails, naming the line.
  await cell(page, 2).getByRole("button", { name: "Move up cell 2" }).click();
  await skipPredictions(page);
  await page.getByRole("button", { name: "Run all" }).click();
  await expect(cell(page, 1).getByRole("status")).toContainText("cell 1, line 1");
  await expect(cell(page, 1).getByRole("status")).toContainText("w is not defined yet: cell 2, below this one, assigns it");
  await cell(page, 1).getByRole("button", { name: "Delete cell 1" }).click();
  await cell(page, 1).getByRole("button", { name: "Delete the cell" }).click();
  await expect(page.locator("section.code-cell")).toHaveCount(1);
  await expect(cell(page, 1).locator("textarea.editor")).toHaveValue("w = 5.0");
});

test("a runaway loop is stopped by the learner with Stop, and the page stays usable", async ({ page, errors }) => {
  await open(page, "scratch.html");
  await typeInto(cell(page, 1), "n = 0\nwhile True:\n    n = n + 1");
  await cell(page, 1).getByRole("button", { name: "Run", exact: true }).click();
  await expect(cell(page, 1).getByRole("timer")).toHaveText(/Running… \d\.\d s/);
  await cell(page, 1).getByRole("button", { name: "Stop", exact: true }).click();
  await expect(cell(page, 1).getByRole("status")).toContainText(/cell 1\s+Error: stopped after .*, as you asked/);
  await typeInto(cell(page, 1), "print('still here')");
  await cell(page, 1).getByRole("button", { name: "Run", exact: true }).click();
  await expect(cell(page, 1).getByRole("status")).toHaveText("still here");
});

test("errors read like Python's, with a hint for Python habits", async ({ page, errors }) => {
  await open(page, "scratch.html");
  await typeInto(cell(page, 1), "x = 3\ny = x ** 2");
  await cell(page, 1).getByRole("button", { name: "Run", exact: true }).click();
  const out = cell(page, 1).getByRole("status");
  await expect(out).toContainText("cell 1, line 2");
  await expect(out).toContainText("y = x ** 2");
  await expect(out).toContainText("Hint: Starlark has no ** operator");
});

test("Reset puts the authored code back", async ({ page, errors }) => {
  await open(page, "lessons/chain-rule.html");
  const c = page.locator("#cell-engine");
  const original = await c.locator("textarea.editor").inputValue();
  await typeInto(c, "print('mine')");
  await c.getByRole("button", { name: "Run", exact: true }).click();
  await expect(c.getByRole("status")).toHaveText("mine");
  await c.getByRole("button", { name: "Reset" }).click();
  await c.getByRole("button", { name: "Reset the cell" }).click();
  await expect(c.locator("textarea.editor")).toHaveValue(original);
});

test("step-through visits every node; the overwrite toggle and the paths", async ({ page, errors }) => {
  await open(page, "scratch.html");
  await typeInto(cell(page, 1), `x, w, b, v = Value(2.0, "x"), Value(1.0, "w"), Value(-1.0, "b"), Value(3.0, "v")
p = w * x
h = (p + b).relu()
y = v * h + p
e = y - 1
loss = 0.5 * e * e
loss.backward()`);
  await cell(page, 1).getByRole("button", { name: "Run", exact: true }).click();
  const fig = cell(page, 1).locator("figure.drawing");
  await expect(fig.locator("g.node[data-name='p'] .grad")).toHaveText("grad 16");
  await expect(fig.locator("g.node[data-name='w'] .grad")).toHaveText("grad 32");
  // 12 and 4 arrive at p.
  const intoP = await fig.locator("g.edge[data-from='p'] text.contrib").allTextContents();
  expect(intoP.sort()).toEqual(["12", "4"]);

  const opNodes = await fig.locator("g.node:not(.leaf)").evaluateAll((els) => els.map((e) => e.dataset.name));
  const visited = new Set();
  const step = fig.getByRole("button", { name: "Step", exact: true });
  while (await step.isEnabled()) {
    await step.click();
    const active = await fig.locator("g.node.active").getAttribute("data-name");
    visited.add(active);
    await expect(fig.locator(".step-text")).toContainText("Step");
  }
  expect([...visited].sort()).toEqual(opNodes.sort());
  await expect(fig.locator(".step-text")).toContainText(`of ${opNodes.length}`);
  await fig.getByRole("button", { name: "Whole pass" }).click();

  await fig.getByLabel("Paths from").selectOption({ label: "w" });
  await expect(fig.locator(".paths")).toContainText("Sum of the paths: 32");

  await typeInto(cell(page, 1), `x = Value(3.0, "x")\ny = x * x\ny.backward()`);
  await cell(page, 1).getByRole("button", { name: "Run", exact: true }).click();
  // x is used twice by one multiply: it receives two edges. (This also
  // waits for the new drawing, whose toggle is the one to check.)
  await expect(cell(page, 1).locator("g.edge[data-from='x']")).toHaveCount(2);
  await cell(page, 1).getByLabel("Overwrite instead of add (the bug)").check();
  await expect(cell(page, 1).locator("g.node[data-name='x'] .grad")).toContainText("grad 6");
  await expect(cell(page, 1).locator("g.node[data-name='x'] .overwrite.wrong")).toHaveText("bug: 3");
});

test("the hostile lesson fixture stays inert", async ({ page, errors }) => {
  await open(page, "fixtures/hostile.html");
  await skipPredictions(page);
  await page.getByRole("button", { name: "Run all" }).click();
  const out = cell(page, 1).getByRole("status");
  await expect(out).toContainText("<b>not bold</b>");
  await expect(cell(page, 1).locator("svg.graph")).toHaveCount(1);
  for (const link of await page.locator("main a").all()) await link.click({ trial: true }).catch(() => {});
  expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
  expect(await page.locator("main script, main iframe, main [onerror], main [onclick]").count()).toBe(0);
  const hrefs = await page.locator("main a").evaluateAll((as) => as.map((a) => a.getAttribute("href") || ""));
  // Exactly the documented schemes survive: http, https, mailto, and relative addresses.
  for (const h of hrefs) expect(h).toMatch(/^(https?:|mailto:|[^:/\\?#]*([/?#]|$))/i);
  for (const h of hrefs) expect(h).not.toMatch(/^[/\\]{2}/);
  expect(hrefs).toEqual(expect.arrayContaining(["https://example.org/", "mailto:someone@example.org", "../index.html", "#inert"]));
  await expect(page.locator("main")).toContainText("Other schemes lose their address too: tel, ftp, intent, blob, host and backslash host.");
});

for (const lesson of ["chain-rule", "reverse-accumulation"]) test(`${lesson} reads at phone width`, async ({ page, errors }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await open(page, `lessons/${lesson}.html`);
  await skipPredictions(page);
  await page.getByRole("button", { name: "Run all" }).click();
  await expect(page.locator("#notebook-status")).toContainText("Ran all", { timeout: 30_000 });
  // The page itself does not scroll sideways; a wide drawing scrolls in its box.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expect(page.locator("figure.drawing svg").first()).toHaveAttribute("role", "img");
  // Nothing sticks out of its cell either.
  const sticking = await page.evaluate(() => [...document.querySelectorAll("section.cell input, section.cell button, section.cell textarea")]
    .filter((e) => { const r = e.getBoundingClientRect(); const c = e.closest("section.cell").getBoundingClientRect(); return r.width > 0 && r.right > c.right + 1; })
    .map((e) => e.id || e.className));
  expect(sticking).toEqual([]);
});

// download clicks "Download as a Jupyter notebook" and returns the file's
// name and the notebook: each cell's source by id, and the ids in order.
async function download(page) {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download as a Jupyter notebook" }).click()]);
  const nb = JSON.parse(fs.readFileSync(await file.path(), "utf8"));
  expect(nb.nbformat).toBe(4);
  const cells = Object.fromEntries(nb.cells.map((c) => [c.id, c.source.join("")]));
  return { name: file.suggestedFilename(), cells, ids: nb.cells.map((c) => c.id) };
}

test("Download as a Jupyter notebook: the lesson with the learner's edit and answer, the built-ins first; the scratch page's cells", async ({ page, errors }) => {
  await open(page, "lessons/chain-rule.html");
  const c = page.locator("#cell-by-hand");
  await editorOf(c).fill("a = Value(6.0, \"a\")\nprint(a.value * 7)");
  await page.locator("#quiz-predict-two-branches input.answer-input").fill("13");
  const got = await download(page);
  expect(got.name).toBe("chain-rule.ipynb");
  expect(got.ids.slice(0, 2)).toEqual(["gradbook-about", "gradbook-builtins"]);
  expect(got.cells["gradbook-builtins"]).toContain("class Value");
  expect(got.cells["by-hand"]).toBe("a = Value(6.0, \"a\")\nprint(a.value * 7)");
  expect(got.cells["predict-two-branches"]).toContain("*Your answer:* 13");
  expect(got.cells["engine"]).toContain("backward()");
  await expect(page.locator("#notebook-status")).toHaveText("Downloaded chain-rule.ipynb: open it in Jupyter or Colab and run its cells from the top.");

  await open(page, "scratch.html");
  await editorOf(cell(page, 1)).fill("x = Value(3.0)\nprint(x.value)");
  const scratch = await download(page);
  expect(scratch.name).toBe("scratch.ipynb");
  expect(scratch.ids).toEqual(["gradbook-about", "gradbook-builtins", "cell-1"]);
  expect(scratch.cells["cell-1"]).toBe("x = Value(3.0)\nprint(x.value)");
});
