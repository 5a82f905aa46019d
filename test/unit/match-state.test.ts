// match --archive's state file: read back as written, anything else read as unreadable (never thrown), keyed by its inputs.
import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { archiveOrder } from '../../src/jobs/match/match-replay.js';
import {
  type MatchState,
  readState,
  type StateInputs,
  stateFile,
  stateKey,
  writeState,
} from '../../src/jobs/match/match-state.js';
import { tempDir } from '../helpers/temp-dir.js';

/** The injected clock's now: a fixed instant, as the files' times are set from it. */
const NOW = Date.parse('2026-11-28T12:00:00Z');

const inputs: StateInputs = {
  archive: 'postgres://alice@db.example/recalls',
  schema: undefined,
  catalogueSha256: 'a'.repeat(64),
  learnedSha256: null,
  map: { gtin: 'EAN' },
  sources: undefined,
  filter: {},
  explain: false,
};

function state(key: string): MatchState {
  // A catalogue header is data: it may be named as an Object.prototype member.
  const row: Record<string, unknown> = Object.assign(Object.create(null), {
    level: 'match',
    recall_id: 7,
    constructor: 'a catalogue column',
  });
  // What the catalogue's warnings are made of, said again by a run that reads no row of it.
  const report = {
    readAs: 'windows-1252' as const,
    repeated: [{ header: 'ean', positions: [2, 5], conflicts: 1 }],
    ragged: { header: 5, rows: 1, lines: [4] },
    rejected: [{ line: 3, value: '3047256804776', reason: 'wrong check digit (6, expected 5)', unchecked: true }],
    total: 1,
  };
  return {
    format: 3,
    key,
    horizonMs: 1_700_000_000_000.5,
    sinceUs: null,
    catalogue: { headers: ['constructor'], columns: {}, rows: 3, rejected: 0, unchecked: 1, report },
    recalls: [[7, 1_600_000_000_000_000, [row]]],
    stamps: [
      [7, 1_650_000_000_000_000],
      [8, null],
    ],
  };
}

/** The state with its catalogue's report changed. */
function withReport(key: string, change: Record<string, unknown>) {
  const whole = state(key);
  return { ...whole, catalogue: { ...whole.catalogue, report: { ...whole.catalogue.report, ...change } } };
}

describe('match state', () => {
  it('is keyed by every input: any one changed is another key', () => {
    const key = stateKey(inputs);
    const changed: Partial<StateInputs>[] = [
      { archive: 'postgres://alice@db.example/other' },
      { schema: 'recall_feed' },
      { catalogueSha256: 'b'.repeat(64) },
      { learnedSha256: 'c'.repeat(64) },
      { map: { gtin: 'EAN13' } },
      { sources: ['us_cpsc'] },
      { filter: { severity: ['serious'] } },
      { explain: true },
    ];
    const keys = changed.map((c) => stateKey({ ...inputs, ...c }));
    expect(new Set([key, ...keys]).size).toBe(changed.length + 1);
    expect(stateKey({ ...inputs, map: { gtin: 'EAN' } })).toBe(key);
  });

  it('writes 0600 and reads back what it wrote, rows without a prototype', async () => {
    const env = { RECALL_FEED_CACHE_DIR: tempDir('rf-state-') };
    const key = stateKey(inputs);
    const file = stateFile(env, key);
    expect(path.dirname(file)).toBe(path.join(env.RECALL_FEED_CACHE_DIR, 'match-state'));
    await writeState(file, state(key), NOW);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    const read = await readState(file, key);
    if (!('state' in read)) throw new Error(`not read: ${JSON.stringify(read)}`);
    expect(JSON.stringify(read.state)).toBe(JSON.stringify(state(key)));
    const row = read.state.recalls[0]![2][0]!;
    expect(Object.getPrototypeOf(row)).toBe(null);
    expect(Object.getOwnPropertyDescriptor(row, 'constructor')?.value).toBe('a catalogue column');
  });

  it('removes the temporary files a killed run left a day ago, never one a write may still be making', async () => {
    const dir = tempDir('rf-state-');
    const key = stateKey(inputs);
    const file = path.join(dir, 'state.json');
    const stale = path.join(dir, 'state.json.4242.1.tmp');
    const fresh = path.join(dir, 'state.json.4343.1.tmp');
    const other = path.join(dir, 'notes.txt');
    for (const f of [stale, fresh, other]) writeFileSync(f, 'x');
    const dayAndMinute = (24 * 60 + 1) * 60_000;
    utimesSync(stale, (NOW - dayAndMinute) / 1000, (NOW - dayAndMinute) / 1000);
    utimesSync(fresh, (NOW - 60_000) / 1000, (NOW - 60_000) / 1000);
    utimesSync(other, (NOW - dayAndMinute) / 1000, (NOW - dayAndMinute) / 1000);
    await writeState(file, state(key), NOW);
    expect(readdirSync(dir).sort()).toEqual(['notes.txt', 'state.json', 'state.json.4343.1.tmp']);
  });

  it('anything but a whole state of this key is unreadable, and a missing file is missing', async () => {
    const dir = tempDir('rf-state-');
    const key = stateKey(inputs);
    const file = path.join(dir, 'state.json');
    expect(await readState(file, key)).toEqual({ missing: true });
    await writeState(file, state(key), NOW);
    const whole = readFileSync(file, 'utf8');
    const bad = [
      whole.slice(0, whole.length >> 1),
      '',
      'null',
      '[]',
      JSON.stringify({ ...state(key), format: 1 }),
      JSON.stringify({ ...state(key), recalls: [[7, null, 'rows']] }),
      JSON.stringify({ ...state(key), recalls: [['7', null, []]] }),
      JSON.stringify({ ...state(key), horizonMs: '1' }),
      JSON.stringify({ ...state(key), catalogue: { headers: [], columns: {}, rows: 1 } }),
      // A state of the format before warnings were kept, and reports reportCatalogue could not read.
      JSON.stringify({ ...state(key), catalogue: { ...state(key).catalogue, report: undefined } }),
      JSON.stringify({ ...state(key), catalogue: { ...state(key).catalogue, report: { repeated: [], rejected: [] } } }),
      JSON.stringify(withReport(key, { repeated: [{ header: 'ean', positions: '2,5', conflicts: 0 }] })),
      JSON.stringify(withReport(key, { ragged: { header: 5, rows: 1 } })),
      JSON.stringify(withReport(key, { rejected: [{ line: 3, value: 3047256804776, reason: 'x' }] })),
      JSON.stringify(withReport(key, { readAs: 'latin1' })),
    ];
    for (const text of bad) {
      writeFileSync(file, text);
      expect(await readState(file, key), text.slice(0, 40)).toHaveProperty('unreadable');
    }
    writeFileSync(file, whole);
    expect(await readState(file, 'f'.repeat(64))).toHaveProperty('unreadable');
  });

  it('orders recalls as the archive lists them: published_at newest first, none last, then id highest first', () => {
    const rows: [number, number | null, Record<string, unknown>[]][] = [
      [1, 10, []],
      [2, null, []],
      [3, 10, []],
      [4, 20, []],
      [5, null, []],
    ];
    expect(rows.sort(archiveOrder).map(([id]) => id)).toEqual([4, 3, 1, 5, 2]);
  });
});
