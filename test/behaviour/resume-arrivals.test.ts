// A --resume after new and updated recalls arrived writes each id once: records that moved past the cursor are not written again.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { ALL_KEY, FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { expectedFeed } from '../helpers/expected.js';
import { parseCsvWithPython } from '../helpers/python-csv.js';
import { printedCommand } from '../helpers/shell-words.js';

/** Every id exactly once: duplicates listed, so that a failure shows them. */
function duplicates(ids: readonly unknown[]): unknown[] {
  const seen = new Set<unknown>();
  const twice: unknown[] = [];
  for (const id of ids) {
    if (seen.has(id)) twice.push(id);
    seen.add(id);
  }
  return twice;
}

const formats = [
  { format: 'jsonl', idsOf: async (file: string) => jsonLines(readFileSync(file, 'utf8')).map((r) => String(r.id)) },
  {
    format: 'json',
    // A partial is the array without its end: closed here to read it.
    idsOf: async (file: string) => {
      const text = readFileSync(file, 'utf8');
      const array = file.endsWith('.partial') ? `${text}\n]` : text;
      return (JSON.parse(array) as { id: unknown }[]).map((r) => String(r.id));
    },
  },
  {
    format: 'csv',
    idsOf: async (file: string) => {
      const [header, ...rows] = await parseCsvWithPython(file);
      const column = (header ?? []).indexOf('id');
      return rows.map((row) => row[column] as string);
    },
  },
];

describe('--resume after recalls arrived and changed in between', () => {
  for (const { format, idsOf } of formats) {
    it(`${format}: every id of the window exactly once`, async () => {
      let now = FIXED_START;
      // Updated recalls get a newer updated_at: in updated_at order they move behind the cursor, where the
      // resume would meet the ones already written again.
      const sandbox = await sandboxFor({
        seed: 17,
        recordCount: 300,
        clock: () => now,
        arrivalsPerMinute: 6,
        updatesPerMinute: 10,
      });
      const dir = tempDir('rf-resume-arrivals-');
      const target = path.join(dir, `export.${format}`);
      const args = ['feed', '--sort', 'updated_at', '--order', 'asc', '--page-size', '50', '-o', target];
      sandbox.setFaults({ failAfterPages: 3, failMode: 'error503' });
      const first = await runMainAgainst(sandbox, ['--retries', '0', ...args]);
      expect(first.code).toBe(6);
      sandbox.setFaults({});
      const before = await idsOf(`${target}.partial`);
      expect(before).toHaveLength(150);

      now += 10 * 60_000; // 60 arrivals, 100 updates
      const window = expectedFeed(sandbox, { now, sortBy: 'updated_at', order: 'asc' }).map((r) => String(r.id));
      // The scenario does what it says: some recalls already written now come after the cursor again.
      const movedBehind = window.slice(window.indexOf(before.at(-1) as string) + 1).filter((id) => before.includes(id));
      expect(movedBehind.length).toBeGreaterThan(0);

      const done = await runMain(printedCommand(first.stderr), { env: { RECALL_FEED_API_KEY: ALL_KEY } });
      expect(done.stderr).toBe('');
      expect(done.code).toBe(0);
      const written = await idsOf(target);
      expect(duplicates(written)).toEqual([]);
      expect([...written].sort()).toEqual([...window].sort());
      expect(readdirSync(dir)).toEqual([`export.${format}`]);
    });
  }
});
