// Where a browser lacks something the page uses, the page does without it
// and says so; its console stays clean (the errors fixture). The same two
// specs run in Firefox in the cross-engine suite (crossbrowser/specs.js);
// WebKit's WebDriver cannot take anything away before a page's scripts.
const { test, expect, open } = require("./helpers");

test("without constructed style sheets, IndexedDB and Web Workers, the page says so, and its cells run in plain text boxes on the page", async ({ page, errors }) => {
  await page.addInitScript(() => {
    delete ShadowRoot.prototype.adoptedStyleSheets;
    delete Document.prototype.adoptedStyleSheets;
    delete window.indexedDB; // an attribute of the global object itself
    delete Window.prototype.indexedDB;
    delete window.Worker;
  });
  await open(page, "lessons/chain-rule.html");
  const c = page.locator("#cell-engine");
  await expect(c.locator(".code-editor")).toHaveCount(0);
  const area = c.locator("textarea.editor");
  await area.click();
  await page.keyboard.press("Control+a");
  await page.keyboard.type('print("plain", 6 * 7)');
  await page.keyboard.press("Shift+Enter");
  await expect(c.getByRole("status")).toHaveText("plain 42");
  const notices = page.locator("#notices");
  await expect(notices).toContainText("This browser lacks constructed style sheets, which the code editor needs here: cells are plain text boxes, and Shift+Enter still runs one.");
  await expect(notices).toContainText("Your progress will not be kept: ");
  await expect(notices).toContainText("Cells run on the page itself here, since no worker could start (this browser has no Web Workers)");
});

test("without WebAssembly the lesson stays readable and says why its cells cannot run", async ({ page, errors }) => {
  await page.addInitScript(() => { delete globalThis.WebAssembly; });
  await page.goto("lessons/chain-rule.html");
  await expect(page.locator("body")).toHaveAttribute("data-notebook", "failed");
  await expect(page.locator("#notebook-status")).toHaveText(/^The notebook could not start \(this browser runs no WebAssembly here, which the cells need \(on an iPhone or iPad, Lockdown Mode turns it off\)\)\. The lesson is still readable/);
  await expect(page.locator("main h1")).toBeVisible();
});
