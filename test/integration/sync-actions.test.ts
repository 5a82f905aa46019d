// sync's actions on both engines, in process over real HTTP: each recall stored as new reaches the webhook once (also
// in the slack format), a sync storing nothing sends nothing, --on-update sends new versions, a refused delivery stays
// in the outbox and goes out with the next sync, and the backlog says so (outboxBacklog).
import { readFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openArchive } from '../../src/archive/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { testArchive } from '../helpers/archive-engines.js';
import { handlerServer } from '../helpers/handler-server.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { adminQuery, ENGINES } from '../helpers/postgres.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { smtpServer } from '../helpers/smtp.js';
import { tempDir } from '../helpers/temp-dir.js';

/** A loopback receiver: the bodies it accepted; it refuses with 503 while `refusing` is set. */
async function receiver() {
  const bodies: Record<string, unknown>[] = [];
  const state = { refusing: false };
  const server = await handlerServer((req: http.IncomingMessage, res: http.ServerResponse) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      if (state.refusing) {
        res.writeHead(503).end();
        return;
      }
      bodies.push(JSON.parse(body) as Record<string, unknown>);
      res.writeHead(204).end();
    });
  });
  return { url: `${server.url}/hook`, bodies, state };
}

describe.each(ENGINES)('$engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await sandboxFor({ recordCount: 30, seed: 28 });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('sync --webhook: every recall stored as new once; nothing for a sync that stores nothing; --on-update', async () => {
    const archive = await testArchive(engine);
    const hook = await receiver();
    const first = await runMainAgainst(sandbox, ['sync', '--db', archive.db, '--webhook', hook.url]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const ids = await archive.rows<{ id: number }>('SELECT id FROM recalls ORDER BY id');
    expect(hook.bodies.map((b) => b.id).sort((a, b) => Number(a) - Number(b))).toEqual(ids.map((r) => Number(r.id)));
    // The body is the recall as the API sent it.
    const byId = new Map(sandbox.records().map((r) => [r.id, r]));
    for (const body of hook.bodies) expect(body).toEqual(byId.get(body.id as number));

    const again = await runMainAgainst(sandbox, ['sync', '--db', archive.db, '--webhook', hook.url]);
    expect(again.code).toBe(0);
    expect(hook.bodies).toHaveLength(30);

    const updated = sandbox.updateRecords(2);
    const added = sandbox.addRecords(1);
    const third = await runMainAgainst(sandbox, ['sync', '--db', archive.db, '--webhook', hook.url, '--on-update']);
    expect(third.stderr).toBe('');
    expect(third.code).toBe(0);
    expect(hook.bodies.slice(30)).toHaveLength(3);
    const changed = [...updated, ...added];
    const sent = hook.bodies.slice(30);
    expect(sent.map((b) => b.id).sort()).toEqual(changed.map((r) => r.id).sort());
    for (const body of sent) expect(body).toEqual(changed.find((r) => r.id === body.id));
  });

  it('a refused delivery stays in the outbox (backlog counts it) and goes with the next sync; the slack format', async () => {
    const archive = await testArchive(engine);
    const hook = await receiver();
    hook.state.refusing = true;
    const args = ['sync', '--db', archive.db, '--webhook', hook.url, '--webhook-format', 'slack'];
    const refused = await runMainAgainst(sandbox, args);
    expect(refused.code).toBe(0);
    expect(refused.stderr).toMatch(/warning: webhook failed for recall \d+: .*503.*; it stays in the archive's outbox/);
    const store = await openArchive(archive.db, { create: false, readOnly: true });
    try {
      const stored = (await archive.held()).count;
      expect(await store.outboxBacklog()).toEqual({ pending: stored, retrying: stored, failed: 0 });
    } finally {
      await store.close();
    }
    expect(hook.bodies).toHaveLength(0);
    hook.state.refusing = false;
    // A retry waits 30 s (doubling): a sync right after sends nothing.
    const soon = await runMainAgainst(sandbox, args);
    expect(soon.code).toBe(0);
    expect(hook.bodies).toHaveLength(0);
    // Later (SQLite: this host's clock; PostgreSQL: the server's, so the wait is shortened in the table), it goes.
    if (engine === 'postgres')
      await adminQuery(
        "UPDATE recall_feed.outbox SET lease_until = clock_timestamp() - interval '1 second'",
        [],
        new URL(archive.db).pathname.slice(1),
      );
    const later = await runMainAgainst(sandbox, args, { clock: fakeClock(Date.now() + 60_000) });
    expect(later.code).toBe(0);
    expect(hook.bodies).toHaveLength((await archive.held()).count);
    for (const body of hook.bodies) expect(body).toEqual({ text: expect.any(String) });
    const pending = await archive.rows<{ n: number }>("SELECT count(*) AS n FROM outbox WHERE state = 'pending'");
    expect(Number(pending[0]?.n)).toBe(0);
  });

  it('--exec, --email (one message) and a teams --webhook together: each stored recall once per action', async () => {
    const archive = await testArchive(engine);
    const hook = await receiver();
    const smtp = await smtpServer();
    const log = path.join(tempDir('rf-exec-'), 'log');
    const script = 'require("fs").appendFileSync(process.argv[1], process.argv[2] + "\\n")';
    const r = await runMainAgainst(sandbox, [
      'sync',
      '--db',
      archive.db,
      '--exec',
      `'${process.execPath}' -e '${script}' -- '${log}' {id}`,
      '--webhook',
      hook.url,
      '--webhook-format',
      'teams',
      '--email',
      'team@example.test',
      '--email-from',
      'recalls@example.test',
      '--smtp-url',
      smtp.url,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const ids = (await archive.rows<{ id: number }>('SELECT id FROM recalls')).map((x) => String(x.id)).sort();
    expect(readFileSync(log, 'utf8').trim().split('\n').sort()).toEqual(ids);
    expect(hook.bodies).toHaveLength(ids.length);
    for (const body of hook.bodies) expect(body).toMatchObject({ type: 'message' });
    expect(smtp.received).toHaveLength(1);
    expect([...(smtp.received[0]?.ids ?? [])].sort()).toEqual(ids);
  });

  it('a sync the API cuts short still delivers what its stored pages queued, then reports the failure', async () => {
    const big = await sandboxFor({ recordCount: 700, seed: 29, faults: { failAfterPages: 1, failMode: 'error503' } });
    const archive = await testArchive(engine);
    const hook = await receiver();
    const r = await runMainAgainst(big, ['--retries', '0', 'sync', '--db', archive.db, '--webhook', hook.url]);
    expect(r.code).toBe(6);
    const stored = (await archive.rows<{ id: number }>('SELECT id FROM recalls')).map((x) => Number(x.id));
    expect(stored).toHaveLength(500);
    expect(hook.bodies.map((b) => b.id).sort()).toEqual(stored.sort());
  });

  it('refuses --on-update without an action, and an action flag that cannot work, before any request', async () => {
    const archive = await testArchive(engine);
    const before = sandbox.requests().length;
    const lone = await runMainAgainst(sandbox, ['sync', '--db', archive.db, '--on-update']);
    expect(lone.code).toBe(2);
    expect(lone.stderr).toMatch(/--on-update works with --exec, --webhook or --email/);
    const plain = await runMainAgainst(sandbox, ['sync', '--db', archive.db, '--webhook', 'http://example.com/x']);
    expect(plain.code).toBe(2);
    expect(sandbox.requests().length).toBe(before);
  });
});
