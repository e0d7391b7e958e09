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
// Both take the lessons' plain arrays and objects, return an object of
// name → number without a prototype (so that __proto__ and constructor are
// names like any other), and throw an Error with the engine's message on
// bad input.
//
// Crossing into Go is what costs, so this wrapper does the conversions:
// it numbers the names of a graph once, writes them and the values straight
// into the engine's memory, and calls the engine's WebAssembly exports
// (wasm/engine/layout.go has the layout). A graph equal to the last one is not
// sent again.
//
// It also holds the site's one WebAssembly loader, autodiff.instantiate,
// which gradbook.js uses to start the notebook.
(function (global) {
  "use strict";

  const api = {};
  let ex = null; // the module's exports, once started
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  // Header words: the constants of wasm/engine/layout.go, h<Name> as <name>
  // (wasm/engine/header_test.go fails if the two disagree).
  const H = {
    namesOff: 0, namesLen: 1, namesN: 2, opsOff: 3, opsLen: 4, opsN: 5, codeOff: 6, nodes: 7, kOff: 8,
    idsOff: 9, values: 10, xsOff: 11, extraOff: 12, extraLen: 13, extraN: 14, outOff: 15,
    outLen: 16, tape: 17, tapeOut: 18, jsonOff: 19, jsonLen: 20, json2Off: 21, json2Len: 22, words: 23,
  };

  function exports() {
    if (!ex) throw new Error("autodiff: the engine is still loading: wait for autodiff.ready");
    return ex;
  }

  // The last graph encoded, and the engine's id for its compiled tape.
  let last = null;

  // encode numbers the names of a graph in the list format. It returns null
  // for anything but a well-formed list of entries, which then goes to the
  // engine as JSON so that the engine's parser reports what is wrong.
  function encode(graph) {
    if (!Array.isArray(graph)) return null;
    const n = graph.length;
    if (n > global.autodiffCore.maxNodes) {
      throw new Error(`graph too large: the graph has ${n} nodes; at most ${global.autodiffCore.maxNodes} are allowed`);
    }
    if (last && same(last, graph)) return last;
    const index = new Map();
    const names = [];
    const opIndex = new Map();
    const ops = [];
    const code = new Int32Array(5 * n);
    const k = new Float64Array(n);
    // What each entry was, to tell cheaply whether the next graph is equal.
    const snap = { name: new Array(n), op: new Array(n), in0: new Array(n), in1: new Array(n), len: new Int32Array(n), size: new Int8Array(n) };
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
      if (ins.length > 2) return null; // never valid: the engine says why
      if (e.length === 4) {
        if (typeof e[3] !== "number") return null;
        k[i] = e[3];
      }
      snap.name[i] = name; snap.op[i] = op; snap.in0[i] = ins[0]; snap.in1[i] = ins[1];
      snap.len[i] = ins.length; snap.size[i] = e.length;
    }
    last = { n, index, names, ops, code, k, snap, tape: 0, leafKeys: null, leafIDs: null };
    return last;
  }

  // same reports whether graph is entry for entry the graph enc was made from.
  function same(enc, graph) {
    const s = enc.snap;
    if (graph.length !== enc.n) return false;
    for (let i = 0; i < enc.n; i++) {
      const e = graph[i];
      if (!Array.isArray(e) || e.length !== s.size[i] || e[0] !== s.name[i] || e[1] !== s.op[i]) return false;
      const ins = e[2];
      if (!Array.isArray(ins) || ins.length !== s.len[i] || ins[0] !== s.in0[i] || ins[1] !== s.in1[i]) return false;
      if (e.length === 4 && e[3] !== enc.k[i]) return false;
    }
    return true;
  }

  // bind numbers the names of an object of values with the graph's names.
  // It returns null if the object or a value is not what the engine takes.
  function bind(enc, values) {
    if (values === null || typeof values !== "object" || Array.isArray(values)) return null;
    const keys = Object.keys(values);
    const xs = new Float64Array(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const x = values[keys[i]];
      if (typeof x !== "number") return null;
      xs[i] = x;
    }
    const extra = [];
    let ids = boundAsEvaluated(enc, keys);
    if (ids) {
      for (let i = 0; i < enc.leafKeys.length; i++) if (ids[i] < 0) extra.push(keys[i]);
    } else {
      ids = new Int32Array(keys.length);
      for (let i = 0; i < keys.length; i++) {
        const id = enc.index.get(keys[i]);
        if (id === undefined) {
          ids[i] = -1;
          extra.push(keys[i]);
        } else {
          ids[i] = id;
        }
      }
    }
    return { keys, ids, xs, extra };
  }

  // boundAsEvaluated numbers keys without a lookup each when they are those
  // of the last evaluate's answer: its leaves, then the graph's nodes.
  function boundAsEvaluated(enc, keys) {
    const lk = enc.leafKeys;
    if (!lk || keys.length !== lk.length + enc.n) return null;
    const ids = new Int32Array(keys.length);
    for (let i = 0; i < lk.length; i++) {
      if (keys[i] !== lk[i]) return null;
      ids[i] = enc.leafIDs[i];
    }
    for (let j = 0, i = lk.length; j < enc.n; j++, i++) {
      const id = enc.code[5 * j];
      if (keys[i] !== enc.names[id]) return null;
      ids[i] = id;
    }
    return ids;
  }

  const align = (x) => (x + 7) & ~7;

  // send lays a request out in the engine's input buffer and calls op on
  // it. It returns the answer as a Float64Array view (copy it at once), or
  // throws the engine's error.
  function send(op, enc, b, outName) {
    const e = exports();
    const m = b.ids.length;
    const reuse = enc.tape !== 0;
    const n = reuse ? 0 : enc.n;
    let off = align(4 * H.words);
    const codeOff = off; off = align(off + 20 * n);
    const kOff = off; off += 8 * n;
    const idsOff = off; off = align(off + 4 * m);
    const xsOff = off; off += 8 * m;
    const texts = [reuse ? "" : enc.names.join("\0"), reuse ? "" : enc.ops.join("\0"), b.extra.join("\0"), outName || ""];
    let size = off;
    for (const t of texts) size += 3 * t.length;
    const ptr = e.gb_input(size);
    const buf = e.mem.buffer;
    const h = new Int32Array(buf, ptr, H.words);
    h.fill(0);
    new Int32Array(buf, ptr + codeOff, 5 * n).set(n === enc.n ? enc.code : []);
    new Float64Array(buf, ptr + kOff, n).set(n === enc.n ? enc.k : []);
    new Int32Array(buf, ptr + idsOff, m).set(b.ids);
    new Float64Array(buf, ptr + xsOff, m).set(b.xs);
    const bytes = new Uint8Array(buf, ptr, size);
    const at = [];
    for (const t of texts) {
      const { written } = encoder.encodeInto(t, bytes.subarray(off));
      at.push([off, written]);
      off += written;
    }
    [[h[H.namesOff], h[H.namesLen]], [h[H.opsOff], h[H.opsLen]], [h[H.extraOff], h[H.extraLen]], [h[H.outOff], h[H.outLen]]] = at;
    h[H.namesN] = enc.names.length; h[H.opsN] = enc.ops.length;
    h[H.codeOff] = codeOff; h[H.nodes] = enc.n; h[H.kOff] = kOff;
    h[H.idsOff] = idsOff; h[H.values] = m; h[H.xsOff] = xsOff; h[H.extraN] = b.extra.length;
    h[H.tape] = enc.tape;
    const status = e[op]();
    if (status === 2) { // the engine no longer has the tape: send the graph
      enc.tape = 0;
      return send(op, enc, b, outName);
    }
    enc.tape = new Int32Array(e.mem.buffer, ptr, H.words)[H.tapeOut];
    return answer(status);
  }

  // sendJSON is send for the graph and values as JSON text.
  function sendJSON(op, graphText, valuesText, outName) {
    const e = exports();
    const texts = [graphText, valuesText, outName || ""];
    let size = 4 * H.words;
    for (const t of texts) size += 3 * t.length;
    const ptr = e.gb_input(size);
    const bytes = new Uint8Array(e.mem.buffer, ptr, size);
    const h = new Int32Array(e.mem.buffer, ptr, H.words);
    h.fill(0);
    let off = 4 * H.words;
    const at = [];
    for (const t of texts) {
      const { written } = encoder.encodeInto(t, bytes.subarray(off));
      at.push([off, written]);
      off += written;
    }
    [[h[H.jsonOff], h[H.jsonLen]], [h[H.json2Off], h[H.json2Len]], [h[H.outOff], h[H.outLen]]] = at;
    const status = e[op]();
    const ans = answer(status, true);
    return Object.assign(Object.create(null), JSON.parse(ans));
  }

  function answer(status, text) {
    const e = exports();
    const ptr = e.gb_output(), len = e.gb_output_len();
    if (status !== 0 || text) {
      const msg = decoder.decode(new Uint8Array(e.mem.buffer, ptr, len));
      if (status !== 0) throw new Error(msg);
      return msg;
    }
    return new Float64Array(e.mem.buffer, ptr, len / 8);
  }

  // json turns what encode or bind could not take into text for the engine.
  function json(what, x) {
    if (x === undefined) throw new Error(`autodiff: the ${what} are missing`);
    let text;
    try {
      text = JSON.stringify(x);
    } catch (err) {
      throw new Error(`autodiff: the ${what} cannot be read: ${err.message}`);
    }
    if (typeof text !== "string") throw new Error(`autodiff: the ${what} are not a list or object`);
    return text;
  }

  function argCount(n, name, expected) {
    if (n < expected) throw new Error(`autodiff.${name}: expected ${expected} arguments, got ${n}`);
  }

  // evaluate(graph, leaves) returns every value: the leaves, then the nodes.
  api.evaluate = function evaluate(graph, leaves) {
    argCount(arguments.length, "evaluate", 2);
    exports();
    const enc = encode(graph);
    const b = enc && bind(enc, leaves);
    if (!b) return sendJSON("gb_evaluate_json", json("graph", graph), json("leaves", leaves));
    const nodes = send("gb_evaluate", enc, b, "");
    const out = Object.create(null); // names like __proto__ are ordinary keys
    for (let i = 0; i < b.keys.length; i++) out[b.keys[i]] = b.xs[i];
    const names = enc.names, code = enc.code;
    for (let i = 0; i < enc.n; i++) out[names[code[5 * i]]] = nodes[i];
    enc.leafKeys = b.keys;
    enc.leafIDs = b.ids;
    return out;
  };

  // backward(graph, values, out) returns d(out)/d(name) for every name in
  // values: 1 for out, 0 for names that do not reach it.
  api.backward = function backward(graph, values, out) {
    argCount(arguments.length, "backward", 3);
    exports();
    if (typeof out !== "string") throw new Error(`autodiff.backward: out must be the name of a node, got ${out === null ? "null" : typeof out}`);
    const enc = encode(graph);
    const b = enc && bind(enc, values);
    if (!b) return sendJSON("gb_backward_json", json("graph", graph), json("values", values), out);
    const grads = send("gb_backward", enc, b, out);
    const res = Object.create(null);
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

  // compile fetches and compiles the WebAssembly module at url (a path in
  // Node), with get if given (a function like fetch, which may answer with
  // a Response made whole, as embed.js's proxy does). It streams where the
  // server sends application/wasm, and compiles the bytes where it does
  // not. progress, if given, is called as the body arrives with the bytes
  // received so far and the file's size (see size), and once at its end
  // with both equal to what came.
  async function compile(url, get = fetch, progress = null) {
    if (typeof process !== "undefined" && process.versions && process.versions.node && typeof require === "function") {
      return WebAssembly.compile(require("fs").readFileSync(url));
    }
    const response = await (get || fetch)(url);
    if (!response.ok) {
      throw Object.assign(new Error(`cannot load ${url}: ${response.status} ${response.statusText}`), { status: response.status });
    }
    const body = progress && response.body ? counted(response, progress) : response;
    if (typeof WebAssembly.compileStreaming === "function" && /^application\/wasm\s*(;|$)/i.test(response.headers.get("Content-Type") || "")) {
      try {
        return await WebAssembly.compileStreaming(body);
      } catch (err) {
        if (/unsafe-eval/.test(err.message) || err instanceof WebAssembly.CompileError) throw err;
        // The browser would not stream it after all: fetch it again, and
        // compile the bytes.
        return WebAssembly.compile(await (await (get || fetch)(url)).arrayBuffer());
      }
    }
    // A server that does not send application/wasm.
    return WebAssembly.compile(await body.arrayBuffer());
  }

  // size is the size of a response's file, or null where the response
  // does not tell it: the body read is decoded, so a compressed response's
  // Content-Length (what travels) is not it. Gradbook's server sends the
  // decoded size in Gradbook-Decoded-Length; without it, Content-Length
  // is the file's size only on a response that is not encoded, which can
  // be told only where the page may read Content-Encoding (its own
  // origin: on another origin the header is hidden unless exposed).
  function size(response) {
    const h = response.headers;
    const decoded = Number(h.get("Gradbook-Decoded-Length"));
    if (decoded > 0) return decoded;
    const length = Number(h.get("Content-Length"));
    if (length > 0 && !h.get("Content-Encoding") && response.type !== "cors" && response.type !== "opaque") return length;
    return null;
  }

  // counted is response with a body that calls progress(received, total)
  // for each piece of it that arrives.
  function counted(response, progress) {
    let total = size(response);
    let received = 0;
    const tell = (n, of) => {
      try {
        progress(n, of);
      } catch { /* a report that fails stops no load */ }
    };
    tell(0, total);
    const body = response.body.pipeThrough(new TransformStream({
      transform(chunk, controller) {
        received += chunk.byteLength;
        if (total !== null && received > total) total = null; // not the size after all
        tell(received, total);
        controller.enqueue(chunk);
      },
      flush() {
        tell(received, received);
      },
    }));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }
  api.compile = compile;

  // instantiate starts a Go WebAssembly module, compiled or at a url, and
  // returns its instance once it runs: the one wasm loader of the site,
  // used for engine.wasm here and for gradbook.wasm by gradbook.js. onExit,
  // if given, is called with the Go instance if the program ends.
  async function instantiate(source, onExit) {
    if (typeof global.Go !== "function") throw new Error("autodiff: load wasm_exec.js before autodiff.js");
    const module = source instanceof WebAssembly.Module ? source : await compile(source);
    const go = new global.Go();
    const instance = await WebAssembly.instantiate(module, go.importObject);
    const done = go.run(instance); // runs until the page goes away
    if (onExit) done.then(() => onExit(go));
    return instance;
  }
  api.instantiate = instantiate;

  async function start(url) {
    const nodeFile = typeof process !== "undefined" && process.versions && process.versions.node && typeof require === "function"
      ? url || require("path").join(__dirname, "engine.wasm") : null;
    let instance;
    try {
      instance = await instantiate(nodeFile || url || wasmURL());
    } catch (err) {
      throw new Error(`autodiff: cannot load the engine: ${err.message}`);
    }
    if (!global.autodiffCore || global.autodiffCore.headerWords !== H.words) {
      throw new Error("autodiff: engine.wasm does not match autodiff.js: reload the page");
    }
    ex = instance.exports;
  }

  // autodiff.load(url) starts the engine from another address; ready
  // settles when it can answer.
  let pending = null;
  api.load = function load(url) {
    pending = pending || start(url);
    return pending;
  };
  Object.defineProperty(api, "ready", { get: () => api.load(), enumerable: true });
  // The raw WebAssembly exports, for tests: a call with a bad request
  // must answer with an error, never stop the engine.
  Object.defineProperty(api, "exports", { get: () => ex });

  global.autodiff = api;
  if (typeof module !== "undefined" && module.exports) module.exports = api;
})(typeof globalThis !== "undefined" ? globalThis : self);
