// What a learner sees of drawings and feedback, at a laptop's width and a
// phone's: a drawing shows the gradients the program holds or says whose
// they are; a prediction keeps its secret; wrong answers earn a hint, then
// the worked answer; an experiment is not a failure; errors point at the
// mistake; "you do the backward pass" judges each step; a failed backward
// exercise draws the graph it failed on.
const { test, expect, open, cell, typeInto, editorOf, skipPredictions, runAll, goodBackward, withBackward } = require("./helpers");

// run presses a cell's Run button and waits for its result.
async function run(c) {
  await c.getByRole("button", { name: "Run", exact: true }).click();
  await expect(c).toHaveAttribute("data-state", /passed|failed|error|changed/);
}

for (const [device, viewport] of [["laptop", { width: 1280, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test.describe(`${device}, ${viewport.width} px`, () => {
    test.use({ viewport });

    test(`a drawing shows the program's gradients, or says whose they are (${device})`, async ({ page, errors }) => {
      await open(page, "scratch.html");
      const c = cell(page, 1);
      // backward ran from L, then a changed: the drawing is of L as backward
      // left it, the gradient a.grad still holds.
      await typeInto(c, `a = Value(2.0, "a")\nL = a * a\nL.backward()\na.value += 0.1\nprint(a.grad)`);
      await run(c);
      await expect(c.locator("output.out")).toHaveText("4.0");
      await expect(c.locator("figure.drawing figcaption")).toHaveText("The graph behind L, with the gradients L.backward() set");
      await expect(c.locator("g.node[data-name='a'] .grad")).toHaveText("grad 4");
      // Nobody ran backward from after: the title says the gradients are
      // what after.backward() would give, not what a holds.
      await typeInto(c, `a = Value(2.0, "a")\nL = a * a\nL.backward()\na.value += 0.1\nafter = a * 3\nprint(a.grad)`);
      await run(c);
      await expect(c.locator("output.out")).toHaveText("4.0");
      await expect(c.locator("figure.drawing figcaption")).toHaveText("The graph behind after: gradients as after.backward() would give them");
      await expect(c.locator("g.node[data-name='a'] .grad")).toHaveText("grad 3");
      // A single value gets no drawing.
      await typeInto(c, `w = Value(0.0)`);
      await run(c);
      await expect(c.locator("figure.drawing")).toHaveCount(0);

      // The first lesson's step: its drawing is of after, never run
      // backward, and says so; the drawing above it still shows a.grad 6.
      await open(page, "lessons/a-derivative-is-a-nudge.html");
      await skipPredictions(page);
      await runAll(page);
      await expect(page.locator("#cell-step-up figcaption")).toHaveText("The graph behind after: gradients as after.backward() would give them");
      await expect(page.locator("#cell-engine-four figcaption")).toHaveText("The graph behind L, with the gradients L.backward() set");
      await expect(page.locator("#cell-engine-four g.node[data-name='a'] .grad")).toHaveText("grad 6");
    });

    test(`a prediction keeps its secret until it is made, and Run all stops at it (${device})`, async ({ page, errors }) => {
      await open(page, "lessons/a-derivative-is-a-nudge.html");
      const fold = page.locator("#after-predict-up");
      await expect(fold).not.toHaveClass(/open/);
      await expect(page.locator("#cell-step-up")).toBeHidden();
      await expect(page.getByText("L went from −8 to −7.286496")).toBeHidden();
      await expect(fold.locator(".prediction-wait")).toBeVisible();
      await page.getByRole("button", { name: "Run all" }).click();
      await expect(page.locator("#notebook-status")).toContainText("cells above the prediction");
      await expect(page.locator("#notebook-status")).toContainText("Make the prediction, or skip it, to run the rest.");
      await expect(page.locator("#cell-step-up")).not.toHaveAttribute("data-state", /.+/);

      // Two wrong answers bring the hint, a third the worked answer.
      const q = page.locator("#quiz-predict-up");
      const check = q.getByRole("button", { name: "Check my answer" });
      await q.getByLabel("…goes down").check();
      await check.click();
      await expect(q.locator(".feedback")).toContainText("Not quite.");
      await expect(q.locator(".quiz-hint")).toBeHidden();
      // The first answer, even a wrong one, is the prediction: what follows opens.
      await expect(fold).toHaveClass(/open/);
      await expect(page.locator("#cell-step-up")).toBeVisible();
      await q.getByLabel("…rises by about 0.01, the size").check();
      await check.press("Enter");
      await expect(q.locator(".quiz-hint")).toBeVisible();
      await expect(q.locator(".quiz-hint")).toContainText("Σ ∂L/∂x · Δx");
      await expect(q.locator(".explain")).toBeHidden();
      await q.getByLabel("…goes down").check();
      await q.getByLabel("…goes down").press("Enter"); // Enter on a choice checks it
      await expect(q.locator(".explain")).toBeVisible();
      await expect(q.locator(".explain")).toContainText("0.72");
      // Markdown in feedback renders: *times its gradient* is emphasis.
      await q.getByLabel("…rises by about 0.01, the size").check();
      await check.click();
      await expect(q.locator(".feedback em")).toHaveText("times its gradient");

      // Made, the prediction stays made after a reload.
      await page.reload();
      await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready");
      await expect(page.locator("#after-predict-up")).toHaveClass(/open/);
      await expect(page.locator("#cell-step-up")).toBeVisible();
    });

    test(`a numeric quiz: its typical wrong answers explained, then a hint, then the worked answer (${device})`, async ({ page, errors }) => {
      await open(page, "lessons/chain-rule.html");
      const q = page.locator("#quiz-predict-two-branches");
      const answer = async (n) => {
        await q.getByLabel("∂L/∂a").fill(n);
        await q.getByLabel("∂L/∂a").press("Enter");
      };
      await answer("12");
      await expect(q.locator(".feedback")).toContainText("That is the square's share alone, 2a.");
      await expect(q.locator(".quiz-hint")).toBeHidden();
      await answer("16");
      await expect(q.locator(".feedback")).toHaveText("Not quite.");
      await expect(q.locator(".quiz-hint")).toBeVisible();
      await expect(q.locator(".quiz-hint")).toContainText("Add what every use of a sends back.");
      await expect(q.locator(".explain")).toBeHidden();
      await answer("20");
      await expect(q.locator(".explain")).toBeVisible();
      await expect(q.locator(".explain")).toContainText("∂L/∂a = 12 + 1 = 13");
      await answer("13");
      await expect(q.locator(".feedback")).toHaveText("All right.");
    });

    test(`an experiment is not a failure: a changed worked cell, cells below out of date, each cell's own time (${device})`, async ({ page, errors }) => {
      await open(page, "lessons/a-derivative-is-a-nudge.html");
      await skipPredictions(page);
      await runAll(page);
      // Each cell counts its own time, not the run's.
      const times = await page.locator("section.code-cell[data-ms]").evaluateAll((els) => els.map((e) => Number(e.dataset.ms)));
      expect(times.length).toBeGreaterThan(3);
      const total = await page.locator("#notebook-status").textContent();
      console.log(`${device}: Run all of the first lesson, "${total}", cells ${times.map((t) => t.toFixed(0)).join(", ")} ms`);
      expect(new Set(times.map((t) => t.toFixed(1))).size, "every cell shows the same time").toBeGreaterThan(1);

      const c = page.locator("#cell-engine-four");
      await expect(c.locator(".cell-state")).toHaveText("✓ done");
      await typeInto(c, (await editorOf(c).inputValue()).replace('Value(2.0, "a")', 'Value(3.0, "a")'));
      // The cells below show results from the old a: out of date.
      await expect(page.locator("#cell-step-up")).toHaveAttribute("data-stale", "true");
      await expect(page.locator("#cell-step-up .cell-state")).toHaveText("out of date: a cell above changed");
      await expect(page.locator("#cell-nudge-four")).not.toHaveAttribute("data-stale", /.*/);
      await run(c);
      await expect(c).toHaveAttribute("data-state", "changed");
      await expect(c.locator("output.out")).toContainText("L.value: the lesson expects -8; yours gives -2");
      await expect(c.locator("output.out")).not.toContainText("✗");
      await expect(c.locator(".cell-state")).toHaveText("your version");
      // Running the stale cell brings it up to date.
      await run(page.locator("#cell-step-up"));
      await expect(page.locator("#cell-step-up")).not.toHaveAttribute("data-stale", /.*/);

      // Progress counts what the learner answered or solved, not cells run.
      await page.goto("index.html");
      await expect(page.locator("li[data-lesson='a-derivative-is-a-nudge'] .completion")).toHaveText(/^0 of \d+ done$/);
      await expect(page.locator("li[data-lesson='a-derivative-is-a-nudge'] .completion")).toBeVisible();
      const box = await page.locator("li[data-lesson='a-derivative-is-a-nudge'] .completion").boundingBox();
      expect(box.height, "the completion breaks across lines").toBeLessThan(30);
    });

    test(`errors point at the mistake; Tab into the editor keeps the code (${device})`, async ({ page, errors }) => {
      await open(page, "scratch.html");
      const c = cell(page, 1);
      const out = c.locator("output.out");
      // A name that starts with f before a quote is not an f-string.
      await typeInto(c, `a, f = Value(2.0 "a"), Value(1.0, "f")`);
      await run(c);
      await expect(c).toHaveAttribute("data-state", "error");
      await expect(out).not.toContainText("f-string");
      await expect(out).toContainText("line 1");
      await typeInto(c, `x = 2\nprint(f"{x}")`);
      await run(c);
      await expect(out).toContainText("Starlark has no f-strings");
      // A bracket never closed is reported where it opened.
      await typeInto(c, `x = (1 + 2\ny = 3`);
      await run(c);
      await expect(out).toContainText("'(' opened on line 1 is never closed");

      // Tab from the cell's last button moves into the editor and changes
      // nothing; the way out is shown while the editor has the keyboard.
      const code = "x = 1\nprint(x + 1)";
      await typeInto(c, code);
      await c.getByRole("button", { name: "Run", exact: true }).focus();
      for (let i = 0; i < 6 && !(await c.locator(".cm-content").evaluate((e) => e.contains(document.activeElement))); i++) {
        await page.keyboard.press("Tab");
      }
      await expect(c.locator(".cm-content")).toBeFocused();
      await expect(editorOf(c)).toHaveValue(code);
      await expect(c.getByText("Escape, then Tab")).toBeVisible();
      await page.keyboard.press("Shift+Enter");
      await expect(out).toHaveText("2");
    });

    test(`you do the backward pass: solved step by step, and a slip named (${device})`, async ({ page, errors }) => {
      await open(page, "lessons/a-derivative-is-a-nudge.html");
      await run(page.locator("#cell-engine-four"));
      const fig = page.locator("#engine-four-d1");
      await fig.getByLabel("You do the backward pass").check();
      await expect(fig.locator(".step-text")).toContainText("Do the reverse pass yourself");
      const blanks = fig.locator(".blanks");
      const fill = async (name, n) => {
        const b = blanks.locator(".blank").filter({ hasText: `${name}.grad +=` });
        await b.locator("input").fill(n);
        return b.locator(".blank-verdict");
      };
      const checkStep = () => blanks.getByRole("button", { name: "Check this step" }).click();
      // Step 1, at L = d · f.
      await expect(blanks).toContainText("Step 1 of 3, at L");
      await fill("d", "-2");
      await fill("f", "4");
      await checkStep();
      // Step 2, at d = e + c.
      await expect(blanks).toContainText("Step 2 of 3, at d");
      await fill("e", "-2");
      await fill("c", "-2");
      await checkStep();
      // Step 3, at e = a · b: the local derivative alone is a slip.
      await expect(blanks).toContainText("Step 3 of 3, at e");
      const a = await fill("a", "-3");
      const b = await fill("b", "-4");
      await checkStep();
      await expect(a).toContainText("That is the local derivative ∂e/∂a alone.");
      await expect(b).toContainText("Right:");
      await expect(blanks).toContainText("Step 3 of 3, at e");
      await fill("a", "6");
      await checkStep();
      await expect(blanks).toContainText("You did the whole reverse pass: every gradient is in the drawing.");
      await expect(fig.locator("g.node[data-name='a'] .grad")).toHaveText("grad 6");
    });

    test(`a failed backward exercise draws the hidden graph, the learner's gradients beside the engine's (${device})`, async ({ page, errors }) => {
      await open(page, "lessons/reverse-accumulation.html");
      const ex = page.locator("#exercise-write-backward");
      const starter = await editorOf(ex).inputValue();
      await typeInto(ex, withBackward(starter, goodBackward.replace("grads[i] += grads[name] * d", "grads[i] = grads[name] * d")));
      await ex.getByRole("button", { name: "Check" }).click();
      await expect(ex.locator(".report")).toContainText("are you assigning (=) instead of adding (+=)?");
      const fig = ex.locator("figure.drawing");
      await expect(fig.locator("figcaption")).toContainText("with your gradients beside the engine's");
      await expect(fig.locator("g.node.first-wrong")).toHaveCount(1);
      await expect(fig.locator(".step-text")).toContainText("your gradients match the engine's until");
      await expect(fig.locator("text.theirs").first()).toContainText("yours");
      // Fixed, the check passes and the drawing goes.
      await typeInto(ex, withBackward(starter, goodBackward));
      await ex.getByRole("button", { name: "Check" }).click();
      await expect(ex.locator(".report")).toContainText("All tests pass.");
      await expect(ex.locator("figure.drawing")).toHaveCount(0);
    });
  });
}
