// The lessons, as a learner works through them.
const { test, expect, open, runLesson, solution, goodBackward, withBackward, editorOf, lessons, long, undrawn, answer, cell, typeInto } = require("./helpers");
const { drawingsFit, accessible, laptop, phone } = require("./pagechecks");

test("the index lists every lesson in teaching order, with what it teaches and its time", async ({ page, errors }) => {
  await page.goto("index.html");
  const items = page.locator("ol.lessons li");
  await expect(items).toHaveCount(lessons.length);
  for (const [i, slug] of lessons.entries()) {
    await expect(items.nth(i)).toHaveAttribute("data-lesson", slug);
    await expect(items.nth(i).locator("a")).toHaveAttribute("href", `lessons/${slug}.html`);
    await expect(items.nth(i).locator(".minutes")).toHaveText(/\d+ min/);
    await expect(items.nth(i).locator("p")).not.toBeEmpty();
  }
});

// Every lesson as a learner meets it, on a phone and then on a laptop:
// Run all at 390 px, every check on the page passes, each worked example
// is drawn; at 390 px and again at 1280 (where the drawings lay
// themselves out again for the wider column), no drawing overlaps, clips
// or leaves its column, and axe finds no accessibility violation. The
// lessons that train for seconds (helpers.js: long) are run whole by
// gpt.spec, tensors.spec and buildgpt.spec, and drawn and checked by drawings.spec and
// a11y.spec.
for (const slug of lessons.filter((s) => !long.includes(s))) {
  test(`${slug}: Run all on a phone, every check passes; at 390 and 1280 px the drawings fit and nothing is inaccessible`, async ({ page, errors }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(phone);
    await runLesson(page, slug);
    expect(await page.locator("section.code-cell").count()).toBeGreaterThan(0);
    const outputs = (await page.locator("section.code-cell output.out").allTextContents()).join("\n");
    expect(outputs).toContain("✓");
    const drawn = !undrawn.includes(slug);
    if (drawn) expect(await page.locator("section.code-cell svg.graph").count()).toBeGreaterThan(0);
    await expect(page.locator("main .meta")).toContainText("minutes");
    await expect(page.getByRole("heading", { name: "Key points" })).toBeVisible();
    for (const [device, viewport] of [["phone", phone], ["laptop", laptop]]) {
      await page.setViewportSize(viewport);
      // The drawings fit their column again once the width settles.
      await page.waitForTimeout(400);
      if (drawn) await drawingsFit(page, device);
      await accessible(page, viewport.width);
    }
  });
}

// setLeaves types values into an explore block's number fields.
async function setLeaves(block, values) {
  for (const [name, value] of Object.entries(values)) {
    await block.getByRole("spinbutton", { name: `${name}, exact value` }).fill(String(value));
  }
}

test("02: the explore tasks tick when met", async ({ page, errors }) => {
  await open(page, "lessons/reverse-accumulation.html");
  const g1 = page.locator("#explore-linear-loss");
  const g2 = page.locator("#explore-square-of-sum");
  // The starting numbers: each block's table, a row a leaf or node.
  for (const [g, column, rows] of [
    [g1, "value", { L: "4" }], [g1, "grad", { w: "12", x: "8", b: "4", y: "-4" }],
    [g2, "value", { L: "64" }], [g2, "grad", { a: "64", b: "32" }],
  ]) {
    for (const [name, text] of Object.entries(rows)) await expect(g.locator(`tr[data-name='${name}'] .${column}`)).toHaveText(text);
  }
  await expect(g1.locator("li.task.done")).toHaveCount(0);

  const task = (block, id) => block.locator(`li.task[data-task="${id}"]`);
  await setLeaves(g1, { w: 2, x: 2, b: 1, y: 5 });
  await expect(task(g1, "loss-zero")).toHaveClass(/done/);
  for (const n of ["w", "x", "b", "y"]) await expect(g1.locator(`tr[data-name='${n}'] .grad`)).toHaveText("0");
  await setLeaves(g1, { w: 2, x: 3, b: 1, y: 10 });
  await expect(task(g1, "db-minus-6")).toHaveClass(/done/);
  await setLeaves(g1, { w: 0, x: 3, b: 1, y: 5 });
  await expect(task(g1, "dx-zero")).toHaveClass(/done/);
  await setLeaves(g1, { w: 2, x: -2, b: 1, y: 5 });
  await expect(task(g1, "dw-minus-2db")).toHaveClass(/done/);
  await expect(task(g1, "dw-minus-2db")).toContainText("(done)");
  // The drawing follows the inputs.
  await expect(g1.locator("svg.graph g.node[data-name='x'] .val")).toHaveText("value -2");

  await setLeaves(g2, { a: 1, b: 1 });
  await expect(task(g2, "da-8")).toHaveClass(/done/);
  await setLeaves(g2, { a: 2, b: -1 });
  await expect(task(g2, "da-zero")).toHaveClass(/done/);

  // Sliders drive the same state.
  await g2.getByRole("slider", { name: "a" }).fill("3");
  await expect(g2.getByRole("spinbutton", { name: "a, exact value" })).toHaveValue("3");
  await expect(g2.locator("tr[data-name='a'] .value")).toHaveText("3");
});

test("quizzes answer right and wrong with the matching feedback", async ({ page, errors }) => {
  await open(page, "lessons/reverse-accumulation.html");
  const q = page.locator("#quiz-x-plus-x");
  await expect(await answer(q, "One: there is")).toContainText("Not quite. There are two edges");
  await expect(await answer(q, "Two: each use")).toContainText("Right. Both edges carry 1 × 1 = 1");

  await open(page, "lessons/chain-rule.html");
  const n = page.locator("#quiz-numeric-check");
  await answer(n, { "∂L/∂w": "-6", "∂L/∂b": "2", "loss": "0.5" });
  // A typical wrong number gets its diagnosis; another one, a plain "not right yet".
  await expect(n.locator(".feedback")).toHaveText("Not quite. Not right yet: ∂L/∂w. That is twice the answer: the ½ in front of the square was dropped. The ½ cancels the 2 that differentiating r² brings down. Not right yet: ∂L/∂b. Right: loss.");
  await expect(n.locator(".explain")).toBeHidden();
  await expect(await answer(n, { "∂L/∂w": "3" })).toContainText("Not right yet: ∂L/∂w. The size is right but the sign is flipped");
  await expect(await answer(n, { "∂L/∂w": "-3", "∂L/∂b": "−1" })).toHaveText("All right. Right: ∂L/∂w. Right: ∂L/∂b. Right: loss.");
  await expect(n.locator(".explain")).toBeVisible();

  const open_ = page.locator("#quiz-shared-weight");
  await expect(open_.getByRole("button", { name: "Show the model answer" })).toBeDisabled();
  await open_.getByLabel("Your answer").fill("Because the contributions add up first.");
  await open_.getByRole("button", { name: "Show the model answer" }).click();
  await expect(open_.locator(".model")).toBeVisible();
  await expect(open_.locator(".model")).toContainText("sum of the contributions");

  await open(page, "lessons/fan-out.html");
  const f = page.locator("#quiz-fan-out-quiz");
  await expect(await answer(f, "The multiply rule is wrong")).toContainText("Not quite. The multiply rule is right");
  await expect(await answer(f, "The second slot's contribution")).toContainText("Right. Yes: 3 from the first slot");
});

test("02: the exercise passes with a correct backward and explains an overwriting one", async ({ page, errors }) => {
  await open(page, "lessons/reverse-accumulation.html");
  const ex = page.locator("#exercise-write-backward");
  const editor = editorOf(ex);
  const starter = await editor.inputValue();
  const withBody = (body) => withBackward(starter, body);

  await ex.getByRole("button", { name: "Check" }).click();
  await expect(ex.locator(".report")).toContainText("✗ the worked example");

  const overwrite = goodBackward.replace("grads[i] += grads[name] * d", "grads[i] = grads[name] * d");
  await editor.fill(withBody(overwrite));
  await ex.getByRole("button", { name: "Check" }).click();
  await expect(ex.locator(".report")).toContainText("x is used twice and got 1 instead of 2: are you assigning (=) instead of adding (+=)?");
  await expect(ex).toHaveAttribute("data-state", "failed");

  await editor.fill(withBody(goodBackward));
  await ex.getByRole("button", { name: "Run", exact: true }).click();
  await expect(ex.locator("output.out")).toContainText('"a": 42.0, "b": 28.0, "c": 14.0');
  await ex.getByRole("button", { name: "Check" }).click();
  await expect(ex.locator(".report")).toContainText("All tests pass");
  await expect(ex.locator(".report")).toContainText("✓ a random graph");
  await expect(ex).toHaveAttribute("data-state", "passed");

  // Hints one at a time, and the solution behind its button.
  await ex.getByRole("button", { name: "Show a hint" }).click();
  await expect(ex.locator(".hint-list li:visible")).toHaveCount(1);
  await ex.getByRole("button", { name: "Show a hint" }).click();
  await expect(ex.locator(".hint-list li:visible")).toHaveCount(2);
  await expect(ex.locator("details.solution pre")).toBeHidden();
  await ex.getByText("Show a solution").click();
  await expect(ex.locator("details.solution pre")).toContainText("grads[i] += grads[name] * d");
});

test("04: the fan-out drawing shows 6, and 3 with the overwrite toggle", async ({ page, errors }) => {
  await open(page, "lessons/fan-out.html");
  const c = page.locator("#cell-square");
  await c.getByRole("button", { name: "Run", exact: true }).click();
  await expect(c.locator("g.node[data-name='x'] .grad")).toContainText("grad 6");
  await c.getByLabel("Overwrite instead of add (the bug)").check();
  await expect(c.locator("g.node[data-name='x'] .overwrite.wrong")).toHaveText("bug: 3");
});

test("04: backward twice without zeroing: predict, then 12, and the drawing's toggle doubles every gradient", async ({ page, errors }) => {
  await open(page, "lessons/fan-out.html");
  const q = page.locator("#quiz-twice-without-zeroing");
  const c = page.locator("#cell-twice");
  await expect(c).toBeHidden(); // folded until the prediction is made
  await expect(await answer(q, /^12: the second pass adds/)).toContainText("every gradient doubles");
  await c.getByRole("button", { name: "Run", exact: true }).click();
  await expect(c.locator("output.out")).toContainText("after one pass: 6.0  after a second without zeroing: 12.0");
  // The program's a.grad is 12; the drawing says its gradients are what
  // backward() would give, and the toggle shows the second call's.
  const fig = c.locator("figure.drawing");
  await expect(fig.locator("figcaption")).toContainText("gradients as y.backward() would give them");
  await expect(fig.locator("g.node[data-name='a'] .grad")).toHaveText("grad 6");
  await fig.getByLabel("Backward twice, not zeroed").check();
  await expect(fig.locator("g.node[data-name='a'] .twice.wrong")).toHaveText("2nd call: 12");
  // One bug at a time.
  await fig.getByLabel("Overwrite instead of add (the bug)").check();
  await expect(fig.getByLabel("Backward twice, not zeroed")).not.toBeChecked();
  await expect(fig.locator("g.node[data-name='a'] .overwrite.wrong")).toHaveText("bug: 3");
});

test("02: a recursive backward in visiting order: predict 8, and the drawing marks b, which sent its gradient on twice", async ({ page, errors }) => {
  await open(page, "lessons/reverse-accumulation.html");
  const q = page.locator("#quiz-recursive-order");
  await q.getByRole("textbox").fill("4");
  await q.getByRole("button", { name: "Check my answer" }).click();
  await expect(q.locator(".feedback")).toContainText("4 is the chain rule's answer");
  await q.getByRole("textbox").fill("8");
  await q.getByRole("button", { name: "Check my answer" }).click();
  const c = page.locator("#cell-recursive");
  await c.getByRole("button", { name: "Run", exact: true }).click();
  await expect(c.locator("output.out")).toContainText("visiting order: 8.0  reverse topological order: 4.0");
  const fig = c.locator("figure.drawing");
  await fig.getByLabel("Recursive backward, in visiting order").check();
  await expect(fig.locator("g.node[data-name='a'] .recursive.wrong")).toHaveText("recursive: 8");
  await expect(fig.locator("g.node[data-name='b'] .recursive.wrong")).toHaveText("recursive: 2 (sent on 2×)");
});

// products lists the product of each path the Paths panel shows.
async function products(figure) {
  const items = await figure.locator(".paths li").allTextContents();
  return items.map((t) => t.split(" = ").pop().trim()).sort();
}

test("05: the paths the prose names are the paths the drawings list, full and detached", async ({ page, errors }) => {
  await runLesson(page, "every-path");
  const full = page.locator("#cell-network figure.drawing").first();
  const cut = page.locator("#cell-detached figure.drawing").first();
  await expect(full.locator("g.node[data-name='loss'] .val")).toHaveText("value 8");
  await expect(cut.locator("g.node[data-name='loss'] .val")).toHaveText("value 8");
  await expect(full.locator("g.node[data-name='w'] .grad")).toHaveText("grad 32");
  await expect(cut.locator("g.node[data-name='w'] .grad")).toHaveText("grad 24");
  expect((await full.locator("g.edge[data-from='p'] text.contrib").allTextContents()).sort()).toEqual(["12", "4"]);
  // The prose: "the hidden path brings 24 and the direct path 8"; cut, "product 0" and "still brings 24".
  const prose = await page.locator("main").innerText();
  expect(prose).toContain("the hidden path brings 24 and the direct path 8");
  await full.getByLabel("Paths from").selectOption({ label: "w" });
  await expect(full.locator(".paths li")).toHaveCount(2);
  expect(await products(full)).toEqual(["24", "8"]);
  await expect(full.locator(".paths")).toContainText("Sum of the paths: 32");
  await cut.getByLabel("Paths from").selectOption({ label: "w" });
  await expect(cut.locator(".paths li")).toHaveCount(2);
  expect(await products(cut)).toEqual(["0", "24"]);
  await expect(cut.locator(".paths")).toContainText("skip");
  await expect(cut.locator(".paths")).toContainText("Sum of the paths: 24");
});

test("checking gradients: the kink's table, and the hidden unit off after the large step", async ({ page, errors }) => {
  await runLesson(page, "checking-gradients");
  const step = page.locator("#cell-one-step figure.drawing").first();
  await expect(step.locator("g.node[data-name='h'] .val")).toHaveText("value 0");
  await expect(page.locator("#cell-kink output.out")).toContainText("kink: the left and right differences tend to");
});

test("exercises checked by hidden tests: find the bug, then relu at exactly 0; the pass survives a reload", async ({ page, errors }) => {
  await open(page, "lessons/fan-out.html");
  const ex = page.locator("#exercise-find-the-bug");
  const editor = editorOf(ex);
  const starter = await editor.inputValue();
  await ex.getByRole("button", { name: "Check" }).click();
  // The symptom, not the cause: the chain passes, the shared value does not.
  await expect(ex.locator(".report")).toContainText("✓ a chain: y = tanh(a · b)");
  await expect(ex.locator(".report")).toContainText("✗ one value in both slots: y = x · x at 3");
  await expect(ex.locator(".report")).toContainText("dy/dx for y = x · x at x = 3: got 3, expected 6");
  await expect(ex).toHaveAttribute("data-state", "failed");
  await editor.fill(starter.replace(/grads\[(ins\[\d\])\] = /g, "grads[$1] += "));
  await ex.getByRole("button", { name: "Check" }).click();
  await expect(ex.locator(".report")).toContainText("All tests pass");
  await expect(ex.locator(".report")).toContainText("✓ a value used three times");
  await expect(ex).toHaveAttribute("data-state", "passed");
  await expect(page.locator("#save-status")).toHaveText("Saved.");
  await page.reload();
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready");
  await expect(page.locator("#exercise-find-the-bug")).toHaveAttribute("data-state", "passed");
  await expect(page.locator("#exercise-find-the-bug .report")).toContainText("You passed this exercise before");

  await open(page, "lessons/gradient-flow.html");
  const rules = page.locator("#exercise-local-rules");
  const code = editorOf(rules);
  const base = await code.inputValue();
  await code.fill(base.replace('return [0.0]   # write tanh\'s rule: it may use n["data"], the output', 'return [1 - n["data"] * n["data"]]')
    .replace("return [0.0]   # write relu's rule", 'return [1.0 if ps[0]["data"] >= 0 else 0.0]'));
  await rules.getByRole("button", { name: "Check" }).click();
  await expect(rules.locator(".report")).toContainText("✓ relu on both sides");
  await expect(rules.locator(".report")).toContainText("At exactly 0 your relu passes the gradient through (slope 1). Take the slope at the corner as 0");
  await code.fill((await code.inputValue()).replace('>= 0 else', '> 0 else'));
  await rules.getByRole("button", { name: "Check" }).click();
  await expect(rules.locator(".report")).toContainText("All tests pass");
  await expect(rules.locator(".report")).toContainText("✓ a graph you have not seen");
});

test("a predict-first quiz: a wrong guess gets its diagnosis before the cell shows the number", async ({ page, errors }) => {
  await open(page, "lessons/every-path.html");
  // The quiz comes before the cell that computes the answer.
  const order = await page.locator("#quiz-predict-detached, #cell-detached").evaluateAll((els) => els.map((e) => e.id));
  expect(order).toEqual(["quiz-predict-detached", "cell-detached"]);
  const q = page.locator("#quiz-predict-detached");
  await expect(await answer(q, { "dL/dw": "32" })).toContainText("That is the full network's gradient. The forward numbers are the same, but backward follows the graph");
  await expect(await answer(q, { "dL/dw": "24" })).toContainText("All right.");
});

test("06: the layer exercise passes with a right layer and explains one built from numbers", async ({ page, errors }) => {
  await open(page, "lessons/neurons-and-mlp.html");
  const ex = page.locator("#exercise-write-layer");
  const editor = editorOf(ex);
  await editor.fill(`def layer(neurons, x):
    return [Value(math.tanh(sum([w.value * xi for w, xi in zip(n[:-1], x)]) + n[-1].value)) for n in neurons]`);
  await ex.getByRole("button", { name: "Check" }).click();
  await expect(ex.locator(".report")).toContainText("output 0 is a new Value made from a plain number, so its graph does not reach the weights");
  await editor.fill(solution("neurons-and-mlp", "layer"));
  await ex.getByRole("button", { name: "Check" }).click();
  await expect(ex.locator(".report")).toContainText("All tests pass");
  await expect(ex).toHaveAttribute("data-state", "passed");
});

test("07: training draws the loss curve and the decision boundary, with their text alternatives", async ({ page, errors }) => {
  test.setTimeout(120_000);
  await open(page, "lessons/training-on-moons.html");
  const boundary = page.locator("#cell-boundary");
  await boundary.getByRole("button", { name: "Run", exact: true }).click();
  await expect(boundary.locator("output.out")).toContainText("✓ the first point", { timeout: 60_000 });
  const fig = boundary.locator("figure.plot");
  await expect(fig.locator("figcaption")).toHaveText("Decision boundary after 100 steps");
  await expect(fig.locator("svg.plot")).toBeVisible();
  await expect(fig.locator(".plot-summary")).toContainText("100 of 100 points (100%) lie on their class's side");
  const train = page.locator("#cell-train");
  await train.getByRole("button", { name: "Run", exact: true }).click();
  await expect(train.locator("output.out")).toContainText("accuracy 1.0", { timeout: 60_000 });
  await expect(train.locator(".plot-summary")).toHaveText("loss goes from 1.35 to 0.012 over 100 steps, going up at 30 of them.");
  await train.locator("figure.plot summary").click();
  await expect(train.locator("figure.plot table tr").nth(1)).toContainText("loss");
  // Readable at phone width: the plot fits the screen.
  await page.setViewportSize({ width: 360, height: 740 });
  const box = await train.locator("svg.plot").boundingBox();
  expect(box.width).toBeLessThanOrEqual(360);
  expect(box.width).toBeGreaterThan(250);
});

test("07: hist overlays two layers, a tensor's and a list's, with their summary and table", async ({ page, errors }) => {
  await open(page, "lessons/training-on-moons.html");
  const c = cell(page, 1);
  await typeInto(c, `h1 = torch.tensor([[-1.0, -0.99], [0.0, 0.5], [0.98, 1.0]])
hist({"layer 1": h1, "layer 2": [-0.5, 0, 0, 0.5]}, bins=4, title="tanh outputs", saturated=0.97)`);
  await c.getByRole("button", { name: "Run", exact: true }).click();
  const fig = c.locator("figure.plot");
  await expect(fig.locator("figcaption")).toHaveText("tanh outputs", { timeout: 60_000 });
  await expect(fig.locator("svg.plot polyline")).toHaveCount(2);
  await expect(fig.locator("svg.plot .legend")).toContainText("layer 2");
  await expect(fig.locator(".plot-summary")).toHaveText(
    "A histogram in 4 bins from -1 to 1. layer 1: 6 numbers, mean 0.08167, standard deviation 0.9111, 66.67% beyond ±0.97; layer 2: 4 numbers, mean 0, standard deviation 0.4082, 0.00% beyond ±0.97.",
  );
  await fig.locator("summary").click();
  await expect(fig.locator("table tr").first().locator("th")).toHaveText(["from", "to", "layer 1", "layer 2"]);
  await expect(fig.locator("table tr").nth(4).locator("td")).toHaveText(["0.5", "1", "3", "1"]);
});
