// Small things the runner and the engines share.
const net = require("net");

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

module.exports = { sleep, freePort, until };
