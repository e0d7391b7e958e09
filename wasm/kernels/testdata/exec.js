// exec.js runs a Go program compiled to WebAssembly in Node, as Go's own
// wasm_exec_node.js does, and hands the program its memory as
// globalThis.goMemory, as Gradbook's runner hands gradbook.wasm its own,
// so that the program can install the kernels (kernels.Install). It is
// for tests: go_js_wasm_exec beside it runs it.
//   node exec.js GOROOT/lib/wasm program.wasm [arguments]
"use strict";

globalThis.require = require;
globalThis.fs = require("fs");
globalThis.path = require("path");
globalThis.TextEncoder = require("util").TextEncoder;
globalThis.TextDecoder = require("util").TextDecoder;
globalThis.performance ??= require("perf_hooks").performance;
globalThis.crypto ??= require("crypto");

const [lib, program, ...args] = process.argv.slice(2);
require(path.join(lib, "wasm_exec.js"));

const go = new Go();
go.argv = [program, ...args];
go.env = Object.assign({ TMPDIR: require("os").tmpdir() }, process.env);
go.exit = process.exit;
WebAssembly.instantiate(fs.readFileSync(program), go.importObject).then((result) => {
  globalThis.goMemory = result.instance.exports.mem;
  process.on("exit", (code) => { // Node exits when no event is pending
    if (code === 0 && !go.exited) { // a deadlock: have Go say where
      go._pendingEvent = { id: 0 };
      go._resume();
    }
  });
  return go.run(result.instance);
}).catch((err) => {
  console.error(err);
  process.exit(1);
});
