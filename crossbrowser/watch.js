// The shared console fixture: what every page must never do, in every
// engine. watch runs in each page (in Firefox before the page's own
// scripts, as a preload script in every frame; in Chromium the same way,
// through the Playwright specs' errors fixture in playwright/helpers.js;
// in WebKit, whose WebDriver has no such thing, as soon as each document
// has loaded) and notes every Content-Security-Policy violation, uncaught
// error, unhandled rejection and console.error. The spec during which one
// happens fails.
//
// send, where the engine gives one (a BiDi channel), reports each problem
// at once; the problems are also kept in the page, for the runner to
// collect (takeProblems).
function watch(send) {
  if (window.__gradbookWatch) return;
  window.__gradbookWatch = true;
  const kept = (window.__gradbookProblems = []);
  const seen = new Set();
  const put = (kind, text) => {
    const p = { kind, text: String(text).slice(0, 500), url: location.href };
    const key = p.kind + p.text;
    if (seen.has(key)) return;
    seen.add(key);
    kept.push(p);
    if (send) send(p);
  };
  // An error's text: its message, then its stack (WebKit's stack lacks
  // the message).
  const describe = (e) => {
    const text = String(e);
    return e && typeof e.stack === "string" && e.stack && !e.stack.includes(text) ? `${text}\n${e.stack}` : (e && e.stack) || text;
  };
  const csp = (directive, uri) => put("Content-Security-Policy violation", `${directive} refused ${uri || "inline"}`);
  window.addEventListener("error", (e) => put("uncaught error", e.error ? describe(e.error) : e.message));
  window.addEventListener("unhandledrejection", (e) => put("unhandled rejection", describe(e.reason)));
  document.addEventListener("securitypolicyviolation", (e) => csp(e.effectiveDirective || e.violatedDirective, e.blockedURI), true);
  // Violations reported before this ran are in the document's report
  // buffer, where the engine keeps one (WebKitGTK 2.50 does not: there the
  // watch goes in only once the page has loaded, and misses what came
  // before).
  if (typeof ReportingObserver === "function") {
    try {
      new ReportingObserver((reports) => {
        for (const r of reports) csp(r.body.effectiveDirective, r.body.blockedURL);
      }, { types: ["csp-violation"], buffered: true }).observe();
    } catch { /* an engine without csp-violation reports: the event above still tells */ }
  }
  const error = console.error;
  console.error = function (...args) {
    put("console.error", args.map((a) => (a instanceof Error ? describe(a) : String(a))).join(" "));
    return error.apply(this, args);
  };
}

// takeProblems returns what watch kept in this page since the last call,
// and forgets it.
function takeProblems() {
  return (window.__gradbookProblems || []).splice(0);
}

module.exports = { watch, takeProblems };
