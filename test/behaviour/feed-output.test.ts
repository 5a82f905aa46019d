// `feed` end to end: every record once and in order, request counts, formats, columns, custom feeds, tables.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECALL_FIELDS } from '../../src/api/schemas.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, lines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { expectedFeed } from '../helpers/expected.js';
import { parseCsvWithPython } from '../helpers/python-csv.js';

let sandbox: Sandbox;
beforeAll(async () => {
  // A frozen clock: no record crosses the 24-hour edge while the tests run.
  sandbox = await sandboxFor({ seed: 7, clock: () => FIXED_START });
});
afterAll(() => sandbox.close());

const ids = (text: string) => jsonLines(text).map((r) => r.id);

describe('feed in a pipe', () => {
  it('writes every record in the window once, in the server order, as JSON lines', async () => {
    sandbox.clearRequests();
    const r = await runMainAgainst(sandbox, ['feed']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const expected = expectedFeed(sandbox, { now: FIXED_START });
    expect(expected.length).toBeGreaterThan(1000);
    expect(ids(r.stdout)).toEqual(expected.map((x) => x.id));
    // Exactly as the API sent it: byte-equal to the sandbox's records re-serialised.
    expect(lines(r.stdout)[0]).toBe(JSON.stringify(expected[0]));
    // Default page size 500: the fewest requests, each with the same parameters plus the cursor.
    const reqs = sandbox.requests();
    expect(reqs).toHaveLength(Math.ceil(expected.length / 500));
    expect(reqs[0]!.query).toEqual({ limit: '500' });
    expect(reqs.slice(1).every((q) => q.query.limit === '500' && typeof q.query.cursor === 'string')).toBe(true);
  });

  it('pages with small pages and other sort orders without losing or repeating a record', async () => {
    const r = await runMainAgainst(sandbox, [
      'feed',
      '--page-size',
      '7',
      '--sort',
      'updated_at',
      '--order',
      'asc',
      '--hours',
      '12',
    ]);
    expect(r.code).toBe(0);
    const expected = expectedFeed(sandbox, { now: FIXED_START, hours: 12, sortBy: 'updated_at', order: 'asc' });
    expect(ids(r.stdout)).toEqual(expected.map((x) => x.id));
  });

  it('filters by source', async () => {
    const r = await runMainAgainst(sandbox, ['feed', '--sources', 'rappel_conso,rappel_conso_food']);
    const expected = expectedFeed(sandbox, { now: FIXED_START, sources: ['rappel_conso', 'rappel_conso_food'] });
    expect(ids(r.stdout)).toEqual(expected.map((x) => x.id));
  });

  it('--max sends no request beyond what it needs', async () => {
    sandbox.clearRequests();
    const r = await runMainAgainst(sandbox, ['feed', '--max', '10']);
    expect(ids(r.stdout)).toHaveLength(10);
    expect(sandbox.requests().map((q) => q.query)).toEqual([{ limit: '10' }]);
    sandbox.clearRequests();
    const r2 = await runMainAgainst(sandbox, ['feed', '--max', '520', '--page-size', '500']);
    expect(ids(r2.stdout)).toEqual(
      expectedFeed(sandbox, { now: FIXED_START })
        .slice(0, 520)
        .map((x) => x.id),
    );
    expect(sandbox.requests()).toHaveLength(2);
  });

  it('--no-paginate fetches one page and prints the next cursor on stderr; --cursor continues there', async () => {
    sandbox.clearRequests();
    const first = await runMainAgainst(sandbox, ['feed', '--page-size', '50', '--no-paginate']);
    expect(first.code).toBe(0);
    expect(ids(first.stdout)).toHaveLength(50);
    expect(sandbox.requests()).toHaveLength(1);
    const cursor = /^next cursor: (\S+)$/m.exec(first.stderr)?.[1];
    expect(cursor).toBeTruthy();
    const rest = await runMainAgainst(sandbox, ['feed', '--page-size', '50', '--cursor', cursor!]);
    expect([...ids(first.stdout), ...ids(rest.stdout)]).toEqual(
      expectedFeed(sandbox, { now: FIXED_START }).map((x) => x.id),
    );
  });

  it('an empty window is success with no output', async () => {
    const empty = await sandboxFor({ recordCount: 0, clock: () => FIXED_START });
    try {
      const none = await runMainAgainst(empty, ['feed']);
      expect(none.code).toBe(0);
      expect(none.stdout).toBe('');
      const json = await runMainAgainst(empty, ['feed', '-f', 'json']);
      expect(json.stdout).toBe('[]\n');
    } finally {
      await empty.close();
    }
  });
});

describe('formats', () => {
  // The golden files stay beside the end-to-end tests that first wrote them.
  const GOLDEN = fileURLToPath(new URL('../e2e/golden', import.meta.url));
  const golden = (name: string, actual: string) => {
    const file = path.join(GOLDEN, name);
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, actual);
    expect(actual).toBe(readFileSync(file, 'utf8'));
  };

  it.each(['jsonl', 'json', 'csv'])('%s is byte for byte the golden output on a fixed seed', async (format) => {
    const r = await runMainAgainst(sandbox, ['feed', '-f', format, '--max', '40', '--sort', 'created_in_db_at']);
    expect(r.code).toBe(0);
    golden(`feed-40.${format}`, r.stdout);
  });

  it('json is one valid array of every record', async () => {
    const r = await runMainAgainst(sandbox, ['feed', '-f', 'json']);
    const parsed = JSON.parse(r.stdout) as { id: number }[];
    expect(parsed.map((x) => x.id)).toEqual(expectedFeed(sandbox, { now: FIXED_START }).map((x) => x.id));
  });

  it('csv parses back with an independent reader, every field intact', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'all.csv');
    const r = await runMainAgainst(sandbox, ['feed', '-o', file, '--bom']);
    expect(r.code).toBe(0);
    expect(readFileSync(file).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows = await parseCsvWithPython(file);
    const [header, ...body] = rows;
    expect(header).toEqual([...RECALL_FIELDS]);
    const expected = expectedFeed(sandbox, { now: FIXED_START });
    expect(body).toHaveLength(expected.length);
    const guard = (s: string) => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);
    const cell = (v: unknown): string => {
      if (v === null || v === undefined) return '';
      if (typeof v === 'string') return guard(v);
      if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return guard(v.join('; '));
      if (typeof v === 'object') return guard(JSON.stringify(v));
      return String(v);
    };
    let multiline = 0;
    let nonLatin = 0;
    let guarded = 0;
    expected.forEach((rec, i) => {
      const row = body[i]!;
      RECALL_FIELDS.forEach((field, j) => {
        expect(row[j], `${rec.id}.${field}`).toBe(cell((rec as Record<string, unknown>)[field]));
      });
      const text = JSON.stringify(rec);
      if (/\\n/.test(text)) multiline++;
      if (/[\u0400-\u04ff\u0600-\u06ff\u3040-\u30ff\u4e00-\u9fff]/.test(text)) nonLatin++;
      if (row.some((c) => c.startsWith("'"))) guarded++;
    });
    // The data really had the awkward cases the reader had to survive.
    expect(multiline).toBeGreaterThan(0);
    expect(nonLatin).toBeGreaterThan(0);
    expect(guarded).toBeGreaterThan(0);
  });

  it('--no-formula-guard leaves cells as they are', async () => {
    const guarded = await runMainAgainst(sandbox, ['feed', '-f', 'csv', '--columns', 'product_brand']);
    const raw = await runMainAgainst(sandbox, [
      'feed',
      '-f',
      'csv',
      '--columns',
      'product_brand',
      '--no-formula-guard',
    ]);
    const starts = (s: string) => lines(s).filter((l) => /^"?'?[=+\-@]/.test(l));
    expect(starts(guarded.stdout).every((l) => /^"?'/.test(l))).toBe(true);
    expect(starts(raw.stdout).some((l) => /^"?[=+\-@]/.test(l))).toBe(true);
  });

  it('--columns picks csv columns in the given order', async () => {
    const r = await runMainAgainst(sandbox, [
      'feed',
      '-f',
      'csv',
      '--max',
      '2',
      '--columns',
      'id,risk_types,data_source',
    ]);
    const [header, first] = lines(r.stdout);
    expect(header).toBe('id,risk_types,data_source');
    const rec = expectedFeed(sandbox, { now: FIXED_START })[0]!;
    expect(first).toBe(`${rec.id},${rec.risk_types.join('; ')},${rec.data_source}`);
  });

  it('--columns with jsonl: whole records as without it, and one warning (also with --quiet)', async () => {
    const plain = await runMainAgainst(sandbox, ['feed', '--max', '3']);
    const r = await runMainAgainst(sandbox, ['feed', '--max', '3', '--columns', 'id', '-q']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(plain.stdout);
    expect(r.stderr).toBe('warning: --columns applies to table, csv and parquet only; jsonl prints whole records\n');
  });

  it('a custom feed: a --columns name no record has is warned about once, its column left empty', async () => {
    // Three pages of two: the warning comes with the first, not once per page.
    const r = await runMainAgainst(sandbox, [
      'feed',
      '--custom',
      'demo',
      '--max',
      '6',
      '--page-size',
      '2',
      '-f',
      'csv',
      '--columns',
      'id,skus',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("warning: no record has the column 'skus' (left empty); did you mean sku (for 'skus')?\n");
    const rows = lines(r.stdout);
    expect(rows[0]).toBe('id,skus');
    expect(rows).toHaveLength(7);
    expect(rows.slice(1).every((row) => /^\d+,$/.test(row))).toBe(true);
  });

  it('a custom feed passes unknown shapes through json lines and takes csv columns from its records', async () => {
    const jsonl = await runMainAgainst(sandbox, ['feed', '--custom', 'demo', '--max', '5']);
    expect(jsonl.code).toBe(0);
    const recs = jsonLines(jsonl.stdout);
    expect(recs).toHaveLength(5);
    expect(Object.keys(recs[0]!)).toContain('sku');
    const csv = await runMainAgainst(sandbox, ['feed', '--custom', 'demo', '--max', '5', '-f', 'csv']);
    expect(lines(csv.stdout)[0]).toBe(Object.keys(recs[0]!).join(','));
  });
});

describe('table', () => {
  it('on a terminal: a compact table that fits the width, and a summary on stderr', async () => {
    const r = await runMainAgainst(sandbox, ['feed', '--hours', '3'], {
      env: { RECALL_FEED_FORCE_TTY: '1', COLUMNS: '100' },
    });
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    expect(out[0]).toMatch(
      /^id\s+published_at \(UTC\)\s+risk_severity\s+product_brand\s+product_name\s+alert_title\s*$/,
    );
    const expected = expectedFeed(sandbox, { now: FIXED_START, hours: 3 });
    expect(out.length).toBe(expected.length + 2);
    for (const line of out) expect([...line].length).toBeLessThanOrEqual(100);
    expect(r.stderr).toMatch(
      new RegExp(
        `^${expected.length} of ${expected.length} recalls · from [a-z_, ]+ · published in the last 3 h · monthly quota left: [\\d,]+ of 10,000,000\\n$`,
      ),
    );
  });

  it('on a 40-column terminal: the id and the title, whole headers, the other columns left out', async () => {
    const r = await runMainAgainst(sandbox, ['feed', '--max', '3'], {
      env: { RECALL_FEED_FORCE_TTY: '1', COLUMNS: '40' },
    });
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    expect(out[0]).toMatch(/^id\s+alert_title$/);
    const expected = expectedFeed(sandbox, { now: FIXED_START }).slice(0, 3);
    expect(out.slice(2).map((l) => l.split(/\s+/)[0])).toEqual(expected.map((x) => String(x.id)));
    for (const line of out) expect([...line].length).toBeLessThanOrEqual(40);
  });

  it.each([20])(
    'on a %i-column terminal: one block of `field: value` lines per record, nothing wider',
    async (width) => {
      const r = await runMainAgainst(sandbox, ['feed', '--max', '3'], {
        env: { RECALL_FEED_FORCE_TTY: '1', COLUMNS: String(width) },
      });
      expect(r.code).toBe(0);
      const expected = expectedFeed(sandbox, { now: FIXED_START }).slice(0, 3);
      const blocks = r.stdout.replace(/\n$/, '').split('\n\n');
      expect(blocks).toHaveLength(3);
      blocks.forEach((block, i) => {
        const labels = block
          .split('\n')
          .filter((l) => !l.startsWith(' '))
          .map((l) => l.replace(/:.*$/, ''));
        expect(labels).toEqual([
          'id',
          'published_at (UTC)',
          'data_source',
          'risk_severity',
          'product_brand',
          'product_name',
          'alert_title',
        ]);
        // A value too long for its label's line starts on the next one.
        expect(block.replace(/:\n /g, ': ')).toContain(`data_source: ${expected[i]!.data_source as string}\n`);
      });
      for (const line of lines(r.stdout)) expect([...line].length).toBeLessThanOrEqual(width);
    },
  );

  it('-f table in a pipe still prints a table; NO_COLOR and --no-color keep it free of escape codes', async () => {
    const r = await runMainAgainst(sandbox, ['feed', '-f', 'table', '--max', '5'], { env: { FORCE_COLOR: '1' } });
    expect(r.stdout).toMatch(/\x1b\[/);
    const plain = await runMainAgainst(sandbox, ['feed', '-f', 'table', '--max', '5', '--no-color'], {
      env: { FORCE_COLOR: '1' },
    });
    expect(plain.stdout).not.toMatch(/\x1b\[/);
    const noColor = await runMainAgainst(sandbox, ['feed', '-f', 'table', '--max', '5'], {
      env: { NO_COLOR: '1', RECALL_FEED_FORCE_TTY: '1' },
    });
    expect(noColor.stdout).not.toMatch(/\x1b\[/);
    expect(lines(plain.stdout)).toHaveLength(7);
  });
});
