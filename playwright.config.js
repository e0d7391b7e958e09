// Playwright drives Debian's Chromium (a browser download is impossible
// here) against the site that `go run serve.go` builds and serves.
const { defineConfig } = require("@playwright/test");

const port = Number(process.env.GRADBOOK_PORT || 8181);

module.exports = defineConfig({
  testDir: "playwright",
  timeout: 60_000,
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}/`,
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  webServer: {
    command: `go run serve.go -addr 127.0.0.1:${port} -fixtures playwright/fixtures`,
    url: `http://127.0.0.1:${port}/`,
    timeout: 240_000,
    reuseExistingServer: !process.env.CI,
  },
});
