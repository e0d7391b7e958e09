// live.js: the live preview of `go run serve.go`, never part of an
// exported site. When a lesson file is saved, the server sends the names
// of the lessons that changed; a page showing one of them, or the index
// (whose list may have changed), reloads. The names are only compared as
// strings. The page asks for the changes since the build it comes from
// (data-since), so that one saved while it loaded is not missed.
"use strict";
(() => {
  const body = document.body;
  const here = body.dataset.page === "index" ? null : body.dataset.lesson;
  if (body.dataset.page !== "index" && !here) return;
  const since = (document.currentScript && document.currentScript.dataset.since) || "";
  const events = new EventSource("/__gradbook/events?since=" + encodeURIComponent(since));
  events.addEventListener("change", async (event) => {
    const changed = event.data.split(" ");
    if (here !== null && !changed.includes(here) && !changed.includes("*")) return;
    events.close();
    // The service worker serves the build it precached: let this reload
    // come from the server, and precache the new build afterwards.
    try {
      const reg = await navigator.serviceWorker?.getRegistration();
      if (reg) await reg.unregister();
      for (const key of await caches.keys()) if (key.startsWith("gradbook:")) await caches.delete(key);
    } catch (_) {
      // Without a service worker there is nothing to clear.
    }
    location.reload();
  });
})();
