// moved.js: on the page at a lesson's earlier address, go on to its new
// one (the page's canonical link) at once, keeping the query and the
// fragment (?frame, #cell-worked); the page's meta refresh does the same
// without scripts, after a moment.
"use strict";
(() => {
  const link = document.querySelector("link[rel=canonical]");
  if (!link) return;
  const to = new URL(link.href);
  to.search = location.search;
  to.hash = location.hash;
  location.replace(to.href);
})();
