// The feed plan: flags checked and crossed, then merged with the settings (flag > profile > default) in one place.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/runtime/cli-errors.js';
import type { FeedOptions } from '../../src/cli/commands/feed-options.js';
import { planFeed } from '../../src/cli/commands/feed-plan.js';
import { resolveSettings, type GlobalFlags, type ProfileValues } from '../../src/runtime/settings.js';
import type { Terminal } from '../../src/runtime/terminal/terminal.js';

// Only the fields planning reads; other helpers may add more to Terminal.
const pipe = { stdoutIsTTY: false, stderrIsTTY: false, columns: 120, color: 0 } as Terminal;
const terminal: Terminal = { ...pipe, stdoutIsTTY: true, stderrIsTTY: true };

function plan(flags: Partial<FeedOptions> = {}, globals: GlobalFlags = {}, profile: ProfileValues = {}, term = pipe) {
  return planFeed(
    { paginate: true, formulaGuard: true, ...flags },
    resolveSettings(globals, {}, profile),
    term,
    process.env,
  );
}

function usage(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error('expected a UsageError');
}

describe('planFeed', () => {
  it('refuses --append of one format to a file whose name says another (jsonl into a .parquet or .csv broke them)', () => {
    expect(usage(() => plan({ append: true }, { output: 'p.parquet', format: 'jsonl' }))).toBe(
      '--append: p.parquet is a parquet file, and -f jsonl would add jsonl to it',
    );
    expect(usage(() => plan({ append: true }, { output: 'new.csv', format: 'jsonl' }))).toBe(
      '--append: new.csv is a csv file, and -f jsonl would add jsonl to it',
    );
    expect(plan({ append: true }, { output: 'new.csv', format: 'csv' }).append).toBe(true);
    expect(plan({ append: true }, { output: 'new.log', format: 'jsonl' }).append).toBe(true);
  });

  it('refuses --lock-wait without a file to wait for, and --bom with a format that has no byte-order mark', () => {
    expect(usage(() => plan({ lockWait: '30' }))).toBe('--lock-wait works with -o or --state');
    expect(plan({ lockWait: '30', state: 'seen.json' }).lockWaitMs).toBe(30_000);
    expect(plan({ lockWait: '5' }, { output: 'r.csv' }).lockWaitMs).toBe(5_000);
    expect(usage(() => plan({ bom: true }, { format: 'jsonl' }))).toBe('--bom works with -f csv, not jsonl');
    expect(usage(() => plan({ bom: true }, { output: 'r.parquet' }))).toBe('--bom works with -f csv, not parquet');
    expect(plan({ bom: true }, { output: 'r.csv' }).bom).toBe(true);
  });

  it('takes the page size and sources from the flag, else the profile, else the defaults', () => {
    const profile = { 'page-size': 40, sources: 'uk_opss, us_cpsc' };
    expect(plan({ pageSize: '7', sources: 'safety_gate' }, {}, profile).params).toMatchObject({
      limit: 7,
      dataSources: ['safety_gate'],
    });
    expect(plan({}, {}, profile).params).toMatchObject({ limit: 40, dataSources: ['uk_opss', 'us_cpsc'] });
    expect(plan().params).toEqual({
      dataSources: undefined,
      hoursAgo: undefined,
      sortBy: undefined,
      sortOrder: undefined,
      limit: 500,
    });
  });

  it("names the profile when the profile's value is bad", () => {
    expect(usage(() => plan({}, {}, { 'page-size': 900 }))).toBe(
      "the profile's page-size must be a whole number from 1 to 500, not '900'",
    );
    expect(usage(() => plan({}, {}, { sources: 'US CPSC' }))).toMatch(
      /^the profile's sources: 'US CPSC' is not a data source ID/,
    );
  });

  it('decides the format once: flag, -o extension, profile, terminal', () => {
    expect(plan({}, {}, {}, terminal).format).toBe('table');
    expect(plan().format).toBe('jsonl');
    expect(plan({}, { output: 'x.csv' }, { format: 'json' }).format).toBe('csv');
    expect(plan({}, {}, { format: 'csv' }, terminal).format).toBe('csv');
  });

  it('asks for no larger page than --max needs, except with --state where seen records do not count', () => {
    expect(plan({ max: '10' }).params.limit).toBe(10);
    expect(plan({ max: '10', state: 's.json' }).params.limit).toBe(500);
    expect(plan({ max: '10', state: 's.json' }).max).toBe(10);
  });

  it('--watch polls the last hour every minute, the whole window hourly, unless told otherwise; writes to stdout only', () => {
    expect(plan({ watch: true })).toMatchObject({
      watch: { intervalMs: 60_000, skipExisting: false, sweepMs: 3_600_000 },
      params: { hoursAgo: 1 },
    });
    // The user's --hours is every poll's window: no sweep.
    expect(plan({ watch: true, hours: '6', interval: '2.5', skipExisting: true })).toMatchObject({
      watch: { intervalMs: 2500, skipExisting: true, sweepMs: undefined },
      params: { hoursAgo: 6 },
    });
    expect(usage(() => plan({ watch: true }, { output: 'x.csv' }))).toBe('--watch writes to stdout');
  });

  it.each([
    [{ append: true }, { output: 'x.json' }, '--append cannot add to a json file'],
    [{ append: true }, { output: 'x.txt', format: 'json' }, '--append cannot add to a json file'],
    [{ append: true }, {}, '--append works with -o <file>'],
    [
      { resume: true, cursor: 'c' },
      { output: 'x.csv' },
      '--resume and --cursor cannot be combined: the partial file knows its cursor',
    ],
    [{ state: 's.json', cursor: 'c' }, {}, '--state cannot be combined with --cursor'],
    [{ state: 's.json', paginate: false }, {}, '--state cannot be combined with --no-paginate'],
    [{ state: 's.json', resume: true }, { output: 'x.csv' }, '--state cannot be combined with --resume'],
    [{ state: '' }, {}, '--state needs a file name'],
    [{ watch: true, max: '3' }, {}, '--watch cannot be combined with --max'],
    [{ watch: true, paginate: false }, {}, '--watch cannot be combined with --no-paginate'],
    [{ skipExisting: true }, {}, '--skip-existing works with --watch'],
  ] as [Partial<FeedOptions>, GlobalFlags, string][])('refuses %j with %j', (flags, globals, message) => {
    expect(usage(() => plan(flags, globals))).toBe(message);
  });

  it('--state with --watch may keep its state across restarts', () => {
    expect(plan({ watch: true, state: 's.json' })).toMatchObject({ state: 's.json', watch: { intervalMs: 60_000 } });
  });
});
