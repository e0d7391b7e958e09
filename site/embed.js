// embed.js: live Gradbook cells in any page. Add this script (from the
// Gradbook site), and mark up cells:
//
//   <pre class="gradbook-cell">x = Value(3.0, "x")
//   (x * x).backward()
//   print(x.grad)</pre>
//   <div class="gradbook-cell" data-lesson="02-reverse-accumulation" data-cell="worked"></div>
//   <script src="https://your.site/gradbook/embed.js"></script>
//
// Inline cells form one notebook in page order; a cell taken from a lesson
// runs after that lesson's cells above it. It also sizes Gradbook iframes
// (embed.html) to their content: they tell their height only to a page
// with this script, which asks them for it. Progress is kept in this page's own
// IndexedDB, under the database "gradbook".
//
// The cells need five files from the Gradbook site besides scripts:
// gradbook.wasm, cells.json, editor.js, wasm_exec.js and runner.js. Where
// the site's host sends Access-Control-Allow-Origin, they are fetched
// directly. Where it sends no CORS headers, a hidden frame of the Gradbook
// site (proxy.html) fetches them and hands them over by postMessage;
// everything else is the same.
// When something stops the cells, each says why and what fixes it, in one
// line.
(function () {
  "use strict";
  const script = document.currentScript;
  const base = new URL(".", script.src).href;
  const gradbook = new URL(base).origin;

  // Size <iframe src=".../embed.html?..."> to what they show. A Gradbook
  // frame tells its height only to a parent that asks (a frame's height
  // shows how much work the learner saved there): this script asks each
  // Gradbook frame of the page, once it loads, with a nonce of its own,
  // and takes heights, up to maxHeight, only from that frame with that
  // nonce. Another frame's messages are ignored.
  const maxHeight = 50000;
  const nonces = new WeakMap(); // a frame's window → the nonce it was given
  function ask(frame) {
    let src;
    try {
      src = new URL(frame.src, location.href);
    } catch {
      return;
    }
    if (src.origin !== gradbook || !frame.contentWindow) return;
    const nonce = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
    nonces.set(frame.contentWindow, nonce);
    frame.contentWindow.postMessage({ gradbook: "size-me", nonce }, gradbook);
  }
  document.addEventListener("load", (event) => { if (event.target instanceof HTMLIFrameElement) ask(event.target); }, true);
  for (const frame of document.querySelectorAll("iframe")) ask(frame);
  window.addEventListener("message", (event) => {
    if (event.origin !== gradbook) return;
    const d = event.data;
    if (!d || d.gradbook !== "height" || typeof d.height !== "number" || !(d.height >= 0)) return;
    if (!event.source || typeof d.nonce !== "string" || nonces.get(event.source) !== d.nonce) return;
    for (const frame of document.querySelectorAll("iframe")) {
      if (frame.contentWindow === event.source) frame.style.height = Math.ceil(Math.min(d.height, maxHeight)) + "px";
    }
  });

  if (!document.querySelector(".gradbook-cell")) return;
  document.documentElement.dataset.gradbookBase = base;

  // What the course page's Content-Security-Policy refused, to say which
  // directive to change.
  const refused = [];
  document.addEventListener("securitypolicyviolation", (e) => refused.push(e));
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50)); // violations are reported a moment later
  function blockedBy(directive, what) {
    return refused.some((v) => (v.effectiveDirective || v.violatedDirective || "").startsWith(directive) &&
      (!what || (v.blockedURI || "").startsWith(what)));
  }

  // A failure that already says its cause and its fix.
  class Why extends Error {}
  const cspFix = (directive, value) => new Why(`this page's Content-Security-Policy blocks it: add ${value} to ${directive}`);

  function load(src) {
    return new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = src;
      s.onload = resolve;
      s.onerror = async () => {
        await settle();
        if (blockedBy("script-src", gradbook)) reject(cspFix("script-src", gradbook));
        else reject(new Why(`${src} could not be loaded: check the address in the embed script's src, and that the whole exported folder is on the host`));
      };
      document.head.append(s);
    });
  }

  // The hidden frame that fetches for this page, started once.
  let proxy = null;
  function startProxy() {
    if (proxy) return proxy;
    proxy = new Promise((resolve, reject) => {
      const frame = document.createElement("iframe");
      frame.src = base + "proxy.html";
      frame.title = "Gradbook (loads the cells' files)";
      frame.hidden = true;
      frame.setAttribute("aria-hidden", "true");
      frame.tabIndex = -1;
      const waiting = new Map();
      let next = 1;
      const timer = setTimeout(async () => {
        await settle();
        if (blockedBy("frame-src", gradbook) || blockedBy("child-src", gradbook)) reject(cspFix("frame-src", gradbook));
        else reject(new Why(`${base}proxy.html did not answer: send Access-Control-Allow-Origin: * with Gradbook's files, or upload the whole exported folder`));
      }, 15000);
      window.addEventListener("message", (event) => {
        if (event.origin !== gradbook || event.source !== frame.contentWindow) return;
        const d = event.data;
        if (!d) return;
        if (d.gradbook === "proxy-ready") {
          clearTimeout(timer);
          resolve((file) => new Promise((ok, fail) => {
            const id = next++;
            waiting.set(id, { ok, fail, file });
            frame.contentWindow.postMessage({ gradbook: "fetch", id, file }, gradbook);
          }));
        } else if (d.gradbook === "file" && typeof d.id === "number" && waiting.has(d.id)) {
          const w = waiting.get(d.id);
          waiting.delete(d.id);
          if (d.status === 200 && d.body instanceof ArrayBuffer) {
            w.ok(new Response(d.body, { status: 200, headers: { "Content-Type": typeof d.type === "string" ? d.type : "" } }));
          } else if (d.status > 0) {
            w.ok(new Response(null, { status: d.status }));
          } else {
            w.fail(new Why(`${base}${w.file} could not be fetched (${d.error}): check that Gradbook's site is reachable`));
          }
        }
      });
      document.body.append(frame);
    });
    return proxy;
  }

  // fetch gets one of Gradbook's files for this page: directly where the
  // host allows it, through the frame where it does not.
  let direct = null;
  function isDirect() {
    direct = direct || fetch(base + "cells.json", { method: "HEAD" }).then(() => true, async () => {
      await settle();
      if (blockedBy("connect-src", gradbook)) throw cspFix("connect-src", gradbook);
      return false; // refused by CORS, or unreachable: the frame will tell
    });
    return direct;
  }
  async function gradbookFetch(url) {
    const u = String(url);
    if (!u.startsWith(base) || await isDirect()) return fetch(u);
    const get = await startProxy();
    return get(u.slice(base.length));
  }

  // why turns a failure into one line: its cause and its fix.
  function why(err, url) {
    if (err instanceof Why) return err.message;
    const msg = String(err && err.message || err);
    if (/unsafe-eval/.test(msg)) { // the browser's words when a CSP refuses WebAssembly
      return "this page's Content-Security-Policy does not allow WebAssembly: add 'wasm-unsafe-eval' to its script-src";
    }
    if (err && err.status === 404) {
      return `${url || base} was not found (404): upload the whole exported folder, next to embed.js`;
    }
    return msg;
  }
  globalThis.gradbookEmbed = { fetch: gradbookFetch, direct: isDirect, why };

  function fail(err) {
    for (const el of document.querySelectorAll(".gradbook-cell")) {
      const note = document.createElement("p");
      note.className = "gradbook-error";
      note.setAttribute("role", "alert");
      note.textContent = `Gradbook could not start here: ${why(err)}.`;
      el.after(note);
    }
  }

  // The same loader as Gradbook's own pages: it starts gradbook.wasm from
  // beside it, which finds the cells marked up here.
  (typeof Go === "function" ? Promise.resolve() : load(base + "wasm_exec.js"))
    .then(() => (typeof autodiff === "object" ? undefined : load(base + "autodiff.js")))
    .then(() => load(base + "gradbook.js"))
    .catch(fail);
})();
