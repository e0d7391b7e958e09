// proxy.js: on a host that sends no CORS headers, a course page on another
// site cannot fetch Gradbook's files itself. embed.js then opens this page
// (proxy.html) in a hidden frame, which is on Gradbook's site and can: it
// answers its parent's requests for the few files that embedded cells need,
// and nothing else. The files are the same public files the site serves.
"use strict";
(() => {
  const files = new Set(["gradbook.wasm", "cells.json", "editor.js", "runner.js", "wasm_exec.js", "data/names.txt", "data/tinyshakespeare.txt"]);
  if (window.parent === window) return;
  window.addEventListener("message", async (event) => {
    if (event.source !== window.parent) return;
    const d = event.data;
    if (!d || d.gradbook !== "fetch" || typeof d.id !== "number" || !files.has(d.file)) return;
    const reply = (msg, transfer) => window.parent.postMessage({ gradbook: "file", id: d.id, ...msg }, event.origin, transfer);
    try {
      const res = await fetch(d.file);
      if (!res.ok) {
        reply({ status: res.status });
        return;
      }
      const body = await res.arrayBuffer();
      reply({ status: 200, type: res.headers.get("Content-Type") || "", body }, [body]);
    } catch (err) {
      reply({ status: 0, error: String(err && err.message) });
    }
  });
  // The parent learns that the frame listens; the message carries nothing.
  window.parent.postMessage({ gradbook: "proxy-ready" }, "*");
})();
