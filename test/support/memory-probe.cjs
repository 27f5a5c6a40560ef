// Preloaded into a benchmarked `hark run` (node --require): every HARK_PROBE_MS it appends the
// process's own memory view to HARK_PROBE_FILE as a JSON line. /proc shows how much is resident;
// only the process itself can say whether that is V8's heap, buffers outside it (external,
// arrayBuffers) or native memory (the rest), which is what tells a JavaScript leak from a native one.
'use strict';
const { appendFileSync } = require('node:fs');
// --require runs in every worker thread too: each isolate reports its own heap, tagged.
const { threadId } = require('node:worker_threads');
const file = process.env.HARK_PROBE_FILE;
// HARK_PROBE_GC_MS (with node --expose-gc): a full collection that often in every thread, so what is
// left is what is still referenced. A diagnostic: memory that grows with it is a leak; memory that
// grows only without it is garbage V8 has not yet collected.
const gcEvery = Number(process.env.HARK_PROBE_GC_MS || 0);
if (gcEvery > 0 && typeof global.gc === 'function') setInterval(() => global.gc(), gcEvery).unref();
if (file) {
  const every = Number(process.env.HARK_PROBE_MS || 5000);
  setInterval(() => {
    const m = process.memoryUsage();
    appendFileSync(
      file,
      JSON.stringify({
        t: Date.now(),
        thread: threadId,
        rss: m.rss,
        heapTotal: m.heapTotal,
        heapUsed: m.heapUsed,
        external: m.external,
        arrayBuffers: m.arrayBuffers,
      }) + '\n',
    );
  }, every).unref();
}
