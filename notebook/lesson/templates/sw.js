// sw.js: Gradbook's service worker, written by the build. It precaches the
// whole site on the first visit, so that lessons, cells and progress work
// with the network off. Each build has its own cache: a page is always
// served from one build, so notebook.wasm and wasm_exec.js always match.
// A new build waits until the learner accepts it ("new version: reload").
"use strict";
const VERSION = {{.Version}};
const FILES = {{.Files}};
const PREFIX = "gradbook:" + self.registration.scope + ":";
const CACHE = PREFIX + VERSION;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await Promise.all(FILES.map(async (f) => {
      const res = await fetch(new Request(f, { cache: "reload" }));
      if (!res.ok) throw new Error(`${f}: ${res.status}`);
      // A response that came through a redirect cannot answer a page's
      // navigation: keep a plain copy.
      await cache.put(f, res.redirected ? new Response(await res.blob(), { status: res.status, statusText: res.statusText, headers: res.headers }) : res);
    }));
    if (!self.registration.active) await self.skipWaiting(); // the first version starts at once
  })());
});

self.addEventListener("message", (event) => {
  if (event.data === "gradbook:activate") self.skipWaiting();
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
  if (req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    let hit = await cache.match(req, { ignoreSearch: true });
    if (!hit && new URL(req.url).pathname.endsWith("/")) hit = await cache.match(new URL("index.html", req.url));
    return hit || fetch(req);
  })());
});
