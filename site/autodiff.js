// autodiff.js — the JavaScript API of the Gradbook engine.
//
// Load wasm_exec.js, then this file (a <script>, importScripts in a Web
// Worker, or require in Node). It starts engine.wasm from beside this file
// and defines globalThis.autodiff:
//
//   await autodiff.ready;
//   const vals = autodiff.evaluate([["p", "mul", ["a", "b"]]], {a: 2, b: 3});
//   const grads = autodiff.backward([["p", "mul", ["a", "b"]]], vals, "p");
//
// Both take the lessons' plain arrays and objects, return a plain object of
// name → number, and throw an Error with the engine's message on bad input.
//
// Go functions cannot throw into JavaScript, and every property read across
// the boundary is slow, so this wrapper does the conversions here: it numbers
// the names once and hands the engine a few typed arrays.
(function (global) {
  "use strict";

  const api = {};
  let core = null;

  function engine() {
    if (!core) {
      core = global.autodiffCore || null;
      if (!core) throw new Error("autodiff: the engine is still loading: wait for autodiff.ready");
    }
    return core;
  }

  function check(result) {
    if (result instanceof Error) throw result;
    return result;
  }

  // encode numbers the names of a graph in the list format. It returns null
  // for anything but a well-formed list of entries, which then goes to the
  // engine as JSON so that the engine's parser reports what is wrong.
  function encode(graph) {
    if (!Array.isArray(graph)) return null;
    const n = graph.length;
    if (n > engine().maxNodes) throw new Error(`graph too large: the graph has ${n} nodes; at most ${engine().maxNodes} are allowed`);
    const index = new Map();
    const names = [];
    const opIndex = new Map();
    const ops = [];
    const code = new Int32Array(5 * n);
    const k = new Float64Array(n);
    const id = (name) => {
      let i = index.get(name);
      if (i === undefined) {
        i = names.length;
        index.set(name, i);
        names.push(name);
      }
      return i;
    };
    for (let i = 0; i < n; i++) {
      const e = graph[i];
      if (!Array.isArray(e) || e.length < 3 || e.length > 4) return null;
      const name = e[0], op = e[1], ins = e[2];
      if (typeof name !== "string" || typeof op !== "string" || !Array.isArray(ins)) return null;
      let o = opIndex.get(op);
      if (o === undefined) {
        o = ops.length;
        opIndex.set(op, o);
        ops.push(op);
      }
      const c = 5 * i;
      code[c] = id(name);
      code[c + 1] = o;
      code[c + 2] = ins.length;
      code[c + 3] = -1;
      code[c + 4] = -1;
      for (let p = 0; p < ins.length; p++) {
        const input = ins[p];
        if (typeof input !== "string") return null;
        if (p < 2) code[c + 3 + p] = id(input);
      }
      if (e.length === 4) {
        if (typeof e[3] !== "number") return null;
        k[i] = e[3];
      }
    }
    return { index, names, ops, code, k };
  }

  // bind numbers the names of an object of values with the graph's names.
  // It returns null if the object or a value is not what the engine takes.
  function bind(enc, values) {
    if (values === null || typeof values !== "object" || Array.isArray(values)) return null;
    const keys = Object.keys(values);
    const ids = new Int32Array(keys.length);
    const xs = new Float64Array(keys.length);
    const extra = [];
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const x = values[key];
      if (typeof x !== "number") return null;
      xs[i] = x;
      const id = enc.index.get(key);
      if (id === undefined) {
        ids[i] = -1;
        extra.push(key);
      } else {
        ids[i] = id;
      }
    }
    return { keys, ids, xs, extra };
  }

  function bytes(a) {
    return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  }

  function args(enc, b) {
    return [enc.names.join("\0"), enc.names.length, enc.ops.join("\0"), bytes(enc.code), bytes(enc.k),
      bytes(b.ids), bytes(b.xs), b.extra.join("\0"), b.extra.length];
  }

  // json sends what encode or bind could not take to the engine as text.
  function json(what, x) {
    if (x === undefined) throw new Error(`autodiff: the ${what} is missing`);
    let text;
    try {
      text = JSON.stringify(x);
    } catch (err) {
      throw new Error(`autodiff: the ${what} cannot be read: ${err.message}`);
    }
    if (typeof text !== "string") throw new Error(`autodiff: the ${what} is not a list or object`);
    return text;
  }

  function argCount(n, name, expected) {
    if (n < expected) throw new Error(`autodiff.${name}: expected ${expected} arguments, got ${n}`);
  }

  // evaluate(graph, leaves) returns every value: the leaves, then the nodes.
  api.evaluate = function evaluate(graph, leaves) {
    argCount(arguments.length, "evaluate", 2);
    const c = engine();
    const enc = encode(graph);
    const b = enc && bind(enc, leaves);
    if (!b) return JSON.parse(check(c.evaluateJSON(json("graph", graph), json("leaves", leaves))));
    const nodes = check(c.evaluate(...args(enc, b)));
    const out = {};
    for (let i = 0; i < b.keys.length; i++) out[b.keys[i]] = b.xs[i];
    for (let i = 0; i < graph.length; i++) out[graph[i][0]] = nodes[i];
    return out;
  };

  // backward(graph, values, out) returns d(out)/d(name) for every name in
  // values: 1 for out, 0 for names that do not reach it.
  api.backward = function backward(graph, values, out) {
    argCount(arguments.length, "backward", 3);
    const c = engine();
    if (typeof out !== "string") throw new Error(`autodiff.backward: out must be the name of a node, got ${out === null ? "null" : typeof out}`);
    const enc = encode(graph);
    const b = enc && bind(enc, values);
    if (!b) return JSON.parse(check(c.backwardJSON(json("graph", graph), json("values", values), out)));
    const outID = enc.index.has(out) ? enc.index.get(out) : -1;
    const grads = check(c.backward(...args(enc, b), outID, out));
    const res = {};
    for (let i = 0; i < b.keys.length; i++) res[b.keys[i]] = grads[i];
    return res;
  };

  // The engine's file: engine.wasm beside this script.
  const scriptURL = typeof document !== "undefined" && document.currentScript ? document.currentScript.src
    : typeof location !== "undefined" ? location.href : null;
  function wasmURL() {
    try {
      return new URL("engine.wasm", scriptURL).href;
    } catch {
      throw new Error("autodiff: cannot tell where engine.wasm is: call autodiff.load(url) with its address");
    }
  }

  async function start(url) {
    if (typeof global.Go !== "function") throw new Error("autodiff: load wasm_exec.js before autodiff.js");
    const go = new global.Go();
    let result;
    if (typeof process !== "undefined" && process.versions && process.versions.node && typeof require === "function") {
      const path = require("path");
      const file = url || path.join(__dirname, "engine.wasm");
      result = await WebAssembly.instantiate(require("fs").readFileSync(file), go.importObject);
    } else {
      const response = await fetch(url || wasmURL());
      if (!response.ok) throw new Error(`autodiff: cannot load the engine: ${response.status} ${response.statusText}`);
      result = await WebAssembly.instantiate(await response.arrayBuffer(), go.importObject);
    }
    go.run(result.instance); // runs until the page goes away
    engine();
  }

  // autodiff.load(url) starts the engine from another address; ready
  // settles when it can answer.
  let pending = null;
  api.load = function load(url) {
    pending = pending || start(url);
    return pending;
  };
  Object.defineProperty(api, "ready", { get: () => api.load(), enumerable: true });

  global.autodiff = api;
  if (typeof module !== "undefined" && module.exports) module.exports = api;
})(typeof globalThis !== "undefined" ? globalThis : self);
