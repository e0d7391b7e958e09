// runner.js: the notebook's runner, a Web Worker that gradbook.js starts,
// from one script with wasm_exec.js and gradbook.js's dyingWords before
// this file, read when the page started. It runs gradbook.wasm, compiled by the page and posted
// here as the first message ({gradbook: "module"}), which then serves the
// page's jobs (see package runner; the messages are declared in
// internal/protocol). The Go program gets its own memory here, to compile
// the matrix-product kernels into (package wasm/kernels), and says what
// computes the products, which the ready message tells the page. If the
// Go program dies, the page is told why and starts another runner.
"use strict";
(function () {
  let handle = null;
  const queue = [];
  self.gradbookRunner = {
    // memory is the Go program's WebAssembly memory, set before it runs.
    memory: null,
    // kernels is what computes matrix products, which the Go program sets
    // before it is ready: its SIMD kernels, or the plain loops and why.
    kernels: "",
    // ready is called by the Go program with the function that takes jobs.
    ready(h) {
      handle = h;
      self.postMessage({ gradbook: "ready", kernels: self.gradbookRunner.kernels });
      for (const m of queue.splice(0)) h(m);
    },
  };
  let dying = null; // the Go runtime's last words (dyingWords), once it runs
  const died = (why) => self.postMessage({ gradbook: "died", why: (dying && dying.line()) || why });
  self.onmessage = async (event) => {
    const msg = event.data;
    if (!msg || msg.gradbook !== "module") {
      if (!handle) {
        queue.push(msg);
        return;
      }
      // The Go program runs the job inside this call. An error it throws
      // (the browser's "Maximum call stack size exceeded") leaves it
      // unable to go on, and, in this async function, would be only an
      // unhandled rejection that nobody hears of: the page is told.
      try {
        handle(msg);
      } catch (err) {
        died(`the runner failed: ${err && err.message || err}`);
      }
      return;
    }
    try {
      if (typeof self.Go !== "function") throw new Error("wasm_exec.js is missing: the worker's script must start with it");
      if (typeof dyingWords !== "function") throw new Error("dyingWords is missing: the worker's script must have gradbook.js's before runner.js");
      dying = dyingWords(self.fs);
      const go = new self.Go();
      // A cell's arithmetic makes garbage fast over a small live heap (a
      // training step's graph), and in WebAssembly every collection runs
      // on the cell's own thread: collecting at five times the live heap
      // instead of twice takes a plain training step about a third less
      // time (at nine times, more: the memory grows). The run's heap limit
      // (kernel.MaxHeap) still collects before the heap outgrows it. Set
      // here rather than with debug.SetGCPercent: 1.6 KB less wasm.
      go.env = { GOGC: "400" };
      const instance = await WebAssembly.instantiate(msg.module, go.importObject);
      self.gradbookRunner.memory = instance.exports.mem;
      go.run(instance).then(() => died("the runner stopped"), (err) => died(String(err)));
    } catch (err) {
      died(`the runner could not start: ${err.message}`);
    }
  };
})();
