// The metrics file is readable by node_exporter's own user (0644) whatever the umask of the job that writes it.
import { statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('--metrics-file under a strict umask', () => {
  it('is 0644 with umask 077 (cron and hardened units often set one), new and replaced', async () => {
    const sandbox = await sandboxFor({ recordCount: 5 });
    const file = path.join(tempDir('rf-prom-mode-'), 'recall_feed.prom');
    const before = process.umask(0o077);
    try {
      for (let run = 0; run < 2; run++) {
        const r = await runMainAgainst(sandbox, ['feed', '-f', 'jsonl', '--metrics-file', file]);
        expect(r.code).toBe(0);
        expect((statSync(file).mode & 0o777).toString(8)).toBe('644');
      }
    } finally {
      process.umask(before);
    }
  });
});
