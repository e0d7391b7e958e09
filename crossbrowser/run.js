#!/usr/bin/env node
// The cross-engine smoke suite (specs.js) in WebKit and Firefox, from
// Debian's packages: WebKitGTK's MiniBrowser through WebKitWebDriver under
// Xvfb, and firefox-esr through its WebDriver BiDi agent. It starts the
// test servers that playwright.config.js declares (on the ports
// GRADBOOK_PORT_BASE moves), runs every spec in each engine, fails a spec
// during which any page had a CSP violation, an uncaught error, an
// unhandled rejection or a console error (watch.js), and prints each
// engine's figures.
//   node crossbrowser/run.js [webkit] [firefox] [--grep TEXT] [--repeat N]
// --repeat runs the specs N times, each time in a fresh browser;
// GRADBOOK_LEAVE_ROUNDS and GRADBOOK_LOOP_ROUNDS set how often the last two
// specs go round, GRADBOOK_VERBOSE=1 prints their rounds. A failed spec
// leaves a screenshot in test-results/crossbrowser/, and each browser's own
// messages are kept there whole (webkit.log, firefox.log).
"use strict";
const fs = require("fs");
const path = require("path");
const { spawn } = require("child_process");
const { WebKit } = require("./webkit");
const { Firefox } = require("./firefox");
const { Page } = require("./page");
const { specs } = require("./specs");
const { until, kernelMark, kernelSince } = require("./util");
const { port } = require("../playwright/helpers");

const root = path.join(__dirname, "..");
const results = path.join(root, "test-results", "crossbrowser");

function args() {
  const a = process.argv.slice(2);
  const out = { engines: [], grep: "", repeat: 1 };
  for (let i = 0; i < a.length; i++) {
    if (a[i] === "--grep") out.grep = a[++i];
    else if (a[i] === "--repeat") out.repeat = Number(a[++i]);
    else out.engines.push(a[i]);
  }
  if (out.engines.length === 0) out.engines = ["webkit", "firefox"];
  return out;
}

// What to stop if the run is interrupted: servers, the display, browsers.
const cleanups = [];
function cleanUpOnSignals() {
  for (const [sig, code] of [["SIGINT", 130], ["SIGTERM", 143]]) {
    process.on(sig, () => {
      for (const c of cleanups.reverse()) { try { c(); } catch { /* going anyway */ } }
      process.exit(code);
    });
  }
}

// servers starts the servers playwright.config.js declares, each unless
// its address already answers, and returns a function that stops them.
async function servers() {
  const { webServer, use } = require(path.join(root, "playwright.config.js"));
  const started = [];
  const answers = (url) => fetch(url).then((r) => r.ok, () => false);
  const stop = () => { for (const p of started) { try { process.kill(-p.pid, "SIGTERM"); } catch { /* gone already */ } } };
  cleanups.push(stop);
  // One after the other: the first one builds the export the next serve.
  for (const s of webServer) {
    if (await answers(s.url)) continue;
    started.push(spawn("sh", ["-c", s.command], { cwd: root, detached: true, stdio: ["ignore", "ignore", "inherit"] }));
    await until(() => answers(s.url), s.timeout || 300_000, s.url);
  }
  return { site: use.baseURL, stop };
}

// xvfb starts a virtual display for WebKit (MiniBrowser needs one) on a
// free display number.
async function xvfb() {
  const p = spawn("Xvfb", ["-displayfd", "3", "-nolisten", "tcp", "-screen", "0", "1280x1024x24"], { stdio: ["ignore", "ignore", "ignore", "pipe"] });
  let out = "";
  p.stdio[3].on("data", (d) => { out += d; });
  const n = await until(() => (/^(\d+)\n/.exec(out) || [])[1], 10_000, "Xvfb to start");
  cleanups.push(() => p.kill());
  return { display: `:${n}`, stop: () => p.kill() };
}

// Each engine's messages (the browser's stderr) go to
// test-results/crossbrowser/<engine>.log, whole.
const logOf = (name) => path.join(results, `${name}.log`);
const launchers = {
  webkit: (x) => WebKit.launch({ display: x.display, log: logOf("webkit") }),
  firefox: () => Firefox.launch({ log: logOf("firefox") }),
};

// launch starts an engine's browser, and marks how far the kernel's log
// went then (for what it says if the browser's process dies).
// The browser is killed if the run is interrupted.
async function launch(name, display) {
  const mark = kernelMark();
  const engine = await launchers[name](display);
  engine.kernelMark = mark;
  cleanups.push(() => engine.kill());
  return engine;
}

function timeout(ms, what) {
  let t;
  const p = new Promise((_, reject) => { t = setTimeout(() => reject(new Error(`${what}: timed out after ${ms / 1000} s`)), ms); });
  p.clear = () => clearTimeout(t);
  return p;
}

async function main() {
  cleanUpOnSignals();
  const opts = args();
  fs.mkdirSync(results, { recursive: true });
  for (const name of opts.engines) fs.rmSync(logOf(name), { force: true });
  const t0 = Date.now();
  const srv = await servers();
  let display = null;
  let passed = 0, failed = 0, skipped = 0;
  const crashes = []; // specs under which a browser's own process crashed
  const summary = [];
  try {
    for (const name of opts.engines) {
      if (name === "webkit" && !display) display = await xvfb();
      const figures = [];
      const ctx = {
        engine: name,
        site: srv.site,
        port,
        figure(what, value, unit) { figures.push({ what, value, unit }); },
        log(line) { if (process.env.GRADBOOK_VERBOSE) console.log(`    ${line}`); },
      };
      let engine = null;
      const tEngine = Date.now();
      for (let round = 0; round < opts.repeat; round++) {
        // Each round in a fresh browser: fresh storage, as the specs expect.
        if (engine) await engine.close();
        engine = await launch(name, display);
        if (round === 0) console.log(`\n== ${engine.version}`);
        for (const spec of specs) {
          if (opts.grep && !spec.name.includes(opts.grep)) continue;
          // A spec says what an engine's automation lacks for it (cannot).
          const cannot = spec.cannot && spec.cannot(engine);
          if (cannot) {
            skipped++;
            console.log(`  – ${name}: ${spec.name} (not here: ${cannot})`);
            continue;
          }
          // once runs the spec in the engine's page, and returns its error.
          const once = async () => {
            const page = new Page(engine, srv.site);
            const limit = timeout(spec.timeout || 60_000, spec.name);
            let err = null;
            try {
              await Promise.race([spec.run(page, ctx), limit]);
            } catch (e) {
              err = e;
            } finally {
              limit.clear();
            }
            page.abandoned = true;
            const problems = (await page.takeProblems().catch(() => []))
              .filter((p) => !(spec.expected || []).some((re) => re.test(`${p.kind}: ${p.text}`)));
            if (!err && problems.length > 0) {
              err = new Error(`the console was not clean:\n${problems.map((p) => `  ${p.kind}: ${p.text}${p.url ? ` (${p.url})` : ""}`).join("\n")}`);
            }
            return { err, page };
          };
          // gone reports a lost page or browser, and starts a new one for
          // what follows; crashed says whether the browser's own process
          // died (its log says so), which no page can do on purpose.
          const gone = async () => {
            const alive = await Promise.race([engine.call("() => 1").then(() => true, () => false), new Promise((r) => setTimeout(() => r(false), 10_000))]);
            if (alive) return { lost: false, crashed: false, kernel: [] };
            const log = engine.stderr();
            const said = log.trim().split("\n").slice(-15).join("\n      ");
            const kernel = kernelSince(engine.kernelMark);
            console.log(`    the ${name} session is gone; its browser's last words (all in ${path.relative(root, logOf(name))}):\n      ${said}`);
            if (kernel.length) console.log(`    the kernel's:\n      ${kernel.join("\n      ")}`);
            console.log("    starting a new one");
            await engine.close().catch(() => {});
            engine = await launch(name, display);
            return { lost: true, crashed: /CRASHED|crashed/.test(log) || kernel.length > 0, kernel };
          };
          const ts = Date.now();
          let { err, page } = await once();
          if (err) {
            const first = err;
            const { crashed, kernel } = await gone();
            if (crashed) {
              // The browser's process died under the spec: it is run once
              // more in a new browser, and the crash is reported either way.
              console.log(`  ! ${name}: ${spec.name}: the browser's process crashed (${String(first.message || first).split("\n")[0]}); running it once more in a new browser`);
              // The kernel's line names the thread that died and where.
              const why = kernel.length ? ` (the kernel: ${kernel[0].replace(/^\[[\d. ]+\]\s*/, "").replace(/ likely on CPU.*/, "")})` : "";
              crashes.push(`${name}: ${spec.name}${why}`);
              ({ err, page } = await once());
              if (err) await gone();
            }
          }
          const s = ((Date.now() - ts) / 1000).toFixed(1);
          if (!err) {
            passed++;
            console.log(`  ✓ ${name}: ${spec.name} (${s} s)`);
            for (const n of page.notes) console.log(`    note: ${n}`);
            continue;
          }
          failed++;
          console.log(`  ✘ ${name}: ${spec.name} (${s} s)\n    ${String(err.stack || err).split("\n").join("\n    ")}`);
          const shot = path.join(results, `${name}-${spec.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 60)}.png`);
          await engine.screenshot().then((png) => { fs.writeFileSync(shot, png); console.log(`    screenshot: ${path.relative(root, shot)}`); }, () => {});
        }
      }
      await engine.close();
      const took = (Date.now() - tEngine) / 1000;
      summary.push({ name, version: engine.version, figures, took });
    }
  } finally {
    if (display) display.stop();
    srv.stop();
  }
  console.log("\n== figures");
  for (const e of summary) {
    console.log(`${e.version}: the suite took ${e.took.toFixed(0)} s`);
    for (const f of e.figures) console.log(`  ${f.what}: ${typeof f.value === "number" ? f.value.toFixed(f.unit === "ms" ? 0 : 1) : f.value} ${f.unit}`);
  }
  console.log(`\ncross-engine suite: ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} not possible in an engine's automation` : ""}`);
  if (crashes.length) console.log(`a browser's process crashed under ${crashes.length === 1 ? "1 spec" : `${crashes.length} specs`}, each run once more in a new browser: ${crashes.join("; ")}`);
  process.exitCode = failed > 0 ? 1 : 0;
}

// Node 20 has its WebSocket behind a flag (Node 22 has it by default).
if (typeof WebSocket === "undefined") {
  const child = require("child_process").spawn(process.execPath,
    ["--experimental-websocket", "--disable-warning=ExperimentalWarning", __filename, ...process.argv.slice(2)], { stdio: "inherit" });
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
  child.on("exit", (code) => process.exit(code === null ? 1 : code));
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
