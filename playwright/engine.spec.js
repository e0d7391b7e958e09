// The engine's JavaScript API in a real page.
const { test, expect } = require("@playwright/test");

test.beforeEach(async ({ page }) => {
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto("engine.html");
  await page.evaluate(() => autodiff.ready);
  test.info().errors = errors;
});

test("the index page shows the worked example computed live", async ({ page }) => {
  await expect(page.locator("#engine-status")).toHaveText("Computed by the engine.");
  const row = (name) => page.locator(`#example tr[data-name="${name}"] td`);
  await expect(row("L")).toHaveText(["L", "49", "1"]);
  await expect(row("a")).toHaveText(["a", "2", "42"]);
  await expect(row("b")).toHaveText(["b", "3", "28"]);
  await expect(row("c")).toHaveText(["c", "1", "14"]);
  await expect(row("u")).toHaveText(["u", "7", "14"]);
});

const twoPath = [
  ["p", "mul", ["w", "x"]], ["z", "add", ["p", "b"]], ["h", "relu", ["z"]], ["q", "mul", ["v", "h"]],
  ["y", "add", ["q", "p"]], ["e", "sub", ["y", "target"]], ["e2", "sq", ["e"]], ["loss", "mul", ["half", "e2"]],
];
const twoPathLeaves = { x: 2, target: 1, w: 1, b: -1, v: 3, half: 0.5 };

test("the two-path network", async ({ page }) => {
  const r = await page.evaluate(([g, l]) => {
    const vals = autodiff.evaluate(g, l);
    return { vals, grads: autodiff.backward(g, vals, "loss"), again: autodiff.backward(g, vals, "loss") };
  }, [twoPath, twoPathLeaves]);
  expect(r.vals).toMatchObject({ p: 2, z: 1, h: 1, q: 3, y: 5, e: 4, loss: 8 });
  expect(r.grads).toMatchObject({ p: 16, w: 32, b: 12, v: 4, x: 16 });
  expect(r.again).toEqual(r.grads);
});

test("detach, pow and a leaf that does not reach the output", async ({ page }) => {
  const r = await page.evaluate(() => {
    const g = [["p", "mul", ["w", "x"]], ["s", "detach", ["p"]], ["y", "add", ["p", "s"]], ["c", "pow", ["y"], 3]];
    const vals = autodiff.evaluate(g, { w: 1, x: 2, unused: 7 });
    return autodiff.backward(g, vals, "c");
  });
  // c = (2p)³ but only one path counts: dc/dp = 3·16·1 = 48, dc/ds = 48.
  expect(r).toEqual({ w: 96, x: 48, unused: 0, p: 48, s: 48, y: 48, c: 1 });
});

// Every bad input throws an Error whose message says what is wrong, and the
// API answers correctly afterwards.
const bad = [
  ["unknown op", [[["p", "mull", ["a", "b"]]], { a: 1, b: 2 }], /node "p": unknown op "mull"/],
  ["wrong number of inputs", [[["p", "mul", ["a"]]], { a: 1 }], /node "p": mul takes 2 inputs, got 1/],
  ["input not defined", [[["p", "mul", ["a", "c"]]], { a: 1 }], /node "p": input "c" is not defined earlier/],
  ["input defined later", [[["u", "add", ["p", "a"]], ["p", "neg", ["a"]]], { a: 1 }], /node "u": input "p" is not defined earlier/],
  ["duplicate name", [[["p", "neg", ["a"]], ["p", "neg", ["a"]]], { a: 1 }], /node "p": defined twice/],
  ["node reuses a leaf's name", [[["a", "neg", ["b"]]], { a: 1, b: 2 }], /node "a": is both a leaf and a node/],
  ["empty name", [[["", "neg", ["a"]]], { a: 1 }], /entry 1: empty name/],
  ["non-number leaf", [[["p", "neg", ["a"]]], { a: "2" }], /leaf "a": not a finite number/],
  ["NaN leaf", [[["p", "neg", ["a"]]], { a: NaN }], /leaf "a": not a finite number/],
  ["infinite leaf", [[["p", "neg", ["a"]]], { a: Infinity }], /leaf "a": not a finite number/],
  ["division by zero", [[["q", "div", ["a", "b"]]], { a: 1, b: 0 }], /node "q": division by zero/],
  ["log of a non-positive number", [[["l", "log", ["a"]]], { a: -1 }], /node "l": log of a non-positive number/],
  ["graph is null", [null, {}], /the graph must be a list/],
  ["graph is a string", ["p", {}], /the graph must be a list/],
  ["leaves are null", [[["p", "neg", ["a"]]], null], /the values must be an object/],
  ["entry is not a list", [[["p", "neg", ["a"]], 7], { a: 1 }], /entry 2: expected \[name, op, \[inputs\]\], got a number/],
  ["inputs are not a list", [[["p", "neg", "a"]], { a: 1 }], /node "p": the inputs must be a list of names/],
  ["missing arguments", [], /expected 2 arguments/],
  ["missing leaves", [[["p", "neg", ["a"]]]], /expected 2 arguments/],
  ["undefined leaves", [[["p", "neg", ["a"]]], undefined], /the leaves is missing|leaves are missing|missing/],
];

for (const [what, args, message] of bad) {
  test(`evaluate throws an Error for ${what}, then keeps answering`, async ({ page }) => {
    const r = await page.evaluate((args) => {
      let thrown = null;
      try {
        autodiff.evaluate(...args);
      } catch (e) {
        thrown = { isError: e instanceof Error, message: e.message };
      }
      const g = [["p", "mul", ["a", "b"]], ["u", "add", ["p", "c"]], ["L", "sq", ["u"]]];
      return { thrown, after: autodiff.backward(g, autodiff.evaluate(g, { a: 2, b: 3, c: 1 }), "L") };
    }, args);
    expect(r.thrown).not.toBeNull();
    expect(r.thrown.isError).toBe(true);
    expect(r.thrown.message).toMatch(message);
    expect(r.after).toMatchObject({ a: 42, b: 28, c: 14 });
  });
}

test("backward: missing out, bad out, missing values, cyclic and huge graphs", async ({ page }) => {
  const r = await page.evaluate(() => {
    const g = [["p", "mul", ["a", "b"]]];
    const attempt = (f) => {
      try {
        f();
        return "no error";
      } catch (e) {
        return (e instanceof Error ? "Error: " : "not an Error: ") + e.message;
      }
    };
    const cyclic = [["p", "mul", ["a", "b"]]];
    cyclic.push(cyclic);
    const inputs = ["a", "b"];
    inputs.push(inputs);
    const huge = { length: 6_000_000 };
    return {
      outMissing: attempt(() => autodiff.backward(g, { a: 1, b: 2, p: 2 }, "L")),
      outNotString: attempt(() => autodiff.backward(g, { a: 1, b: 2, p: 2 }, 42)),
      noValues: attempt(() => autodiff.backward(g, { a: 1, b: 2 }, "p")),
      twoArgs: attempt(() => autodiff.backward(g, { a: 1, b: 2 })),
      cyclic: attempt(() => autodiff.evaluate(cyclic, { a: 1, b: 2 })),
      cyclicInputs: attempt(() => autodiff.evaluate([["p", "mul", inputs]], { a: 1, b: 2 })),
      huge: attempt(() => autodiff.evaluate(Array.from({ length: 5_000_001 }, (_, i) => ["n" + i, "neg", ["x"]]), { x: 1 })),
      notArrayLike: attempt(() => autodiff.evaluate(huge, {})),
      rawCore: attempt(() => {
        const e = autodiff.exports;
        const ptr = e.gb_input(96);
        const h = new Int32Array(e.mem.buffer, ptr, 24);
        h.fill(1 << 30); // every section out of the buffer
        h[7] = 3; // three nodes
        h[17] = 0; // no tape to reuse (H.tape in autodiff.js)
        if (e.gb_backward() !== 1) return;
        throw new Error(new TextDecoder().decode(new Uint8Array(e.mem.buffer, e.gb_output(), e.gb_output_len())));
      }),
      after: autodiff.backward(g, autodiff.evaluate(g, { a: 2, b: 3 }), "p"),
    };
  });
  expect(r.outMissing).toMatch(/^Error: output not in graph: "L" is not the name of a node or leaf/);
  expect(r.outNotString).toMatch(/^Error: autodiff.backward: out must be the name of a node/);
  expect(r.noValues).toMatch(/^Error: node "p": has no value/);
  expect(r.twoArgs).toMatch(/^Error: autodiff.backward: expected 3 arguments/);
  expect(r.cyclic).toMatch(/^Error: autodiff: the graph cannot be read: Converting circular structure/);
  expect(r.cyclicInputs).toMatch(/^Error: .*circular/);
  expect(r.huge).toMatch(/^Error: graph too large: the graph has 5000001 nodes/);
  expect(r.notArrayLike).toMatch(/^Error: malformed graph: the graph must be a list/);
  expect(r.rawCore).toMatch(/^Error: autodiff: bad call/);
  expect(r.after).toEqual({ a: 3, b: 2, p: 1 });
});

test("the same wasm answers in a Web Worker", async ({ page }) => {
  const r = await page.evaluate(async () => {
    const w = new Worker("autodiff-worker.js");
    const ask = (msg) => new Promise((resolve) => {
      w.onmessage = (e) => resolve(e.data);
      w.postMessage(msg);
    });
    const g = [["p", "mul", ["a", "b"]], ["u", "add", ["p", "c"]], ["L", "sq", ["u"]]];
    return {
      ok: await ask({ graph: g, leaves: { a: 2, b: 3, c: 1 }, out: "L" }),
      bad: await ask({ graph: [["p", "mull", ["a", "b"]]], leaves: { a: 1, b: 2 } }),
      again: await ask({ graph: g, leaves: { a: 2, b: 3, c: 1 }, out: "L" }),
    };
  });
  expect(r.ok.grads).toMatchObject({ a: 42, b: 28, c: 14 });
  expect(r.ok.values.L).toBe(49);
  expect(r.bad.error).toMatch(/node "p": unknown op "mull"/);
  expect(r.again.grads).toMatchObject({ a: 42, b: 28, c: 14 });
});
