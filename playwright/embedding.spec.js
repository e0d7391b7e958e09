// The README's embed snippet, pasted into a course page on another origin,
// against two static hosts of the exported site: one that sends
// Access-Control-Allow-Origin and one that sends no CORS headers at all.
const fs = require("fs");
const path = require("path");
const { test, expect, expected, open, typeInto, runSays, embedded, port, coursePage } = require("./helpers");

const hosts = {
  "a host that sends CORS headers": `http://127.0.0.1:${port(8182)}/courses/gradbook/`,
  "a host that sends none": `http://127.0.0.1:${port(8188)}/gradbook/`,
};
const coursePort = port(8189);

// The course pages are written where the course server (playwright.config.js)
// serves them from.
const courseDir = path.join(__dirname, ".courses");

for (const [name, site] of Object.entries(hosts)) {
  test(`the README's snippet on ${name}: an inline cell and a lesson cell run, the wasm loads once, an edit survives a reload`, async ({ page, errors }) => {
    const file = name.includes("none") ? "none.html" : "cors.html";
    fs.writeFileSync(path.join(courseDir, file), coursePage(site));
    const wasm = [];
    page.on("request", (r) => { if (r.url().endsWith("gradbook.wasm")) wasm.push(r.url()); });
    const start = Date.now();
    await open(page, `http://127.0.0.1:${coursePort}/${file}`);
    console.log(`figures: embedded cells ready ${Date.now() - start} ms after opening the course page, on ${name}`);
    const inline = embedded(page, 0);
    const ref = embedded(page, 1);
    await runSays(inline, "dy/dx = 6.0");
    await expect(inline.locator("svg.graph")).toHaveCount(1);
    await ref.getByRole("button", { name: "Run", exact: true }).click();
    await expect(ref.getByRole("status")).toContainText("loss 8.0  dL/dw 24.0");
    // The real editor, in the course page's own flow.
    await expect(inline.locator(".cm-editor")).toHaveCount(1);
    expect(wasm.length).toBe(1);
    // Without CORS, one hidden frame of the Gradbook site fetched the files.
    await expect(page.locator('iframe[src$="proxy.html"]')).toHaveCount(name.includes("none") ? 1 : 0);

    await typeInto(inline, 'x = Value(5.0, "x")\ny = x * x\ny.backward()\nprint("dy/dx =", x.grad)');
    await runSays(inline, "dy/dx = 10.0");
    await expect(page.locator(".gradbook-saved")).toHaveText("Saved.");
    await page.reload();
    await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
    await expect(embedded(page, 0).locator("textarea.editor")).toHaveValue(/Value\(5.0, "x"\)/);
    if (name.includes("none")) expected(errors, /CORS policy/, /net::ERR_FAILED/);
  });
}

test("a course page whose CSP forgets 'wasm-unsafe-eval' is told so in one line", async ({ page, errors }) => {
  const site = hosts["a host that sends CORS headers"];
  const origin = new URL(site).origin;
  const csp = `default-src 'self'; script-src 'self' ${origin}; worker-src blob:; connect-src 'self' ${origin}; style-src 'self' ${origin}`;
  fs.writeFileSync(path.join(courseDir, "strict.html"), coursePage(site, `<meta http-equiv="Content-Security-Policy" content="${csp}">`));
  await page.goto(`http://127.0.0.1:${coursePort}/strict.html`);
  const note = page.locator(".gradbook-error").first();
  await expect(note).toHaveText("Gradbook could not start here: this page's Content-Security-Policy does not allow WebAssembly: add 'wasm-unsafe-eval' to its script-src.", { timeout: 30_000 });
  await expect(page.locator(".gradbook-error")).toHaveCount(2);
  expected(errors, /Content Security Policy|Content-Security-Policy|WebAssembly/);
});

test("a course page whose CSP blocks Gradbook's scripts names the directive", async ({ page, errors }) => {
  const site = hosts["a host that sends CORS headers"];
  const origin = new URL(site).origin;
  fs.writeFileSync(path.join(courseDir, "noscripts.html"), coursePage(site, `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' ${origin}/courses/gradbook/embed.js; style-src 'self' ${origin}">`));
  await page.goto(`http://127.0.0.1:${coursePort}/noscripts.html`);
  await expect(page.locator(".gradbook-error").first()).toHaveText(`Gradbook could not start here: this page's Content-Security-Policy blocks it: add ${origin} to script-src.`, { timeout: 30_000 });
  expected(errors, /Content Security Policy|Content-Security-Policy/);
});

test("a course page whose CSP forbids Gradbook's worker still runs its cells, on the page, and says so", async ({ page, errors }) => {
  const site = hosts["a host that sends CORS headers"];
  const origin = new URL(site).origin;
  // No blob: in script-src or worker-src: the runner's worker cannot start.
  const csp = `default-src 'self'; script-src 'self' ${origin} 'wasm-unsafe-eval'; connect-src 'self' ${origin}; style-src 'self' ${origin}`;
  fs.writeFileSync(path.join(courseDir, "noworker.html"), coursePage(site, `<meta http-equiv="Content-Security-Policy" content="${csp}">`));
  await open(page, `http://127.0.0.1:${coursePort}/noworker.html`);
  await runSays(embedded(page, 0), "dy/dx = 6.0", { timeout: 30_000 });
  // The notice sits at the top of the first embedded cell.
  await expect(page.locator(".gradbook-embed").first().getByRole("alert")).toHaveText("Gradbook's runner could not start here (this page's Content-Security-Policy forbids the runner's worker: add blob: to its worker-src): cells run on the page itself, and a long run holds the page up until it ends.");
  expected(errors, /Creating a worker from 'blob:/, /Loading the image 'data:,'/, /^Content-Security-Policy violation: \S+ refused (blob|data)/);
});

// A Gradbook frame's height shows how much work the learner saved in it
// (a saved 40-line cell makes it taller): it is told only to a parent
// that asks as embed.js does. A page of another origin on the same site
// (another port here), which shares the frame's storage, framing a cell
// without embed.js hears no height; with embed.js, the frame is sized.
test("a frame tells its height only to a page whose embed.js asked for it", async ({ page, errors }) => {
  const site = hosts["a host that sends CORS headers"];
  const frame = `<iframe title="Gradbook: fan-out" src="${site}embed.html?lesson=fan-out&amp;cell=square" width="100%" height="200"></iframe>`;
  const listen = `<script>window.heights = []; addEventListener("message", (e) => { if (e.data && e.data.gradbook === "height") heights.push(e.data.height); });</script>`;
  fs.writeFileSync(path.join(courseDir, "spy.html"), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not a course page</title><link rel="icon" href="data:,"></head><body>${listen}${frame}</body></html>`);
  fs.writeFileSync(path.join(courseDir, "asks.html"), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A course page</title><link rel="icon" href="data:,"></head><body>${listen}${frame}<script src="${site}embed.js"></script></body></html>`);

  // The learner saved a 40-line cell there.
  await open(page, `${site}lessons/fan-out.html`);
  await typeInto(page.locator("#cell-square"), Array.from({ length: 40 }, (_, i) => `x${i} = ${i}`).join("\n"));
  await expect(page.locator("#save-status")).toHaveText("Saved.");

  await page.goto(`http://127.0.0.1:${coursePort}/spy.html`);
  const spied = page.frameLocator("iframe");
  await expect(spied.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
  await expect(spied.locator("textarea.editor")).toHaveValue(/x39 = 39/);
  await spied.getByRole("button", { name: "Run", exact: true }).click(); // the frame grows: still nothing told
  await expect(spied.locator("output.out")).toBeVisible();
  // A round trip through the frame's own messages, after which a height
  // would have come.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
  expect(await page.evaluate(() => heights)).toEqual([]);
  expect((await page.locator("iframe").boundingBox()).height).toBeLessThan(210);

  await page.goto(`http://127.0.0.1:${coursePort}/asks.html`);
  await expect(page.frameLocator("iframe").locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
  await expect.poll(async () => (await page.locator("iframe").boundingBox()).height).toBeGreaterThan(600);
  expect((await page.evaluate(() => heights)).length).toBeGreaterThan(0);
});
