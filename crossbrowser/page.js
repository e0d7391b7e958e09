// Page: what a spec does in a page, the same in every engine, on top of an
// engine's few primitives (call, navigate, reload, perform). Clicks are
// pointer actions at the element's centre and typing is key actions, so
// the engine dispatches real events, as a person's mouse and keys would;
// waits poll what the page shows until it is there or the time is up.
const { watch, takeProblems } = require("./watch");
const { chord, typing, click } = require("./keys");
const { until } = require("./util");

// locate finds, in the page, the element a target names, scrolls it into
// view and says where its centre is and whether a click there reaches it.
// A target is {css, text, within, nth, deep}: deep searches open shadow
// roots too (CodeMirror's editor is in one).
function locate(t) {
  const scopes = t.within ? [...document.querySelectorAll(t.within)] : [document];
  const found = [];
  const walk = (root) => {
    found.push(...root.querySelectorAll(t.css));
    if (t.deep) for (const el of root.querySelectorAll("*")) if (el.shadowRoot) walk(el.shadowRoot);
  };
  for (const s of scopes) walk(s);
  const norm = (s) => s.replace(/\s+/g, " ").trim();
  const matches = found.filter((el) => el.getClientRects().length > 0 &&
    (t.text === undefined || (t.exact ? norm(el.textContent) === t.text : norm(el.textContent).includes(t.text))));
  const el = matches[t.nth || 0];
  if (!el) return { missing: `${matches.length} visible of ${found.length} matching` };
  el.scrollIntoView({ block: "center", inline: "nearest" });
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = el.getRootNode().elementFromPoint(x, y);
  return { x, y, disabled: Boolean(el.disabled), hit: Boolean(hit && (hit === el || el.contains(hit))) };
}

class Page {
  constructor(engine, site) {
    this.engine = engine;
    this.site = site;
    this.problems = [];
    this.notes = []; // what a spec should say even when it passes
  }

  // watchesAfterLoad says whether the console watch goes into each
  // document once it has loaded: where the engine has no preload scripts
  // to put it there before the page's own (WebKit).
  get watchesAfterLoad() { return !this.engine.preload; }

  // eval runs fn(...args) in the page. In an engine that cannot watch the
  // console before a page's scripts (WebKit), each call first puts the
  // watch into the document if it is not there yet, and collects what it
  // noted.
  async eval(fn, ...args) {
    this.alive();
    return this.evalAnyway(fn, args);
  }

  // evalAnyway is eval even after the spec is abandoned (to collect what
  // the watch noted).
  async evalAnyway(fn, args) {
    if (!this.watchesAfterLoad) return this.engine.call(String(fn), args);
    const wrapped = `async (...args) => {
      (${watch})(null);
      const value = await (${fn})(...args);
      return { value, problems: (${takeProblems})() };
    }`;
    const r = await this.engine.call(wrapped, args);
    this.problems.push(...r.problems);
    return r.value;
  }

  // alive throws once the spec has run out of time (run.js sets
  // abandoned), so that a spec that timed out stops driving the browser
  // instead of going on beside the next one.
  alive() {
    if (this.abandoned) throw new Error("abandoned: the spec ran out of time");
  }

  // takeProblems returns every problem noted since the last call.
  async takeProblems() {
    if (this.watchesAfterLoad) await this.evalAnyway(() => null, []).catch(() => {});
    return [...this.problems.splice(0), ...this.engine.takeEngineProblems()];
  }

  url(path) { return /^https?:/.test(path) ? path : this.site + path; }

  async goto(path) {
    await this.drain();
    this.alive();
    await this.engine.navigate(this.url(path));
    await this.eval(() => null);
  }

  async reload() {
    await this.drain();
    this.alive();
    await this.engine.reload();
    await this.eval(() => null);
  }

  // drain collects what the document noted before it goes away.
  async drain() {
    if (this.watchesAfterLoad) await this.eval(() => null).catch(() => {});
  }

  // waitFor polls fn(...args) in the page until it returns something
  // truthy, and returns it.
  waitFor(what, fn, args = [], timeout = 30_000) {
    return until(() => this.eval(fn, ...args), timeout, what);
  }

  // ready waits until the notebook on the page can run cells, and returns
  // the page's own time from navigation to then (data-ready-at).
  async ready(timeout = 60_000) {
    const state = await this.waitFor("the notebook to be ready", () => {
      const s = document.body && document.body.dataset.notebook;
      return s === "ready" || s === "failed" || s === "stopped" ? { s, at: Number(document.body.dataset.readyAt) } : null;
    }, [], timeout);
    if (state.s !== "ready") {
      const status = await this.eval(() => (document.getElementById("notebook-status") || {}).textContent || "");
      throw new Error(`the notebook is ${state.s}: ${status}`);
    }
    return state.at;
  }

  // click clicks a target (see locate) once it is visible, enabled and
  // reached by a click at its centre.
  async click(target, timeout = 30_000) {
    const at = await until(async () => {
      const r = await this.eval(locate, target);
      return !r.missing && !r.disabled && r.hit ? r : null;
    }, timeout, `${JSON.stringify(target)} to be clickable`);
    this.alive();
    await this.engine.perform("pointer", click(at.x, at.y));
  }

  // type presses a key for each character of text (a newline is Enter);
  // press presses a chord such as "Shift+Enter".
  type(text) {
    this.alive();
    return this.engine.perform("key", typing(text));
  }

  press(combo) {
    this.alive();
    return this.engine.perform("key", chord(combo));
  }

  // text is the text of the first element that css matches (within a
  // scope), or null.
  text(css, within) {
    return this.eval((css, within) => {
      const root = within ? document.querySelector(within) : document;
      const el = root && root.querySelector(css);
      return el ? el.textContent : null;
    }, css, within || null);
  }

  // see waits until the text of css (within a scope) matches re, and
  // returns it.
  see(css, re, { within, timeout = 30_000 } = {}) {
    return this.waitFor(`${within ? within + " " : ""}${css} to show ${re}`, (css, within, src, flags) => {
      const root = within ? document.querySelector(within) : document;
      const el = root && root.querySelector(css);
      return el && new RegExp(src, flags).test(el.textContent.trim()) ? el.textContent.trim() : null;
    }, [css, within || null, re.source, re.flags], timeout);
  }

  // editor clicks into a cell's code editor (CodeMirror's content, in its
  // shadow root), so that keys go to it.
  async editor(cellCss) {
    const focused = (css) => {
      const host = document.querySelector(css);
      let a = document.activeElement;
      while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
      return Boolean(host && a && (host.contains(a) || host.contains(a.getRootNode().host)));
    };
    for (let tries = 1; ; tries++) {
      await this.click({ css: ".cm-content", within: cellCss, deep: true });
      try {
        await this.waitFor(`${cellCss}'s editor to have the focus`, focused, [cellCss], 3_000);
        if (tries > 1) this.notes.push(`${cellCss}'s editor took ${tries} clicks to have the focus`);
        return;
      } catch (err) {
        if (tries === 3) throw err;
      }
    }
  }

  // code is what a cell's editor holds (the textarea the page keeps it in).
  code(cellCss) {
    return this.eval((css) => document.querySelector(`${css} textarea.editor`).value, cellCss);
  }

  // replaceCode selects all of a cell's code and types text in its place,
  // key by key, then checks that the editor holds exactly that text.
  async replaceCode(cellCss, text, typed = text) {
    await this.editor(cellCss);
    await this.press("Control+a");
    await this.press("Backspace");
    await this.type(typed);
    await this.waitFor(`${cellCss} to hold the typed code`, (css, want) => document.querySelector(`${css} textarea.editor`).value === want, [cellCss, text], 10_000)
      .catch(async (err) => { throw new Error(`${err.message}: it holds ${JSON.stringify(await this.code(cellCss))}`); });
  }
}

module.exports = { Page };
