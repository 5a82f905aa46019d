// `digest --since last` on both engines, in process over real HTTP: digests chained end to start list every stored
// recall exactly once however late or early they run (where `--since 24h` loses the recalls of a late run's hour and
// repeats those of an early run's minutes); a failed delivery leaves the recorded end alone; two at once take turns.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { type TestArchive, testArchive } from '../helpers/archive-engines.js';
import { bodyServer } from '../helpers/handler-server.js';
import { type FakeClock, fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { ENGINES } from '../helpers/postgres.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { until } from '../helpers/wait.js';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

interface DigestJson {
  period: { from: string; to: string };
  recalls: { new: { id: number }[]; updated: { id: number }[] };
}

const idsOf = (d: DigestJson) => [...d.recalls.new, ...d.recalls.updated].map((r) => r.id);
const sorted = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);

/** What the first digest of a chain says on stderr, once. */
const FIRST_NOTE =
  '--since last: no earlier digest of this selection recorded where it ended in this archive: this one covers the last 24 hours\n';

/** Runs SQL that writes the archive (the helper's `rows` reads a SQLite file read-only). */
async function writeSql(archive: TestArchive, sql: string): Promise<void> {
  if (archive.engine === 'postgres') {
    await archive.rows(sql);
    return;
  }
  const db = new Database(archive.db, { fileMustExist: true });
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

/**
 * A sync of what the sandbox holds now, its recalls then stamped as if it had stored them at `atMs`: the stamps are the
 * archive's clock (the PostgreSQL server's), which no test can move, so a day of syncs is laid out after the fact.
 * Resolves to the ids it stored for the first time.
 */
async function syncAt(sandbox: Sandbox, archive: TestArchive, atMs: number): Promise<number[]> {
  const before = Date.now() - 1;
  await until('the clock to pass the last stamp', () => Date.now() > before + 1);
  const r = await runMainAgainst(sandbox, ['sync', '--db', archive.db, '-q']);
  expect([r.code, r.stderr]).toEqual([0, '']);
  const stored = await archive.rows<{ id: number | string }>(
    `SELECT id FROM recalls WHERE first_us >= ${before * 1000}`,
  );
  // Only new recalls, no new versions of earlier ones: "exactly once" then means one list of one digest.
  const changed = await archive.rows<{ n: number | string }>(
    `SELECT count(*) AS n FROM recalls WHERE version_us >= ${before * 1000} AND first_us < ${before * 1000}`,
  );
  expect(Number(changed[0]?.n)).toBe(0);
  await writeSql(
    archive,
    `UPDATE recalls SET first_us = ${atMs * 1000}, version_us = ${atMs * 1000} WHERE first_us >= ${before * 1000}`,
  );
  return stored.map((row) => Number(row.id));
}

async function digestAt(
  sandbox: Sandbox,
  archive: TestArchive,
  clock: FakeClock,
  since: string,
  extra: string[] = [],
): Promise<{ code: number; stderr: string; json: DigestJson | undefined }> {
  const r = await runMainAgainst(sandbox, ['digest', '--db', archive.db, '--since', since, '-f', 'json', ...extra], {
    clock,
  });
  return { code: r.code, stderr: r.stderr, json: r.stdout === '' ? undefined : (JSON.parse(r.stdout) as DigestJson) };
}

async function chainRows(archive: TestArchive): Promise<{ key: string; value: string }[]> {
  return archive.rows<{ key: string; value: string }>(
    "SELECT key, value FROM archive_meta WHERE key LIKE 'digest_since_last:%' ORDER BY key",
  );
}

/** A webhook receiver that keeps each body and answers with `status`, once `hold` (when given) has resolved. */
async function answering(status: number, hold?: Promise<void>) {
  const bodies: string[] = [];
  const server = await bodyServer(async (body, _req, res) => {
    bodies.push(body);
    await hold;
    res.statusCode = status;
    res.end();
  });
  return { ...server, bodies };
}

describe.each(ENGINES)('$engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }

  it('three daily digests, one an hour late and one 2 minutes early: every stored recall in exactly one', async () => {
    const sandbox = await sandboxFor({ recordCount: 30, seed: 21 });
    const archive = await testArchive(engine);
    // A day laid out five days back, on the hour: the digests' clocks are injected, the syncs stamped to match.
    const day = Math.floor((Date.now() - 5 * 24 * HOUR) / HOUR) * HOUR;
    const first = await syncAt(sandbox, archive, day - 3 * HOUR);
    const d1 = await digestAt(sandbox, archive, fakeClock(day), 'last');
    sandbox.addRecords(4);
    // In the hour after the first digest: the hour a 25-hour gap leaves out of `--since 24h`.
    const inLateHour = await syncAt(sandbox, archive, day + 30 * 60_000);
    sandbox.addRecords(3);
    // A minute before the late digest: in the 2 minutes the early digest's `--since 24h` would list again.
    const beforeLate = await syncAt(sandbox, archive, day + 25 * HOUR - 60_000);
    const late = day + 25 * HOUR;
    const d2 = await digestAt(sandbox, archive, fakeClock(late), 'last');
    sandbox.addRecords(5);
    const later = await syncAt(sandbox, archive, day + 36 * HOUR);
    const early = late + 24 * HOUR - 2 * 60_000;
    const d3 = await digestAt(sandbox, archive, fakeClock(early), 'last');

    expect([d1.code, d1.stderr]).toEqual([0, FIRST_NOTE]);
    expect([d2.code, d2.stderr, d3.code, d3.stderr]).toEqual([0, '', 0, '']);
    // Each period starts where the one before ended; the first covers the default 24 hours.
    expect(d1.json?.period).toEqual({ from: iso(day - 24 * HOUR), to: iso(day + 1) });
    expect(d2.json?.period).toEqual({ from: iso(day + 1), to: iso(late + 1) });
    expect(d3.json?.period).toEqual({ from: iso(late + 1), to: iso(early + 1) });
    const listed = [d1, d2, d3].flatMap((d) => idsOf(d.json as DigestJson));
    const stored = (await archive.rows<{ id: number | string }>('SELECT id FROM recalls')).map((r) => Number(r.id));
    expect(new Set(listed).size).toBe(listed.length);
    expect(sorted(listed)).toEqual(sorted(stored));
    expect(sorted(idsOf(d1.json as DigestJson))).toEqual(sorted(first));
    expect(sorted(idsOf(d2.json as DigestJson))).toEqual(sorted([...inLateHour, ...beforeLate]));
    expect(sorted(idsOf(d3.json as DigestJson))).toEqual(sorted(later));
    // One chain recorded, ending where the last digest ended.
    const rows = await chainRows(archive);
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.value)).toEqual({ selection: {}, end: iso(early + 1) });

    // The documented recipe before --since last, on the same clocks: the late run's hour is in no digest, and the
    // early run's 2 minutes are in two.
    const old = await Promise.all(
      [day, late, early].map((at) => digestAt(sandbox, archive, fakeClock(at), '24h').then((d) => d.json)),
    );
    const oldIds = old.flatMap((d) => idsOf(d as DigestJson));
    expect(sorted(stored.filter((id) => !oldIds.includes(id)))).toEqual(sorted(inLateHour));
    expect(sorted(oldIds.filter((id, i) => oldIds.indexOf(id) !== i))).toEqual(sorted(beforeLate));
  });

  it('a --webhook that answers 500 (exit 11) leaves the recorded end alone: the next digest lists its recalls', async () => {
    const sandbox = await sandboxFor({ recordCount: 20, seed: 22 });
    const archive = await testArchive(engine);
    const day = Math.floor((Date.now() - 3 * 24 * HOUR) / HOUR) * HOUR;
    const first = await syncAt(sandbox, archive, day - HOUR);
    const d1 = await digestAt(sandbox, archive, fakeClock(day), 'last');
    expect([d1.code, d1.stderr]).toEqual([0, FIRST_NOTE]);
    expect(sorted(idsOf(d1.json as DigestJson))).toEqual(sorted(first));
    const recorded = await chainRows(archive);
    expect(JSON.parse(recorded[0]!.value)).toEqual({ selection: {}, end: iso(day + 1) });

    sandbox.addRecords(4);
    const missed = await syncAt(sandbox, archive, day + 12 * HOUR);
    const hook = await answering(500);
    const failed = await digestAt(sandbox, archive, fakeClock(day + 24 * HOUR), 'last', [
      '--webhook',
      `${hook.url}/hook`,
    ]);
    expect(failed.code).toBe(11);
    expect(hook.requests).toHaveLength(3);
    expect(failed.stderr).toContain('answered HTTP 500');
    // Not one character of the chain changed: no end moved, no claim left behind.
    expect(await chainRows(archive)).toEqual(recorded);

    const next = await digestAt(sandbox, archive, fakeClock(day + 25 * HOUR), 'last');
    expect([next.code, next.stderr]).toEqual([0, '']);
    expect(next.json?.period).toEqual({ from: iso(day + 1), to: iso(day + 25 * HOUR + 1) });
    expect(sorted(idsOf(next.json as DigestJson))).toEqual(sorted(missed));
  });

  it('two digests of one selection at once: the second waits for the first, then starts at its end', async () => {
    const sandbox = await sandboxFor({ recordCount: 20, seed: 23 });
    const archive = await testArchive(engine);
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db, '-q'])).code).toBe(0);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const hook = await answering(200, held);
    // The first posts its digest; the receiver keeps the answer back until the second is waiting.
    const first = runMainAgainst(sandbox, [
      'digest',
      '--db',
      archive.db,
      '--since',
      'last',
      '--webhook',
      `${hook.url}/h`,
    ]);
    await until('the first digest to post', () => hook.bodies.length === 1);
    // Stored while the first is delivering: after its period, so in the second's.
    sandbox.addRecords(3);
    const sync = await runMainAgainst(sandbox, ['sync', '--db', archive.db, '-q']);
    expect(sync.code).toBe(0);
    // The second's pauses wait for the first to end (its clock is the real one: a claim lapses on it).
    const base = fakeClock();
    const realClock: FakeClock = {
      ...base,
      now: () => Date.now(),
      async sleep(ms) {
        base.sleeps.push(ms);
        await first;
      },
    };
    let stderr = '';
    const second = runMainAgainst(sandbox, ['digest', '--db', archive.db, '--since', 'last', '-f', 'json'], {
      clock: realClock,
      onOutput: (stream, text) => {
        if (stream === 'stderr') stderr += text;
      },
    });
    await until('the second digest to wait', () => stderr.includes('waiting for it'));
    release();
    const [a, b] = await Promise.all([first, second]);
    expect([a.code, a.stderr]).toEqual([0, FIRST_NOTE]);
    expect(b.code).toBe(0);
    expect(b.stderr).toMatch(/^--since last: another digest of this selection has been running since \S+: waiting/);
    expect(b.stderr.trim().split('\n')).toHaveLength(1);
    const aJson = JSON.parse(hook.bodies[0]!) as DigestJson;
    const bJson = JSON.parse(b.stdout) as DigestJson;
    // Back to back: the second starts where the first ended, and the chain ends where the second did.
    expect(bJson.period.from).toBe(aJson.period.to);
    expect(JSON.parse((await chainRows(archive))[0]!.value)).toEqual({ selection: {}, end: bJson.period.to });
    const stored = (await archive.rows<{ id: number | string }>('SELECT id FROM recalls')).map((r) => Number(r.id));
    const listed = [...idsOf(aJson), ...idsOf(bJson)];
    expect(new Set(listed).size).toBe(listed.length);
    expect(sorted(listed)).toEqual(sorted(stored));
    // What the sync stored while the first was delivering is the second's.
    expect(bJson.recalls.new).toHaveLength(3);
  });

  it('the chain is the selection: the order and case of values do not matter, another selection has its own', async () => {
    const sandbox = await sandboxFor({ recordCount: 20, seed: 24 });
    const archive = await testArchive(engine);
    const day = Math.floor((Date.now() - 3 * 24 * HOUR) / HOUR) * HOUR;
    await syncAt(sandbox, archive, day - HOUR);
    const narrow = ['--sources', 'us_cpsc,uk_opss', '--severity', 'Medium,high'];
    const same = ['--sources', 'uk_opss,us_cpsc,uk_opss', '--severity', 'HIGH,medium'];
    const a = await digestAt(sandbox, archive, fakeClock(day), 'last', narrow);
    const b = await digestAt(sandbox, archive, fakeClock(day + HOUR), 'last', same);
    const c = await digestAt(sandbox, archive, fakeClock(day + 2 * HOUR), 'last', ['--sources', 'uk_opss']);
    expect([a.code, a.stderr, b.code, b.stderr, c.code, c.stderr]).toEqual([0, FIRST_NOTE, 0, '', 0, FIRST_NOTE]);
    expect(b.json?.period.from).toBe(a.json?.period.to);
    expect(c.json?.period.from).toBe(iso(day + 2 * HOUR - 24 * HOUR));
    const values = (await chainRows(archive)).map((r) => JSON.parse(r.value) as { selection: unknown; end: string });
    const selections = values.map((v) => v.selection);
    expect(selections).toHaveLength(2);
    expect(selections).toEqual(
      expect.arrayContaining([
        { sources: ['uk_opss'] },
        { sources: ['uk_opss', 'us_cpsc'], severity: ['high', 'medium'] },
      ]),
    );
  });

  it("each catalogue's digest has a chain of its own: a team's run does not cut another team's period short", async () => {
    const sandbox = await sandboxFor({ recordCount: 20, seed: 25 });
    const archive = await testArchive(engine);
    const dir = tempDir('rf-digest-catalogues-');
    const [a, b] = ['a.csv', 'b.csv'].map((name) => path.join(dir, name));
    for (const file of [a, b] as string[]) writeFileSync(file, 'sku,brand,name\nX1,Nowhere,Nothing at all\n');
    const day = Math.floor((Date.now() - 3 * 24 * HOUR) / HOUR) * HOUR;
    await syncAt(sandbox, archive, day - HOUR);
    const first = await digestAt(sandbox, archive, fakeClock(day), 'last', ['--catalog', a as string]);
    const other = await digestAt(sandbox, archive, fakeClock(day + HOUR), 'last', ['--catalog', b as string]);
    expect([first.code, first.stderr, other.code, other.stderr]).toEqual([0, FIRST_NOTE, 0, FIRST_NOTE]);
    // Team B's first digest covers its own last 24 hours, not the hour since team A's.
    expect(other.json?.period.from).toBe(iso(day + HOUR - 24 * HOUR));
    const selections = (await chainRows(archive)).map((r) => (JSON.parse(r.value) as { selection: unknown }).selection);
    expect(selections).toEqual(expect.arrayContaining([{ catalog: a }, { catalog: b }]));
  });

  it('a claim left by a process of this host that has ended (Ctrl-C, killed) is taken over at once', async () => {
    const sandbox = await sandboxFor({ recordCount: 20, seed: 26 });
    const archive = await testArchive(engine);
    const day = Math.floor((Date.now() - 3 * 24 * HOUR) / HOUR) * HOUR;
    await syncAt(sandbox, archive, day - HOUR);
    const d1 = await digestAt(sandbox, archive, fakeClock(day), 'last');
    expect(d1.code).toBe(0);
    const [row] = await chainRows(archive);
    const value = JSON.parse(row?.value ?? '{}') as Record<string, unknown>;
    // A claim of 5 minutes ago, by a pid no process has (above any pid_max), on this host: nobody will release it.
    const started = day + 2 * HOUR - 5 * 60_000;
    const running = {
      id: 'gone',
      from: iso(day),
      to: iso(started),
      started: iso(started),
      until: iso(started + 20 * 60_000),
    };
    const claim = { ...value, running: { ...running, host: os.hostname(), pid: 99_999_999 } };
    await writeSql(archive, `UPDATE archive_meta SET value = '${JSON.stringify(claim)}' WHERE key = '${row?.key}'`);
    const clock = fakeClock(day + 2 * HOUR);
    const d2 = await digestAt(sandbox, archive, clock, 'last');
    expect(d2.code).toBe(0);
    expect(d2.stderr).toBe(
      `warning: --since last: a digest of this selection that started at ${iso(started)} never said how it ended (interrupted or killed); this one covers its period\n`,
    );
    expect(d2.json?.period.from).toBe(d1.json?.period.to);
    // It did not wait for the claim to lapse.
    expect(clock.sleeps).toEqual([]);
  });

  it('a period the archive clock has not reached (--until an hour ahead): the end recorded is the archive clock read', async () => {
    const sandbox = await sandboxFor({ recordCount: 10, seed: 26 });
    const archive = await testArchive(engine);
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db, '-q'])).code).toBe(0);
    const started = Date.now();
    const ahead = started + HOUR;
    const a = await digestAt(sandbox, archive, fakeClock(), 'last', ['--until', iso(ahead)]);
    const read = Date.now();
    expect(a.code).toBe(0);
    expect(a.stderr).toContain("the archive's clock had not reached its end");
    const end = (JSON.parse((await chainRows(archive))[0]!.value) as { end: string }).end;
    expect(a.stderr).toContain(
      `--since last: the archive was still being written when this digest read it: the next digest starts at ${end}`,
    );
    // Not the period's end, which later writes would fall before: the archive's clock when the digest read.
    expect(Date.parse(end)).toBeGreaterThanOrEqual(started);
    expect(Date.parse(end)).toBeLessThanOrEqual(read);
    sandbox.addRecords(3);
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db, '-q'])).code).toBe(0);
    const b = await digestAt(sandbox, archive, fakeClock(), 'last');
    expect([b.code, b.stderr]).toEqual([0, '']);
    expect(b.json?.period.from).toBe(end);
    expect(b.json?.recalls.new).toHaveLength(3);
  });

  it('--until with --since last ends the period there; an --until before the last end is refused (exit 2)', async () => {
    const sandbox = await sandboxFor({ recordCount: 10, seed: 25 });
    const archive = await testArchive(engine);
    const day = Math.floor((Date.now() - 3 * 24 * HOUR) / HOUR) * HOUR;
    await syncAt(sandbox, archive, day - HOUR);
    const a = await digestAt(sandbox, archive, fakeClock(day + 5 * HOUR), 'last', ['--until', iso(day)]);
    expect([a.code, a.stderr]).toEqual([0, FIRST_NOTE]);
    expect(a.json?.period).toEqual({ from: iso(day + 5 * HOUR - 24 * HOUR), to: iso(day) });
    const before = await chainRows(archive);
    const b = await digestAt(sandbox, archive, fakeClock(day + 6 * HOUR), 'last', ['--until', iso(day - HOUR)]);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain(`error: --since last: the last digest of this selection ended at ${iso(day)}`);
    expect(await chainRows(archive)).toEqual(before);
    // A selection with no chain yet starts 24 hours back: an --until before that is refused too, and nothing recorded.
    const c = await digestAt(sandbox, archive, fakeClock(day + 30 * HOUR), 'last', [
      '--sources',
      'uk_opss',
      '--until',
      iso(day),
    ]);
    expect(c.code).toBe(2);
    expect(c.stderr).toContain(
      `error: --since last: with no earlier digest of this selection recorded, the period starts 24 hours back, at ${iso(day + 6 * HOUR)}`,
    );
    expect(await chainRows(archive)).toEqual(before);
  });
});
