// Flag parsing of the archive commands and the shared record filter flags: checked before anything is opened or sent.
import { Command } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { parseInstant } from '../../src/runtime/options/option-parsers.js';
import { addFilterOptions } from '../../src/cli/commands/filter-flags.js';
import { parseFilterOptions } from '../../src/runtime/options/filter-options.js';
import { planQuery } from '../../src/cli/commands/query.js';
import { planShow } from '../../src/cli/commands/show.js';
import { planStats } from '../../src/cli/commands/stats.js';
import { planSync } from '../../src/cli/commands/sync.js';
import { UsageError } from '../../src/runtime/cli-errors.js';

const NOW = Date.parse('2026-01-15T12:00:00Z');
const usage = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error('no usage error');
};

describe('filter flags', () => {
  it('declares every flag once and parses lists and texts', () => {
    const cmd = addFilterOptions(new Command('x').exitOverride());
    cmd.parse(['--severity', 'Serious, high,', '--risk', 'fire', '--brand', ' Acme ', '--grep', 'li-ion'], {
      from: 'user',
    });
    expect(parseFilterOptions(cmd.opts())).toEqual({
      severity: ['Serious', 'high'],
      risk: ['fire'],
      brand: 'Acme',
      grep: 'li-ion',
    });
    expect(cmd.options.map((o) => o.long)).toEqual([
      '--severity',
      '--risk',
      '--status',
      '--jurisdiction',
      '--category',
      '--brand',
      '--country',
      '--grep',
    ]);
    expect(parseFilterOptions({})).toEqual({});
  });

  it('refuses empty values', () => {
    expect(usage(() => parseFilterOptions({ status: ' , ' }))).toBe('--status needs at least one value');
    expect(usage(() => parseFilterOptions({ country: '  ' }))).toBe('--country needs some text');
  });
});

describe('--since and --until', () => {
  it('take durations back from now and ISO dates or date-times (naive ones UTC), as µs', () => {
    expect(parseInstant('36h', '--since', NOW)).toBe((NOW - 36 * 3_600_000) * 1000);
    expect(parseInstant('7d', '--since', NOW)).toBe((NOW - 7 * 86_400_000) * 1000);
    expect(parseInstant('90m', '--since', NOW)).toBe((NOW - 90 * 60_000) * 1000);
    expect(parseInstant('2026-01-10', '--since', NOW)).toBe(Date.parse('2026-01-10T00:00:00Z') * 1000);
    expect(parseInstant('2026-01-10T08:30', '--until', NOW)).toBe(Date.parse('2026-01-10T08:30:00Z') * 1000);
    expect(parseInstant('2026-01-10T08:30:00+02:00', '--until', NOW)).toBe(Date.parse('2026-01-10T06:30:00Z') * 1000);
    expect(parseInstant(undefined, '--since', NOW)).toBeUndefined();
    expect(usage(() => parseInstant('last week', '--since', NOW))).toMatch(
      /^--since must be a duration such as 36h or 7d/,
    );
  });
});

describe('plans', () => {
  it('query: sort, order, limit, search, sources, filters', () => {
    const plan = planQuery(
      {
        sort: 'updated_at',
        order: 'asc',
        limit: '5',
        search: 'fire',
        sources: 'uk_opss',
        severity: 'high',
        formulaGuard: true,
      },
      NOW,
    );
    expect(plan.listing).toEqual({
      sinceUs: undefined,
      untilUs: undefined,
      sources: ['uk_opss'],
      search: 'fire',
      filter: { severity: ['high'] },
      sortBy: 'updated_at',
      order: 'asc',
      limit: 5,
    });
    expect(usage(() => planQuery({ sort: 'id', formulaGuard: true }, NOW))).toMatch(/^--sort must be one of/);
    expect(usage(() => planQuery({ limit: '0', formulaGuard: true }, NOW))).toMatch(/^--limit must be a whole number/);
    expect(usage(() => planQuery({ search: ' ', formulaGuard: true }, NOW))).toBe('--search needs at least one word');
    expect(usage(() => planQuery({ sources: 'US CPSC', formulaGuard: true }, NOW))).toMatch(/not a data source ID/);
  });

  it('sync: hours 1-24 (default 24), --interval only with --watch (default 600 s)', () => {
    expect(planSync({})).toEqual({
      db: { db: undefined, schema: undefined },
      sources: undefined,
      hours: 24,
      watch: undefined,
    });
    expect(planSync({ watch: true, hours: '6' })).toMatchObject({ hours: 6, watch: { intervalMs: 600_000 } });
    expect(planSync({ watch: true, interval: '1.5' }).watch?.intervalMs).toBe(1500);
    expect(usage(() => planSync({ hours: '0' }))).toMatch(/^--hours must be a whole number from 1 to 24/);
    expect(usage(() => planSync({ interval: '60' }))).toBe('--interval works with --watch');
    expect(usage(() => planSync({ watch: true, interval: '0' }))).toMatch(/^--interval must be a number of seconds/);
  });

  it('stats: --by fields, deduplicated; --live reads no archive', () => {
    expect(planStats({}, NOW).by).toEqual(['source', 'severity', 'day']);
    expect(planStats({ by: 'risk, day,risk' }, NOW).by).toEqual(['risk', 'day']);
    expect(usage(() => planStats({ by: 'colour' }, NOW))).toMatch(/^--by takes fields from source, .*, not 'colour'$/);
    expect(usage(() => planStats({ live: true, db: 'x.db' }, NOW))).toMatch(/^--live counts the live window/);
    expect(usage(() => planStats({ live: true, dbSchema: 'team' }, NOW))).toMatch(/so --db-schema does not apply$/);
  });

  it('show: a whole-number id', () => {
    expect(planShow('104835', { history: true })).toEqual({
      id: 104835,
      history: true,
      db: { db: undefined, schema: undefined },
    });
    expect(planShow('1', { db: 'postgres://h/d', dbSchema: 'team' }).db).toEqual({
      db: 'postgres://h/d',
      schema: 'team',
    });
    expect(usage(() => planShow('abc', {}))).toBe("a recall id is a whole number, not 'abc'");
    expect(usage(() => planShow('-1', {}))).toBe("a recall id is a whole number, not '-1'");
  });
});
