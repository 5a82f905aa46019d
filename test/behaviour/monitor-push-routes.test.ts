// docs/operations.md names the services --monitor's pings fit: those whose URL takes /start and /fail (healthchecks.io's
// protocol). A push URL that takes neither (Uptime Kuma's /api/push/<token>, which reads only ?status=) answers both
// with 404: a warning on every run, and a failed run never shown as down; the page says so instead of listing it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { handlerServer } from '../helpers/handler-server.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const operations = readFileSync(path.join(ROOT, 'docs', 'operations.md'), 'utf8');

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 3, seed: 64 });
});
afterAll(async () => {
  await sandbox?.close();
});

describe('--monitor and a push URL without /start and /fail (Uptime Kuma’s route)', () => {
  it('the start ping is refused with 404, a warning on stderr; docs/operations.md does not list such a service', async () => {
    // Uptime Kuma's push route: /api/push/:pushToken and nothing below it.
    const kuma = await handlerServer((req, res) => {
      const ok = /^\/api\/push\/TOK(\?|$)/.test(req.url ?? '');
      res.writeHead(ok ? 200 : 404, { 'content-type': 'application/json' });
      res.end(ok ? '{"ok":true}' : '{"ok":false,"msg":"Not Found"}');
    });
    const out = path.join(tempDir('rf-kuma-'), 'new.jsonl');
    const r = await runMainAgainst(sandbox, ['feed', '-o', out, '--monitor', `${kuma.url}/api/push/TOK?status=up`]);
    expect(r.code).toBe(0);
    expect(kuma.requests.map((q) => q.url.split('?')[0])).toEqual(['/api/push/TOK/start', '/api/push/TOK']);
    expect(r.stderr).toMatch(/^warning: .*404/m);

    // The services the page says take the protocol: Uptime Kuma is not one of them, and the page says why.
    const claim = /The protocol is healthchecks\.io's[^:]*:/.exec(operations)?.[0];
    expect(claim).toBeDefined();
    expect(claim).not.toMatch(/Kuma/);
    expect(operations.replace(/\s+/g, ' ')).toContain("Uptime Kuma's push monitors answer those two with 404");
  });
});
