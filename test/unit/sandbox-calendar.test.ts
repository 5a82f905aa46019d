// `--sandbox` on the calendar: two syncs at different times see the same recall under each id, and the archive holds the windows' records once each.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { fakeClock, runMain } from '../helpers/in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

const T1 = Date.parse('2026-11-20T09:15:00Z');
const T2 = T1 + 47 * 60_000;
const DAY = 86_400_000;

interface Row {
  id: number;
  data_source: string;
  raw: string;
}

function archived(db: string): Map<number, Row> {
  const archive = new Database(db, { readonly: true });
  try {
    const rows = archive.prepare('SELECT id, data_source, raw FROM recalls').all() as Row[];
    return new Map(rows.map((r) => [r.id, r]));
  } finally {
    archive.close();
  }
}

/** The ids the API serves in its 24-hour window at `at`, read from a sandbox of the same kind (the independent view). */
async function windowIds(at: number): Promise<number[]> {
  const sandbox = await startSandbox({ calendar: true, clock: () => at });
  try {
    return sandbox
      .records()
      .filter((r) => Date.parse(`${r.published_at.slice(0, 19)}Z`) >= at - DAY)
      .map((r) => r.id);
  } finally {
    await sandbox.close();
  }
}

describe('sync --sandbox at two times', () => {
  it('keeps each id the same recall; the archive holds the union of the two windows', async () => {
    const db = path.join(tempDir('rf-cal-'), 'sandbox.db');
    const first = await runMain(['--sandbox', 'sync', '--db', db], { clock: fakeClock(T1) });
    expect(first.code).toBe(0);
    const before = archived(db);
    const second = await runMain(['--sandbox', 'sync', '--db', db], { clock: fakeClock(T2) });
    expect(second.code).toBe(0);
    const after = archived(db);

    let shared = 0;
    for (const [id, row] of before) {
      const now = after.get(id)!;
      expect(now).toBeDefined();
      // An update changes status and severity, never what the recall is about.
      const [a, b] = [JSON.parse(row.raw), JSON.parse(now.raw)];
      expect({ id, source: b.data_source, product: b.product_name, published: b.published_at }).toEqual({
        id,
        source: a.data_source,
        product: a.product_name,
        published: a.published_at,
      });
      shared++;
    }
    expect(shared).toBeGreaterThan(500);

    const expected = new Set([...(await windowIds(T1)), ...(await windowIds(T2))]);
    expect(after.size).toBe(expected.size);
    const byNumber = (x: number, y: number) => x - y;
    expect([...after.keys()].sort(byNumber)).toEqual([...expected].sort(byNumber));
  });
});

describe('the calendar sandbox over days', () => {
  it('changes a recall only by an update: a newer updated_at, the same source, product and publication', async () => {
    let now = T1;
    const sandbox = await startSandbox({ calendar: true, clock: () => now, recordCount: 300 });
    const first = new Map(sandbox.records().map((r) => [r.id, r]));
    now = T1 + 20 * 3_600_000;
    const later = sandbox.records();
    // A fresh sandbox at the later time tells the same story as the one that lived through it.
    const fresh = await startSandbox({ calendar: true, clock: () => now, recordCount: 300 });
    const freshById = new Map(fresh.records().map((r) => [r.id, r]));
    await fresh.close();
    await sandbox.close();
    let updated = 0;
    for (const r of later) {
      const before = first.get(r.id);
      if (freshById.has(r.id)) expect(freshById.get(r.id)).toEqual(r);
      if (!before) continue;
      expect([r.data_source, r.product_name, r.published_at]).toEqual([
        before.data_source,
        before.product_name,
        before.published_at,
      ]);
      if (JSON.stringify(r) !== JSON.stringify(before)) {
        updated++;
        expect(Date.parse(`${r.updated_at}Z`)).toBeGreaterThan(Date.parse(`${before.updated_at}Z`));
        expect(r.alert_status).toBe('updated');
      }
    }
    expect(updated).toBeGreaterThan(0);
  });
});
