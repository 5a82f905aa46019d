// Case deadlines: --sla read and refused, and due times against dates worked out by hand (weekends, French holidays).
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/runtime/cli-errors.js';
import { dueAt, parseSla, prepareSla } from '../../src/jobs/matching/sla.js';
import { runMain } from '../helpers/in-process.js';

describe('--sla', () => {
  it('reads working days, hours and days, and refuses what is not a deadline', () => {
    expect(parseSla('2wd', undefined)).toEqual({ amount: 2, unit: 'wd', calendar: undefined, text: '2wd' });
    expect(parseSla('24H', undefined)?.text).toBe('24h');
    for (const bad of ['2', 'wd', '0wd', '2 weeks', '-1d', '1.5d'])
      expect(() => parseSla(bad, undefined)).toThrow(UsageError);
    expect(() => parseSla('3d', 'FR')).toThrow(/--calendar counts working days/);
    expect(() => parseSla(undefined, 'FR')).toThrow(/--calendar works with --sla/);
  });

  it('2wd skips the weekend; hours and days do not', () => {
    const wd = parseSla('2wd', undefined)!;
    // Thursday 10:00 -> Monday 10:00; Friday -> Tuesday; Saturday and Sunday -> Tuesday; Monday -> Wednesday.
    expect(dueAt(wd, '2026-01-15T10:00:00Z')).toBe('2026-01-19T10:00:00.000Z');
    expect(dueAt(wd, '2026-01-16T23:30:00Z')).toBe('2026-01-20T23:30:00.000Z');
    expect(dueAt(wd, '2026-01-17T08:00:00Z')).toBe('2026-01-20T08:00:00.000Z');
    expect(dueAt(wd, '2026-01-18T08:00:00Z')).toBe('2026-01-20T08:00:00.000Z');
    expect(dueAt(wd, '2026-01-19T08:00:00Z')).toBe('2026-01-21T08:00:00.000Z');
    // A time without an offset (as some sources send it) is UTC.
    expect(dueAt(wd, '2026-01-16T17:00:00')).toBe('2026-01-20T17:00:00.000Z');
    expect(dueAt(parseSla('24h', undefined)!, '2026-01-16T17:00:00Z')).toBe('2026-01-17T17:00:00.000Z');
    expect(dueAt(parseSla('3d', undefined)!, '2026-01-16T17:00:00Z')).toBe('2026-01-19T17:00:00.000Z');
    expect(dueAt(wd, 'not a date')).toBeUndefined();
    expect(dueAt(wd, null)).toBeUndefined();
  });

  it('--calendar FR: Christmas Day and New Year are not working days', async () => {
    const fr = parseSla('2wd', 'FR')!;
    await prepareSla(fr);
    // Thursday 24 Dec 2026: Friday 25 is Christmas, then the weekend: Monday 28 (1), Tuesday 29 (2).
    expect(dueAt(fr, '2026-12-24T10:00:00Z')).toBe('2026-12-29T10:00:00.000Z');
    expect(dueAt(parseSla('2wd', undefined)!, '2026-12-24T10:00:00Z')).toBe('2026-12-28T10:00:00.000Z');
    // Wednesday 30 Dec: Thursday 31 (1), Friday 1 Jan is New Year, Monday 4 Jan (2).
    expect(dueAt(fr, '2026-12-30T09:00:00Z')).toBe('2027-01-04T09:00:00.000Z');
    await expect(prepareSla(parseSla('2wd', 'QQ'))).rejects.toThrow(/no public holidays known/);
  });

  it('the case-sla setting: --sla comes first; a setting may name its calendar', async () => {
    const { caseSla } = await import('../../src/jobs/matching/sla.js');
    const { validateConfigValue } = await import('../../src/runtime/config/config-keys.js');
    expect(validateConfigValue('case-sla', ' 2WD:fr ')).toBe('2wd:FR');
    expect(() => validateConfigValue('case-sla', '24h:FR')).toThrow();
    expect(() => validateConfigValue('case-sla', '0wd')).toThrow();
    expect((await caseSla(undefined, '2wd:FR'))?.text).toBe('2wd:FR');
    expect((await caseSla(parseSla('24h', undefined), '2wd:FR'))?.text).toBe('24h');
    expect(await caseSla(undefined, undefined)).toBeUndefined();
  });

  it('match refuses a bad --sla, --calendar or --level before reading anything', async () => {
    for (const [args, message] of [
      [['--sla', '2 weeks'], /--sla 2 weeks: not a deadline/],
      [['--level', 'maybe'], /--level/],
      [['--sla', '3d', '--calendar', 'FR'], /--calendar counts working days/],
    ] as const) {
      const r = await runMain(['match', '--catalog', 'no-such.csv', '--archive', '--open-cases', ...args]);
      expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(message)]);
    }
    const without = await runMain(['match', '--catalog', 'no-such.csv', '--archive', '--sla', '2wd']);
    expect([without.code, without.stderr]).toEqual([2, 'error: --sla works with --open-cases\n']);
  });
});
