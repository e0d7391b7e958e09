// fetch-wasm.js starts fetching the notebook's WebAssembly (gradbook.wasm,
// beside this file) from the page's head, while the rest of the page, its
// styles and its scripts still come: gradbook.js, at the end of the body,
// takes the response when it starts (gradbookWasm.take), instead of
// fetching the file about a second later on a slow network. Load it with
// async, so that it waits for nothing.
//
// It is a plain fetch, as gradbook.js's own, read whole by the page that
// made it; not a <link rel=preload>, which in Firefox made a page that a
// service worker controls log that the worker "encountered an unexpected
// error".
(function () {
  "use strict";
  // gradbook.js came first (this script can come late on a slow
  // network), or nothing here could run the file: nothing to start.
  if (globalThis.gradbookRunners || typeof WebAssembly !== "object" || typeof fetch !== "function") return;
  const url = new URL("gradbook.wasm", document.currentScript.src).href;
  let response = fetch(url);
  response.catch(() => {}); // a failure is gradbook.js's to say, once it takes the response
  globalThis.gradbookWasm = {
    // take returns the response for url, once; null for any other
    // address, or once it has been taken.
    take(want) {
      if (response === null || want !== url) return null;
      const r = response;
      response = null;
      return r;
    },
  };
})();
