// A stand-in LMS for playwright/scorm.spec.js. It reads an unzipped
// package's imsmanifest.xml as an LMS does when the package is uploaded,
// puts scorm-again's runtime (what LMS players embed) on this page as the
// package's API (window.API_1484_11 for SCORM 2004, window.API for 1.2),
// with the learner and the item's passing score from the manifest, and
// launches the item's SCO in a frame, as LMS players do:
//
//   lms.html?package=p2004&item=item-chain-rule&learner=learner-1[&refuse=Commit]
//
// A hostile LMS, for what a page must survive: throw=GetValue makes every
// GetValue throw; errorstring=big makes GetErrorString answer 1.5 MB;
// commitwait=N makes Commit busy-wait N ms before it commits.
// lms.commitCalls records, for each Commit, whether it came in the same
// task as a SetValue before it (a report's own task).
//
// window.lmsStart, if a spec sets it before the page loads, is what the
// LMS kept from an earlier session, as flattened CMI
// ({"cmi.suspend_data": "…"}). window.lms has the API, what the LMS held
// at each commit and at the end (Terminate, LMSFinish), each as its CMI
// object, and the calls the SCO made. refuse=Commit refuses every commit
// with error 391.
(async function () {
  "use strict";
  const q = new URLSearchParams(location.search);
  const pkg = q.get("package");
  const learner = q.get("learner") || "learner-1";
  const manifest = new DOMParser().parseFromString(await (await fetch(`${pkg}/imsmanifest.xml`)).text(), "application/xml");
  const v12 = manifest.getElementsByTagName("schemaversion")[0].textContent.trim() === "1.2";
  const item = [...manifest.getElementsByTagName("item")].find((i) => i.getAttribute("identifier") === q.get("item"));
  const resource = [...manifest.getElementsByTagName("resource")].find((r) => r.getAttribute("identifier") === item.getAttribute("identifierref"));
  document.getElementById("course").textContent = `${manifest.getElementsByTagName("title")[0].textContent}: ${item.getElementsByTagName("title")[0].textContent}`;

  const cmi = { ...(window.lmsStart || {}) };
  const resume = Boolean(cmi["cmi.suspend_data"]);
  if (v12) {
    cmi["cmi.core.student_id"] = learner;
    cmi["cmi.core.student_name"] = "Learner, A";
    cmi["cmi.core.entry"] = resume ? "resume" : "ab-initio";
    const mastery = item.getElementsByTagName("adlcp:masteryscore")[0];
    if (mastery) cmi["cmi.student_data.mastery_score"] = mastery.textContent.trim();
  } else {
    cmi["cmi.learner_id"] = learner;
    cmi["cmi.learner_name"] = "Learner, A";
    cmi["cmi.entry"] = resume ? "resume" : "ab-initio";
    const measure = item.getElementsByTagName("imsss:minNormalizedMeasure")[0];
    if (measure) cmi["cmi.scaled_passing_score"] = measure.textContent.trim();
  }
  const api = new (v12 ? Scorm12API : Scorm2004API)({ autocommit: false, logLevel: 5 });
  api.loadFromFlattenedJSON(cmi);
  const held = () => api.renderCMIToJSONObject().cmi;
  const lms = { api, version: v12 ? "1.2" : "2004", commits: [], ended: null, calls: [], commitCalls: [] };
  let reporting = false; // a SetValue came in this task
  window.lms = lms;
  const pre = v12 ? "LMS" : "";
  api.on(`${pre}Commit`, () => lms.commits.push(held()));
  api.on(v12 ? "LMSFinish" : "Terminate", () => { lms.ended = held(); });

  // What the SCO sees: the API, recording its calls, refusing what it is
  // told to.
  let refused = null;
  const exposed = new Proxy(api, {
    get(target, name) {
      const f = target[name];
      if (typeof f !== "function") return f;
      if (name === `${pre}GetLastError`) return () => refused || f.call(target);
      if (name === `${pre}GetErrorString`) {
        if (q.get("errorstring") === "big") return () => "General Commit Failure ".repeat(65_000);
        return (code) => code === "391" && refused ? "General Commit Failure" : f.call(target, code);
      }
      return (...args) => {
        lms.calls.push([name, ...args.map((a) => String(a).slice(0, 60))]);
        if (name === `${pre}GetValue` && q.get("throw") === "GetValue") throw new TypeError("the LMS is broken");
        if (name === `${pre}SetValue` && !/session_time$/.test(args[0]) && !reporting) { // a commit sets the session time itself
          reporting = true;
          setTimeout(() => { reporting = false; }, 0);
        }
        if (name === `${pre}Commit`) {
          lms.commitCalls.push({ inReport: reporting, at: performance.now() });
          const wait = Number(q.get("commitwait") || 0);
          for (const end = performance.now() + wait; performance.now() < end;) { /* an LMS sending, synchronously */ }
        }
        if (name === `${pre}Commit` && q.get("refuse") === "Commit") {
          refused = "391";
          return "false";
        }
        refused = null;
        return f.apply(target, args);
      };
    },
  });
  window[v12 ? "API" : "API_1484_11"] = exposed;
  document.getElementById("sco").src = `${pkg}/${resource.getAttribute("href")}`;
})();
