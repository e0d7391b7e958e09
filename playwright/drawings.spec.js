// The drawings as a learner sees them, at a laptop's width and a phone's:
// after Run all no label overlaps another or a node, none is clipped, and
// every drawing fits its column with the page never scrolling sideways
// (pagechecks.js: drawingsFit). The boxes are the browser's own, measured
// in its fonts, so this checks what the native layout test (notebook/draw)
// can only estimate. lessons.spec checks every lesson so; here, the
// lessons its loop leaves out because they train for seconds, and how a
// big graph folds on a phone.
const { test, expect, open, skipPredictions, runAll, long, undrawn } = require("./helpers");
const { overlaps, drawingsFit, laptop, phone } = require("./pagechecks");

for (const [device, viewport] of [["laptop", laptop], ["phone", phone]]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });
    for (const slug of long.filter((s) => !undrawn.includes(s))) {
      test(`${slug}: after Run all no drawing overlaps, clips or leaves its column (${device})`, async ({ page, errors }) => {
        test.setTimeout(120_000);
        await open(page, `lessons/${slug}.html`);
        await skipPredictions(page);
        await runAll(page, 90_000);
        // Every drawing in view has been fitted to its column.
        await page.waitForTimeout(300);
        await drawingsFit(page, device);
      });
    }
  });
}

test.describe("at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test("a big graph is drawn folded by neuron; Step brings its node into view; a neuron opens with a click and folds again", async ({ page, errors }) => {
    await open(page, "lessons/neurons-and-mlp.html");
    const c = page.locator("#cell-mlp-pass");
    await skipPredictions(page);
    await runAll(page);
    const fig = c.locator("figure.drawing");
    await expect(fig.locator("g.node.group.folded")).toHaveCount(9);
    await expect(fig.locator("g.group.folded[data-group='L1 neuron 2'] .label")).toHaveText("L1 neuron 2");
    // The page is scrolled to the figure's controls; the output is above.
    await fig.getByRole("button", { name: "Step", exact: true }).scrollIntoViewIfNeeded();
    await fig.getByRole("button", { name: "Step", exact: true }).click();
    const active = fig.locator("g.node.active");
    await expect(active).toHaveCount(1);
    await expect(active).toBeInViewport();
    for (let i = 0; i < 3; i++) await fig.getByRole("button", { name: "Step", exact: true }).click();
    await expect(fig.locator("g.node.active")).toBeInViewport();
    // Open a neuron: its weighted sum and weights are drawn; fold again.
    await fig.locator("g.group.folded[data-group='L1 neuron 2']").click();
    await expect(fig.locator("g.group.folded[data-group='L1 neuron 2']")).toHaveCount(0);
    // Its 14 values: the weights, bias, products and sums as nodes, the
    // three inputs (plain numbers) as chips beside the products.
    await expect(fig.locator("g.node[data-group='L1 neuron 2']")).toHaveCount(11);
    await expect(fig.locator("g.node.leaf[data-group='L1 neuron 2']")).toHaveCount(4); // three weights and a bias
    const r = await page.evaluate(overlaps, await c.elementHandle());
    expect(r.problems).toEqual([]);
    await fig.getByRole("button", { name: "Fold every group" }).click();
    await expect(fig.locator("g.node.group.folded")).toHaveCount(9);
  });
});

// The checker itself finds what it looks for: two labels on top of each
// other, a label that leaves its box, a node cut off by the SVG's edge.
test("the overlap checker finds overlaps, runaway labels and clipping", async ({ page, errors }) => {
  await page.setContent(`<main><figure class="drawing" id="bad"><div class="svg-box"><svg class="graph" viewBox="0 0 200 100" width="200" height="100">
    <g class="node" data-name="a" transform="translate(10,10)"><rect width="60" height="40"/><text x="4" y="14">a</text><text x="4" y="18">value 2</text></g>
    <g class="node" data-name="b" transform="translate(100,10)"><rect width="40" height="40"/><text x="4" y="14">a label far too long for its box</text></g>
    <g class="node" data-name="c" transform="translate(170,60)"><rect width="60" height="30"/><text x="4" y="14">c</text></g>
  </svg></div></figure></main>`);
  const r = await page.evaluate(overlaps, await page.locator("main").elementHandle());
  const all = r.problems.join("\n");
  expect(all).toContain(`text "value 2" of node a overlaps text "a" of node a`);
  expect(all).toContain(`text "a label far too long for its box" of node b runs out of its box`);
  expect(all).toContain("box of node c is clipped");
});

