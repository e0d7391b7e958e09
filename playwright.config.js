// Playwright drives Debian's Chromium (a browser download is impossible
// here) against these servers:
//   8181  the site, as `go run serve.go` builds and serves it;
//   8182  the static export (`go run serve.go -out`) under a sub-path, from
//         a plain static file server;
//   8183  a course page on another origin that embeds cells;
//   8188  the static export again, from a host that sends no CORS headers;
//   8189  course pages that the embedding spec writes into playwright/.courses.
// GRADBOOK_PORT_BASE moves them all (9181 puts the site on 9181, the
// export on 9182, …), so that two checkouts can run specs side by side;
// the specs that name the other ports expect the default.
const { defineConfig } = require("@playwright/test");

const base = Number(process.env.GRADBOOK_PORT_BASE || 8181);
const site = base, exported = base + 1, course = base + 2, noCors = base + 7, courses = base + 8;

module.exports = defineConfig({
  testDir: "playwright",
  timeout: 60_000,
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${site}/`,
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  webServer: [
    {
      command: `go run serve.go -out playwright/.export -fixtures playwright/fixtures && go run serve.go -addr 127.0.0.1:${site} -fixtures playwright/fixtures`,
      url: `http://127.0.0.1:${site}/`,
      timeout: 300_000,
      reuseExistingServer: !process.env.CI,
    },
    {
      command: `node playwright/static-server.js playwright/.export ${exported} /courses/gradbook/`,
      url: `http://127.0.0.1:${exported}/courses/gradbook/index.html`,
      timeout: 300_000,
      reuseExistingServer: !process.env.CI,
    },
    {
      command: `node playwright/static-server.js playwright/.export ${noCors} /gradbook/ --no-cors`,
      url: `http://127.0.0.1:${noCors}/gradbook/index.html`,
      timeout: 300_000,
      reuseExistingServer: !process.env.CI,
    },
    {
      command: `mkdir -p playwright/.courses && touch playwright/.courses/index.html && node playwright/static-server.js playwright/.courses ${courses} /`,
      url: `http://127.0.0.1:${courses}/index.html`,
      timeout: 60_000,
      reuseExistingServer: !process.env.CI,
    },
    {
      command: `node playwright/static-server.js playwright/course ${course} /`,
      url: `http://127.0.0.1:${course}/index.html`,
      timeout: 60_000,
      reuseExistingServer: !process.env.CI,
    },
  ],
});
