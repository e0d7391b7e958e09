// Playwright drives Debian's Chromium (a browser download is impossible
// here) against these servers:
//   8181  the site, as `go run serve.go` builds and serves it;
//   8182  the static export (`go run serve.go -out`) under a sub-path, from
//         a plain static file server;
//   8183  a course page on another origin that embeds cells (playwright/course,
//         copied to playwright/.course with the site's port);
//   8188  the static export again, from a host that sends no CORS headers;
//   8189  course pages that the embedding spec writes into playwright/.courses.
// Specs start more on 8184-8187. GRADBOOK_PORT_BASE moves them all
// (GRADBOOK_PORT_BASE=10181: 10181-10189), so that two checkouts can run
// their specs side by side; specs take theirs from port() in helpers.js.
const { defineConfig } = require("@playwright/test");
const { port } = require("./playwright/helpers");

const site = port(8181), exported = port(8182), course = port(8183), noCORS = port(8188), courses = port(8189);

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
      command: `node playwright/static-server.js playwright/.export ${noCORS} /gradbook/ --no-cors`,
      url: `http://127.0.0.1:${noCORS}/gradbook/index.html`,
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
      command: `mkdir -p playwright/.course && sed "s/127\\.0\\.0\\.1:8181/127.0.0.1:${site}/g" playwright/course/index.html > playwright/.course/index.html && node playwright/static-server.js playwright/.course ${course} /`,
      url: `http://127.0.0.1:${course}/index.html`,
      timeout: 60_000,
      reuseExistingServer: !process.env.CI,
    },
  ],
});
