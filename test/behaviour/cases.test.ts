// Cases in process on both engines: opened by match --open-cases (never twice), worked through, reopened by a sync,
// verified; and the same flow lists the same cases on both.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SpecRecall } from '../../src/api/schemas.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { tempFolder } from '../helpers/archive.js';
import { clockFree, editedCopy } from '../helpers/archive-edit.js';
import { type TestArchive, testArchive } from '../helpers/archive-engines.js';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { fakeClock, runMain, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { type Engine, ENGINES } from '../helpers/postgres.js';

type Rec = Record<string, any>;
const folder = tempFolder('rf-cases-');
const catalog = folder.file('products.csv');

/** Each engine's `cases --status all -f jsonl` after the same flow, for the engines check at the end. */
const listings = new Map<Engine, string>();

const barcodes = (r: SpecRecall): string[] =>
  (r.standard_identifiers_and_barcodes as unknown[]).map((x) =>
    typeof x === 'string' ? x : String((x as { value: unknown }).value),
  );

describe.each(ENGINES)('$engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }
  let sandbox: Sandbox;
  let archive: TestArchive;
  let db: string;
  /** The match pairs as `match` (without --open-cases) reports them: `sku recall_id level reason`. */
  let pairs: Set<string>;
  let rowsBySku: Map<string, Record<string, string>>;
  let before: Map<number, SpecRecall>;

  async function cases(args: string[] = []): Promise<Rec[]> {
    const r = await runMain(['cases', '--db', db, '-f', 'jsonl', ...args]);
    expect(r.code, r.stderr).toBe(0);
    return jsonLines(r.stdout) as Rec[];
  }

  beforeAll(async () => {
    archive = await testArchive(engine);
    db = archive.db;
    sandbox = await sandboxFor({ seed: 21, recordCount: 120, clock: () => FIXED_START });
    const synced = await runMainAgainst(sandbox, ['sync', '--db', db]);
    expect(synced.code, synced.stderr).toBe(0);
    before = new Map(sandbox.records().map((r) => [r.id, r]));
    // A barcode of each of the first recalls that have one, plus a brand+model row and a row that matches nothing.
    const withCodes = sandbox.records().filter((r) => barcodes(r).length > 0);
    const withModel = sandbox.records().find((r) => r.product_model_numbers.length > 0 && r.product_brand)!;
    const lines = ['sku,gtin,brand,model,name'];
    for (const [i, r] of withCodes.slice(0, 20).entries()) lines.push(`P${i},${barcodes(r)[0]},,,`);
    lines.push(`PM,,"${withModel.product_brand}",${withModel.product_model_numbers[0]},`);
    lines.push('PZ,,Nobrand,,Nothing at all');
    writeFileSync(catalog, `${lines.join('\n')}\n`);
    const header = lines[0]!.split(',');
    rowsBySku = new Map(
      lines.slice(1).map((l) => {
        const cells = l.split(',').map((c) => c.replace(/^"|"$/g, ''));
        return [cells[0]!, Object.fromEntries(header.map((h, i) => [h, cells[i] ?? '']))];
      }),
    );
    const plain = await runMain(['match', '--catalog', catalog, '--archive', '--db', db, '-f', 'jsonl']);
    expect(plain.code).toBe(0);
    pairs = new Set((jsonLines(plain.stdout) as Rec[]).map((m) => `${m.sku} ${m.recall_id} ${m.level} ${m.reason}`));
    expect(pairs.size).toBeGreaterThanOrEqual(5);
  });

  describe('match --open-cases', () => {
    it('opens one case per match pair, and a second run opens none', async () => {
      // On a terminal, where match says what it opened.
      const terminal = { stderrIsTTY: true };
      const first = await runMain(
        ['match', '--catalog', catalog, '--archive', '--db', db, '--open-cases', '-f', 'jsonl'],
        terminal,
      );
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toContain(`cases: ${pairs.size} opened · 0 pairs already had one`);
      const second = await runMain(
        ['match', '--catalog', catalog, '--archive', '--db', db, '--open-cases', '-f', 'jsonl'],
        terminal,
      );
      expect(second.code).toBe(0);
      expect(second.stderr).toContain(`cases: 0 opened · ${pairs.size} pairs already had one`);
      // The match rows themselves are unchanged by --open-cases.
      expect(second.stdout).toBe(first.stdout);

      const all = await cases(['--status', 'all']);
      expect(all).toHaveLength(pairs.size);
      const csv = await runMain(['cases', '--db', db, '--status', 'all', '-f', 'csv']);
      expect(csv.stdout.split('\n')[0]).toBe(
        'id,status,recall_id,level,reason,catalog_row,catalog_key,alert_title,opened_at,updated_at,outcome,due_at,sla,risk_severity,product_name,events',
      );
      expect(csv.stdout.split('\n').filter((l) => /^\d+,open,/.test(l))).toHaveLength(pairs.size);
      expect(new Set(all.map((c) => `${c.catalog_row.sku} ${c.recall_id} ${c.level} ${c.reason}`))).toEqual(pairs);
      for (const c of all) {
        expect(Object.keys(c)).toEqual([
          'id',
          'status',
          'recall_id',
          'level',
          'reason',
          'catalog_row',
          'catalog_key',
          'alert_title',
          'opened_at',
          'updated_at',
          'outcome',
          'due_at',
          'sla',
          'risk_severity',
          'product_name',
          'events',
        ]);
        expect(c.catalog_row).toEqual(rowsBySku.get(c.catalog_row.sku));
        expect(c.catalog_key).toBe(`sku:${c.catalog_row.sku}`);
        expect(c.alert_title).toBe(before.get(c.recall_id)!.alert_title);
        expect(c).toMatchObject({ status: 'open', outcome: null });
        expect(c.events.map((e: Rec) => [e.action, e.actor])).toEqual([['opened', 'recall-feed match']]);
      }
    });

    it('without a key column rows are known by line, with a warning (bad --key and flag combinations: unit/cases-flags)', async () => {
      const noKey = folder.file('nokey.csv');
      const sku = [...pairs].find((p) => p.endsWith(' barcode'))!.split(' ')[0]!;
      writeFileSync(noKey, `gtin\n${rowsBySku.get(sku)!.gtin}\n`);
      const { db: other } = await editedCopy(archive);
      const r = await runMain(['match', '--catalog', noKey, '--archive', '--db', other, '--open-cases', '-f', 'jsonl']);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('warning: no key column (sku, id, ref, our_ref, article) in the catalogue');
      const listed = jsonLines(
        (await runMain(['cases', '--db', other, '--status', 'all', '-f', 'jsonl'])).stdout,
      ) as Rec[];
      expect(listed.filter((c) => c.catalog_key === 'line:1').length).toBeGreaterThan(0);
    });

    it('--watch --open-cases opens cases for the recalls as they arrive', async () => {
      const live = await sandboxFor({ seed: 22, recordCount: 30 });
      const watchDb = (await testArchive(engine)).db;
      const watchCatalog = folder.file('watch.csv');
      writeFileSync(watchCatalog, 'ref,ean\nW-1,4006381333931\nW-2,0036000291452\n');
      // In process: each pause between two polls is the injected clock's; the watch stops as Ctrl-C would.
      let err = '';
      let hit: { id: number } | undefined;
      let pauses = 0;
      const stop = new AbortController();
      const clock = fakeClock(Date.now(), () => {
        if (++pauses > 100) throw new Error(`no case opened\nstderr: ${err}`);
        if (!hit) {
          expect(live.requests().length).toBeGreaterThanOrEqual(1);
          [hit] = live.addRecords([{ standard_identifiers_and_barcodes: [{ type: 'EAN', value: '4006381333931' }] }]);
        } else if (err.includes('cases: 1 opened')) stop.abort(new InterruptedError('SIGINT'));
      });
      const watched = await runMainAgainst(
        live,
        [
          'match',
          '--catalog',
          watchCatalog,
          '--watch',
          '--interval',
          '1',
          '--open-cases',
          '--db',
          watchDb,
          '-f',
          'jsonl',
        ],
        {
          clock,
          signal: stop.signal,
          onOutput: (stream, text) => {
            if (stream === 'stderr') err += text;
          },
        },
      );
      expect(watched.code, err).toBe(130);
      const opened = jsonLines((await runMain(['cases', '--db', watchDb, '-f', 'jsonl'])).stdout) as Rec[];
      expect(opened.map((c) => [c.recall_id, c.catalog_key, c.level, c.reason])).toEqual([
        [hit!.id, 'ref:W-1', 'match', 'barcode'],
      ]);
    });
  });

  describe('working through cases', () => {
    let resolved: Rec;
    let waiting: Rec;

    it('resolve closes, wait parks; --status open excludes the resolved case and keeps the waiting one', async () => {
      const [a, b] = (await cases()).filter((c) => c.level === 'match');
      const res = await runMain([
        'cases',
        'resolve',
        String(a!.id),
        '--as',
        'removed-from-sale',
        '--note',
        'pulled from 14 stores <b>&',
        '--by',
        'alice',
        '--db',
        db,
        '-f',
        'json',
      ]);
      expect(res.code, res.stderr).toBe(0);
      resolved = JSON.parse(res.stdout);
      expect(resolved).toMatchObject({ id: a!.id, status: 'closed', outcome: 'removed-from-sale' });
      expect(resolved.events.at(-1)).toMatchObject({
        action: 'resolved',
        actor: 'alice',
        note: 'pulled from 14 stores <b>&',
      });
      const w = await runMain([
        'cases',
        'wait',
        String(b!.id),
        '--note',
        'asked the supplier for lot numbers',
        '--db',
        db,
        '-f',
        'json',
      ]);
      expect(w.code, w.stderr).toBe(0);
      waiting = JSON.parse(w.stdout);
      // --by defaults to the OS user name.
      expect(waiting.events.at(-1)).toMatchObject({
        action: 'waiting',
        actor: os.userInfo().username,
        status: 'waiting',
      });

      // `open` is unresolved: a waiting case is kept, a resolved one is not.
      const all = (await cases(['--status', 'all'])).map((c) => c.id);
      const open = (await cases(['--status', 'open'])).map((c) => c.id);
      expect(open).toEqual(all.filter((id) => id !== a!.id));
      expect(open).toContain(b!.id);
      expect((await cases()).map((c) => c.id)).toEqual(open);
      expect((await cases(['--status', 'waiting'])).map((c) => c.id)).toEqual([b!.id]);
      expect((await cases(['--status', 'closed'])).map((c) => c.id)).toEqual([a!.id]);
      expect((await cases(['--status', 'waiting,closed'])).map((c) => c.id)).toEqual(
        [a!.id, b!.id].sort((x, y) => x - y),
      );
      expect((await cases(['--status', 'all', '--level', 'possible'])).every((c) => c.level === 'possible')).toBe(true);
      const severity = before.get(b!.recall_id)!.risk_severity;
      const bySeverity = await cases(['--severity', severity]);
      expect(bySeverity.map((c) => c.id)).toContain(b!.id);
      expect(bySeverity.every((c) => before.get(c.recall_id)!.risk_severity === severity)).toBe(true);
    });

    it('steps the status does not allow, unknown ids and outcomes are usage errors that change nothing', async () => {
      const bad: Array<[string[], string]> = [
        [
          ['resolve', String(resolved.id), '--as', 'false-positive'],
          `error: case ${resolved.id} is closed (removed-from-sale)\nhint: reopen it first: recall-feed cases reopen ${resolved.id} --note <why>\n`,
        ],
        [
          ['reopen', String(waiting.id)],
          `error: case ${waiting.id} is waiting, not closed: there is nothing to reopen\n`,
        ],
        [['show', '99999'], 'error: no case 99999 in the archive\nhint: list them: recall-feed cases --status all\n'],
        [['resolve', String(waiting.id), '--as', 'safe']],
        [['wait', 'x']],
      ] as Array<[string[], string]>;
      const snapshot = await cases(['--status', 'all']);
      for (const [args, stderr] of bad) {
        const r = await runMain(['cases', ...args, '--db', db]);
        expect(r.code).toBe(2);
        if (stderr) expect(r.stderr).toBe(stderr);
        else expect(r.stderr).toMatch(/^error: /);
      }
      expect(await cases(['--status', 'all'])).toEqual(snapshot);
    });

    it('a sync that stores a new version reopens the closed case: opened, resolved, reopened; the waiting one only hears of it', async () => {
      const revised = new Map(sandbox.updateRecords(100_000).map((r) => [r.id, r]));
      expect(revised.has(resolved.recall_id)).toBe(true);
      const sync = await runMainAgainst(sandbox, ['sync', '--db', db, '-f', 'json']);
      expect(sync.code, sync.stderr).toBe(0);
      const shown = await runMain(['cases', 'show', String(resolved.id), '--db', db, '-f', 'json']);
      const after = JSON.parse(shown.stdout) as Rec;
      expect(after).toMatchObject({ status: 'open', outcome: null });
      expect(after.events.map((e: Rec) => e.action)).toEqual(['opened', 'resolved', 'reopened']);
      const old = before.get(resolved.recall_id)!;
      const now = revised.get(resolved.recall_id)!;
      const reopen = after.events[2] as Rec;
      expect(reopen.actor).toBe('recall-feed sync');
      expect(reopen.note).toMatch(/^recall updated to version 2: /);
      expect(reopen.note).toContain(`risk_severity: ${old.risk_severity} → ${now.risk_severity}`);
      expect(reopen.note).toContain(`updated_at: ${old.updated_at} → ${now.updated_at}`);
      expect(after.recall).toEqual(now);

      const parked = JSON.parse(
        (await runMain(['cases', 'show', String(waiting.id), '--db', db, '-f', 'json'])).stdout,
      );
      expect(parked.status).toBe('waiting');
      expect(parked.events.map((e: Rec) => e.action)).toEqual(['opened', 'waiting', 'recall-updated']);

      // On a terminal: the recall and every step, notes below.
      const text = await runMain(['cases', 'show', String(resolved.id), '--db', db], {
        env: { RECALL_FEED_FORCE_TTY: '1' },
      });
      expect(text.stdout).toContain(`case ${resolved.id} · open · match/`);
      expect(text.stdout).toContain(
        'resolved removed-from-sale · closed · by alice\n     pulled from 14 stores <b>&\n',
      );
      expect(text.stdout).toContain(`     recall updated to version 2: `);
    });
  });

  describe('cases verify', () => {
    const tampered = async (sql: string) => {
      const copy = await editedCopy(archive, sql);
      expect(copy.changed).toBe(1);
      return copy.db;
    };

    it('passes on the untouched log and names the head', async () => {
      const r = await runMain(['cases', 'verify', '--db', db, '-f', 'json']);
      expect(r.code, r.stderr).toBe(0);
      const result = JSON.parse(r.stdout);
      const [last] = await archive.rows<Rec>('SELECT seq, hash FROM case_events ORDER BY seq DESC LIMIT 1');
      const [count] = await archive.rows<Rec>('SELECT count(*) AS n FROM cases');
      expect(result).toEqual({
        ok: true,
        cases: Number(count!.n),
        events: Number(last!.seq),
        head: last!.hash,
        broken: null,
      });
    });

    it('fails, exit 12, naming the first event edited, removed, or a case row changed behind its timeline', async () => {
      const edited = await tampered("UPDATE case_events SET note = 'nothing to see' WHERE seq = 3");
      const e = await runMain(['cases', 'verify', '--db', edited]);
      expect(e.code).toBe(12);
      // In a pipe the result is still printed, for scripts; on a terminal only the error.
      expect(JSON.parse(e.stdout)).toMatchObject({
        ok: false,
        broken: { seq: 3, problem: expect.stringContaining('edited') },
      });
      const onTerminal = await runMain(['cases', 'verify', '--db', edited], { env: { RECALL_FEED_FORCE_TTY: '1' } });
      expect([onTerminal.code, onTerminal.stdout]).toEqual([12, '']);
      expect(e.stderr).toMatch(
        /^error: the case log is broken at event 3: event 3 \(case \d+\) was edited: its hash does not match\nhint: /,
      );

      const removed = await tampered('DELETE FROM case_events WHERE seq = 2');
      const d = await runMain(['cases', 'verify', '--db', removed]);
      expect(d.code).toBe(12);
      expect(d.stderr).toContain('error: the case log is broken at event 2: event 2 is missing (removed?)');

      const waitingId = await waiting_id();
      const status = await tampered(
        `UPDATE cases SET status = 'closed', outcome = 'false-positive' WHERE id = ${waitingId}`,
      );
      const s = await runMain(['cases', 'verify', '--db', status]);
      expect(s.code).toBe(12);
      expect(s.stderr).toMatch(
        new RegExp(
          `case ${waitingId} is stored as closed \\(outcome 'false-positive'\\) but its last event \\d+ says waiting: the case row was edited`,
        ),
      );
      // An outcome edited to '' is shown, quoted: the row and its event no longer read alike.
      const blank = await runMain([
        'cases',
        'verify',
        '--db',
        await tampered(`UPDATE cases SET outcome = '' WHERE id = ${waitingId}`),
      ]);
      expect(blank.code).toBe(12);
      expect(blank.stderr).toMatch(
        new RegExp(`case ${waitingId} is stored as waiting \\(outcome ''\\) but its last event \\d+ says waiting: the`),
      );

      // The last event's link changed: it no longer follows the one before.
      const [head] = await archive.rows<Rec>('SELECT max(seq) AS seq FROM case_events');
      const relinked = await tampered(
        `UPDATE case_events SET prev_hash = '${'f'.repeat(64)}' WHERE seq = ${Number(head!.seq)}`,
      );
      const l = await runMain(['cases', 'verify', '--db', relinked, '-f', 'json']);
      expect(l.code).toBe(12);
      expect(JSON.parse(l.stdout).broken).toMatchObject({
        seq: Number(head!.seq),
        problem: `event ${Number(head!.seq)} does not follow event ${Number(head!.seq) - 1}: the chain was changed`,
      });
    });
  });

  it('records what the flow left, for the engines check', async () => {
    listings.set(engine, clockFree((await runMain(['cases', '--db', db, '--status', 'all', '-f', 'jsonl'])).stdout));
  });

  /** The id of the case parked with `wait` in the tests above (read back from the archive). */
  async function waiting_id(): Promise<number> {
    const [row] = await archive.rows<{ id: number }>(
      "SELECT id FROM cases WHERE status = 'waiting' ORDER BY id LIMIT 1",
    );
    return Number(row!.id);
  }
});

describe('both engines', () => {
  it.skipIf(!ENGINES.every((e) => e.available))(
    'the same flow gives the same `cases -f jsonl`, byte for byte but for the clock',
    () => {
      const sqlite = listings.get('sqlite');
      expect(sqlite).toMatch(/"action":"reopened"/);
      expect(listings.get('postgres')).toBe(sqlite);
    },
  );
});
