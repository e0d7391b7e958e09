// axe-core over the pages the lessons' loop (lessons.spec, which checks
// every other lesson after Run all at 390 and 1280 px) does not reach:
// the index, the scratch page, and the lessons whose Run all trains for
// seconds (helpers.js: long), checked as they open, their training left
// to gpt.spec, tensors.spec and buildgpt.spec. Any violation, of any impact, fails; the
// pointer rests on a Run button (a hover style must keep its text
// readable).
//
// Every rule runs at 1280 px; at 390 px, the rules whose outcome depends
// on the layout (pagechecks.js: narrowRules). The others read the DOM,
// its roles, names and attributes, which are the same at both widths: the
// page shows and hides nothing by width (style.css's one narrow media
// query changes padding), and a drawing laid out top to bottom has the
// same elements and names as one laid out left to right.
const { test, open, long } = require("./helpers");
const { accessible, laptop, phone } = require("./pagechecks");

const pages = ["index.html", "scratch.html", ...long.map((slug) => `lessons/${slug}.html`)];

for (const path of pages) {
  test(`no accessibility violations on ${path}, at 1280 and 390 px, a Run button under the pointer`, async ({ page, errors }) => {
    await page.setViewportSize(laptop);
    if (path === "index.html") await page.goto(path);
    else await open(page, path);
    for (const viewport of [laptop, phone]) {
      await page.setViewportSize(viewport);
      await accessible(page, viewport.width);
    }
  });
}
