// Parsers of the sandbox command's flags, and the fault plan's decisions.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidParamsError } from '../../src/api/api-errors.js';
import { loadKeysFile, parseFaultSpec, parseRateLimitFlag, parseRateLimitSpec } from '../../src/sandbox/cli-options.js';
import { FaultPlan } from '../../src/sandbox/faults.js';
import { DEFAULT_RATE_LIMITS } from '../../src/sandbox/limiter.js';
import { runMain } from '../helpers/in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('parseFaultSpec', () => {
  it('reads the full example', () => {
    expect(
      parseFaultSpec(
        '500=0.2,503=0.1,502=0.05,cut=0.05,truncate=0.05,slow=0.1,stall=0.01,429=0.02,seed=7,slow-ms=800,fail-after=5',
      ),
    ).toEqual({
      error500: 0.2,
      error503: 0.1,
      html502: 0.05,
      cut: 0.05,
      truncate: 0.05,
      slow: 0.1,
      stall: 0.01,
      burst429: 0.02,
      seed: 7,
      slowMs: 800,
      failAfterPages: 5,
    });
  });

  it('reads durations, burst length, fail mode and the long names', () => {
    expect(parseFaultSpec('stall=1, stall-ms=2s, burst-length=4, fail-mode=cut, error500=0')).toEqual({
      stall: 1,
      stallMs: 2000,
      burstLength: 4,
      failMode: 'cut',
      error500: 0,
    });
    expect(parseFaultSpec('')).toEqual({});
    expect(parseFaultSpec('none')).toEqual({});
  });

  it.each([
    ['500=2', /--faults: 500 must be a share from 0 to 1, got "2"/],
    ['500=-0.1', /share from 0 to 1/],
    ['boom=0.1', /--faults: unknown fault "boom"/],
    ['500', /"500" is not name=value/],
    ['fail-after=x', /fail-after must be a whole number >= 0/],
    ['fail-mode=404', /fail-mode must be 503, 500 or cut/],
    ['slow-ms=fast', /slow-ms must be a duration/],
    ['500=0.6,503=0.6', /add up to 1.2, more than 1/],
  ])('rejects %j with a one-line message naming the flag and the form', (spec, message) => {
    let err: unknown;
    try {
      parseFaultSpec(spec);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InvalidParamsError);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).toMatch(/^--faults: .*expected comma-separated name=value/);
    expect((err as Error).message).not.toContain('\n');
  });
});

describe('parseRateLimitSpec', () => {
  it('reads the example and keeps the spec defaults for unnamed windows', () => {
    expect(parseRateLimitSpec('minute=10/2s,hour=100/20s,day=1000/1m,month=5000')).toEqual({
      minute: { limit: 10, windowMs: 2000 },
      hour: { limit: 100, windowMs: 20_000 },
      day: { limit: 1000, windowMs: 60_000 },
      month: { limit: 5000 },
    });
    expect(parseRateLimitSpec('minute=5')).toEqual({ ...DEFAULT_RATE_LIMITS, minute: { limit: 5, windowMs: 60_000 } });
    expect(parseRateLimitSpec('day=3/1d,hour=2/250ms').hour).toEqual({ limit: 2, windowMs: 250 });
  });

  it.each([
    ['', /no limits given/],
    ['week=5', /unknown window "week"/],
    ['minute=5/2', /window "2" of minute is not a duration with a unit/],
    ['minute=5/0s', /not a duration/],
    ['month=5/1d', /month takes a count only/],
    ['minute=-1', /"minute=-1" is not name=count\[\/window\]/],
  ])('rejects %j', (spec, message) => {
    expect(() => parseRateLimitSpec(spec)).toThrow(InvalidParamsError);
    expect(() => parseRateLimitSpec(spec)).toThrow(message);
    expect(() => parseRateLimitSpec(spec)).toThrow(/^--rate-limit: /);
  });

  it('parseRateLimitFlag takes off for no limiting', () => {
    expect(parseRateLimitFlag('off')).toBe(false);
    expect(parseRateLimitFlag('minute=1')).toMatchObject({ minute: { limit: 1 } });
  });
});

describe('loadKeysFile', () => {
  const dir = tempDir('sandbox-keys-');
  const file = (name: string, content: string) => {
    const p = join(dir, name);
    writeFileSync(p, content);
    return p;
  };

  it('reads keys, names the unnamed ones and maps eu_safety_gate to safety_gate', () => {
    const p = file(
      'ok.json',
      JSON.stringify([
        { key: 'dr_test_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', sources: ['us_cpsc', 'eu_safety_gate'], name: 'ci' },
        { key: 'dr_test_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', sources: ['rappel_conso'] },
      ]),
    );
    expect(loadKeysFile(p)).toEqual([
      { key: 'dr_test_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', name: 'ci', sources: ['us_cpsc', 'safety_gate'] },
      { key: 'dr_test_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', name: 'key-2', sources: ['rappel_conso'] },
    ]);
  });

  it.each([
    ['missing.json', undefined, /cannot read the file \(ENOENT\)/],
    ['bad.json', '{nope', /not valid JSON/],
    ['obj.json', '{}', /\(top level\): .*expected array/],
    ['empty.json', '[]', /must hold at least one key/],
    ['src.json', '[{"key":"dr_test_12345678","sources":["us_fda"]}]', /\[0\]\.sources\[0\]: unknown source ID/],
    ['nosrc.json', '[{"key":"dr_test_12345678","sources":[]}]', /must list at least one source/],
    ['short.json', '[{"key":"k","sources":["us_cpsc"]}]', /\[0\]\.key: must be 8 to 200 printable/],
    [
      'dup.json',
      '[{"key":"dr_test_12345678","sources":["us_cpsc"]},{"key":"dr_test_12345678","sources":["uk_opss"]}]',
      /appears twice/,
    ],
  ])('rejects %s', (name, content, message) => {
    const p = content === undefined ? join(dir, name) : file(name, content);
    expect(() => loadKeysFile(p)).toThrow(InvalidParamsError);
    expect(() => loadKeysFile(p)).toThrow(message);
    expect(() => loadKeysFile(p)).toThrow(/^--keys /);
  });

  it('a device or pipe is refused without being read (a named pipe with no writer would block)', () => {
    expect(() => loadKeysFile('/dev/null')).toThrow('--keys /dev/null: not a regular file');
  });
});

describe('FaultPlan', () => {
  const seq = (values: number[]) => {
    let i = 0;
    return () => values[i++] ?? 0.99;
  };

  it('rolls one number per request against the shares in order', () => {
    const plan = new FaultPlan(
      { error500: 0.1, error503: 0.1, html502: 0.1, cut: 0.1, truncate: 0.1, slow: 0.1, stall: 0.1, burst429: 0.1 },
      seq([0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.95]),
    );
    expect(Array.from({ length: 8 }, () => plan.decide()?.kind)).toEqual([
      'error500',
      'error503',
      'html502',
      'cut',
      'truncate',
      'slow',
      'stall',
      undefined,
    ]);
  });

  it('a 429 burst covers burstLength requests, then rolls again', () => {
    const plan = new FaultPlan({ burst429: 0.5, burstLength: 3 }, seq([0.1, 0.9, 0.9, 0.9, 0.9]));
    expect(Array.from({ length: 5 }, () => plan.decide()?.kind)).toEqual([
      'burst429',
      'burst429',
      'burst429',
      undefined,
      undefined,
    ]);
  });

  it('failAfterPages fails everything once N pages were served', () => {
    const plan = new FaultPlan({ failAfterPages: 2 });
    expect(plan.decide()).toBeUndefined();
    plan.pageServed();
    plan.pageServed();
    expect(plan.decide()).toEqual({ kind: 'error503', label: 'fail_after_pages:error503' });
    expect(plan.decide()?.kind).toBe('error503');
  });

  it('the seeded sequence repeats', () => {
    const a = new FaultPlan({ error500: 0.5, seed: 3 });
    const b = new FaultPlan({ error500: 0.5, seed: 3 });
    const run = (p: FaultPlan) => Array.from({ length: 30 }, () => p.decide()?.kind ?? '-').join(',');
    expect(run(a)).toBe(run(b));
    expect(run(new FaultPlan({ error500: 0.5, seed: 3 }))).toContain('error500');
  });
});

describe('recall-feed sandbox --help', () => {
  it('lists --start-time, which docs/sandbox-and-filters.md documents', async () => {
    const r = await runMain(['sandbox', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}--start-time <iso> +generate the recalls relative to this instant/m);
  });
});
