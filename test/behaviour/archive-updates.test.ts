// The update path end to end: sandbox updates -> sync counts them -> query shows the new versions -> show --history the old.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpecRecall } from '../../src/api/schemas.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { testArchive } from '../helpers/archive-engines.js';
import { ENGINES } from '../helpers/postgres.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, lines, sandboxFor } from '../helpers/sandbox.js';
import { expectedFeed } from '../helpers/expected.js';

describe.each(ENGINES)('$engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }

  let sandbox: Sandbox;
  let db: string;
  let original: Map<number, SpecRecall>;
  let updatedIds: number[];

  beforeAll(async () => {
    db = (await testArchive(engine)).db;
    sandbox = await sandboxFor({ recordCount: 1500, seed: 31, clock: () => FIXED_START });
    const first = await runMainAgainst(sandbox, ['sync', '--db', db, '-f', 'json']);
    expect(first.code).toBe(0);
    original = new Map(sandbox.records().map((r) => [r.id, r]));
    const res = await fetch(`${sandbox.url}/_sandbox/updates`, { method: 'POST', body: JSON.stringify({ count: 12 }) });
    updatedIds = ((await res.json()) as { ids: number[] }).ids;
    expect(updatedIds).toHaveLength(12);
  });
  afterAll(async () => {
    await sandbox.close();
  });

  describe('after sandbox updates', () => {
    it('the next sync reports exactly those as updated; query shows the new versions, byte-equal to feed', async () => {
      const again = await runMainAgainst(sandbox, ['sync', '--db', db, '-f', 'json']);
      expect(again.code).toBe(0);
      expect(JSON.parse(again.stdout)).toEqual({ fetched: 1500, new: 0, updated: 12, unchanged: 1488, total: 1500 });
      const query = await runMainAgainst(sandbox, ['query', '--db', db, '-f', 'jsonl']);
      expect(lines(query.stdout)).toEqual(expectedFeed(sandbox, { now: FIXED_START }).map((r) => JSON.stringify(r)));
      const byId = new Map(jsonLines(query.stdout).map((r) => [r.id, r]));
      for (const id of updatedIds) {
        expect(byId.get(id)!.alert_status).toBe('updated');
        expect(byId.get(id)!.updated_at).not.toBe(original.get(id)!.updated_at);
      }
      const third = await runMainAgainst(sandbox, ['sync', '--db', db, '-f', 'json']);
      expect(JSON.parse(third.stdout)).toMatchObject({ new: 0, updated: 0 });
    });

    it('show --history -f jsonl prints every version oldest first, as the API sent it', async () => {
      const id = updatedIds[0]!;
      const r = await runMain(['show', String(id), '--history', '-f', 'jsonl', '--db', db]);
      expect(r.code).toBe(0);
      const current = sandbox.records().find((x) => x.id === id)!;
      expect(lines(r.stdout)).toEqual([JSON.stringify(original.get(id)), JSON.stringify(current)]);
      const one = await runMain(['show', String(id), '-f', 'json', '--db', db]);
      expect(one.stdout).toBe(`${JSON.stringify(current)}\n`);
    });

    it('show --history on a terminal lists the versions and what changed', async () => {
      const id = updatedIds[1]!;
      const before = original.get(id)!;
      const after = sandbox.records().find((x) => x.id === id)!;
      const r = await runMain(['show', String(id), '--history', '--db', db], {
        env: { RECALL_FEED_FORCE_TTY: '1', COLUMNS: '100' },
      });
      expect(r.code).toBe(0);
      const text = r.stdout;
      expect(text).toMatch(new RegExp(`^version 1 · stored \\S+ · updated_at \\(UTC\\) ${before.updated_at}\\n`));
      expect(text).toContain(`version 2 (current) · stored `);
      expect(text).toContain(`  risk severity: ${before.risk_severity} → ${after.risk_severity}\n`);
      expect(text).toContain(`  updated at (UTC): ${before.updated_at} → ${after.updated_at}\n`);
      if (before.alert_status !== 'updated')
        expect(text).toContain(`  alert status: ${before.alert_status} → updated\n`);
    });
  });
});
