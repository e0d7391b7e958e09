// sw.js: Gradbook's service worker, written by the build. It precaches the
// whole site on the first visit, so that lessons, cells and progress work
// with the network off. Each build has its own cache: a page is always
// served from one build, so gradbook.wasm and wasm_exec.js always match.
// A new build waits until the learner accepts it ("new version: reload").
//
// A deploy is taken whole or not at all: FILES holds the SHA-256 of every
// file of this build, and installing checks each file fetched against it.
// While a deploy is half done (a new sw.js beside old files, or the
// reverse), the install fails and the last complete build goes on being
// served; the browser tries again at its next update check.
"use strict";
const VERSION = {{.Version}};
const FILES = {{.Files}};
const PREFIX = "gradbook:" + self.registration.scope + ":";
const CACHE = PREFIX + VERSION;

async function sha256(buf) {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", buf));
  return Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("");
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    // Fetch and check everything before keeping anything.
    const got = await Promise.all(Object.entries(FILES).map(async ([f, want]) => {
      const res = await fetch(new Request(f, { cache: "reload" }));
      if (!res.ok) throw new Error(`${f}: ${res.status}`);
      const body = await res.arrayBuffer();
      if (await sha256(body) !== want) throw new Error(`${f} is not the file of build ${VERSION}: the deploy is not complete`);
      // A plain copy: a response that came through a redirect cannot
      // answer a page's navigation.
      return [f, new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers })];
    }));
    const cache = await caches.open(CACHE);
    for (const [f, res] of got) {
      await cache.put(f, res.clone());
      if (f === "index.html") await cache.put("./", res); // a visit to the bare folder
    }
    if (!self.registration.active) await self.skipWaiting(); // the first version starts at once
  })().catch(async (err) => {
    await caches.delete(CACHE); // nothing of a mixed set is kept
    throw err;
  }));
});

self.addEventListener("message", (event) => {
  const d = event.data;
  if (d && d.gradbook === "activate") self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin) return;
  // Only this build's files and pages are answered here; anything else
  // (serve.go's live-preview event stream, say) goes to the network as if
  // there were no service worker: answered through fetch(), a stream that
  // the page ends when it goes is an error in Firefox's console.
  const scope = new URL(self.registration.scope);
  let rel = null;
  try {
    if (url.pathname.startsWith(scope.pathname)) rel = decodeURIComponent(url.pathname.slice(scope.pathname.length));
  } catch { /* not an address of this build's */ }
  if (req.mode !== "navigate" && (rel === null || !Object.hasOwn(FILES, rel))) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // A request matches its own address, query included. Only a page may
    // drop its query (lessons/x.html?frame, embed.html?lesson=…&cell=…):
    // the query is read by the page's script, never by the server.
    let hit = await cache.match(req);
    if (!hit && req.mode === "navigate") hit = await cache.match(req, { ignoreSearch: true });
    if (!hit && req.mode === "navigate" && url.pathname.endsWith("/")) hit = await cache.match(new URL("index.html", req.url));
    return hit || fetch(req);
  })());
});
