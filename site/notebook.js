// notebook.js starts the notebook's WebAssembly (notebook.wasm, beside this
// file) on a lesson or scratch page. The page is readable before it loads;
// the wasm then enables the cells. Load wasm_exec.js and autodiff.js (which
// has the loader) first.
(function () {
  "use strict";
  const script = document.currentScript;
  const url = new URL("notebook.wasm", script.src).href;
  const status = () => document.getElementById("notebook-status");

  // In an iframe: lessons/x.html?frame shows the lesson without the site's
  // header and footer, and every page tells the parent its height, so that
  // embed.js can size the frame to its content.
  if (new URLSearchParams(location.search).has("frame")) document.body.classList.add("frame");
  // The height goes to the parent's origin only, never to "*".
  const parentOrigin = location.ancestorOrigins && location.ancestorOrigins.length > 0 ? location.ancestorOrigins[0]
    : document.referrer ? new URL(document.referrer).origin : null;
  if (window.parent !== window && parentOrigin && parentOrigin !== "null" && typeof ResizeObserver === "function") {
    const tell = () => window.parent.postMessage({ gradbook: "height", height: document.documentElement.scrollHeight }, parentOrigin);
    new ResizeObserver(tell).observe(document.body);
    tell();
  }

  function start() {
    // The site's one wasm loader is in autodiff.js.
    return autodiff.instantiate(url, () => {
      const s = status();
      if (s) s.textContent = "The notebook stopped: reload the page to run cells again.";
      document.body.dataset.notebook = "stopped";
    });
  }

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
      worker.postMessage("gradbook:activate");
    });
    banner.append(text, button);
    document.body.prepend(banner);
  }
  let accepted = false;
  // Only on Gradbook's own site: a course page that embeds cells keeps its
  // own service worker, if any.
  if ("serviceWorker" in navigator && location.protocol !== "file:" && new URL(script.src).origin === location.origin) {
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

  start().catch((err) => {
    const s = status();
    if (s) s.textContent = `The notebook could not start (${err.message}). The lesson is still readable; reload to try again.`;
    for (const el of document.querySelectorAll(".gradbook-cell")) {
      const note = document.createElement("p");
      note.className = "gradbook-error";
      note.textContent = `Gradbook could not start here (${err.message}).`;
      el.after(note);
    }
    document.body.dataset.notebook = "failed";
  });
})();
