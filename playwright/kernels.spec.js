// The runner's matrix products: its WebAssembly SIMD kernels (package
// wasm/kernels), and the plain Go loops where a browser has no
// WebAssembly SIMD or refuses to compile the kernels' module. Either way a
// cell prints the same numbers, to the last digit: the kernels add up
// every element in the plain loops' order.
const { test, expect, open, cell, editorOf, products } = require("./helpers");

// run runs the products in the scratch page's first cell and returns its output
// and what the runner said computes the products.
async function run(page) {
  await open(page, "scratch.html");
  const c = cell(page, 1);
  await editorOf(c).fill(products.program);
  await c.getByRole("button", { name: "Run", exact: true }).click();
  await expect(c).toHaveAttribute("data-state", "passed", { timeout: 30_000 });
  const out = (await c.locator("output.out").textContent()).trim();
  return { out, kernels: await page.evaluate(() => globalThis.gradbookRunners.kernels) };
}

// without prepends js to the runner's script (wasm_exec.js and runner.js,
// which the page reads to start its worker), as a browser without what it
// takes away would be. The page's service worker may fetch runner.js again
// to keep it offline while the context closes: close ends such a fetch
// with unrouteAll, so a request cut short by the test's own end is not
// taken for the page's failure.
async function without(context, js) {
  await context.route("**/runner.js", async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, body: js + "\n" + (await res.text()) });
  });
}

test("matrix products: the SIMD kernels in the runner, the plain loops without SIMD or where the module is refused, the same numbers", async ({ browser, page, errors }) => {
  const simd = await run(page);
  expect(simd.kernels).toBe("WebAssembly SIMD kernels (f64x2)");
  expect(simd.out).toBe(products.prints);

  const cases = [
    ["WebAssembly.validate = () => false;", "plain Go loops: this browser has no WebAssembly SIMD"],
    ["WebAssembly.Module = function () { throw new WebAssembly.CompileError(\"Wasm code generation disallowed by embedder\"); };",
      "plain Go loops: this browser refused the kernels' module (JavaScript error: Wasm code generation disallowed by embedder)"],
  ];
  for (const [js, says] of cases) {
    const context = await browser.newContext();
    await without(context, js);
    const plain = await run(await context.newPage());
    expect(plain.kernels).toBe(says);
    expect(plain.out, says).toBe(simd.out);
    await context.unrouteAll({ behavior: "ignoreErrors" });
    await context.close();
  }
});
