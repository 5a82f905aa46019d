// docs/deploy.md's daily digest under systemd, run as written: the config steps it gives (the SMTP server from stdin,
// the sender), then its ExecStart's `digest --email … --db …`, against a sandbox and a real SMTP server on loopback.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { smtpServer } from '../helpers/smtp.js';
import { tempDir } from '../helpers/temp-dir.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const doc = readFileSync(path.join(ROOT, 'docs', 'deploy.md'), 'utf8');

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 8, seed: 63 });
});
afterAll(async () => {
  await sandbox?.close();
});

/** The digest's bullet: from "A daily digest" to the next bullet or heading, its continued lines joined. */
function digestRecipe(): { execStart: string[]; steps: string[] } {
  const start = doc.indexOf('- A daily digest');
  expect(start).toBeGreaterThan(0);
  const rest = doc.slice(start + 1);
  const text = rest.slice(0, rest.search(/\n(- |## )/)).replace(/\s*\\\n\s*/g, ' ');
  const exec = /`ExecStart=<[^>]+> (digest[^`]+)`/.exec(text.replace(/\s+/g, ' '));
  expect(exec).not.toBeNull();
  const steps = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /\brecall-feed config set\b/.test(l));
  return { execStart: (exec?.[1] ?? '').split(' '), steps };
}

describe("docs/deploy.md's daily digest unit", () => {
  it('stores what --email needs, then its ExecStart mails the digest (exit 0), where it ended with exit 2', async () => {
    const { execStart, steps } = digestRecipe();
    const smtp = await smtpServer();
    const dir = tempDir('rf-deploy-digest-');
    const env = { RECALL_FEED_CONFIG_DIR: path.join(dir, 'config') };
    for (const step of steps) {
      // `printf '%s\n' "$SMTP_URL" | sudo -u … recall-feed config set smtp-url`: the secret from stdin.
      const args = step.replace(/#.*$/, '').split('recall-feed ').at(-1)?.trim().split(/\s+/) ?? [];
      const stdin = step.startsWith('printf') ? `${smtp.url}\n` : '';
      const r = await runMain(args, { env, stdin });
      expect([step, r.code, r.stderr]).toEqual([step, 0, expect.stringMatching(/^saved (smtp-url|email-from) /)]);
    }
    const db = path.join(dir, 'recalls.db');
    expect((await runMainAgainst(sandbox, ['sync', '--db', db, '-q'], { env })).code).toBe(0);
    const args = execStart.map((a, i) => (execStart[i - 1] === '--db' ? db : a));
    expect(args.slice(0, 3)).toEqual(['digest', '--email', 'team@example.com']);
    const r = await runMainAgainst(sandbox, args, { env });
    // The recipe chains its periods (--since last): its first run says it had no earlier end to start from.
    expect([r.code, r.stderr]).toEqual([
      0,
      '--since last: no earlier digest of this selection recorded where it ended in this archive: this one covers the last 24 hours\n',
    ]);
    const again = await runMainAgainst(sandbox, args, { env });
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect(smtp.received).toHaveLength(2);
    expect(smtp.received[0]?.rcpt).toEqual(['team@example.com']);
    expect(smtp.received[0]?.from).toContain('recalls@example.com');
    expect(steps).toHaveLength(2);
  });
});
