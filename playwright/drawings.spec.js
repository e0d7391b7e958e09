// The drawings as a learner sees them, at a laptop's width and a phone's:
// after Run all, in every lesson, no label overlaps another or a node, none
// is clipped, and every drawing fits its column with the page never
// scrolling sideways. The boxes are the browser's own, measured in its
// fonts, so this checks what the native layout test (notebook/draw) can
// only estimate.
const { test, expect, open, skipPredictions, runAll, lessons, undrawn } = require("./helpers");

// overlaps lists what is wrong in the drawings inside root, as the page
// renders them: a text or box outside its SVG, a line of text that leaves
// its node's box, and any two boxes or lines of text that overlap (a node's
// text in its own box aside). A text's box is its ink, from the cap height
// to the descenders, not the line's leading.
function overlaps(root) {
  const slack = 0.75; // CSS pixels: a rounding's worth at any scale
  const problems = [];
  const hit = (a, b) => a.left < b.right - slack && b.left < a.right - slack && a.top < b.bottom - slack && b.top < a.bottom - slack;
  const inside = (a, b) => a.left >= b.left - slack && a.right <= b.right + slack && a.top >= b.top - slack && a.bottom <= b.bottom + slack;
  const drawings = [];
  for (const svg of root.querySelectorAll("figure.drawing svg.graph")) {
    const box = svg.getBoundingClientRect();
    if (box.width === 0) continue; // in a closed fold or details
    const scale = box.width / svg.viewBox.baseVal.width;
    const items = [];
    for (const g of svg.querySelectorAll(":scope > g")) {
      const name = `${g.getAttribute("class")} ${g.dataset.name || g.dataset.group || `${g.dataset.from}→${g.dataset.to}`}`;
      const rect = g.querySelector(":scope > rect:not(.frame)");
      const own = rect ? rect.getBoundingClientRect() : null;
      if (own) items.push({ what: `box of ${name}`, g, r: own, text: false });
      for (const t of g.querySelectorAll("text")) {
        const r = t.getBoundingClientRect();
        const size = parseFloat(getComputedStyle(t).fontSize) * scale;
        // The em box is taller than the ink by about a fifth of the size,
        // above and below: lines set at 1.25 would touch otherwise.
        const ink = { left: r.left, right: r.right, top: r.top + 0.2 * size, bottom: r.bottom - 0.12 * size };
        items.push({ what: `text "${t.textContent}" of ${name}`, g, r: ink, text: true, own });
      }
    }
    for (let i = 0; i < items.length; i++) {
      const a = items[i];
      if (!inside(a.r, box)) problems.push(`${svg.id || svg.closest("figure").id}: ${a.what} is clipped`);
      if (a.text && a.own && !inside(a.r, a.own)) problems.push(`${svg.closest("figure").id}: ${a.what} runs out of its box`);
      for (let j = 0; j < i; j++) {
        const b = items[j];
        if (!hit(a.r, b.r)) continue;
        if (a.g === b.g && (a.text !== b.text)) continue; // text in its own box
        problems.push(`${svg.closest("figure").id}: ${a.what} overlaps ${b.what}`);
      }
    }
    const holder = svg.closest(".svg-box");
    drawings.push({
      id: svg.closest("figure").id,
      natural: [svg.viewBox.baseVal.width, svg.viewBox.baseVal.height],
      shown: [Math.round(box.width), Math.round(box.height)],
      column: holder.clientWidth,
      layout: svg.dataset.layout,
    });
  }
  return { problems, drawings, pageWidth: document.documentElement.scrollWidth, viewport: window.innerWidth };
}

for (const [device, viewport] of [["laptop", { width: 1280, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });
    for (const slug of lessons.filter((s) => !undrawn.includes(s))) {
      test(`${slug}: after Run all no drawing overlaps, clips or leaves its column (${device})`, async ({ page, errors }) => {
        test.setTimeout(120_000);
        await open(page, `lessons/${slug}.html`);
        await skipPredictions(page);
        await page.getByRole("button", { name: "Run all" }).click();
        await expect(page.locator("#notebook-status")).toContainText("Ran all", { timeout: 90_000 });
        // Every drawing in view has been fitted to its column.
        await page.waitForTimeout(300);
        const r = await page.evaluate(overlaps, await page.locator("main").elementHandle());
        for (const d of r.drawings) {
          console.log(`${device} ${d.id}: ${d.natural[0]}×${d.natural[1]} drawn ${d.shown[0]}×${d.shown[1]} (${d.layout}) in a ${d.column} px column`);
          expect(d.shown[0], `${d.id} is wider than its column`).toBeLessThanOrEqual(d.column + 1);
        }
        expect(r.drawings.length, "drawings after Run all").toBeGreaterThan(0);
        expect(r.problems).toEqual([]);
        expect(r.pageWidth, "the page scrolls sideways").toBeLessThanOrEqual(r.viewport);
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

