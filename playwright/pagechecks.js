// Checks of a whole page as a learner sees it, shared by the specs that
// run every lesson (lessons.spec) and those that check the pages the
// lessons' loop leaves out (a11y.spec, drawings.spec): what axe-core finds,
// and whether the drawings fit.
const { expect } = require("./helpers");
const AxeBuilder = require("@axe-core/playwright").default;

// narrowRules are the rules axe runs by default whose outcome depends on
// where things fall and what they overlap: text's contrast against what
// is drawn behind it, a region that scrolls only where its content is
// wider than the column, a link told apart from its text by its look.
const narrowRules = ["color-contrast", "scrollable-region-focusable", "link-in-text-block"];

// violations runs axe over the page (rules: only those) and lists what it
// finds, one line each, with the first few elements it names.
async function violations(page, rules) {
  // Only violations are collected in full: what passes is counted, not
  // described, which takes axe a fraction of the time.
  let axe = new AxeBuilder({ page }).options({ resultTypes: ["violations"] });
  if (rules) axe = axe.withRules(rules);
  const results = await axe.analyze();
  return results.violations.map((v) => `${v.id} (${v.impact}): ${v.help}: ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}${v.nodes.length > 3 ? ` and ${v.nodes.length - 3} more` : ""}`);
}

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

// drawingsFit checks the drawings of the page at its width (device names
// it in the figures printed): each fits its column, none overlaps, clips
// or runs out of its box, and the page does not scroll sideways. There is
// at least one drawing in view.
async function drawingsFit(page, device) {
  const r = await page.evaluate(overlaps, await page.locator("main").elementHandle());
  for (const d of r.drawings) {
    console.log(`${device} ${d.id}: ${d.natural[0]}×${d.natural[1]} drawn ${d.shown[0]}×${d.shown[1]} (${d.layout}) in a ${d.column} px column`);
    expect(d.shown[0], `${d.id} is wider than its column`).toBeLessThanOrEqual(d.column + 1);
  }
  expect(r.drawings.length, "drawings after Run all").toBeGreaterThan(0);
  expect(r.problems).toEqual([]);
  expect(r.pageWidth, "the page scrolls sideways").toBeLessThanOrEqual(r.viewport);
}

// accessible checks that axe finds no violation on the page at the width
// it has, with the pointer on the first Run button (a hover style must
// keep its text readable): every rule at a laptop's width, the rules
// whose outcome depends on the layout at a phone's (narrowRules).
async function accessible(page, width) {
  const run = page.locator("button.run").first();
  if (await run.count()) await run.hover();
  expect(await violations(page, width > 600 ? null : narrowRules), `at ${width} px`).toEqual([]);
}

// The widths the lessons are checked at.
const laptop = { width: 1280, height: 900 }, phone = { width: 390, height: 844 };

module.exports = { overlaps, drawingsFit, accessible, laptop, phone };
