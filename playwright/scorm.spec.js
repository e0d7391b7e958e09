// Gradbook lessons in an LMS: the SCORM 2004 and 1.2 packages that
// `go run serve.go -scorm` and `-scorm12` write, unzipped and launched by
// a stand-in LMS (playwright/lms: scorm-again's runtime, what LMS players
// embed, in the parent page, with the SCO in a frame). What the LMS
// records is read from scorm-again's own data model.
const fs = require("fs");
const os = require("os");
const path = require("path");
const zlib = require("zlib");
const { execFileSync, spawn } = require("child_process");
const { test, expect, editorOf, checkSays, port, answer, solutionOf } = require("./helpers");

const repo = path.join(__dirname, "..");
const lmsURL = `http://127.0.0.1:${port(8190)}/`;

// unzip writes the files of a zip into dir, reading its central
// directory (Go's archive/zip writes sizes there).
function unzip(file, dir) {
  const buf = fs.readFileSync(file);
  const end = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = buf.readUInt16LE(end + 10);
  let p = buf.readUInt32LE(end + 16);
  const names = [];
  for (let i = 0; i < count; i++) {
    const method = buf.readUInt16LE(p + 10), size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28), extraLen = buf.readUInt16LE(p + 30), commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString("utf8", p + 46, p + 46 + nameLen);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + size);
    if (name.split("/").includes("..") || path.isAbsolute(name)) throw new Error(`a zip entry outside the package: ${name}`);
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), method === 8 ? zlib.inflateRawSync(data) : data);
    names.push(name);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return names;
}

// The packages and the stand-in LMS's files, made in beforeAll: Playwright
// loads this file in more than the worker that runs it.
let root, www;
const sizes = {};
let server;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  root = fs.mkdtempSync(path.join(os.tmpdir(), "gradbook-scorm-"));
  www = path.join(root, "www");
  // Gradbook's lessons as both versions, a course-wide passing score of
  // 50%; an author's folder with its own lesson and its own passing score.
  const mine = path.join(root, "mine");
  execFileSync("go", ["run", "serve.go", "-new", path.join(mine, "my-lesson")], { cwd: repo });
  const lesson = path.join(mine, "my-lesson.md");
  fs.writeFileSync(lesson, fs.readFileSync(lesson, "utf8").replace("order: 100\n", "order: 100\npassing-score: 60%\nrenamed-from: my-first-lesson\n"));
  const site = path.join(root, "site");
  execFileSync("go", ["run", "serve.go", "-dir", site, "-scorm", path.join(root, "course2004.zip"), "-scorm12", path.join(root, "course12.zip"), "-passing-score", "50%"], { cwd: repo });
  execFileSync("go", ["run", "serve.go", "-dir", site, "-builtin=false", "-lessons", mine, "-scorm", path.join(root, "mine.zip"), "-scorm-title", "My course"], { cwd: repo });
  // The packages' site (its gradbook.wasm reports to an LMS) is built apart:
  // the site's own folder, -dir, is not touched.
  if (fs.existsSync(site)) throw new Error(`-scorm built into the site's folder ${site}`);
  for (const [zip, dir] of [["course2004.zip", "p2004"], ["course12.zip", "p12"], ["mine.zip", "mine"]]) {
    sizes[zip] = fs.statSync(path.join(root, zip)).size;
    unzip(path.join(root, zip), path.join(www, dir));
  }
  for (const f of ["lms.html", "lms.js"]) fs.copyFileSync(path.join(__dirname, "lms", f), path.join(www, f));
  for (const f of ["scorm2004.min.js", "scorm12.min.js"]) fs.copyFileSync(path.join(repo, "node_modules", "scorm-again", "dist", f), path.join(www, f));
  server = spawn("node", [path.join(__dirname, "static-server.js"), www, String(port(8190)), "/"], { stdio: "ignore" });
  await expect.poll(async () => (await fetch(lmsURL + "lms.html").catch(() => ({ ok: false }))).ok).toBe(true);
  console.log(`figures: package sizes: SCORM 2004 ${sizes["course2004.zip"]} bytes, SCORM 1.2 ${sizes["course12.zip"]} bytes (every lesson); one author's lesson ${sizes["mine.zip"]} bytes`);
});

test.afterAll(() => {
  if (server) server.kill();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

// launch opens the stand-in LMS on an item of a package, optionally with
// what the LMS kept from an earlier session, and waits until the SCO's
// notebook is ready. Every request stays on the LMS's origin and finds
// its file.
async function launch(page, pkg, item, { suspend = null, refuse = "", query = "" } = {}) {
  const bad = [];
  page.on("request", (r) => { if (!r.url().startsWith(lmsURL) && !r.url().startsWith("blob:") && !r.url().startsWith("data:")) bad.push(`to another origin: ${r.url()}`); });
  page.on("response", (r) => { if (r.status() >= 400) bad.push(`${r.status()}: ${r.url()}`); });
  page.bad = bad;
  if (suspend !== null) await page.addInitScript((s) => { window.lmsStart = { "cmi.suspend_data": s }; }, suspend);
  await page.goto(`${lmsURL}lms.html?package=${pkg}&item=${item}${refuse ? "&refuse=" + refuse : ""}${query}`);
  const sco = page.frameLocator("#sco");
  await expect(sco.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
  return sco;
}

// held is what the LMS holds now: its CMI data model (2004's cmi, or
// 1.2's), as its last commit recorded it.
async function held(page) {
  return page.evaluate(() => lms.commits.length ? lms.commits[lms.commits.length - 1] : null);
}

// expectHeld waits until the LMS's last commit has what want says, each
// a "path.in.cmi": value.
async function expectHeld(page, want) {
  await expect.poll(async () => {
    const cmi = await held(page);
    if (!cmi) return null;
    return Object.fromEntries(Object.keys(want).map((k) => [k, k.split(".").reduce((o, p) => (o == null ? o : o[p]), cmi)]));
  }, { timeout: 15_000 }).toEqual(want);
}

// close closes the SCO as an LMS does when the learner leaves it: the
// frame goes, and the page ends its session (Terminate, LMSFinish).
async function close(page) {
  await page.evaluate(() => document.getElementById("sco").remove());
  await expect.poll(() => page.evaluate(() => lms.ended !== null)).toBe(true);
  return page.evaluate(() => lms.ended);
}

async function answerNudge(sco) {
  const q = sco.locator("#quiz-predict-up");
  await expect(await answer(q, "…rises by about 0.01 · (6² + 4² + 2² + 4²) = 0.72.")).toContainText("Right.");
}

async function passExercise(sco, id, file) {
  const ex = sco.locator(`#exercise-${id}`);
  await checkSays(ex, solutionOf(file, id), "All tests pass", { timeout: 30_000 });
}

test("SCORM 2004: a lesson reports completion, score, success and suspend data as it is done; a fresh browser gets the work back", async ({ page, browser, errors }) => {
  test.setTimeout(120_000);
  const sco = await launch(page, "p2004", "item-a-derivative-is-a-nudge");
  await expect(page.locator("#course")).toHaveText("Gradbook: A derivative is a nudge");
  // Launched: incomplete, no score yet.
  await expectHeld(page, { completion_status: "incomplete", progress_measure: "0", "score.scaled": "", exit: "suspend" });
  await expect(sco.locator("#lms-status")).toHaveText("Reported to your LMS: 0 of 2 done.");
  expect(await page.evaluate(() => lms.api.cmi.scaled_passing_score)).toBe("0.5"); // from the manifest

  // A quiz right: half the score, which passes at 50%.
  await answerNudge(sco);
  await expectHeld(page, { completion_status: "incomplete", success_status: "passed", progress_measure: "0.5", "score.scaled": "0.5", "score.raw": "50", "score.min": "0", "score.max": "100" });
  await expect(sco.locator("#lms-status")).toHaveText("Reported to your LMS: 1 of 2 done, score 50%, passed.");

  // The exercise passed: the lesson is complete.
  await passExercise(sco, "nudged-grads", path.join(repo, "site/lessons/a-derivative-is-a-nudge.md"));
  await expectHeld(page, { completion_status: "completed", success_status: "passed", progress_measure: "1", "score.scaled": "1", "score.raw": "100" });
  const cmi = await held(page);
  expect(cmi.suspend_data).toMatch(/^gradbook1:[A-Za-z0-9_-]+$/);
  expect(cmi.session_time).toMatch(/^PT(\d+M)?[\d.]+S$/);

  // Leaving ends the session, with the time spent and exit suspend.
  const ended = await close(page);
  expect(ended.exit).toBe("suspend");
  expect(ended.session_time).toMatch(/^PT(\d+M)?[\d.]+S$/);
  const suspend = ended.suspend_data;
  console.log(`figures: suspend data of a fully done lesson (a-derivative-is-a-nudge), SCORM 2004: ${suspend.length} characters of 64,000`);
  expect(page.bad).toEqual([]);

  // Another browser, the LMS launching the lesson with what it kept.
  const other = await browser.newContext();
  const p2 = await other.newPage();
  const otherErrors = [];
  p2.on("pageerror", (e) => otherErrors.push(e.message));
  const sco2 = await launch(p2, "p2004", "item-a-derivative-is-a-nudge", { suspend });
  await expect(sco2.locator("#quiz-predict-up").getByLabel("…rises by about 0.01 · (6² + 4² + 2² + 4²) = 0.72.")).toBeChecked();
  await expect(sco2.locator("#quiz-predict-up .feedback")).toContainText("Right.");
  await expect(sco2.locator("#exercise-nudged-grads")).toHaveAttribute("data-state", "passed");
  await expect(editorOf(sco2.locator("#exercise-nudged-grads"))).toHaveValue(solutionOf(path.join(repo, "site/lessons/a-derivative-is-a-nudge.md"), "nudged-grads"));
  await expectHeld(p2, { completion_status: "completed", "score.scaled": "1" });
  await expect(sco2.locator("#lms-status")).toHaveText("Reported to your LMS: 2 of 2 done, score 100%, passed.");
  expect(p2.bad).toEqual([]);
  expect(otherErrors).toEqual([]);
  await other.close();
});

test("SCORM 1.2: lesson_status, score.raw and suspend data as the lesson is done, within 4,096 characters; a fresh browser gets the work back", async ({ page, browser, errors }) => {
  test.setTimeout(150_000);
  const file = path.join(repo, "site/lessons/chain-rule.md");
  const sco = await launch(page, "p12", "item-chain-rule");
  await expectHeld(page, { "core.lesson_status": "incomplete", "core.score.raw": "" });
  expect(await page.evaluate(() => lms.api.cmi.student_data.mastery_score)).toBe("50");

  // One quiz right of four: a quarter, below the mastery score.
  const predict = sco.locator("#quiz-predict-two-branches");
  await expect(await answer(predict, { "∂L/∂a": "13" })).toContainText("right");
  await expectHeld(page, { "core.lesson_status": "incomplete", "core.score.raw": "25", "core.score.min": "0", "core.score.max": "100" });

  // The exercise too: half, which is the mastery score.
  await passExercise(sco, "grads-by-hand", file);
  await expectHeld(page, { "core.lesson_status": "passed", "core.score.raw": "50" });

  // Everything: the whole score.
  const n = sco.locator("#quiz-numeric-check");
  await expect(await answer(n, { "∂L/∂w": "-3", "∂L/∂b": "-1", "loss": "0.5" })).toContainText("All right.");
  const open = sco.locator("#quiz-shared-weight");
  await open.getByLabel("Your answer").fill("Because only the sum of every branch's contribution is the gradient.");
  await open.getByRole("button", { name: "Show the model answer" }).click();
  await expectHeld(page, { "core.lesson_status": "passed", "core.score.raw": "100" });
  await expect(sco.locator("#lms-status")).toHaveText("Reported to your LMS: 4 of 4 done, score 100%, passed.");

  const ended = await close(page);
  expect(ended.core.exit).toBe("suspend");
  expect(ended.core.session_time).toMatch(/^\d{2,4}:\d\d:\d\d(\.\d\d?)?$/);
  const suspend = ended.suspend_data;
  expect(suspend.length).toBeLessThanOrEqual(4096);
  console.log(`figures: suspend data of a fully done lesson (chain-rule), SCORM 1.2: ${suspend.length} characters of 4,096`);
  expect(page.bad).toEqual([]);

  const other = await browser.newContext();
  const p2 = await other.newPage();
  const sco2 = await launch(p2, "p12", "item-chain-rule", { suspend });
  await expect(sco2.locator("#quiz-predict-two-branches").getByLabel("∂L/∂a")).toHaveValue("13");
  await expect(sco2.locator("#quiz-numeric-check .feedback")).toContainText("All right.");
  await expect(sco2.locator("#quiz-shared-weight").getByLabel("Your answer")).toHaveValue("Because only the sum of every branch's contribution is the gradient.");
  await expect(sco2.locator("#exercise-grads-by-hand")).toHaveAttribute("data-state", "passed");
  await expectHeld(p2, { "core.lesson_status": "passed", "core.score.raw": "100" });
  expect(p2.bad).toEqual([]);
  await other.close();
});

test("SCORM 1.2: work past 4,096 characters keeps what fits, and the learner is told what did not", async ({ page, browser, errors }) => {
  test.setTimeout(120_000);
  const sco = await launch(page, "p12", "item-chain-rule");
  const predict = sco.locator("#quiz-predict-two-branches");
  await answer(predict, { "∂L/∂a": "13" });
  await expectHeld(page, { "core.score.raw": "25" });
  // Code that does not compress: 6,000 characters of hashes.
  let noise = "";
  for (let i = 0; noise.length < 6000; i++) noise += require("crypto").createHash("sha256").update(String(i)).digest("base64");
  const c = sco.locator("#cell-by-hand");
  await editorOf(c).fill(`noise = "${noise}"\nprint(len(noise))`);
  await c.getByRole("button", { name: "Run", exact: true }).click();
  await expect(c.locator("output.out")).toContainText(String(noise.length));
  await expect(sco.locator("#notices")).toHaveText("Your LMS keeps at most 4096 characters of work for this lesson, and yours takes more: your code in by-hand did not fit, and only this browser keeps that.");
  await expect.poll(async () => (await held(page)).suspend_data.length).toBeGreaterThan(0);
  const ended = await close(page);
  expect(ended.suspend_data.length).toBeLessThanOrEqual(4096);

  // Another browser: the answer came, the code that did not fit did not.
  const other = await browser.newContext();
  const p2 = await other.newPage();
  const sco2 = await launch(p2, "p12", "item-chain-rule", { suspend: ended.suspend_data });
  await expect(sco2.locator("#quiz-predict-two-branches").getByLabel("∂L/∂a")).toHaveValue("13");
  await expect(editorOf(sco2.locator("#cell-by-hand"))).not.toHaveValue(/noise/);
  await expectHeld(p2, { "core.score.raw": "25" });
  await other.close();
});

test("a GPT lesson reads its data set from the package: names() fetches data/names.txt from the LMS's origin", async ({ page, errors }) => {
  test.setTimeout(120_000);
  const fetched = [];
  page.on("response", (r) => { if (r.url().endsWith("/names.txt")) fetched.push(`${r.status()} ${r.url()}`); });
  const sco = await launch(page, "p2004", "item-gpt-from-values");
  const c = sco.locator("#cell-data");
  await c.getByRole("button", { name: "Run", exact: true }).click();
  await expect(c.locator("output.out")).toContainText("32033 names, from emma and olivia to", { timeout: 30_000 });
  await expect(c).toHaveAttribute("data-state", "passed");
  expect(fetched).toEqual([`200 ${lmsURL}p2004/data/names.txt`]);
  expect(page.bad).toEqual([]);
});

test("a package of an author's lessons folder (-lessons DIR): its one lesson, done whole, is completed and passed at its own passing score", async ({ page, errors }) => {
  test.setTimeout(120_000);
  const manifest = fs.readFileSync(path.join(www, "mine", "imsmanifest.xml"), "utf8");
  expect(manifest.match(/<item /g)).toHaveLength(1);
  expect(manifest).toContain("<title>My course</title>");
  expect(manifest).toContain("<imsss:minNormalizedMeasure>0.6</imsss:minNormalizedMeasure>");
  const sco = await launch(page, "mine", "item-my-lesson");
  await expect(page.locator("#course")).toHaveText("My course: My lesson");
  expect(await page.evaluate(() => lms.api.cmi.scaled_passing_score)).toBe("0.6");
  await expectHeld(page, { completion_status: "incomplete", progress_measure: "0" });

  const predict = sco.locator("#quiz-predict");
  await answer(predict, { "∂L/∂a": "-2" });
  const why = sco.locator("#quiz-why-sum");
  await answer(why, "Moving a moves L along both paths at once.");
  // Two quizzes right of four scored: 50%, below the lesson's 60%.
  await expectHeld(page, { success_status: "failed", "score.scaled": "0.5" });
  await expect(sco.locator("#lms-status")).toHaveText("Reported to your LMS: 2 of 5 done, score 50% (60% passes).");
  const explain = sco.locator("#quiz-explain");
  await explain.getByLabel("Your answer").fill("Nudging it does not move the output.");
  await explain.getByRole("button", { name: "Show the model answer" }).click();
  await expectHeld(page, { success_status: "passed", "score.scaled": "0.75" });
  const sliders = sco.locator("#explore-sliders");
  await sliders.getByRole("spinbutton", { name: "x, exact value" }).fill("1");
  await expect(sliders.locator('li.task[data-task="zero"]')).toHaveClass(/done/);
  await passExercise(sco, "write-it", path.join(root, "mine", "my-lesson.md"));
  await expectHeld(page, { completion_status: "completed", success_status: "passed", progress_measure: "1", "score.scaled": "1" });
  const ended = await close(page);
  console.log(`figures: suspend data of a fully done lesson (the starter lesson), SCORM 2004: ${ended.suspend_data.length} characters`);
  expect(page.bad).toEqual([]);
});

// suspendOf writes records as Gradbook's suspend data: a progress file,
// deflated, in base64url after its prefix. readSuspend reads it back.
function suspendOf(records, version = 2) {
  const file = JSON.stringify({ gradbook: "progress", version, records });
  return "gradbook1:" + zlib.deflateRawSync(Buffer.from(file)).toString("base64url");
}
function readSuspend(s) {
  return JSON.parse(zlib.inflateRawSync(Buffer.from(s.slice("gradbook1:".length), "base64url")).toString());
}

test("suspend data from an earlier version of the lesson: its earlier name's work follows it, code edited from older starter code is offered the new, parts no longer there are not sent back", async ({ page, errors }) => {
  test.setTimeout(120_000);
  const at = Date.now() - 86_400_000;
  const suspend = suspendOf([
    { v: 2, kind: "quiz", lesson: "my-first-lesson", id: "why-sum", answer: "0", passed: true, updated: at },
    { v: 2, kind: "exercise", lesson: "my-first-lesson", id: "write-it", source: "def dL_da(a, b):\n    return b + 1\n", authored: "0123456789abcdef", passed: true, updated: at },
    { v: 2, kind: "quiz", lesson: "my-first-lesson", id: "a-quiz-since-removed", answer: "1", passed: true, updated: at },
    { v: 2, kind: "quiz", lesson: "another-lesson", id: "why-sum", answer: "1", passed: true, updated: at },
  ]);
  const sco = await launch(page, "mine", "item-my-lesson", { suspend });
  const why = sco.locator("#quiz-why-sum");
  await expect(why.getByLabel("Moving a moves L along both paths at once.")).toBeChecked();
  await expect(why.locator(".feedback")).toContainText("Right");
  const ex = sco.locator("#exercise-write-it");
  await expect(ex).toHaveAttribute("data-state", "passed");
  await expect(editorOf(ex)).toHaveValue("def dL_da(a, b):\n    return b + 1\n");
  await expect(ex.getByRole("alert")).toContainText("The lesson's code for this cell has changed since you edited it.");
  // Two of four scored: the earlier name's quiz and exercise, not the
  // removed quiz nor another lesson's.
  await expectHeld(page, { "score.scaled": "0.5", completion_status: "incomplete" });
  const sent = readSuspend((await held(page)).suspend_data).records;
  expect(sent.map((r) => `${r.lesson}/${r.kind}/${r.id}`).sort()).toEqual(["my-lesson/exercise/write-it", "my-lesson/quiz/why-sum", "my-lesson/visit/last"]);

  // A newer Gradbook's suspend data is not read, and left as it is.
  await page.goto("about:blank");
  const newer = suspendOf([], 99);
  const sco2 = await launch(page, "mine", "item-my-lesson", { suspend: newer });
  await expect(sco2.locator("#notices")).toContainText("The work your LMS keeps for this lesson was written by a newer version of Gradbook, which this lesson cannot read. So as not to lose it, it is left as it is");
  await sco2.locator("#quiz-why-sum").getByRole("button", { name: "Check my answer" }).click();
  await expectHeld(page, { suspend_data: newer });
});

test("an LMS that refuses to commit gets a notice and the work stays; suspend data that is not Gradbook's is set aside, and replaced by the learner's next change", async ({ page, errors }) => {
  test.setTimeout(120_000);
  let sco = await launch(page, "p2004", "item-a-derivative-is-a-nudge", { refuse: "Commit" });
  await answerNudge(sco);
  await expect(sco.locator("#notices")).toContainText("Your LMS did not take your progress: it refused Commit: 391 General Commit Failure. Your work is kept in this browser, and is sent again with your next change.");
  await expect(sco.locator("#lms-status")).toHaveText("Not reported to your LMS: see the notice above.");
  expect(await page.evaluate(() => lms.commits.length)).toBe(0);

  // The LMS takes commits again, knowing nothing of the lesson: the work
  // comes back from this browser, and is reported.
  await page.goto("about:blank");
  sco = await launch(page, "p2004", "item-a-derivative-is-a-nudge");
  await expect(sco.locator("#quiz-predict-up .feedback")).toContainText("Right.");
  await expectHeld(page, { completion_status: "incomplete", "score.scaled": "0.5" });

  // Suspend data of another program: the lesson says so, sets it aside
  // while the learner changes nothing, and puts their work in its place
  // once they do.
  await page.goto("about:blank");
  sco = await launch(page, "p2004", "item-a-derivative-is-a-nudge", { suspend: "viewed=1,2,3|lastslide=3" });
  await expect(sco.locator("#notices")).toContainText("The work your LMS keeps for this lesson could not be read: it was not written by Gradbook. It is set aside: your work in this browser is shown, and once you change something, your work takes its place in your LMS.");
  await expectHeld(page, { completion_status: "incomplete", "score.scaled": "0.5", suspend_data: "viewed=1,2,3|lastslide=3" });
  await passExercise(sco, "nudged-grads", path.join(repo, "site/lessons/a-derivative-is-a-nudge.md"));
  await expectHeld(page, { completion_status: "completed", "score.scaled": "1" });
  expect(readSuspend((await held(page)).suspend_data).records.map((r) => `${r.kind}/${r.id}`).sort()).toEqual(["exercise/nudged-grads", "quiz/predict-up", "visit/last"]);
});

test("outside an LMS, a package's lesson works as on the site and says that nothing is reported", async ({ page, errors }) => {
  await page.goto(`${lmsURL}p2004/lessons/a-derivative-is-a-nudge.html`);
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
  await expect(page.locator("#lms-status")).toHaveText("Not in an LMS: your progress is kept in this browser only.");
  await answerNudge(page);
  await expect(page.locator("#save-status")).toHaveText("Saved.");
  // The site's own lesson pages have no link to an LMS.
  await page.goto("lessons/a-derivative-is-a-nudge.html");
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "ready", { timeout: 30_000 });
  await expect(page.locator("#lms-status")).toHaveCount(0);
  expect(await page.evaluate(() => document.body.dataset.lms)).toBeUndefined();
});

// A hostile LMS (playwright/lms/lms.js's throw, errorstring, commitwait).
const nudge = path.join(repo, "site/lessons/a-derivative-is-a-nudge.md");

// relaunched launches the lesson in a fresh browser with the suspend data
// the LMS kept, and returns what the LMS holds once it has reported.
async function relaunched(browser, suspend) {
  const other = await browser.newContext();
  const p2 = await other.newPage();
  const sco = await launch(p2, "p2004", "item-a-derivative-is-a-nudge", { suspend });
  await expect(sco.locator("#exercise-nudged-grads")).toHaveAttribute("data-state", "passed");
  await expectHeld(p2, { progress_measure: "1", completion_status: "completed" });
  await other.close();
}

test("a hostile LMS whose GetValue throws: no learner \"false\", no shared database, and the learner's work still reaches the LMS and a fresh browser", async ({ page, browser, errors }) => {
  test.setTimeout(150_000);
  const sco = await launch(page, "p2004", "item-a-derivative-is-a-nudge", { suspend: "gradbook1:kept-by-the-lms", query: "&throw=GetValue" });
  await expect(sco.locator("#notices")).toContainText("Your LMS did not give the work it keeps for this lesson (it refused GetValue cmi.suspend_data: -1 it threw TypeError: the LMS is broken).");
  await expect(sco.locator("#notices")).toContainText("Your progress is not kept in this browser: your LMS does not say who you are, and the next learner here could see it.");
  await answerNudge(sco);
  await passExercise(sco, "nudged-grads", nudge);
  await expectHeld(page, { completion_status: "completed", progress_measure: "1", "score.scaled": "1" });
  await expect(sco.locator("#notices")).toContainText("Your LMS still did not give the work it keeps for this lesson");
  const kept = await sco.locator("body").evaluate(async () => (await indexedDB.databases()).map((d) => d.name).filter((n) => n.startsWith("gradbook-lms")));
  expect(kept).toEqual([]);
  const ended = await close(page);
  expect(ended.suspend_data).toMatch(/^gradbook1:[A-Za-z0-9_-]+$/);
  await relaunched(browser, ended.suspend_data);
});

test("suspend data cut short (40 KB cut to 4,096 characters) is set aside, and the learner's work takes its place and reaches a fresh browser", async ({ page, browser, errors }) => {
  test.setTimeout(150_000);
  const big = suspendOf([{ v: 2, kind: "cell", lesson: "a-derivative-is-a-nudge", id: "worked", source: require("crypto").randomBytes(29_000).toString("hex"), updated: Date.now() - 86_400_000 }]);
  expect(big.length).toBeGreaterThan(40_000);
  const cut = big.slice(0, 4096);
  const sco = await launch(page, "p2004", "item-a-derivative-is-a-nudge", { suspend: cut });
  await expect(sco.locator("#notices")).toContainText("The work your LMS keeps for this lesson could not be read: it is cut short or damaged. It is set aside: your work in this browser is shown, and once you change something, your work takes its place in your LMS.");
  await expectHeld(page, { progress_measure: "0", suspend_data: cut });
  await answerNudge(sco);
  await passExercise(sco, "nudged-grads", nudge);
  await expectHeld(page, { completion_status: "completed", progress_measure: "1" });
  const ended = await close(page);
  expect(ended.suspend_data).not.toBe(cut);
  await relaunched(browser, ended.suspend_data);
});

test("a hostile LMS's 1.5 MB error text is said clipped, and its Commit, which blocks 4 s, never runs in the task of the change it commits", async ({ page, errors }) => {
  test.setTimeout(150_000);
  const sco = await launch(page, "p2004", "item-a-derivative-is-a-nudge", { refuse: "Commit", query: "&errorstring=big&commitwait=4000" });
  // The launch's report is committed (and refused) first, on its own.
  await expect.poll(() => page.evaluate(() => lms.commitCalls.length), { timeout: 30_000 }).toBe(1);
  const q = sco.locator("#quiz-predict-up");
  await q.getByLabel("…rises by about 0.01 · (6² + 4² + 2² + 4²) = 0.72.").check();
  const start = Date.now();
  await q.getByRole("button", { name: "Check my answer" }).click();
  await expect(q.locator(".feedback")).toContainText("Right.");
  console.log(`figures: a hostile LMS whose Commit blocks 4 s: the answer's feedback ${Date.now() - start} ms after the click`);
  const notice = sco.locator("#notices p").filter({ hasText: "Your LMS did not take your progress" });
  await expect(notice).toContainText("it refused Commit: 391 General Commit Failure General Commit Failure", { timeout: 30_000 });
  expect((await notice.textContent()).length).toBeLessThan(500);
  await expect.poll(() => page.evaluate(() => lms.commitCalls.length), { timeout: 30_000 }).toBe(2);
  const calls = await page.evaluate(() => lms.commitCalls);
  expect(calls.filter((c) => c.inReport)).toEqual([]);
});
