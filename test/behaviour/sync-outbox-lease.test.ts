// Two live hosts delivering one outbox to a slow webhook, on both engines: no kill, so each recall is posted exactly
// once, however long a host's claimed rows take to go out (the lease covers one attempt and is renewed before each).
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { type TestArchive, testArchive } from '../helpers/archive-engines.js';
import { handlerServer } from '../helpers/handler-server.js';
import { type FakeClock, fakeClock, type MainResult, runMainAgainst } from '../helpers/in-process.js';
import { ENGINES } from '../helpers/postgres.js';
import { sandboxFor } from '../helpers/sandbox.js';

const RECALLS = 10;
const LEASE_S = 15;
/** What each post costs the receiver: four of them outlast one lease. */
const POST_MS = 4_000;

/**
 * Time passing for the archive's leases: SQLite judges them on the host's clock (the injected one); PostgreSQL on the
 * server's, which no test can move, so every lease is brought nearer by as much instead (the same to a claim).
 */
async function elapse(archive: TestArchive, clock: FakeClock, ms: number): Promise<void> {
  clock.advance(ms);
  if (archive.engine === 'postgres')
    await archive.rows(
      `UPDATE outbox SET lease_until = lease_until - ${ms} * interval '1 millisecond' WHERE lease_until IS NOT NULL`,
    );
}

describe.each(ENGINES)('sync --webhook on two live hosts, $engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await sandboxFor({ recordCount: RECALLS, seed: 331 });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('a second host syncing while the first is still posting its claim posts nothing twice', async () => {
    const archive = await testArchive(engine);
    const clock = fakeClock();
    const env = { RECALL_FEED_OUTBOX_LEASE: String(LEASE_S) };
    const posted: number[] = [];
    let second: Promise<MainResult> | undefined;
    const server = await handlerServer((req: http.IncomingMessage, res: http.ServerResponse) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', async () => {
        posted.push((JSON.parse(body) as { id: number }).id);
        await elapse(archive, clock, POST_MS);
        // By the first host's fifth post its claim is older than a lease: the other host syncs now, in full.
        if (posted.length === 5 && second === undefined) {
          second = runMainAgainst(sandbox, args, { env, clock });
          await second;
        }
        res.writeHead(204).end();
      });
    });
    const args = ['sync', '--db', archive.db, '--webhook', `${server.url}/hook`];

    const first = await runMainAgainst(sandbox, args, { env, clock });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(second).toBeDefined();
    const other = await second!;
    expect(other.stderr).toBe('');
    expect(other.code).toBe(0);

    const stored = (await archive.rows<{ id: number }>('SELECT id FROM recalls')).map((r) => Number(r.id));
    expect(stored).toHaveLength(RECALLS);
    expect([...posted].sort((a, b) => a - b)).toEqual([...stored].sort((a, b) => a - b));
    const owed = await archive.rows<{ n: number }>("SELECT count(*) AS n FROM outbox WHERE state <> 'done'");
    expect(Number(owed[0]?.n)).toBe(0);
  });
});
