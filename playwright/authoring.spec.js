// A course author's own lessons folder: the starter lesson, the live
// preview as the file is saved, an error shown on the page with its file
// and line, and a static export of the folder that works offline.
const fs = require("fs");
const os = require("os");
const path = require("path");
const { spawn, execFileSync } = require("child_process");
const { test, expect, reloadOffline, checkSays, port } = require("./helpers");

const repo = path.join(__dirname, "..");

// serve runs go run serve.go with args, and returns the child process
// once url answers.
async function serve(args, url) {
  // Its own process group: go run starts the server as a child of its own,
  // and stop ends both.
  const child = spawn("go", ["run", "serve.go", ...args], { cwd: repo, stdio: ["ignore", "pipe", "pipe"], detached: true });
  child.stop = () => { try { process.kill(-child.pid, "SIGTERM"); } catch (_) { /* gone already */ } };
  let log = "";
  child.stdout.on("data", (d) => { log += d; });
  child.stderr.on("data", (d) => { log += d; });
  child.log = () => log;
  try {
    await expect.poll(async () => (await fetch(url).catch(() => ({ ok: false }))).ok, { timeout: 240_000 }).toBe(true);
  } catch (err) {
    child.stop();
    throw new Error(`serve.go ${args.join(" ")} did not start:\n${log}`);
  }
  return child;
}

test("an author's lessons folder: live preview on save, an error shown with file and line, an offline export", async ({ page, context, errors }) => {
  test.setTimeout(420_000);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "gradbook-author-"));
  const folder = path.join(root, "lessons");
  execFileSync("go", ["run", "serve.go", "-new", path.join(folder, "my-lesson")], { cwd: repo });
  const file = path.join(folder, "my-lesson.md");
  const starter = fs.readFileSync(file, "utf8");
  fs.copyFileSync(path.join(__dirname, "fixtures", "hostile.md"), path.join(folder, "hostile.md"));

  const site = `http://127.0.0.1:${port(8186)}/`;
  const server = await serve(["-dir", path.join(root, "site"), "-builtin=false", "-lessons", folder, "-addr", `127.0.0.1:${port(8186)}`], site + "index.html");
  try {
    await page.goto(site + "index.html");
    await expect(page.locator("ol.lessons li")).toHaveCount(2);

    // Nothing from a lesson file reaches the page as markup or script.
    await page.goto(site + "lessons/hostile.html");
    await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
    await page.getByRole("button", { name: "Run all" }).click();
    await expect(page.locator("section.code-cell").first().getByRole("status")).toContainText("<b>not bold</b>");
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    expect(await page.locator("main script, main iframe, main [onerror], main [onclick]").count()).toBe(0);

    await page.goto(site + "lessons/my-lesson.html");
    await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
    await expect(page.locator("h1")).toHaveText("My lesson");

    // Saving the file reloads the page by itself.
    let saved = Date.now();
    fs.writeFileSync(file, starter.replace("# My lesson", "# My lesson, revised"));
    await expect(page.locator("h1")).toHaveText("My lesson, revised", { timeout: 15_000 });
    const reload = Date.now() - saved;
    await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
    console.log(`figures: from saving the lesson file to the reloaded page: ${reload} ms`);

    // A mistake shows on the page, with the file and the line; the server goes on.
    const broken = starter.replace("```quiz id=predict", "```quizz id=predict");
    const line = broken.split("\n").findIndex((l) => l.startsWith("```quizz")) + 1;
    fs.writeFileSync(file, broken);
    await expect(page.locator(".lesson-problem")).toContainText(`${file}:${line}: unknown block kind "quizz": did you mean quiz?`, { timeout: 15_000 });
    fs.writeFileSync(file, starter);
    await expect(page.locator("h1")).toHaveText("My lesson", { timeout: 15_000 });
    await expect(page.locator(".lesson-problem")).toHaveCount(0);
    await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
  } finally {
    await page.goto("about:blank"); // no page listens when the server stops
    server.stop();
  }

  // Export the folder and use it offline from a plain static server.
  const out = path.join(root, "export");
  execFileSync("go", ["run", "serve.go", "-dir", path.join(root, "site"), "-builtin=false", "-lessons", folder, "-out", out], { cwd: repo });
  expect(fs.readFileSync(path.join(out, "lessons", "my-lesson.html"), "utf8")).not.toContain("__gradbook");
  const host = spawn("node", [path.join(__dirname, "static-server.js"), out, String(port(8187)), "/course/"], { stdio: "ignore" });
  try {
    const url = `http://127.0.0.1:${port(8187)}/course/`;
    await expect.poll(async () => (await fetch(url + "index.html").catch(() => ({ ok: false }))).ok).toBe(true);
    await page.goto(url + "lessons/my-lesson.html");
    await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
    await reloadOffline(page, context);
    const c = page.locator("#cell-worked");
    await c.getByRole("button", { name: "Run", exact: true }).click();
    await expect(c.locator("output.out")).toContainText("L = -4.0  dL/da = -2.0  dL/db = 2.0");
    await expect(c).toHaveAttribute("data-state", "passed");
    const ex = page.locator("#exercise-write-it");
    await checkSays(ex, "def dL_da(a, b):\n    return b + 1", "All tests pass");
  } finally {
    host.kill();
    fs.rmSync(root, { recursive: true, force: true });
  }
});
