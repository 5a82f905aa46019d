// A loopback forwarder that can hold the next feed request, so that a test acts while a sync waits for its page.
import http from 'node:http';
import { deferCleanup } from './cleanup.js';

/**
 * A loopback forwarder to the sandbox that can hold the next feed request: the sync that sent it has started (its
 * run row says so) but stores nothing until the test lets the answer through.
 */
export async function holdingProxy(target: string) {
  let held: { arrived: boolean; release: () => void; gate: Promise<void> } | undefined;
  const server = http.createServer((req, res) => {
    const gate = req.url?.startsWith('/v1/recalls/feed') && held ? held : undefined;
    if (gate) gate.arrived = true;
    void (gate?.gate ?? Promise.resolve()).then(() => {
      const out = http.request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      req.pipe(out);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  deferCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    hold() {
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      held = { arrived: false, release: () => release(), gate };
      const h = held;
      return {
        arrived: () => h.arrived,
        release: () => {
          held = undefined;
          h.release();
        },
      };
    },
  };
}
