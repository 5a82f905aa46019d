// A case due exactly now, on both engines: not overdue yet, alike in `cases --overdue`, the digest and the report
// (overdue when due before now); the digest's deadlines measured at now, not at its period's exclusive end. The runs
// are pinned (--sandbox-now), as the archive's clock then is too: a digest waits for it to reach its period's end.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestArchive, testArchive } from '../helpers/archive-engines.js';
import { runMain } from '../helpers/in-process.js';
import { ENGINES } from '../helpers/postgres.js';
import { jsonLines } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, any>;
const HOUR = 3_600_000;
const SYNCED = Date.parse('2026-05-26T12:00:00Z');

describe.each(ENGINES)('$engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }
  let archive: TestArchive;
  /** Case 1's due time (24 h after its recall's publication), the instant each command below runs at. */
  let now: number;
  let second: { published: number; due: number };

  const pinned = async (args: string[], at: number) => {
    const r = await runMain([...args, '--sandbox', '--sandbox-now', new Date(at).toISOString(), '--db', archive.db]);
    expect(r.code, r.stderr).toBe(0);
    return r;
  };
  const run = (args: string[]) => pinned(args, now);

  beforeAll(async () => {
    archive = await testArchive(engine);
    const dir = tempDir('rf-due-now-');
    await pinned(['sync'], SYNCED);
    // Two stored recalls, each with a barcode of its own: a catalogue row on each opens a case.
    const raws = (await archive.rows<{ raw: string }>('SELECT raw FROM recalls ORDER BY id')).map(
      (r) => JSON.parse(r.raw) as Rec,
    );
    const codes = (r: Rec) =>
      (r.standard_identifiers_and_barcodes as unknown[])
        .map((x) => (typeof x === 'string' ? x : String((x as Rec).value)))
        .filter((v) => /^\d{13}$/.test(v));
    const all = raws.flatMap(codes);
    const [a, b] = raws.filter((r) => codes(r).some((c) => all.filter((o) => o === c).length === 1)).slice(-2);
    const code = (r: Rec) => codes(r).find((c) => all.filter((o) => o === c).length === 1)!;
    const publishedA = Date.parse(a!.published_at);
    now = publishedA + 24 * HOUR;
    second = { published: Date.parse(b!.published_at), due: Number.NaN };
    const catalog = path.join(dir, 'catalogue.csv');
    const open = async (rows: string, sla: string) => {
      writeFileSync(catalog, `sku,ean\n${rows}`);
      await pinned(['match', '--catalog', catalog, '--archive', '--open-cases', '--sla', sla], SYNCED);
    };
    await open(`A,${code(a!)}\n`, '24h');
    // B is due in the hour before A's due time (whole hours after its publication): overdue then.
    const bHours = Math.ceil((now - second.published) / HOUR) - 1;
    expect(bHours).toBeGreaterThan(0);
    second.due = second.published + bHours * HOUR;
    await open(`A,${code(a!)}\nB,${code(b!)}\n`, `${bHours}h`);
  });

  it('cases --overdue: only the case due before now', async () => {
    const listed = jsonLines((await run(['cases', '--overdue', '-f', 'jsonl'])).stdout) as Rec[];
    expect(listed.map((c) => [c.catalog_key, c.due_at])).toEqual([['sku:B', new Date(second.due).toISOString()]]);
  });

  it('digest: the case due now is due soon, 0 hours left, as of now', async () => {
    const deadlines = (JSON.parse((await run(['digest', '--since', '2d', '-f', 'json'])).stdout) as Rec).deadlines;
    expect(deadlines.as_of).toBe(new Date(now).toISOString());
    expect([deadlines.overdue, deadlines.due_soon]).toEqual([1, 1]);
    expect(deadlines.cases.map((c: Rec) => [c.catalog_key, c.state, c.hours_left])).toEqual([
      ['sku:B', 'overdue', Math.round(((second.due - now) / HOUR) * 100) / 100],
      ['sku:A', 'due-soon', 0],
    ]);
  });

  it('report: one overdue, as cases --overdue says', async () => {
    const report = JSON.parse((await run(['report', '-f', 'json'])).stdout) as Rec;
    expect(report.period.until).toBe(new Date(now + 1).toISOString());
    expect([report.summary.open, report.summary.overdue]).toEqual([2, 1]);
    // Neither is closed; only the overdue one is judged against its deadline yet.
    expect([report.summary.time_to_action.with_due, report.summary.next_due.case_id]).toEqual([1, 2]);
  });
});
