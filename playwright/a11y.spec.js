// axe-core over every page (the index, the scratch page and every lesson)
// at 1280 and 390 px, with the pointer resting on a Run button (a hover
// style must keep its text readable): any violation, of any impact,
// fails. A lesson's cells have run first (Run all, predictions skipped),
// so that outputs, drawings and checks are checked too; the three lessons
// whose Run all trains for seconds (helpers.js: long) are checked as they
// open, their training left to gpt.spec and tensors.spec.
//
// Every rule runs at 1280 px; at 390 px, the rules whose outcome depends
// on the layout (narrowRules). The others read the DOM, its roles, names
// and attributes, which are the same at both widths: the page shows and
// hides nothing by width (style.css's one narrow media query changes
// padding), and a drawing laid out top to bottom has the same elements
// and names as one laid out left to right.
const { test, expect, open, lessons, long, skipPredictions } = require("./helpers");
const AxeBuilder = require("@axe-core/playwright").default;

const pages = ["index.html", "scratch.html", ...lessons.map((slug) => `lessons/${slug}.html`)];

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

for (const path of pages) {
  test(`no accessibility violations on ${path}, at 1280 and 390 px, a Run button under the pointer`, async ({ page, errors }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    if (path === "index.html") await page.goto(path);
    else await open(page, path);
    const slug = path.replace(/^lessons\/|\.html$/g, "");
    if (path.startsWith("lessons/") && !long.includes(slug)) {
      await skipPredictions(page);
      await page.getByRole("button", { name: "Run all" }).click();
      await expect(page.locator("#notebook-status")).toContainText("Ran all", { timeout: 60_000 });
    }
    const run = page.locator("button.run").first();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      if (await run.count()) await run.hover();
      expect(await violations(page, width > 600 ? null : narrowRules), `at ${width} px`).toEqual([]);
    }
  });
}
