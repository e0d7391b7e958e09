// WebKit through its own WebDriver: Debian's webkit2gtk-driver
// (WebKitWebDriver) drives MiniBrowser in automation mode, under Xvfb,
// over classic W3C WebDriver (HTTP and JSON). WebKitWebDriver has no
// WebDriver BiDi, so there are no preload scripts and no log events: the
// console watch goes into each document once it has loaded (see watch.js).
const fs = require("fs");
const { spawn } = require("child_process");
const { freePort, until, Lost, tail } = require("./util");

// miniBrowser finds the MiniBrowser that the webkit2gtk packages ship.
function miniBrowser() {
  for (const dir of ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib"]) {
    for (const api of ["webkit2gtk-4.1", "webkitgtk-6.0", "webkit2gtk-4.0"]) {
      const p = `${dir}/${api}/MiniBrowser`;
      if (fs.existsSync(p)) return p;
    }
  }
  throw new Error("MiniBrowser not found: apt-get install webkit2gtk-driver");
}

class WebKit {
  static async launch({ display, log }) {
    const port = await freePort();
    // In a process group of its own, with the browser it starts: kill ends
    // them all.
    // MiniBrowser paints with the CPU (WEBKIT_SKIA_ENABLE_CPU_RENDERING),
    // as Chromium runs here with --disable-gpu. This machine has no GPU, so
    // WebKitGTK 2.50's Skia painted tiles on its SkiaGPUWorker threads
    // through Mesa's software OpenGL (llvmpipe), beside the compositor's
    // thread in the same driver; and once in a few whole suites the web
    // process died ("WebProcess CRASHED"). The kernel named the thread,
    // "SkiaGPUWorker: segfault ... in libc.so.6" (malloc finding a freed
    // block overwritten), and a core dump from a run with glibc's malloc
    // perturbation stopped in swrast_dri.so on one WebKit thread while a
    // second was inside the driver too. Painting with the CPU takes those threads away; nothing the
    // specs test depends on how tiles are painted.
    const driver = spawn("WebKitWebDriver", [`--port=${port}`], {
      env: { ...process.env, DISPLAY: display, WEBKIT_SKIA_ENABLE_CPU_RENDERING: "1" }, stdio: ["ignore", "pipe", "pipe"], detached: true,
    });
    // What the driver and the browser say (MiniBrowser's and its web
    // process's messages come through the driver: "WebProcess CRASHED"
    // when the page's process dies), kept whole in log.
    const stderr = tail([driver.stdout, driver.stderr], 4000, log);
    const wk = new WebKit(`http://127.0.0.1:${port}`, driver);
    await until(() => fetch(`${wk.base}/status`).then((r) => r.ok, () => false), 10_000, "WebKitWebDriver to listen");
    const s = await wk.send("POST", "/session", {
      capabilities: { alwaysMatch: { "webkitgtk:browserOptions": { binary: miniBrowser(), args: ["--automation"] } } },
    });
    wk.session = s.sessionId;
    wk.version = `WebKitGTK ${s.capabilities.browserVersion} (MiniBrowser through WebKitWebDriver)`;
    await wk.send("POST", `/session/${wk.session}/timeouts`, { script: 120_000, pageLoad: 60_000 });
    await wk.send("POST", `/session/${wk.session}/window/rect`, { width: 1280, height: 900 }).catch(() => {});
    wk.stderr = stderr;
    return wk;
  }

  constructor(base, driver) {
    this.name = "webkit";
    this.base = base;
    this.driver = driver;
  }

  async send(method, path, body) {
    const res = await fetch(this.base + path, {
      method, headers: { "Content-Type": "application/json; charset=utf-8" }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json().catch(() => ({ value: { error: `HTTP ${res.status}`, message: "" } }));
    if (!res.ok) {
      const v = json.value || {};
      const err = new (/invalid session id|session deleted|crash|no such window/.test(`${v.error} ${v.message}`) ? Lost : Error)(`WebKitWebDriver: ${v.error}: ${v.message}`);
      throw err;
    }
    return json.value;
  }

  // call runs fn(...args) in the page and returns its result, awaited;
  // arguments and result go as JSON.
  async call(fn, args = []) {
    const script = `const done = arguments[arguments.length - 1];
Promise.resolve().then(() => (${fn}).apply(null, JSON.parse(arguments[0])))
  .then((v) => done(JSON.stringify({ ok: v === undefined ? null : v })), (e) => done(JSON.stringify({ err: String(e && e.stack || e) })));`;
    const out = JSON.parse(await this.send("POST", `/session/${this.session}/execute/async`, { script, args: [JSON.stringify(args)] }));
    if ("err" in out) throw new Error(`in the page: ${out.err}`);
    return out.ok;
  }

  navigate(url) { return this.send("POST", `/session/${this.session}/url`, { url }); }
  reload() { return this.send("POST", `/session/${this.session}/refresh`, {}); }
  url() { return this.send("GET", `/session/${this.session}/url`); }

  async perform(source, actions) {
    const id = source === "key" ? "keyboard" : "mouse";
    const input = source === "key" ? { type: "key", id, actions } : { type: "pointer", id, parameters: { pointerType: "mouse" }, actions };
    await this.send("POST", `/session/${this.session}/actions`, { actions: [input] });
  }

  async screenshot() { return Buffer.from(await this.send("GET", `/session/${this.session}/screenshot`), "base64"); }

  // No preload scripts here (WebKitWebDriver has no WebDriver BiDi):
  // nothing runs in a document before its own scripts, so the console
  // watch goes in after each load, and a spec that must take something
  // away from the page first (preload) cannot run in WebKit.
  get preload() { return null; }
  takeEngineProblems() { return []; }

  // kill ends the driver, and with it its browser, at once.
  kill() {
    try { process.kill(-this.driver.pid, "SIGKILL"); } catch { /* gone already */ }
  }

  async close() {
    if (this.session) await this.send("DELETE", `/session/${this.session}`).catch(() => {});
    this.kill();
  }
}

module.exports = { WebKit };
