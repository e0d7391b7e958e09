// Figures, printed, not asserted on time: how soon a lesson's first cell
// can run on a first visit over a 1.5 Mbit/s network (Chromium's own
// throttling, through CDP), with the files sent as brotli, as gzip and
// unencoded, and the loading progress the page shows meanwhile, on a
// lesson and on a course page that embeds cells.
const fs = require("fs");
const path = require("path");
const { test, expect, expected, port, cell } = require("./helpers");

const lesson = "lessons/chain-rule.html";
const wasmSize = () => fs.statSync(path.join(__dirname, "..", "build", "gradbook.wasm")).size;
const mb = (n) => (n / 1e6).toFixed(1);

// throttle makes page's network 1.5 Mbit/s down, 0.75 up, with 100 ms of
// latency, and sends acceptEncoding, if given, as the requests'
// Accept-Encoding ("identity": every file comes unencoded). The page's
// frames from other origins and its service worker are not throttled.
async function throttle(page, acceptEncoding) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false, latency: 100, downloadThroughput: 1.5e6 / 8, uploadThroughput: 0.75e6 / 8,
  });
  if (acceptEncoding) await cdp.send("Network.setExtraHTTPHeaders", { headers: { "Accept-Encoding": acceptEncoding } });
}

// Every text the elements matching selector show, in order, from the
// page's first moment: the page keeps them in window.seen.
function recordTexts(page, selector) {
  return page.addInitScript((sel) => {
    const seen = window.seen = [];
    new MutationObserver(() => {
      for (const el of document.querySelectorAll(sel)) {
        const t = el.textContent;
        if (t && seen[seen.length - 1] !== t) seen.push(t);
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  }, selector);
}

// resources are the files the page fetched (the page itself first), each
// with its address relative to the site, when its request started and
// its last byte came (ms after navigation), and its bytes over the
// network and decoded.
function resources(page) {
  return page.evaluate(() => {
    const site = new URL("..", document.querySelector("script[src$='gradbook.js']").src).href;
    const nav = performance.getEntriesByType("navigation")[0];
    return [nav, ...performance.getEntriesByType("resource")].map((e) => ({
      name: e.name.startsWith(site) ? e.name.slice(site.length) : e.name,
      start: e.startTime, end: e.responseEnd, encoded: e.encodedBodySize, decoded: e.decodedBodySize,
    }));
  });
}

test("figures: first runnable cell at 1.5 Mbit/s, with and without compression; the loading progress", async ({ browser, request, baseURL }) => {
  test.setTimeout(600_000);
  // Serving starts before the build's brotli copies are made.
  await expect.poll(async () => (await request.head("gradbook.wasm", { headers: { "Accept-Encoding": "br" } })).headers()["content-encoding"],
    { timeout: 120_000 }).toBe("br");
  const total = mb(wasmSize());
  const figures = [];
  for (const [name, accept, encoding] of [["brotli", null, "br"], ["gzip", "gzip", "gzip"], ["unencoded", "identity", ""]]) {
    const context = await browser.newContext({ baseURL }); // cold: an empty cache, no service worker
    const page = await context.newPage();
    await recordTexts(page, "#notebook-status");
    await throttle(page, accept);
    const wasmResponse = page.waitForResponse((r) => r.url().endsWith("/gradbook.wasm"));
    await page.goto(lesson);
    expect((await (await wasmResponse).allHeaders())["content-encoding"] || "").toBe(encoding);
    await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 240_000 });
    const readyAt = Number(await page.locator("body").getAttribute("data-ready-at"));
    const seen = await page.evaluate(() => window.seen);
    const progress = seen.filter((t) => t.startsWith("Loading the notebook… ") && / MB$/.test(t));
    expect(progress.length, `progress shown: ${JSON.stringify(seen)}`).toBeGreaterThan(1);
    for (const t of progress) expect(t).toMatch(new RegExp(`^Loading the notebook… \\d+\\.\\d of ${total.replace(".", "\\.")} MB$`));
    expect(progress[progress.length - 1]).toBe(`Loading the notebook… ${total} of ${total} MB`);
    expect(seen[seen.length - 1]).toMatch(/^Ready/);
    const files = await resources(page);
    const wasm = files.find((f) => f.name === "gradbook.wasm");
    const s = (ms) => (ms / 1000).toFixed(2);
    figures.push(`${name}: first runnable cell ${(readyAt / 1000).toFixed(1)} s after navigation; gradbook.wasm ${wasm.encoded.toLocaleString("en")} B over the network, ${wasm.decoded.toLocaleString("en")} B decoded; ${progress.length} progress texts, the last "${progress[progress.length - 1]}"; the files that came before (over the network / decoded, from and to in s):`,
      ...files.filter((f) => f.end <= readyAt).map((f) => `  ${f.name}: ${f.encoded.toLocaleString("en")} / ${f.decoded.toLocaleString("en")} B, ${s(f.start)}–${s(f.end)}`));
    await context.close();
  }
  console.log("A lesson's first visit at 1.5 Mbit/s (100 ms latency):\n  " + figures.join("\n  "));
});

// The wasm is most of what a first visit downloads: its request starts
// from the page's head (an inline script the CSP allows by its hash),
// before gradbook.js, the loader at the end of the body, has come; where a
// host's own CSP refuses that script, gradbook.js fetches the wasm itself.
// Either way it is fetched once, and the first cell runs.
test("gradbook.wasm is fetched once, from the page's head, before gradbook.js has come", async ({ browser, baseURL, errors }) => {
  test.setTimeout(300_000);
  for (const refused of [false, true]) {
    const context = await browser.newContext({ baseURL }); // cold: an empty cache, no service worker
    const page = await context.newPage();
    await throttle(page, null);
    if (refused) {
      // A host that sends a CSP of its own, without the script's hash.
      await page.route(`**/${lesson}`, async (route) => {
        const response = await route.fetch();
        const headers = { ...response.headers(), "content-security-policy": "script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:" };
        await route.fulfill({ response, headers });
      });
    }
    await page.goto(lesson);
    await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 240_000 });
    // Its first cell runs.
    const first = cell(page, 1);
    await first.getByRole("button", { name: "Run", exact: true }).click();
    await expect(first).toHaveAttribute("data-ms", /\d/, { timeout: 60_000 });
    await expect(first.locator("output.out")).not.toBeEmpty();
    await expect(first.locator("output.out")).not.toContainText("Error");
    const files = await resources(page);
    const wasms = files.filter((f) => f.name === "gradbook.wasm");
    expect(wasms.map((f) => f.name), `refused=${refused}`).toEqual(["gradbook.wasm"]);
    const script = files.find((f) => f.name === "gradbook.js");
    if (refused) {
      expect(wasms[0].start).toBeGreaterThan(script.end);
      expect(errors.join("\n")).toMatch(/inline script/i);
      expected(errors, /inline/i);
    } else {
      // It waits for no other file: it starts before any has come.
      const others = files.slice(1).filter((f) => f.name !== "gradbook.wasm");
      expect(wasms[0].start, JSON.stringify(files)).toBeLessThan(Math.min(...others.map((f) => f.end)));
    }
    await context.close();
  }
});

test("a course page says how much of Gradbook has loaded after its cells, then the cells take its place", async ({ browser }) => {
  test.setTimeout(300_000);
  // A course page of its own, where the course server serves them
  // (playwright.config.js), with no Gradbook frame to load the wasm
  // first.
  fs.mkdirSync(path.join(__dirname, ".courses"), { recursive: true });
  fs.writeFileSync(path.join(__dirname, ".courses", "loading.html"), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A course page</title><link rel="icon" href="data:,"></head>
<body><main><h1>Week 3</h1>
<pre class="gradbook-cell">x = Value(3.0, "x")
print(x.value)</pre>
<p>Then:</p>
<pre class="gradbook-cell">print(x.value * 2)</pre>
</main><script src="http://127.0.0.1:${port(8181)}/embed.js"></script></body></html>`);
  const context = await browser.newContext();
  const page = await context.newPage();
  await recordTexts(page, ".gradbook-loading");
  await throttle(page, null);
  await page.goto(`http://127.0.0.1:${port(8189)}/loading.html`);
  await expect(page.locator(".gradbook-loading").first()).toContainText("Loading Gradbook… ", { timeout: 60_000 });
  // One note after each cell; the first is announced.
  const cells = await page.locator(".gradbook-cell").count();
  await expect(page.locator(".gradbook-loading")).toHaveCount(cells);
  await expect(page.locator(".gradbook-loading[role=status]")).toHaveCount(1);
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 240_000 });
  await expect(page.locator(".gradbook-loading")).toHaveCount(0);
  const seen = await page.evaluate(() => window.seen);
  const total = mb(wasmSize());
  expect(seen[seen.length - 1]).toBe(`Loading Gradbook… ${total} of ${total} MB`);
  await context.close();
});
