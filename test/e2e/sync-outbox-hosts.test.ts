// Two hosts (processes) running `sync --watch --webhook` against one real PostgreSQL archive and a loopback receiver;
// the one delivering the first recall is SIGKILLed mid-request. Every stored recall still reaches the receiver, and at
// most one (the kill) twice: the outbox's lease hands the dead host's rows to the other.
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { testArchive } from '../helpers/archive-engines.js';
import { runAgainst, sandboxFor } from '../helpers/cli.js';
import { handlerServer } from '../helpers/handler-server.js';
import { pgAdminUrl } from '../helpers/postgres.js';
import { until, untilValue } from '../helpers/wait.js';

describe.skipIf(!pgAdminUrl())('sync --watch --webhook on two hosts, one killed while delivering', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await sandboxFor({ recordCount: 40, seed: 280 });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('delivers every stored recall, duplicates at most the kills', async () => {
    const archive = await testArchive('postgres');
    const received: number[] = [];
    let held: number | undefined;
    const server = await handlerServer((req: http.IncomingMessage, res: http.ServerResponse) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        const id = (JSON.parse(body) as { id: number }).id;
        received.push(id);
        // The first delivery never gets an answer: its sender is killed while it waits.
        if (held === undefined) {
          held = id;
          return;
        }
        res.writeHead(204).end();
      });
    });
    const args = ['sync', '--watch', '--interval', '1', '--db', archive.db, '--webhook', `${server.url}/hook`];
    const env = { RECALL_FEED_OUTBOX_LEASE: '2' };
    const hosts = [runAgainst(sandbox, args, { env }), runAgainst(sandbox, args, { env })];

    await until('a first delivery', () => held !== undefined, 30_000);
    // Which host sent it: the outbox row names its claimant (host name, pid).
    const claimant = (await untilValue(
      'the claim of the held recall',
      async () =>
        (
          await archive.rows<{ claimed_by: string }>(`SELECT claimed_by FROM outbox WHERE recall_id = ${held}`)
        )[0]?.claimed_by,
      (by) => by !== undefined && by !== null,
    )) as string;
    const victim = hosts.find((h) => claimant.includes(` pid ${h.pid} `));
    expect(victim, `a host with the claim's pid (${claimant})`).toBeDefined();
    victim!.kill('SIGKILL');
    const survivor = hosts.find((h) => h !== victim)!;

    const stored = async () => (await archive.rows<{ id: number }>('SELECT id FROM recalls')).map((r) => Number(r.id));
    const pending = async () =>
      Number((await archive.rows<{ n: number }>("SELECT count(*) AS n FROM outbox WHERE state <> 'done'"))[0]?.n);
    await untilValue('the outbox to empty', pending, (n) => n === 0, 60_000);
    const ids = await stored();
    expect(ids).toHaveLength(40);
    expect(new Set(received)).toEqual(new Set(ids));
    // One kill: at most one recall twice.
    expect(received.length - new Set(received).size).toBeLessThanOrEqual(1);
    expect(survivor.exitCode).toBeNull();
    survivor.kill('SIGTERM');
    expect((await survivor).exitCode).toBe(130);
  }, 120_000);

  it('SIGTERM while a sync delivers: exit 130, and what was not delivered stays owed', async () => {
    const archive = await testArchive('postgres');
    let arrived = 0;
    const server = await handlerServer((req: http.IncomingMessage) => {
      req.resume();
      req.on('end', () => {
        arrived++;
      });
    });
    // The post under way is let finish within --timeout (it never answers): then the run ends, before execa's SIGKILL.
    const child = runAgainst(sandbox, [
      'sync',
      '--db',
      archive.db,
      '--timeout',
      '2',
      '--webhook',
      `${server.url}/hook`,
    ]);
    await until('a delivery under way', () => arrived > 0, 30_000);
    child.kill('SIGTERM');
    const r = await child;
    expect(r.exitCode).toBe(130);
    const owed = await archive.rows<{ n: number }>("SELECT count(*) AS n FROM outbox WHERE state = 'pending'");
    expect(Number(owed[0]?.n)).toBe(40);
  });
});
