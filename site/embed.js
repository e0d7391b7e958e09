// embed.js: live Gradbook cells in any page. Add this script (from the
// Gradbook site), and mark up cells:
//
//   <pre class="gradbook-cell">x = Value(3.0, "x")
//   (x * x).backward()
//   print(x.grad)</pre>
//   <div class="gradbook-cell" data-lesson="02-reverse-accumulation" data-cell="worked"></div>
//   <script src="https://your.site/gradbook/embed.js"></script>
//
// Inline cells form one notebook in page order; a cell taken from a lesson
// runs after that lesson's cells above it. It also sizes Gradbook iframes
// (embed.html) to their content. Progress is kept in this page's own
// IndexedDB, under the database "gradbook".
(function () {
  "use strict";
  const script = document.currentScript;
  const base = new URL(".", script.src).href;

  // Size <iframe src=".../embed.html?..."> to what they show. Only a
  // Gradbook page in one of this page's frames may ask, and only for a
  // height up to maxHeight: another frame's messages are ignored.
  const gradbook = new URL(base).origin;
  const maxHeight = 50000;
  window.addEventListener("message", (event) => {
    if (event.origin !== gradbook) return;
    const d = event.data;
    if (!d || d.gradbook !== "height" || typeof d.height !== "number" || !(d.height >= 0)) return;
    for (const frame of document.querySelectorAll("iframe")) {
      if (frame.contentWindow === event.source) frame.style.height = Math.ceil(Math.min(d.height, maxHeight)) + "px";
    }
  });

  if (!document.querySelector(".gradbook-cell")) return;
  document.documentElement.dataset.gradbookBase = base;

  function load(src) {
    return new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = src;
      s.onload = resolve;
      s.onerror = () => reject(new Error("cannot load " + src));
      document.head.append(s);
    });
  }

  // The same loader as Gradbook's own pages: it starts notebook.wasm from
  // beside it, which finds the cells marked up here.
  (typeof Go === "function" ? Promise.resolve() : load(base + "wasm_exec.js"))
    .then(() => (typeof autodiff === "object" ? undefined : load(base + "autodiff.js")))
    .then(() => load(base + "notebook.js"))
    .catch((err) => {
      for (const el of document.querySelectorAll(".gradbook-cell")) {
        const note = document.createElement("p");
        note.className = "gradbook-error";
        note.textContent = `Gradbook could not start here (${err.message}).`;
        el.after(note);
      }
    });
})();
