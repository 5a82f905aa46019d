// --sandbox-now reads a time with its zone as --since reads one (+02:00 or +0200), and names a day its month lacks.
import { describe, expect, it } from 'vitest';
import { parseInstant } from '../../src/runtime/options/option-parsers.js';
import { parseSandboxNow } from '../../src/runtime/settings-parsers.js';
import { runMain } from '../helpers/in-process.js';

describe('--sandbox-now', () => {
  it('takes an offset without its colon, as --since does', () => {
    // 12:00 at +13:45 (Chatham) is 22:15 UTC the day before; 14:00 at +02:00 is 12:00 UTC.
    expect(parseSandboxNow('2026-06-01T12:00:00+1345', '--sandbox-now')).toBe(Date.UTC(2026, 4, 31, 22, 15));
    expect(parseSandboxNow('2026-06-01T14:00:00+0200', '--sandbox-now')).toBe(Date.UTC(2026, 5, 1, 12));
    expect(parseSandboxNow('2026-06-01T07:00-0500', '--sandbox-now')).toBe(Date.UTC(2026, 5, 1, 12));
    expect(parseInstant('2026-06-01T12:00:00+1345', '--since', 0)).toBe(Date.UTC(2026, 4, 31, 22, 15) * 1000);
  });

  it('says "no such day" for a day the month does not have, with the month’s days', () => {
    expect(() => parseSandboxNow('2026-02-29T00:00:00Z', '--sandbox-now')).toThrow(
      expect.objectContaining({
        message: '--sandbox-now 2026-02-29T00:00:00Z: no such day',
        hint: '2026-02 has 28 days',
      }),
    );
    expect(() => parseSandboxNow('2026-04-31T08:00+0200', 'RECALL_FEED_SANDBOX_NOW')).toThrow(
      'RECALL_FEED_SANDBOX_NOW 2026-04-31T08:00+0200: no such day',
    );
    expect(parseSandboxNow('2028-02-29T00:00:00Z', '--sandbox-now')).toBe(Date.UTC(2028, 1, 29));
  });

  it('still wants a time and its zone', () => {
    for (const bad of ['2026-06-01', '2026-06-01T12:00:00', '2026-02-29T12:00', '2026-13-01T00:00:00Z', 'soon'])
      expect(() => parseSandboxNow(bad, '--sandbox-now'), bad).toThrow(
        `--sandbox-now must be an ISO 8601 time with its zone, e.g. 2026-06-01T12:00:00Z, not '${bad}'`,
      );
  });

  it('on the command line: one error line and its hint, exit 2, nothing on stdout', async () => {
    const r = await runMain(['feed', '--sandbox', '--sandbox-now', '2026-02-29T00:00:00Z', '-f', 'jsonl']);
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      'error: --sandbox-now 2026-02-29T00:00:00Z: no such day\nhint: 2026-02 has 28 days\n',
    ]);
  });
});
