// autodiff-worker.js: the engine in a Web Worker, off the page's thread.
//
//   const w = new Worker("autodiff-worker.js");
//   w.postMessage({ graph, leaves, out });   // out is optional
//   w.onmessage = (e) => e.data;             // { values, grads } or { error }
"use strict";
importScripts("wasm_exec.js", "autodiff.js");

self.onmessage = async (event) => {
  const { graph, leaves, out } = event.data || {};
  try {
    await autodiff.ready;
    const values = autodiff.evaluate(graph, leaves);
    const grads = out === undefined ? null : autodiff.backward(graph, values, out);
    self.postMessage({ values, grads });
  } catch (err) {
    self.postMessage({ error: err.message });
  }
};
