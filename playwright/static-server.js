// A plain static file server for tests: serves a folder under a sub-path,
// with no server logic, as a static host would.
//   node playwright/static-server.js DIR PORT /sub/path/ [--no-cors]
// --no-cors sends no Access-Control-Allow-Origin, as many hosts do.
const http = require("http");
const fs = require("fs");
const path = require("path");

const [dir, port, prefix = "/", flag] = process.argv.slice(2);
const cors = flag !== "--no-cors";
const types = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm",
  ".json": "application/json", ".svg": "image/svg+xml", ".png": "image/png",
};

http.createServer((req, res) => {
  const url = new URL(req.url, "http://localhost");
  if (!url.pathname.startsWith(prefix)) {
    res.writeHead(404).end("not found");
    return;
  }
  let rel = decodeURIComponent(url.pathname.slice(prefix.length));
  if (rel === "" || rel.endsWith("/")) rel += "index.html";
  const file = path.join(dir, path.normalize(rel).replace(/^(\.\.[/\\])+/, ""));
  fs.readFile(file, (err, data) => {
    if (err) {
      res.writeHead(404).end("not found");
      return;
    }
    const headers = { "Content-Type": types[path.extname(file)] || "application/octet-stream" };
    if (cors) headers["Access-Control-Allow-Origin"] = "*";
    res.writeHead(200, headers);
    res.end(data);
  });
}).listen(Number(port), "127.0.0.1");
