// Tables for people say that their times are UTC: the API's times (published_at, updated_at: UTC without an offset) are
// headed `published_at (UTC)` in feed, query, watch and show, and a case's due time `2026-06-03T10:30` under `due_at (UTC)` in the
// cases table. Machine formats keep the fields' names and values as they are.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { expectedFeed } from '../helpers/expected.js';
import { fakeClock, runMain, runMainAgainst } from '../helpers/in-process.js';
import { jsonLines, lines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, any>;
const HOUR = 3_600_000;
const TERMINAL = { stdoutIsTTY: true, columns: 120 } as const;

/** The cells of a table line (columns are two or more spaces apart; a header such as `published_at (UTC)` has one). */
const cells = (line: string) => line.trim().split(/\s{2,}/);

/** An API time as an instant: without an offset it is UTC (docs/formats.md). */
const utc = (t: string) => Date.parse(/[zZ]$|[+-]\d\d:?\d\d$/.test(t) ? t : `${t}Z`);

/** `2026-06-03T10:30`, written out by hand from an instant (UTC). */
function isoMinute(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}T${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
}

let sandbox: Sandbox;
let db: string;

beforeAll(async () => {
  sandbox = await sandboxFor();
  db = path.join(tempDir('rf-utc-tables-'), 'a.db');
  const sync = await runMainAgainst(sandbox, ['sync', '--db', db]);
  expect(sync.code, sync.stderr).toBe(0);
});

describe('record tables head the API times as UTC', () => {
  it('feed: `published_at (UTC)`, `updated_at (UTC)` over the values as the API sent them', async () => {
    const r = await runMainAgainst(
      sandbox,
      ['feed', '--max', '5', '--columns', 'id,published_at,updated_at'],
      TERMINAL,
    );
    expect(r.code, r.stderr).toBe(0);
    const [head, rule, ...rows] = lines(r.stdout);
    expect(cells(head!)).toEqual(['id', 'published_at (UTC)', 'updated_at (UTC)']);
    expect(rule).toMatch(/^─+( {2}─+){2}$/);
    const expected = expectedFeed(sandbox).slice(0, 5);
    expect(rows.map(cells)).toEqual(expected.map((x) => [String(x.id), x.published_at, x.updated_at]));
  });

  it('feed: the default table heads published_at as UTC too, and a 20-column terminal labels its blocks so', async () => {
    const wide = await runMainAgainst(sandbox, ['feed', '--max', '2'], TERMINAL);
    expect(wide.code, wide.stderr).toBe(0);
    expect(cells(lines(wide.stdout)[0]!)).toContain('published_at (UTC)');
    const narrow = await runMainAgainst(sandbox, ['feed', '--max', '1'], { stdoutIsTTY: true, columns: 20 });
    expect(narrow.code, narrow.stderr).toBe(0);
    const [first] = expectedFeed(sandbox);
    expect(narrow.stdout).toContain(`published_at (UTC):\n ${first!.published_at as string}\n`);
  });

  it('a value that carries its own offset is shown as sent', async () => {
    const at = Date.now() - 60_000;
    // The same instant at +02:00: two hours later on the clock.
    const sent = `${new Date(at + 2 * HOUR).toISOString().slice(0, 19)}+02:00`;
    const [added] = sandbox.addRecords([{ published_at: sent, updated_at: sent }]);
    expect(utc(sent)).toBe(Math.floor(at / 1000) * 1000);
    const r = await runMainAgainst(sandbox, ['feed', '--hours', '1', '--columns', 'id,published_at'], TERMINAL);
    expect(r.code, r.stderr).toBe(0);
    expect(cells(lines(r.stdout)[0]!)).toEqual(['id', 'published_at (UTC)']);
    expect(lines(r.stdout).map(cells)).toContainEqual([String(added!.id), sent]);
  });

  it('machine formats keep the names and the values: csv and jsonl', async () => {
    const args = ['feed', '--max', '3', '--columns', 'id,published_at,updated_at'];
    const csv = await runMainAgainst(sandbox, [...args, '-f', 'csv'], TERMINAL);
    const expected = expectedFeed(sandbox).slice(0, 3);
    expect(csv.stdout).toBe(
      `id,published_at,updated_at\n${expected.map((x) => `${x.id},${x.published_at},${x.updated_at}\n`).join('')}`,
    );
    const jsonl = await runMainAgainst(sandbox, ['feed', '--max', '3', '-f', 'jsonl'], TERMINAL);
    expect(jsonl.stdout).toBe(expected.map((x) => `${JSON.stringify(x)}\n`).join(''));
  });

  it('query: the archive table heads published_at as UTC', async () => {
    const r = await runMain(['query', '--db', db, '--limit', '3', '--columns', 'id,published_at,updated_at'], TERMINAL);
    expect(r.code, r.stderr).toBe(0);
    const [head, , ...rows] = lines(r.stdout);
    expect(cells(head!)).toEqual(['id', 'published_at (UTC)', 'updated_at (UTC)']);
    const stored = jsonLines((await runMain(['query', '--db', db, '--limit', '3', '-f', 'jsonl'])).stdout);
    expect(rows.map(cells)).toEqual(stored.map((x) => [String(x.id), x.published_at, x.updated_at]));
  });

  it('show: labels the times `published at (UTC)`, values as sent', async () => {
    const stored = jsonLines((await runMain(['query', '--db', db, '--limit', '50', '-f', 'jsonl'])).stdout);
    const recall = stored.find((x) => x.published_at !== x.updated_at) ?? stored[0];
    const r = await runMain(['show', String(recall!.id), '--db', db], { stdoutIsTTY: true, columns: 100 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^published at \\(UTC\\) +${recall!.published_at}$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^updated at \\(UTC\\) +${recall!.updated_at}$`, 'm'));
    const json = await runMain(['show', String(recall!.id), '--db', db, '-f', 'json']);
    expect(JSON.parse(json.stdout)).toEqual(recall);
  });

  it('feed --watch: the table it streams heads published_at as UTC', async () => {
    const stop = new AbortController();
    let out = '';
    // Stopped (as Ctrl-C would) in its first pause, after the first poll wrote its rows.
    const clock = fakeClock(Date.now(), () => stop.abort(new InterruptedError('SIGINT')));
    const r = await runMainAgainst(sandbox, ['feed', '--watch', '--interval', '1'], {
      ...TERMINAL,
      clock,
      signal: stop.signal,
      onOutput: (stream, text) => {
        if (stream === 'stdout') out += text;
      },
    });
    expect(r.code).toBe(130);
    const [head, , first] = lines(out);
    expect(cells(head!)[1]).toBe('published_at (UTC)');
    expect(utc(cells(first!)[1]!)).toBeGreaterThan(Date.now() - 2 * HOUR);
  });
});

describe('the cases table says its due times are UTC', () => {
  it('heads `due_at (UTC)` over the time to the minute, whole on a 120-column terminal; jsonl keeps the exact ISO value', async () => {
    // A recall with a barcode of its own: a catalogue row on it opens one case, due 24 h after its publication.
    const window = expectedFeed(sandbox);
    const codes = (r: Rec) =>
      ((r.standard_identifiers_and_barcodes as unknown[]) ?? [])
        .map((x) => (typeof x === 'string' ? x : String((x as Rec).value)))
        .filter((v) => /^\d{13}$/.test(v));
    const all = window.flatMap(codes);
    const unique = (c: string) => all.filter((o) => o === c).length === 1;
    const recall = window.find((r) => codes(r).some(unique))!;
    const catalog = path.join(tempDir('rf-utc-cases-'), 'catalogue.csv');
    writeFileSync(catalog, `sku,ean\nA,${codes(recall).find(unique)}\n`);
    const caseDb = path.join(path.dirname(catalog), 'cases.db');
    expect((await runMainAgainst(sandbox, ['sync', '--db', caseDb])).code).toBe(0);
    const match = await runMain([
      'match',
      '--catalog',
      catalog,
      '--archive',
      '--open-cases',
      '--sla',
      '24h',
      '--db',
      caseDb,
    ]);
    expect(match.code, match.stderr).toBe(0);
    const due = utc(recall.published_at) + 24 * HOUR;

    const listed = jsonLines((await runMain(['cases', '--db', caseDb, '-f', 'jsonl'])).stdout);
    expect(listed.map((c) => [c.recall_id, c.due_at])).toEqual([[recall.id, new Date(due).toISOString()]]);

    // Wide or as narrow as a laptop's terminal: the column is headed `due_at (UTC)` and the time is whole.
    for (const columns of [200, 120]) {
      const table = await runMain(['cases', '--db', caseDb], { stdoutIsTTY: true, columns });
      expect(table.code, table.stderr).toBe(0);
      const [head, rule, row] = lines(table.stdout);
      // The column under the header, by the rule's dashes (an empty outcome beside it leaves only spaces).
      const start = head!.indexOf('due_at (UTC)');
      const width = /^─+/.exec(rule!.slice(start))![0].length;
      expect(start, `${columns} columns`).toBeGreaterThan(0);
      expect(row!.slice(start, start + width).trimEnd(), `${columns} columns`).toBe(isoMinute(due));
    }
  });
});
