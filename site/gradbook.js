// gradbook.js starts the notebook's WebAssembly (gradbook.wasm, beside this
// file) on a lesson or scratch page. The page is readable before it loads;
// the wasm then enables the cells. Load wasm_exec.js and autodiff.js (which
// has the loader) first.
(function () {
  "use strict";
  const script = document.currentScript;
  const url = new URL("gradbook.wasm", script.src).href;
  // The notebook's status line, on Gradbook's own pages: on a course page
  // (embedded, below), every id is the course's own.
  const status = () => embedded ? null : document.getElementById("notebook-status");

  // The cells' code editor (CodeMirror, bundled in editor.js), loaded once
  // for all the cells of the page. The notebook does not wait for it: its
  // cells run in their plain textareas until it comes (then each becomes
  // an editor holding what it holds), and keep them if it cannot load.
  // On a course page whose Gradbook host sends no CORS headers, embed.js
  // fetches the files through a frame (gradbookEmbed): the editor is then
  // imported from a blob: address, which the course page's CSP, if it has
  // one, must allow in script-src; otherwise the cells keep plain
  // textareas.
  const embed = globalThis.gradbookEmbed;

  // What this browser lacks that the page would use: the page does without
  // it and says so, in the notices (notebook/web reads gradbookNotices).
  const notices = (globalThis.gradbookNotices = []);
  // The editor's styles go into its shadow root as constructed style
  // sheets; without them CodeMirror would add <style> elements there,
  // which the site's CSP refuses (an unstyled editor, a violation per
  // cell): the cells keep their plain text boxes instead.
  const constructedSheets = typeof ShadowRoot === "function" && "adoptedStyleSheets" in ShadowRoot.prototype &&
    typeof CSSStyleSheet === "function" && typeof CSSStyleSheet.prototype.replaceSync === "function";
  if (!constructedSheets) {
    notices.push("This browser lacks constructed style sheets, which the code editor needs here: cells are plain text boxes, and Shift+Enter still runs one.");
  }
  async function importEditor() {
    if (!constructedSheets) return null;
    const href = new URL("editor.js", script.src).href;
    if (!embed || await embed.direct()) return import(href);
    const res = await embed.fetch(href);
    if (!res.ok) throw new Error(`editor.js: ${res.status}`);
    const blob = URL.createObjectURL(new Blob([await res.arrayBuffer()], { type: "text/javascript" }));
    try {
      return await import(blob);
    } finally {
      URL.revokeObjectURL(blob);
    }
  }
  // The editor is imported once gradbook.wasm's bytes have all come (or
  // could not): on a slow network the two would share it, and the cells
  // can run without the editor (in their plain text boxes) but not
  // without the wasm, so the wasm goes first. The editor then arrives
  // while the wasm compiles and starts.
  let wasmArrived = null;
  const arrived = new Promise((resolve) => { wasmArrived = resolve; });
  globalThis.gradbookEditor = arrived.then(importEditor).catch(() => null);

  // In an iframe: lessons/x.html?frame shows the lesson without the site's
  // header and footer, and every page tells its parent its height, so that
  // embed.js can size the frame to its content, but only once the parent
  // asked as embed.js does ("size-me", with a nonce): a height shows how
  // much work the learner saved here, so it is not told to a parent that
  // did not ask. It goes to the origin that asked, never to "*", with the
  // nonce it was given.
  if (new URLSearchParams(location.search).has("frame")) document.body.classList.add("frame");
  let asked = null; // { origin, nonce } of the parent that asked
  let observer = null;
  function observeHeight() {
    if (!asked || typeof ResizeObserver !== "function") return;
    const { origin, nonce } = asked;
    const tell = () => window.parent.postMessage({ gradbook: "height", height: document.documentElement.scrollHeight, nonce }, origin);
    if (observer) observer.disconnect();
    observer = new ResizeObserver(tell);
    observer.observe(document.body);
    tell();
  }
  if (window.parent !== window) {
    window.addEventListener("message", (event) => {
      const d = event.data;
      if (event.source !== window.parent || !d || d.gradbook !== "size-me" || typeof d.nonce !== "string" || d.nonce.length > 64) return;
      if (event.origin === "null") return; // an opaque origin cannot be told apart
      asked = { origin: event.origin, nonce: d.nonce };
      observeHeight();
    });
  }

  // dyingWords makes fs (wasm_exec.js's) keep the first line the Go
  // runtime writes to stderr as it dies ("fatal error: out of memory"), to
  // say why it stopped: line() is that line ("" until then), and forget()
  // forgets it, for a runtime started again. The runners' workers run this
  // same function: readRunner puts its source before runner.js.
  function dyingWords(fs) {
    let fatal = "", pending = "";
    const text = new TextDecoder();
    const write = fs.writeSync.bind(fs);
    fs.writeSync = (fd, buf) => {
      if (fd === 2 && !fatal) {
        pending = (pending + text.decode(buf)).slice(-1000);
        const m = pending.match(/(fatal error|panic): [^\n]*(?=\n)/);
        if (m) fatal = m[0];
      }
      return write(fd, buf);
    };
    return { line: () => fatal, forget() { fatal = pending = ""; } };
  }
  const dying = globalThis.fs && typeof globalThis.fs.writeSync === "function" ? dyingWords(globalThis.fs) : { line: () => "", forget() {} };

  // The page as it was built, to start the notebook again from if its
  // runtime dies (out of memory, say). On Gradbook's own pages that is the
  // whole body; on a course page, only its .gradbook-cell elements, each
  // put back where it was. Every edit is saved before each run, so nothing
  // typed is lost.
  const embedded = Boolean(document.documentElement.dataset.gradbookBase);
  const pristine = embedded ? null : document.body.cloneNode(true);
  const anchors = [];
  if (embedded) {
    for (const el of document.querySelectorAll(".gradbook-cell")) {
      const mark = document.createComment("gradbook-cell");
      el.before(mark);
      anchors.push([mark, el.cloneNode(true)]);
    }
  }
  let restarts = 0;

  function stopped(go) {
    // The dead program's handlers still hang on window and document: make
    // them do nothing (wasm_exec.js, from the same Go toolchain, calls
    // _resume for each).
    go._resume = () => {};
    if (go._scheduledTimeouts) { // and its timers, which would call _resume until they are gone
      for (const t of go._scheduledTimeouts.values()) clearTimeout(t);
      go._scheduledTimeouts.clear();
    }
    go._inst = go.mem = go._values = null; // and let its memory go
    const why = dying.line() || "the WebAssembly runtime crashed";
    const busy = document.querySelector("section.cell[aria-busy=true]");
    const label = busy && busy.querySelector(".cell-label");
    const where = label ? ` while running ${label.textContent}` : "";
    const message = `The notebook stopped${where} (${why}) and was started again. Your code is kept: change the cell, then run it again.`;
    if (restarts >= 3) {
      const s = status();
      if (s) s.textContent = `The notebook stopped${where} (${why}): reload the page to run cells again.`;
      document.body.dataset.notebook = "stopped";
      return;
    }
    restarts++;
    dying.forget();
    if (pristine) {
      try {
        sessionStorage.setItem("gradbook-notice", message);
      } catch { /* storage blocked: the restart still happens */ }
      const y = window.scrollY;
      document.body.replaceWith(pristine.cloneNode(true));
      window.scrollTo(0, y);
      observeHeight();
      start().catch(failed);
      return;
    }
    // A course page: put its cells back and start again; the cell that was
    // running says what happened.
    const id = busy && busy.dataset.cellId;
    for (const el of document.querySelectorAll(".gradbook-embed, .gradbook-error")) el.remove();
    for (const [mark, el] of anchors) mark.after(el.cloneNode(true));
    delete document.body.dataset.notebook;
    const tell = () => {
      if (document.body.dataset.notebook !== "ready") return false;
      const cell = [...document.querySelectorAll("section.cell")].find((c) => c.dataset.cellId === id);
      const out = cell && cell.querySelector("output");
      if (out) out.textContent = message;
      return true;
    };
    const ready = new MutationObserver(() => { if (tell()) ready.disconnect(); });
    ready.observe(document.body, { attributes: true, attributeFilter: ["data-notebook"] });
    start().then(() => { if (tell()) ready.disconnect(); }, failed);
  }

  // The compiled gradbook.wasm, shared by the page and its runners, and
  // the runners' script, read at the same time from the same build: a
  // runner started after a new deploy (after Stop, say) still runs this
  // page's build, whatever the host or the service worker has now.
  let compiled = null;
  let runnerScript = null;
  // fetchWasm fetches the wasm, or takes the response that the page's
  // head started (its inline script, fetch-wasm.js in the build's
  // templates), where it did: a host's own CSP may have refused it.
  const fetchWasm = (u) => (globalThis.gradbookWasm && globalThis.gradbookWasm.take(u)) || fetch(u);
  function start() {
    if (typeof WebAssembly !== "object" || typeof WebAssembly.instantiate !== "function") {
      return Promise.reject(new Error("this browser runs no WebAssembly here, which the cells need (on an iPhone or iPad, Lockdown Mode turns it off)"));
    }
    // The site's one wasm loader is in autodiff.js.
    if (!compiled) {
      const load = loading();
      const progress = (received, total) => {
        load.progress(received, total);
        if (total !== null && received >= total) wasmArrived();
      };
      compiled = autodiff.compile(url, embed ? embed.fetch : fetchWasm, progress);
      const loaded = () => {
        wasmArrived();
        load.done();
        keepOffline();
      };
      compiled.then(loaded, loaded);
    }
    runnerScript = runnerScript || readRunner();
    runnerScript.catch(() => {}); // said when a runner is started
    return compiled.then((module) => autodiff.instantiate(module, stopped));
  }

  // While gradbook.wasm downloads, the page says how much has come: in the
  // status line on Gradbook's pages, and on a course page in a note after
  // each cell, where a failure would be said (the first note is announced).
  // Status lines are polite live regions: a quick load says nothing, a
  // slow one says it at most once a second, and its end.
  function loading() {
    const t0 = performance.now();
    let shownAt = 0, shown = "";
    let notes = [];
    const mb = (n) => (n / 1e6).toFixed(1);
    function show(text) {
      if (text === shown) return;
      shown = text;
      const s = status();
      if (s) s.textContent = `Loading the notebook… ${text}`;
      if (!embedded) return;
      if (notes.length === 0) {
        for (const el of document.querySelectorAll(".gradbook-cell")) {
          const note = document.createElement("p");
          note.className = "gradbook-loading";
          if (notes.length === 0) note.setAttribute("role", "status");
          el.after(note);
          notes.push(note);
        }
      }
      for (const note of notes) note.textContent = `Loading Gradbook… ${text}`;
    }
    return {
      progress(received, total) {
        const now = performance.now();
        const end = total !== null && received >= total;
        if (shownAt === 0 ? now - t0 < 500 : !end && now - shownAt < 1000) return;
        shownAt = now;
        show(total !== null ? `${mb(received)} of ${mb(total)} MB` : `${mb(received)} MB so far`);
      },
      // done takes the course page's notes away: the cells take their place.
      done() {
        for (const note of notes) note.remove();
        notes = [];
      },
    };
  }
  async function readRunner() {
    const get = embed ? embed.fetch : fetch;
    const texts = await Promise.all(["wasm_exec.js", "runner.js"].map(async (name) => {
      const res = await get(new URL(name, script.src).href);
      if (!res.ok) throw new Error(`${name}: ${res.status}`);
      return res.text();
    }));
    return URL.createObjectURL(new Blob([texts[0], "\n", dyingWords.toString(), "\n", texts[1]], { type: "text/javascript" }));
  }

  // Runners: the same gradbook.wasm in a Web Worker (runner.js) runs the
  // cells (see package runner; the messages are declared in
  // internal/protocol), so that the page never freezes and a run can
  // always be stopped, by ending its worker. The worker gets the module
  // the page compiled, and runs the script the page read with it
  // (wasm_exec.js, dyingWords and runner.js, from a blob: address: a worker could not
  // be made from Gradbook's address on a course page anyway). A page's
  // Content-Security-Policy may forbid that worker: the refusal is noted,
  // to say so.
  const refusedWorkers = [];
  document.addEventListener("securitypolicyviolation", (e) => {
    const d = e.effectiveDirective || e.violatedDirective || "";
    if (d.startsWith("worker-src") || d.startsWith("child-src") || (d.startsWith("script-src") && String(e.blockedURI).startsWith("blob"))) refusedWorkers.push(d);
  });
  globalThis.gradbookRunners = {
    // kernels is what computes matrix products in the last runner that
    // started, as its ready message says: WebAssembly SIMD kernels, or the
    // plain Go loops and why ("" until a runner starts).
    kernels: "",
    // start starts a runner and returns {post(msg), stop()}; onmessage
    // gets its messages about jobs, ondied(why, started) is called once
    // if it dies, with whether it had started (loaded its Go program).
    async start(onmessage, ondied) {
      if (typeof Worker !== "function") throw new Error("this browser has no Web Workers");
      const module = await compiled;
      const worker = new Worker(await runnerScript);
      let dead = false, started = false;
      const die = (why) => {
        if (dead) return;
        dead = true;
        worker.terminate();
        ondied(why, started);
      };
      worker.onmessage = (event) => {
        const d = event.data;
        if (!d) return;
        if (d.gradbook === "ready") {
          started = true;
          globalThis.gradbookRunners.kernels = d.kernels;
        }
        else if (d.gradbook === "died") die(d.why);
        else if (!dead) onmessage(d);
      };
      worker.onerror = (event) => {
        event.preventDefault();
        // The violation is reported a moment after the error.
        setTimeout(() => die(refusedWorkers.length > 0 ? "this page's Content-Security-Policy forbids the runner's worker: add blob: to its worker-src"
          : event.message || "the runner failed"), 50);
      };
      worker.postMessage({ gradbook: "module", module });
      return {
        post: (msg) => worker.postMessage(msg),
        stop() {
          dead = true;
          worker.terminate();
        },
      };
    },
    // data fetches one of the site's data files (data/names.txt) for a
    // job whose cells read it, through the course page's frame where the
    // host sends no CORS headers.
    async data(name) {
      const res = await (embed ? embed.fetch : fetch)(new URL(`data/${name}`, script.src).href);
      if (!res.ok) throw new Error(`${res.status} ${res.statusText}`.trim());
      return res.text();
    },
  };

  // The service worker keeps the whole site for offline use. When a new
  // version has been downloaded, the learner is offered it; it is used only
  // once they accept, and then for the whole page at once.
  function offerUpdate(worker) {
    if (document.getElementById("update-banner")) return;
    const banner = document.createElement("div");
    banner.id = "update-banner";
    banner.className = "update-banner";
    banner.setAttribute("role", "status");
    const text = document.createElement("span");
    text.textContent = "A new version of Gradbook is ready. ";
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Reload to use it";
    button.addEventListener("click", () => {
      accepted = true;
      worker.postMessage({ gradbook: "activate" });
    });
    banner.append(text, button);
    document.body.prepend(banner);
  }
  let accepted = false;
  // Only on Gradbook's own site: a course page that embeds cells keeps its
  // own service worker, if any, and an LMS serves a SCORM package's pages
  // (data-lms), which has none. It is registered once gradbook.wasm has
  // come (or failed to): on a first visit its install fetches the whole
  // site, which on a slow network would share it with the wasm the
  // learner waits for.
  function keepOffline() {
    if (!("serviceWorker" in navigator) || document.body.dataset.lms || location.protocol === "file:" || new URL(script.src).origin !== location.origin) return;
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      if (accepted) location.reload();
    });
    navigator.serviceWorker.register(new URL("sw.js", script.src).href).then((reg) => {
      if (reg.waiting && navigator.serviceWorker.controller) offerUpdate(reg.waiting);
      reg.addEventListener("updatefound", () => {
        const w = reg.installing;
        if (!w) return;
        w.addEventListener("statechange", () => {
          if (w.state === "installed" && navigator.serviceWorker.controller) offerUpdate(w);
        });
      });
    }, () => { /* no offline copy: the site still works online */ });
  }

  // In a frame on another site, the browser keeps this frame's storage
  // apart from Gradbook's own site (storage partitioning): progress made
  // here stays with this course page. Where the browser offers the Storage
  // Access API, the learner may let the frame use Gradbook's own storage;
  // once allowed, it is used without asking again.
  async function storageInFrame() {
    if (window.parent === window || typeof document.hasStorageAccess !== "function") return;
    try {
      if (await document.hasStorageAccess()) return; // the same site: Gradbook's own storage
    } catch { return; }
    let granted = false;
    try {
      granted = (await navigator.permissions.query({ name: "storage-access" })).state === "granted";
    } catch { /* no such permission here */ }
    if (granted && typeof document.requestStorageAccess === "function") {
      try {
        const handle = await document.requestStorageAccess({ indexedDB: true });
        if (handle && handle.indexedDB) {
          Object.defineProperty(globalThis, "indexedDB", { value: handle.indexedDB, configurable: true });
          return;
        }
      } catch { /* not allowed yet: it takes the learner's click, offered below */ }
    }
    const note = document.createElement("p");
    note.className = "frame-storage";
    note.setAttribute("role", "status");
    note.textContent = "In this frame, your progress is kept for this course page only: the browser keeps it apart from Gradbook's own site. ";
    if (typeof document.requestStorageAccess === "function") {
      const ask = document.createElement("button");
      ask.type = "button";
      ask.textContent = "Keep it with Gradbook's site";
      ask.addEventListener("click", () => {
        document.requestStorageAccess({ indexedDB: true }).then(() => location.reload(), () => {
          note.textContent = "The browser did not allow it: your progress stays with this course page.";
        });
      });
      note.append(ask);
    }
    document.body.prepend(note);
  }

  function failed(err) {
    // Nothing can be answered: nothing stays folded.
    for (const f of document.querySelectorAll(".after-prediction")) f.classList.add("open");
    const s = status();
    if (s) s.textContent = `The notebook could not start (${err.message}). The lesson is still readable; reload to try again.`;
    for (const el of document.querySelectorAll(".gradbook-cell")) {
      const note = document.createElement("p");
      note.className = "gradbook-error";
      note.setAttribute("role", "alert");
      note.textContent = `Gradbook could not start here: ${embed ? embed.why(err, url) : err.message}.`;
      el.after(note);
    }
    document.body.dataset.notebook = "failed";
  }

  storageInFrame().catch(() => {}).then(() => start()).catch(failed);
})();
