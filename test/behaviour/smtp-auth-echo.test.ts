// An SMTP server that refuses the login quoting the AUTH exchange (the password base64-encoded in it, as AUTH PLAIN and
// AUTH LOGIN send it): never printed by doctor --check-delivery or feed --email, never stored in a state file.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deferCleanup } from '../helpers/cleanup.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { mailFlags } from '../helpers/smtp.js';
import { tempDir } from '../helpers/temp-dir.js';

const USER = 'mailuser';
const PASS = 'SMTPPASSsecret77';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** What a leak would show: the password as typed, and base64 as each login method sends it. */
const LEAKS = [PASS, b64(PASS), b64(`\0${USER}\0${PASS}`), b64(USER)];

/**
 * A hostile server offering one login method; it refuses the login with every line of the exchange quoted back
 * (`AUTH PLAIN <base64>`, or `AUTH LOGIN`, then the user and the password in base64).
 */
async function quotingSmtp(method: 'PLAIN' | 'LOGIN'): Promise<{ url: string; port: number; heard: string[] }> {
  const heard: string[] = [];
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    socket.write('220 hostile ESMTP\r\n');
    let buf = '';
    let auth: string[] | undefined;
    socket.on('data', (chunk) => {
      buf += chunk.toString('utf8');
      for (let i = buf.indexOf('\r\n'); i >= 0; i = buf.indexOf('\r\n')) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        heard.push(line);
        const verb = line.slice(0, 4).toUpperCase();
        if (auth) auth.push(line);
        else if (verb === 'EHLO') socket.write(`250-hostile\r\n250 AUTH ${method}\r\n`);
        else if (verb === 'AUTH') auth = [line];
        else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
        if (auth === undefined) continue;
        // AUTH LOGIN: ask for the user, then the password (`Username:`, `Password:`), then refuse.
        if (method === 'LOGIN' && auth.length < 3)
          socket.write(`334 ${b64(auth.length === 1 ? 'Username:' : 'Password:')}\r\n`);
        else {
          socket.write(`535 5.7.8 auth failed for ${auth.join(' ')}\r\n`);
          auth = undefined;
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  deferCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return { url: `smtp://${USER}:${PASS}@127.0.0.1:${port}`, port, heard };
}

function expectNoLeak(text: string): void {
  for (const leak of LEAKS) expect(text).not.toContain(leak);
}

describe('an SMTP server quoting the login back', () => {
  it("doctor --check-delivery: the smtp check's detail holds no form of the password (AUTH PLAIN and LOGIN)", async () => {
    const sandbox = await sandboxFor({ recordCount: 3 });
    for (const method of ['PLAIN', 'LOGIN'] as const) {
      const smtp = await quotingSmtp(method);
      const r = await runMainAgainst(sandbox, ['doctor', '--check-delivery', '-f', 'json'], {
        env: { RECALL_FEED_SMTP_URL: smtp.url },
      });
      // The server did hear the password, base64-encoded: what it quoted back is what the client sent.
      const sent =
        method === 'PLAIN' ? [`AUTH PLAIN ${b64(`\0${USER}\0${PASS}`)}`] : ['AUTH LOGIN', b64(USER), b64(PASS)];
      expect(smtp.heard).toEqual(expect.arrayContaining(sent));
      const check = JSON.parse(r.stdout).checks.find((c: { name: string }) => c.name === 'smtp');
      expect(check.status).toBe('fail');
      const quoted = method === 'PLAIN' ? 'AUTH PLAIN …' : 'AUTH LOGIN … …';
      expect(check.detail).toBe(`smtp://127.0.0.1:${smtp.port}: Invalid login: 535 5.7.8 auth failed for ${quoted}`);
      expectNoLeak(r.stdout + r.stderr);
      expect(r.code).not.toBe(0);
    }
  });

  it("feed --state --email: neither the warning nor the state file's lastError holds the password", async () => {
    const sandbox = await sandboxFor({ seed: 43, recordCount: 10 });
    const smtp = await quotingSmtp('PLAIN');
    const dir = tempDir('rf-smtp-echo-');
    const state = path.join(dir, 'seen.json');
    const r = await runMainAgainst(sandbox, [
      'feed',
      '--hours',
      '24',
      '--state',
      state,
      '-o',
      path.join(dir, 'out.jsonl'),
      ...mailFlags(smtp.url),
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `smtp://127.0.0.1:${smtp.port} refused the message: Invalid login: 535 5.7.8 auth failed for AUTH PLAIN …`,
    );
    const pending = JSON.parse(readFileSync(state, 'utf8')).pending as { lastError?: string }[];
    expect(pending.length).toBeGreaterThan(0);
    for (const p of pending)
      expect(p.lastError).toBe(
        `email: smtp://127.0.0.1:${smtp.port} refused the message: Invalid login: 535 5.7.8 auth failed for AUTH PLAIN …`,
      );
    expectNoLeak(r.stdout + r.stderr + readFileSync(state, 'utf8'));
  });
});
