// Static hosting under a sub-path, offline use, a new version offered,
// cells embedded in a course page on another origin, the CSP, and sharing.
const fs = require("fs");
const os = require("os");
const path = require("path");
const { spawn } = require("child_process");
const { test, expect, open, reloadOffline, cell, typeInto, runSays, embedded, editorOf, skipPredictions, lessons, port } = require("./helpers");

const exported = `http://127.0.0.1:${port(8182)}/courses/gradbook/`;

// deploy copies the static export into a deploy of its own, which a test
// may change under the page, serves it on port under /site/, and opens a
// lesson there under its service worker.
async function deploy(page, port) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gradbook-deploy-"));
  fs.cpSync(path.join(__dirname, ".export"), dir, { recursive: true });
  const server = spawn("node", [path.join(__dirname, "static-server.js"), dir, String(port), "/site/"], { stdio: "ignore" });
  try {
    await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/site/index.html`).catch(() => ({ ok: false }))).ok).toBe(true);
    await page.goto(`http://127.0.0.1:${port}/site/lessons/chain-rule.html`);
    await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
    await page.evaluate(async () => { await navigator.serviceWorker.ready; });
    await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  } catch (err) {
    server.kill();
    throw err;
  }
  return { dir, server };
}

// newServiceWorker rewrites a deploy's sw.js as the build would for a new
// version in which file has its content on disk now.
function newServiceWorker(dir, version, file) {
  const sw = path.join(dir, "sw.js");
  const sum = require("crypto").createHash("sha256").update(fs.readFileSync(path.join(dir, file))).digest("hex");
  fs.writeFileSync(sw, fs.readFileSync(sw, "utf8")
    .replace(/const VERSION = "[0-9a-f]+";/, `const VERSION = "${version}";`)
    .replace(new RegExp(`"${file.replace(".", "\\.")}":"[0-9a-f]+"`), `"${file}":"${sum}"`));
}
const course = `http://127.0.0.1:${port(8183)}/index.html`;

// The pages' script-src: the site's own files, the one inline script that
// starts gradbook.wasm's download (by its SHA-256), and WebAssembly.
const scriptSrc = /script-src 'self' 'sha256-[A-Za-z0-9+/]{43}=' 'wasm-unsafe-eval';/;

test("the static export works from a plain file server under a sub-path", async ({ page, errors }) => {
  await page.goto(exported);
  await expect(page.locator("ol.lessons li")).toHaveCount(lessons.length);
  await page.getByRole("link", { name: /Reverse accumulation/ }).click();
  await expect(page).toHaveURL(exported + "lessons/reverse-accumulation.html");
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
  await skipPredictions(page);
  await page.getByRole("button", { name: "Run all" }).click();
  await expect(page.locator("#notebook-status")).toContainText("Ran all", { timeout: 30_000 });
  const n = await page.locator("section.code-cell").count();
  await expect(page.locator('section.code-cell[data-state="passed"]')).toHaveCount(n);
  // Every address in the page is relative.
  const absolute = await page.evaluate(() => [...document.querySelectorAll("[src], [href]")]
    .map((e) => e.getAttribute("src") || e.getAttribute("href")).filter((u) => /^(\/|https?:)/.test(u)));
  expect(absolute).toEqual([]);
  // The CSP travels with the page: the site's scripts, the head's one
  // inline script by its hash, WebAssembly, and no other inline script.
  const meta = page.locator('meta[http-equiv="Content-Security-Policy"]');
  await expect(meta).toHaveAttribute("content", scriptSrc);
  expect(await meta.getAttribute("content")).not.toContain("unsafe-inline");
});

test("the dev server sends the Content-Security-Policy", async ({ request }) => {
  const res = await request.get("lessons/chain-rule.html");
  expect(res.headers()["content-security-policy"]).toMatch(scriptSrc);
  expect(res.headers()["content-security-policy"]).not.toContain("unsafe-inline");
  const wasm = await request.get("gradbook.wasm");
  expect(wasm.headers()["content-type"]).toBe("application/wasm");
});

test("offline after the first visit: lessons, cells and progress work", async ({ page, context, errors }) => {
  await page.goto(exported + "lessons/chain-rule.html");
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
  // The service worker has precached the site: cut the network and reload.
  await reloadOffline(page, context);
  const c = page.locator("#cell-engine");
  await typeInto(c, "print('offline', 6 * 7)");
  await c.getByRole("button", { name: "Run", exact: true }).click();
  await expect(c.getByRole("status")).toHaveText("offline 42");
  await expect(page.locator("#save-status")).toHaveText("Saved.");
  await page.goto(exported + "lessons/fan-out.html");
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
  await page.goto(exported + "lessons/chain-rule.html");
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
  await expect(page.locator("#cell-engine").locator("textarea.editor")).toHaveValue("print('offline', 6 * 7)");
});

test("a new deploy is offered, and taken whole", async ({ page, errors }, info) => {
  const { dir, server } = await deploy(page, port(8184));
  try {
    const before = await page.evaluate(() => caches.keys());

    // Deploy a new version: a changed file and its service worker.
    fs.appendFileSync(path.join(dir, "style.css"), "\n/* the new version */\n");
    newServiceWorker(dir, "feedfacefeedface", "style.css");
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
    const banner = page.locator("#update-banner");
    await expect(banner).toContainText("A new version of Gradbook is ready", { timeout: 30_000 });
    // Nothing changes until the learner says so.
    expect(await page.evaluate(() => fetch("../style.css").then((r) => r.text()))).not.toContain("the new version");
    await Promise.all([page.waitForEvent("load"), banner.getByRole("button", { name: "Reload to use it" }).click()]);
    await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
    expect(await page.evaluate(() => fetch("../style.css").then((r) => r.text()))).toContain("the new version");
    const after = await page.evaluate(() => caches.keys());
    expect(after.some((k) => k.endsWith(":feedfacefeedface"))).toBe(true);
    expect(after).not.toEqual(before);
    expect(after.filter((k) => before.includes(k))).toEqual([]);
  } finally {
    server.kill();
  }
});

test("a half-finished deploy is refused: the last complete build is served until the whole new one is there", async ({ page, errors }) => {
  test.setTimeout(120_000);
  const { dir, server } = await deploy(page, port(8185));
  try {
    const before = await page.evaluate(() => caches.keys());
    const update = () => page.evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      const settled = new Promise((resolve) => reg.addEventListener("updatefound", () => {
        const w = reg.installing;
        w.addEventListener("statechange", () => { if (w.state === "redundant" || w.state === "installed") resolve(w.state); });
      }, { once: true }));
      await reg.update().catch(() => {});
      return settled;
    });

    // Only the new sw.js is up: it names a style.css that is not there yet.
    const css = path.join(dir, "style.css");
    const old = fs.readFileSync(css, "utf8");
    fs.writeFileSync(css, old + "\n/* the new version */\n");
    newServiceWorker(dir, "0123456789abcdef", "style.css");
    fs.writeFileSync(css, old);
    expect(await update()).toBe("redundant");
    await expect(page.locator("#update-banner")).toHaveCount(0);
    expect(await page.evaluate(() => caches.keys())).toEqual(before);
    await page.reload();
    await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
    expect(await page.evaluate(() => fetch("../style.css").then((r) => r.text()))).not.toContain("the new version");

    // The rest of the deploy arrives: now the new build is offered, whole.
    fs.writeFileSync(css, old + "\n/* the new version */\n");
    expect(await update()).toBe("installed");
    const banner = page.locator("#update-banner");
    await expect(banner).toContainText("A new version of Gradbook is ready", { timeout: 30_000 });
    await Promise.all([page.waitForEvent("load"), banner.getByRole("button", { name: "Reload to use it" }).click()]);
    await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
    expect(await page.evaluate(() => fetch("../style.css").then((r) => r.text()))).toContain("the new version");
    expect((await page.evaluate(() => caches.keys())).some((k) => k.endsWith(":0123456789abcdef"))).toBe(true);
  } finally {
    server.kill();
  }
});

test("a course page embeds cells both ways, loads the wasm once, and keeps progress", async ({ page, errors }) => {
  const wasmLoads = [];
  page.on("request", (r) => { if (r.url().endsWith("gradbook.wasm") && r.frame() === page.mainFrame()) wasmLoads.push(r.url()); });
  await open(page, course);
  const inline = embedded(page, 0);
  const ref = embedded(page, 2);
  await runSays(inline, "dy/dx = 6.0");
  await expect(inline.locator("svg.graph")).toHaveCount(1);
  await runSays(embedded(page, 1), "x is still 3.0");
  await ref.getByRole("button", { name: "Run", exact: true }).click();
  await expect(ref.getByRole("status")).toContainText("loss 8.0  dL/dw 24.0");

  const frame = page.frameLocator("iframe");
  await expect(frame.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
  await frame.getByRole("button", { name: "Run", exact: true }).click();
  await expect(frame.getByRole("status").filter({ hasText: "dL/da" })).toContainText("dL/da = 42.0");
  // The frame sizes itself to its content.
  await expect.poll(async () => (await page.locator("iframe").boundingBox()).height).toBeGreaterThan(300);
  expect(wasmLoads.length).toBe(1);

  // Progress survives a reload, in the course page and in the frame.
  await typeInto(inline, 'x = Value(5.0, "x")\ny = x * x\ny.backward()\nprint("dy/dx =", x.grad)');
  await runSays(inline, "dy/dx = 10.0");
  await expect(page.locator("#save-status")).toHaveCount(0);
  await typeInto(frame.locator("section.code-cell"), "print('framed')");
  await frame.getByRole("button", { name: "Run", exact: true }).click();
  await expect(frame.locator("#save-status")).toHaveText("Saved.");
  await expect(page.locator(".gradbook-saved")).toHaveText("Saved.");
  await page.reload();
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
  await expect(embedded(page, 0).locator("textarea.editor")).toHaveValue(/Value\(5.0, "x"\)/);
  await expect(page.frameLocator("iframe").locator("section.code-cell").locator("textarea.editor")).toHaveValue("print('framed')");
});

test("share a cell's code by link; opening it does not overwrite the learner's version until kept", async ({ page, context, errors }) => {
  await open(page, "lessons/fan-out.html");
  const c = page.locator("#cell-square");
  await typeInto(c, "print('mine')");
  await expect(page.locator("#save-status")).toHaveText("Saved.");
  await typeInto(c, "print('to share')");
  await c.getByRole("button", { name: "Share" }).click();
  const link = await c.getByLabel("Link to this code").inputValue();
  expect(link).toContain("#share=square:");
  await typeInto(c, "print('mine')");
  await expect(page.locator("#save-status")).toHaveText("Saved.");

  const other = await context.newPage();
  await other.goto(link);
  await expect(other.locator("body")).toHaveAttribute("data-notebook", "ready");
  const oc = other.locator("#cell-square");
  await expect(oc.locator("textarea.editor")).toHaveValue("print('to share')");
  await expect(oc.locator(".shared")).toContainText("shared with you");
  // Not saved: the learner's own version is still what is kept.
  await page.reload();
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready");
  await expect(page.locator("#cell-square textarea.editor")).toHaveValue("print('mine')");
  // Back to my version, then open the link again and run it: now it is kept.
  await oc.getByRole("button", { name: "Back to my version" }).click();
  await expect(oc.locator("textarea.editor")).toHaveValue("print('mine')");
  await other.goto("about:blank");
  await other.goto(link);
  await expect(other.locator("body")).toHaveAttribute("data-notebook", "ready");
  await other.locator("#cell-square").getByRole("button", { name: "Run", exact: true }).click();
  await expect(other.locator("#cell-square output.out")).toHaveText("to share");
  await expect(other.locator("#cell-square .shared")).toHaveCount(0); // running it kept it
  await expect(other.locator("#save-status")).toHaveText("Saved.");
  await page.reload();
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready");
  await expect(page.locator("#cell-square textarea.editor")).toHaveValue("print('to share')");
});

test("a lesson in a frame, by its old address as the README once gave it: no site chrome, and it tells the parent its height", async ({ page, errors }) => {
  await page.goto(course);
  await page.evaluate((src) => {
    const f = document.createElement("iframe");
    f.id = "lesson-frame";
    f.title = "A whole lesson";
    f.src = src;
    f.height = "150";
    document.querySelector("main").append(f);
  }, `http://127.0.0.1:${port(8181)}/lessons/04-fan-out.html?frame`);
  const frame = page.frameLocator("#lesson-frame");
  await expect(frame.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
  await expect(frame.locator("header.top")).toBeHidden();
  await expect(frame.getByRole("heading", { name: "Fan-out and accumulation" })).toBeVisible();
  await expect.poll(async () => (await page.locator("#lesson-frame").boundingBox()).height).toBeGreaterThan(1000);
});
