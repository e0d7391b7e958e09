// go-worker.js runs a Go test binary compiled to WebAssembly (tensor's,
// for its GPT step benchmark) in a Web Worker, with its memory handed
// over as globalThis.goMemory, as wasm/kernels/testdata/exec.js does in
// Node, so that the binary's TestMain installs the SIMD kernels; it posts
// back what the binary printed. The side-by-side spec (tfjs.spec.js)
// serves it, with wasm_exec.js and the binary, to its page alone.
//   postMessage({url, args})  →  {out} or {error}
"use strict";
importScripts("wasm_exec.js");
self.onmessage = async ({ data }) => {
  try {
    let out = "";
    const text = new TextDecoder();
    self.fs.writeSync = (fd, buf) => {
      out += text.decode(buf);
      return buf.length;
    };
    const go = new self.Go();
    go.argv = ["tensor.test", ...data.args];
    const { instance } = await WebAssembly.instantiateStreaming(fetch(data.url), go.importObject);
    self.goMemory = instance.exports.mem;
    await go.run(instance);
    self.postMessage({ out });
  } catch (err) {
    self.postMessage({ error: String(err) });
  }
};
