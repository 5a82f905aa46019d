// startSandbox: binds the HTTP server (node:http) and hands back the in-process control handle.
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { SandboxCore } from './core.js';
import type { Pending } from './respond.js';
import { createHandler } from './server.js';
import type { Sandbox, SandboxOptions } from './types.js';

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const core = new SandboxCore(opts);
  const pending: Pending = { timers: new Set() };
  const sockets = new Set<Socket>();
  const server: Server = createServer({ keepAliveTimeout: 5_000 }, createHandler(core, pending));
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? 0);
  let closing: Promise<void> | undefined;

  return {
    url: `http://${hostForUrl(host)}:${port}`,
    keys: core.keyring.list(),
    requests: () => core.log.map((e) => ({ ...e, query: { ...e.query } })),
    clearRequests: () => {
      core.log = [];
    },
    records: () => core.records(),
    addRecords: (input) => core.addRecords(input),
    updateRecords: (count) => core.updateRecords(count),
    setFaults: (f) => core.setFaults(f),
    setHealthy: (healthy) => {
      core.healthy = healthy;
    },
    reset: () => core.reset(),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const t of pending.timers) clearTimeout(t);
        pending.timers.clear();
        server.close(() => resolve());
        // Idle keep-alive sockets and stalled answers would otherwise hold close() open.
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
      });
      return closing;
    },
  };
}
