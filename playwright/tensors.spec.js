// The tensor lessons in the page: the scalar graph behind a tensor
// computation, the layer exercise, the ninja's backward by hand with every
// cmp close, its BatchNorm exercise naming Bessel's correction, and
// 2,000 training steps with the learner's own gradients; the activations
// lesson's histograms, gains, update ratios and BatchNorm, and its init
// exercise; attention's backward with every cmp agreeing and its two
// exercises naming their usual mistakes (figures printed, not asserted on
// time).
const path = require("path");
const { test, expect, open, runLesson, outputsSay, editorOf, runMs, solutionOf, checkSays } = require("./helpers");

const lessonFile = (slug) => path.join(__dirname, "..", "site", "lessons", slug + ".md");

test("from Values to tensors: the scalar graph of a tensor layer, and the layer exercise", async ({ page, errors }) => {
  await runLesson(page, "from-values-to-tensors");
  await expect(page.locator("#cell-rules output.out")).toContainText("✓ dW              | exact: True  | approximate: True  | maxdiff: 0");
  // The drawing of the small case: Ws's elements are leaves named
  // Ws[k,j], each with autograd's gradient.
  const fig = page.locator("#cell-scalars figure.drawing");
  await expect(fig.locator("g.node[data-name='Ws[2,1]'] .grad")).toHaveText("grad 0.42782");
  await expect(fig.locator("g.node[data-name='Ws[1,1]'] .grad")).toHaveText("grad -1.7113");
  await expect(page.locator("#cell-scalars output.out")).toContainText("0.42781939");

  const ex = page.locator("#exercise-layer-backward");
  const starter = await editorOf(ex).inputValue();
  await checkSays(ex, starter.replace("    dW = dout\n", "    dW = dout.T.matmul(x)\n"), "the transpose is on the wrong side");
  await checkSays(ex, starter.replace("    dx = dout\n    dW = dout\n    db = dout\n", "    dx = dout.matmul(W.T)\n    dW = x.T.matmul(dout)\n    db = dout.sum(0)\n"), "All tests pass");
});

test("the backprop ninja: every gradient by hand is autograd's; 2,000 steps with your own backward beat the bigram model; figures", async ({ page, errors }) => {
  test.setTimeout(180_000);
  const ranAll = await runLesson(page, "backprop-ninja", 150_000);
  await outputsSay(page, {
    "embeddings": "✓ C, at once",
    "fused-bn": "✓ hprebn in one formula | exact: False | approximate: True",
    "held-out": "held-out loss: the MLP 2.3809  the bigram model 2.4622",
  });
  const names = (await page.locator("#cell-sample output.out").textContent()).split("\n")[0].trim().split(" ");
  expect(names).toHaveLength(20);
  const train = Number(await page.locator("#cell-train").getAttribute("data-ms"));
  const data = Number(await page.locator("#cell-data").getAttribute("data-ms"));
  console.log(`ninja: 2,000 training steps with the learner's backward: ${(train / 1000).toFixed(2)} s in the page (${(train / 2000).toFixed(2)} ms a step); the data set ${(data / 1000).toFixed(2)} s; Run all ${(ranAll / 1000).toFixed(1)} s`);
  console.log(`ninja: sampled names: ${names.join(" ")}`);

  // BatchNorm's variance with n where the forward has n − 1.
  const ex = page.locator("#exercise-ninja-bn");
  const solution = solutionOf(lessonFile("backprop-ninja"), "ninja-bn");
  const starter = await editorOf(ex).inputValue();
  await checkSays(ex, starter + "\n\n" + solution.replace('d["bnvar"] / (n - 1)', 'd["bnvar"] / n'), "Bessel's correction");
});

test("activations and gradients: the first loss, saturated tanh layers and the gain that levels them, the update ratios, BatchNorm; the init exercise names its mistakes; figures", async ({ page, errors }) => {
  test.setTimeout(180_000);
  const ranAll = await runLesson(page, "activations-and-gradients", 150_000);
  await outputsSay(page, {
    "first-loss-randn": "first loss with randn weights everywhere: 22.2902   ln 27 = 3.2958",
    "first-loss-small": "first loss with a small output layer: 3.3191",
    "saturated": "share beyond ±0.97, layer by layer: [0.73, 0.82, 0.83, 0.85, 0.83]",
    "saturated-grads": "layer 1 against layer 5: 31.4 times",
    "gain": "output spread by layer: [0.78, 0.69, 0.67, 0.68, 0.66]",
    "no-bias": "✓ the bias gets no gradient",
  });
  const sat = page.locator("#cell-saturated figure.plot");
  await expect(sat.locator("figcaption")).toHaveText("tanh outputs at the start, randn weights");
  await expect(sat.locator(".plot-summary")).toContainText("beyond ±0.97");
  await expect(page.locator("#cell-ratios figure.plot .legend")).toContainText("guide: 1e-3");
  const ms = async (id) => Number(await page.locator(`#cell-${id}`).getAttribute("data-ms"));
  console.log(`activations: Run all ${(ranAll / 1000).toFixed(1)} s in the page; the data ${((await ms("data")) / 1000).toFixed(2)} s, two 200-step trainings with the ratios ${((await ms("train")) / 1000).toFixed(2)} s, BatchNorm's ${((await ms("batchnorm")) / 1000).toFixed(2)} s`);
  console.log(`activations: ${await page.locator("#cell-train output.out").textContent()}`.trim());

  // The exercise: randn's spread, √fan_out, then the solution.
  const ex = page.locator("#exercise-init-weights");
  const right = solutionOf(lessonFile("activations-and-gradients"), "init-weights") + "\n";
  await checkSays(ex, await editorOf(ex).inputValue(), "the weights keep randn's spread of 1");
  await checkSays(ex, right.replace("/ math.sqrt(sizes[i])", "/ math.sqrt(sizes[i + 1])"), "you divided by √fan_out");
  await checkSays(ex, right, "All tests pass");
});

test("attention's backward by hand: every cmp agrees, masked scores get 0; both exercises pass and name the usual mistakes", async ({ page, errors }) => {
  await runLesson(page, "attention-backward");
  await expect(page.locator("#cell-softmax output.out")).toContainText("✓ masked          | exact: True  | approximate: True  | maxdiff: 0");
  await expect(page.locator("#cell-softmax output.out")).toContainText("the largest gradient at a hidden place: 0");
  await expect(page.locator("#cell-qk output.out")).toContainText("✓ Wq              | exact: False | approximate: True");
  for (const [id, wrongs] of [
    ["softmax-backward", [["wei * (dwei - (dwei * wei).sum(-1, keepdim=True))", "wei * (1 - wei) * dwei", "only the diagonal of the softmax's Jacobian"],
      ["wei * (dwei - (dwei * wei).sum(-1, keepdim=True))", "dwei - (dwei * wei).sum(-1, keepdim=True)", "a gradient flows into masked positions"]]],
    ["qk-backward", [["datt = dscaled * (1 / math.sqrt(head_size))", "datt = dscaled", "√head_size = 2 times autograd's"],
      ["datt.transpose(-2, -1) @ q", "datt @ q", "dk: the transpose is on the wrong side"]]],
  ]) {
    const ex = page.locator(`#exercise-${id}`);
    const right = solutionOf(lessonFile("attention-backward"), id) + "\n";
    for (const [from, to, says] of wrongs) await checkSays(ex, right.replace(from, to), says);
    await checkSays(ex, right, "All tests pass");
  }
});

test("PyTorch's syntax in a cell: x @ W, logits[:, -1] and F.softmax, and @ on Values placed in the line", async ({ page, errors }) => {
  await open(page, "scratch.html");
  const { out } = await runMs(page, `x = torch.tensor([[[1.0, 2.0], [3.0, 4.0]], [[0.5, -1.0], [2.0, 0.0]]])
W = torch.tensor([[1.0, 0.0], [1.0, 1.0]])
logits = x @ W
last = logits[:, -1]
print(last)
print(F.softmax(last, dim=-1))`);
  expect(out).toContain("tensor([[7, 4], [2, 0]])");
  expect(out).toContain("tensor([[0.95257413, 0.047425873], [0.88079708, 0.11920292]])");
  // @ on scalars: what is wrong, and where.
  const c = page.locator("section.code-cell").first();
  await editorOf(c).fill("a = Value(2.0)\nb = a @ a");
  await c.getByRole("button", { name: "Run", exact: true }).click();
  await expect(c.getByRole("status")).toContainText("@ is a matrix product: use it on tensors, not on Value and Value");
  await expect(c.getByRole("status")).toContainText("cell 1, line 2");
});
