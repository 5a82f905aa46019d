// Numbers JSON.parse cannot keep as the API sent them: said once a run on stderr (the records carry the nearest
// double), and a custom feed's ids past 2^53 refused, as the standard feed's are, since two of them may read as one.
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/in-process.js';
import { ALL_KEY } from '../helpers/sandbox.js';
import { feedBody, scriptedServer } from '../helpers/scripted-server.js';

const record = (id: number) => ({
  id,
  data_source: 'us_cpsc',
  published_at: '2025-12-11T00:00:00',
  alert_title: `Kettle ${id}`,
  parent_recall_id: 'BIG',
});
/** A page's text with `BIG` put back as a bare number: JSON.stringify could never write one a double cannot hold. */
const page = (ids: number[], big: string, more: { hasMore?: boolean; next?: string } = {}) =>
  JSON.stringify(feedBody(ids.map(record), more)).replaceAll('"BIG"', big);

const run = (url: string, args: string[]) =>
  runMain(['--base-url', url, ...args], { env: { RECALL_FEED_API_KEY: ALL_KEY } });

describe('numbers beyond a double', () => {
  it('an extra field past 2^53: written as the nearest double, and said once for the whole run', async () => {
    const srv = await scriptedServer([
      { body: page([1, 2], '9007199254740993', { hasMore: true, next: 'c2' }) },
      { body: page([3], '9007199254740995') },
    ]);
    const r = await run(srv.url, ['feed', '-f', 'jsonl']);
    expect(r.code).toBe(0);
    const rows = r.stdout.trim().split('\n');
    expect(rows).toHaveLength(3);
    // 2^53 + 1 has no double: 2^53; 2^53 + 3 rounds to even, 2^53 + 4.
    expect(rows[0]).toContain('"parent_recall_id":9007199254740992');
    expect(rows[2]).toContain('"parent_recall_id":9007199254740996');
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning:'));
    expect(warnings).toEqual([
      'warning: the API sent numbers no double holds exactly; each is kept and written as the nearest one (9007199254740993 as 9007199254740992)',
    ]);
  });

  it('a number a double holds says nothing', async () => {
    const srv = await scriptedServer([{ body: page([1], '9007199254740992') }]);
    const r = await run(srv.url, ['feed', '-f', 'jsonl']);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('warning:');
  });

  it("a custom feed's two ids past 2^53 that read as one: refused (exit 7), not one record silently dropped", async () => {
    const body = JSON.stringify(
      feedBody([
        { id: 'A', sku: 'a' },
        { id: 'B', sku: 'b' },
      ]),
    )
      .replace('"A"', '1234567890123456789')
      .replace('"B"', '1234567890123456788');
    const srv = await scriptedServer([{ body }]);
    const r = await run(srv.url, ['feed', '--custom', 'shein', '-f', 'jsonl']);
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: .*data\.0\.id: a numeric id that is no whole number up to 2\^53 - 1/m);
    expect(srv.requests.map((q) => new URL(q.url, srv.url).pathname)).toEqual(['/v1/recalls/feed/shein']);
  });

  it("a custom feed's two fractional ids that read as one double: refused too", async () => {
    // 1234567890123456.7 and .8 are both the double 1234567890123456.75.
    const body = JSON.stringify(feedBody([{ id: 'A' }, { id: 'B' }]))
      .replace('"A"', '1234567890123456.7')
      .replace('"B"', '1234567890123456.8');
    const srv = await scriptedServer([{ body }]);
    const r = await run(srv.url, ['feed', '--custom', 'shein', '-f', 'jsonl']);
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
  });
});
