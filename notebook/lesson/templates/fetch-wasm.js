// Starts fetching the notebook's WebAssembly (gradbook.wasm, at the
// element's data-wasm) as soon as the page's head is read: it is most of
// what a first visit downloads, and gradbook.js, at the end of the body,
// takes the response when it starts (gradbookWasm.take). The page carries
// this script inline, before its stylesheet, so that the download waits
// for no other file; the CSP allows it by its hash (lesson.CSP). A plain
// fetch, read whole by the page that made it; not a <link rel=preload>,
// which in Firefox made a page that a service worker controls log that
// the worker "encountered an unexpected error".
(function () {
  "use strict";
  if (typeof WebAssembly !== "object" || typeof fetch !== "function") return;
  const url = new URL(document.currentScript.dataset.wasm, document.baseURI).href;
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
