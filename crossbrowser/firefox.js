// Firefox through WebDriver BiDi: Debian's firefox-esr, headless, started
// with its own remote agent (--remote-debugging-port), and this small BiDi
// client over the WebSocket it opens. It uses only commands that Firefox
// ESR 153 has (session.new, browsingContext.*, script.*, input.*), which is
// why it is not Playwright's or Puppeteer's client: those ask for newer
// commands first (Playwright's for emulation.setMediaFeaturesOverride).
const fs = require("fs");
const os = require("os");
const path = require("path");
const { spawn } = require("child_process");
const { freePort, until, Lost, tail } = require("./util");
const { watch } = require("./watch");

class Firefox {
  static async launch({ log } = {}) {
    const port = await freePort();
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), "gradbook-firefox-"));
    // Nothing in the background: no updates, telemetry or first-run pages.
    fs.writeFileSync(path.join(profile, "user.js"), [
      'user_pref("app.update.enabled", false);',
      'user_pref("browser.shell.checkDefaultBrowser", false);',
      'user_pref("datareporting.policy.dataSubmissionEnabled", false);',
      'user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);',
      'user_pref("browser.startup.homepage_override.mstone", "ignore");',
      "",
    ].join("\n"));
    const proc = spawn("firefox-esr", ["--headless", "--no-remote", "--profile", profile, `--remote-debugging-port=${port}`, "about:blank"], {
      stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, MOZ_CRASHREPORTER_DISABLE: "1" },
    });
    const stderr = tail([proc.stderr], 8000, log);
    const url = await until(() => (stderr().match(/WebDriver BiDi listening on (ws:\/\/\S+)/) || [])[1], 30_000, "Firefox's remote agent");
    const ff = new Firefox(proc, profile);
    await ff.connect(`${url}/session`);
    const s = await ff.send("session.new", { capabilities: { alwaysMatch: { acceptInsecureCerts: false, unhandledPromptBehavior: "dismiss" } } });
    ff.version = `Firefox ${s.capabilities.browserVersion} (firefox-esr, headless, through its WebDriver BiDi agent)`;
    await ff.send("session.subscribe", { events: ["log.entryAdded", "script.message"] });
    // The console watch, in every frame of every page before its scripts.
    await ff.send("script.addPreloadScript", {
      functionDeclaration: String(watch),
      arguments: [{ type: "channel", value: { channel: "problems", ownership: "none" } }],
    });
    const tree = await ff.send("browsingContext.getTree", { maxDepth: 0 });
    ff.context = tree.contexts[0].context;
    await ff.send("browsingContext.setViewport", { context: ff.context, viewport: { width: 1280, height: 900 } });
    ff.stderr = stderr;
    return ff;
  }

  constructor(proc, profile) {
    this.name = "firefox";
    this.proc = proc;
    this.profile = profile;
    this.next = 1;
    this.waiting = new Map();
    this.problems = [];
  }

  connect(url) {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.onopen = () => resolve();
      ws.onerror = (e) => reject(new Error(`BiDi: ${e.message || "cannot connect"}`));
      ws.onclose = () => {
        for (const w of this.waiting.values()) w.reject(new Lost("BiDi: the connection closed"));
        this.waiting.clear();
        this.closed = true;
      };
      ws.onmessage = (e) => this.receive(JSON.parse(e.data));
      this.ws = ws;
    });
  }

  receive(m) {
    if (m.id !== undefined && this.waiting.has(m.id)) {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (m.type === "error") w.reject(new (m.error === "no such frame" ? Lost : Error)(`BiDi ${w.method}: ${m.error}: ${m.message}`));
      else w.resolve(m.result);
      return;
    }
    if (m.method === "log.entryAdded" && m.params.level === "error") {
      const p = m.params;
      // "javascript" entries are the errors Firefox's console shows besides
      // console.error: uncaught errors and rejections, and a few of its own.
      this.problems.push({ kind: p.type === "console" ? "console.error" : "error in the console", text: p.text });
    } else if (m.method === "script.message" && m.params.channel === "problems") {
      this.problems.push(fromRemote(m.params.data));
    }
  }

  send(method, params) {
    if (this.closed) return Promise.reject(new Lost("BiDi: the connection is closed"));
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, method });
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }

  async call(fn, args = []) {
    const functionDeclaration = `(json) => Promise.resolve().then(() => (${fn}).apply(null, JSON.parse(json)))
      .then((v) => JSON.stringify({ ok: v === undefined ? null : v }), (e) => JSON.stringify({ err: String(e && e.stack || e) }))`;
    const r = await this.send("script.callFunction", {
      functionDeclaration, arguments: [{ type: "string", value: JSON.stringify(args) }],
      target: { context: this.context }, awaitPromise: true, resultOwnership: "none",
    });
    if (r.type === "exception") throw new Error(`in the page: ${r.exceptionDetails.text}`);
    const out = JSON.parse(r.result.value);
    if ("err" in out) throw new Error(`in the page: ${out.err}`);
    return out.ok;
  }

  navigate(url) { return this.send("browsingContext.navigate", { context: this.context, url, wait: "complete" }); }
  reload() { return this.send("browsingContext.reload", { context: this.context, wait: "complete" }); }
  async url() {
    const t = await this.send("browsingContext.getTree", { root: this.context, maxDepth: 0 });
    return t.contexts[0].url;
  }

  perform(source, actions) {
    const input = source === "key" ? { type: "key", id: "keyboard", actions }
      : { type: "pointer", id: "mouse", parameters: { pointerType: "mouse" }, actions };
    return this.send("input.performActions", { context: this.context, actions: [input] });
  }

  async screenshot() {
    const r = await this.send("browsingContext.captureScreenshot", { context: this.context });
    return Buffer.from(r.data, "base64");
  }

  // preload runs fn in every document before its own scripts, from the
  // next page on, and returns what takes it away again.
  async preload(fn) {
    const { script } = await this.send("script.addPreloadScript", { functionDeclaration: String(fn) });
    return () => this.send("script.removePreloadScript", { script });
  }

  takeEngineProblems() { return this.problems.splice(0); }

  kill() { this.proc.kill("SIGKILL"); }

  async close() {
    if (!this.closed) {
      await Promise.race([this.send("browser.close", {}).catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
    }
    this.proc.kill();
    fs.rmSync(this.profile, { recursive: true, force: true });
  }
}

// fromRemote turns a BiDi remote value (an object of strings) back into
// plain data.
function fromRemote(v) {
  if (!v || v.type !== "object") return { kind: "problem", text: JSON.stringify(v) };
  const out = {};
  for (const [k, val] of v.value) out[k] = val && "value" in val ? val.value : "";
  return out;
}

module.exports = { Firefox };
