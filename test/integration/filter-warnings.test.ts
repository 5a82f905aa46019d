// A filter value that matches nothing is said on stderr, naming the values seen, in feed, feed --state, feed --watch, query, match and digest; the exit code stays.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { fold } from '../../src/filters/normalize.js';
import { testArchive } from '../helpers/archive-engines.js';
import { expectedFeed } from '../helpers/expected.js';
import { ENGINES } from '../helpers/postgres.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const at = () => fakeClock(FIXED_START);

async function fixedSandbox() {
  return sandboxFor({ recordCount: 80, seed: 12, clock: () => FIXED_START });
}

/** The warning lines of a run's stderr. */
function warnings(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l.startsWith('warning: '));
}

/** The values a warning names after "values seen: ", as a set. */
function named(line: string): string[] {
  const list = line.split('; values seen: ')[1] ?? '';
  return list
    .split(', ')
    .filter((v) => v !== '')
    .sort();
}

describe('filter values that match nothing', () => {
  it('feed --severity seroius: exit 0, nothing written, a warning naming every severity seen', async () => {
    const sandbox = await fixedSandbox();
    const window = expectedFeed(sandbox, { now: FIXED_START });
    const severities = [...new Set(window.map((r) => r.risk_severity).filter((s): s is string => !!s))];
    const r = await runMainAgainst(sandbox, ['feed', '-f', 'jsonl', '--severity', 'seroius'], { clock: at() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const [line, ...rest] = warnings(r.stderr);
    expect(rest).toEqual([]);
    expect(line).toMatch(
      new RegExp(`^warning: --severity seroius matched no recall of the ${window.length} looked at; `),
    );
    // Values that differ only by case or accents count as one; the message names one spelling of each.
    expect(named(line!).map(fold).sort()).toEqual([...new Set(severities.map(fold))].sort());
  });

  it('a typo beside a real value: the real one is written, only the typo is named; a valid filter says nothing', async () => {
    const sandbox = await fixedSandbox();
    const window = expectedFeed(sandbox, { now: FIXED_START });
    const serious = window.filter((r) => fold(String(r.risk_severity)) === 'serious');
    expect(serious.length).toBeGreaterThan(0);
    const r = await runMainAgainst(sandbox, ['feed', '-f', 'jsonl', '--severity', 'serious,seroius'], { clock: at() });
    expect(r.code).toBe(0);
    expect(jsonLines(r.stdout)).toHaveLength(serious.length);
    expect(warnings(r.stderr)).toHaveLength(1);
    expect(warnings(r.stderr)[0]).toMatch(/^warning: --severity seroius matched no recall/);
    const ok = await runMainAgainst(sandbox, ['feed', '-f', 'jsonl', '--severity', 'serious'], { clock: at() });
    expect(warnings(ok.stderr)).toEqual([]);
  });

  it('a text filter that finds nothing is named too', async () => {
    const sandbox = await fixedSandbox();
    const r = await runMainAgainst(sandbox, ['feed', '-f', 'jsonl', '--brand', 'zzqqxx'], { clock: at() });
    expect(r.code).toBe(0);
    expect(warnings(r.stderr)).toEqual([
      `warning: --brand zzqqxx matched no recall of the ${expectedFeed(sandbox, { now: FIXED_START }).length} looked at`,
    ]);
    // match on the live window too.
    const catalogue = path.join(tempDir('rf-fw-cat-'), 'catalogue.csv');
    writeFileSync(catalogue, 'sku,brand,name\n1,Acme,Widget\n');
    const match = await runMainAgainst(sandbox, ['match', '--catalog', catalogue, '-f', 'jsonl', '--brand', 'zzqqxx'], {
      clock: at(),
    });
    expect(match.code).toBe(0);
    expect(
      warnings(match.stderr).filter((l) => l.startsWith('warning: --brand zzqqxx matched no recall')),
    ).toHaveLength(1);
  });

  it('feed --state (cron) warns; feed --watch warns once, not at every poll', async () => {
    const sandbox = await fixedSandbox();
    const state = path.join(tempDir('rf-fw-'), 'seen.json');
    const once = await runMainAgainst(sandbox, ['feed', '--state', state, '-f', 'jsonl', '--status', 'actve'], {
      clock: at(),
    });
    expect(once.code).toBe(0);
    expect(warnings(once.stderr)).toHaveLength(1);
    expect(warnings(once.stderr)[0]).toMatch(/^warning: --status actve matched no recall .*; values seen: .*active/);

    const stop = new AbortController();
    let sleeps = 0;
    const clock = fakeClock(FIXED_START, () => {
      if (++sleeps === 4) stop.abort(new InterruptedError('SIGINT'));
    });
    const watch = await runMainAgainst(sandbox, ['feed', '--watch', '--interval', '1', '--status', 'actve'], {
      clock,
      signal: stop.signal,
    });
    expect(watch.code).toBe(130);
    expect(sandbox.requests().filter((q) => q.path === '/v1/recalls/feed').length).toBeGreaterThanOrEqual(5);
    expect(warnings(watch.stderr)).toHaveLength(1);
  });
});

describe.each(ENGINES)('on $engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }

  it('query, match --archive and digest warn from the archive, naming the values it holds', async () => {
    const sandbox = await fixedSandbox();
    const { db } = await testArchive(engine);
    expect((await runMainAgainst(sandbox, ['sync', '--db', db], { clock: at() })).code).toBe(0);
    const statuses = [...new Set(sandbox.records().map((r) => fold(String(r.alert_status))))].sort();

    const query = await runMainAgainst(sandbox, ['query', '--db', db, '-f', 'jsonl', '--status', 'actve'], {
      clock: at(),
    });
    expect([query.code, query.stdout]).toEqual([0, '']);
    expect(warnings(query.stderr)).toHaveLength(1);
    expect(warnings(query.stderr)[0]).toMatch(/^warning: --status actve matched no recall of the \d+ in the archive; /);
    expect(named(warnings(query.stderr)[0]!).map(fold).sort()).toEqual(statuses);

    // A mistyped source is named too, and does not silence the other filters' warnings.
    const sources = [...new Set(sandbox.records().map((r) => String(r.data_source)))].sort();
    const typo = await runMainAgainst(
      sandbox,
      ['query', '--db', db, '-f', 'jsonl', '--sources', `us_cspc,${sources[0]}`, '--status', 'actve'],
      { clock: at() },
    );
    expect([typo.code, typo.stdout]).toEqual([0, '']);
    const [source, status] = warnings(typo.stderr);
    expect(source).toMatch(/^warning: --sources us_cspc matched no recall of the \d+ in the archive; sources seen: /);
    expect(source!.split('; sources seen: ')[1]!.split(', ').sort()).toEqual(sources);
    expect(status).toMatch(/^warning: --status actve matched no recall of the \d+ in the archive; /);
    expect(warnings(typo.stderr)).toHaveLength(2);

    const catalogue = path.join(tempDir('rf-fa-cat-'), 'catalogue.csv');
    writeFileSync(catalogue, 'sku,brand,name\n1,Acme,Widget\n');
    const match = await runMainAgainst(
      sandbox,
      ['match', '--catalog', catalogue, '--archive', '--db', db, '-f', 'jsonl', '--brand', 'zzqqxx'],
      { clock: at() },
    );
    expect(match.code).toBe(0);
    expect(warnings(match.stderr).filter((l) => l.includes('--brand zzqqxx matched no recall'))).toHaveLength(1);

    const digest = await runMainAgainst(sandbox, ['digest', '--db', db, '--severity', 'seroius'], { clock: at() });
    expect(digest.code).toBe(0);
    expect(
      warnings(digest.stderr).filter((l) => l.startsWith('warning: --severity seroius matched no recall')),
    ).toHaveLength(1);
  });
});
