// notebook.js starts the notebook's WebAssembly (notebook.wasm, beside this
// file) on a lesson or scratch page. The page is readable before it loads;
// the wasm then enables the cells. Load wasm_exec.js first.
(function () {
  "use strict";
  const script = document.currentScript;
  const url = new URL("notebook.wasm", script.src).href;
  const status = () => document.getElementById("notebook-status");

  async function start() {
    const go = new Go();
    let result;
    try {
      result = await WebAssembly.instantiateStreaming(fetch(url), go.importObject);
    } catch (err) {
      // A server that does not send application/wasm: fall back.
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      result = await WebAssembly.instantiate(await response.arrayBuffer(), go.importObject);
    }
    go.run(result.instance).then(() => {
      const s = status();
      if (s) s.textContent = "The notebook stopped: reload the page to run cells again.";
      document.body.dataset.notebook = "stopped";
    });
  }

  start().catch((err) => {
    const s = status();
    if (s) s.textContent = `The notebook could not start (${err.message}). The lesson is still readable; reload to try again.`;
    document.body.dataset.notebook = "failed";
  });
})();
