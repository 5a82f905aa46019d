// A sandbox in its own process (forked with IPC), so a benchmark's CPU figures are the client's alone.
import { DEMO_KEYS, startSandbox } from '../../dist/sandbox/index.js';

let sandbox;
process.on('message', async (m) => {
  try {
    if (m.type === 'start') {
      sandbox = await startSandbox(m.options);
      process.send({ type: 'started', url: sandbox.url, key: DEMO_KEYS.all.key });
    } else if (m.type === 'requests') {
      // Counted and dropped, so the log never grows with the benchmark.
      const log = sandbox.requests();
      sandbox.clearRequests();
      const statuses = {};
      for (const r of log) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      process.send({ type: 'requests', count: log.length, statuses });
    } else if (m.type === 'close') {
      await sandbox?.close();
      process.send({ type: 'closed' });
      process.disconnect();
    }
  } catch (err) {
    process.send({ type: 'error', message: err?.stack ?? String(err) });
  }
});
// The parent going away ends this process too.
process.on('disconnect', () => {
  sandbox?.close();
});
