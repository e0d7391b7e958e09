// Small things the runner and the engines share.
const fs = require("fs");
const net = require("net");
const { execFileSync } = require("child_process");

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// freePort asks the system for a port no one listens on.
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// Lost is the error of a lost page or browser (it crashed, hung or went):
// waiting longer for anything from it is no use, so until gives up at once.
class Lost extends Error {
  get lost() { return true; }
}

// until polls fn until it returns something truthy, and returns that; it
// throws after timeout ms, saying what it waited for.
async function until(fn, timeout, what) {
  const end = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
      if (err.lost) throw err;
    }
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what}${last ? ` (last: ${last.message})` : ""}`);
    await sleep(50);
  }
}

// tail listens to what a browser or its driver says on streams: it keeps
// the last keep characters, for the engine's stderr() (run.js shows it
// when a page is lost), and appends all of it to the file log, if given.
// It returns a function that returns what it kept.
function tail(streams, keep, log) {
  let said = "";
  for (const s of streams) {
    s.on("data", (d) => {
      said = (said + d).slice(-keep);
      if (log) fs.appendFileSync(log, d);
    });
  }
  return () => said;
}

// kernelLog returns the kernel's messages (dmesg), or [] where they cannot
// be read (dmesg_restrict for a user who is not root). When a browser's
// process dies of a signal, the kernel names the thread and the library it
// died in ("SkiaGPUWorker[...]: segfault at ... in libc.so.6"), which the
// browser's own log does not.
function kernelLog() {
  try {
    return execFileSync("dmesg", [], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

// kernelMark marks how far the kernel's log goes now: its last line (the
// log is a ring, so a count would not do).
function kernelMark() {
  return kernelLog().pop() || "";
}

// kernelSince returns what the kernel said since mark about processes that
// died: segfaults, traps, out-of-memory kills.
function kernelSince(mark) {
  const log = kernelLog();
  return log.slice(log.lastIndexOf(mark) + 1).filter((l) => /segfault|traps:|general protection|Out of memory|Killed process|oom-kill/i.test(l));
}

module.exports = { sleep, freePort, until, Lost, tail, kernelMark, kernelSince };
