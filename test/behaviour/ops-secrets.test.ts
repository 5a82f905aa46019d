// The monitor's URL is a secret (it carries the check's token): never on stderr, in text or JSON logs, nor in a resume command.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { handlerServer } from '../helpers/handler-server.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const TOKEN = '5f1d3c2a-9e8b-4c7d-a6f5-0b1e2d3c4b5a';

async function monitor() {
  const server = await handlerServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('OK'));
  });
  return `${server.url}/ping/${TOKEN}`;
}

describe('the monitor URL in what a failed export prints', () => {
  it('the resume command after a failed -o export leaves --monitor out (text and JSON logs)', async () => {
    const sandbox = await sandboxFor({ recordCount: 300 });
    const url = await monitor();
    for (const [logFormat, form] of [
      ['text', ['--monitor', url]],
      ['json', [`--monitor=${url}`]],
    ] as const) {
      const target = path.join(tempDir('rf-mon-secret-'), 'export.csv');
      sandbox.setFaults({ failAfterPages: 1, failMode: 'error503' });
      const r = await runMainAgainst(sandbox, [
        '--retries',
        '0',
        '--log-format',
        logFormat,
        'feed',
        '--page-size',
        '100',
        '-o',
        target,
        ...form,
      ]);
      sandbox.setFaults({});
      expect(r.code).toBe(6);
      // The resume command is printed (the failure is one a resume finishes) ...
      expect(r.stderr).toContain('--resume');
      // ... but never the monitor's token.
      expect(r.stderr).not.toContain(TOKEN);
    }
  });
});
