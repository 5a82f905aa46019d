// A learned file's counts as read back: a count that is not a whole number from 0 (a tier's or an alias's) makes the
// file one --learn did not write, said and ignored; it is never read as 0, which would promote a tier or keep an alias.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLearned } from '../../src/jobs/matching/learned-file.js';
import { parseLearned } from '../../src/match/learned.js';
import { tempDir } from '../helpers/temp-dir.js';

/** What a count may be broken into by a hand edit (60 wrong of 255 was written). */
const BROKEN: [string, string][] = [
  ['a string', '"60"'],
  ['a number too large for a double', '1e400'],
  ['a fraction', '60.5'],
  ['a negative number', '-60'],
  ['null', 'null'],
  ['a list', '[60]'],
  ['an object', '{"n": 60}'],
  ['true', 'true'],
];

/** 195 right and 0 wrong promote `model` (Wilson lower bound 0.981); 195 right and 60 wrong do not. */
const tierFile = (confirmed: string, wrong: string) =>
  `{"version":1,"tiers":{"model":{"confirmed":${confirmed},"wrong":${wrong},"level":"match"}},"words":{}}`;

const aliasFile = (notices: string, cases: string, wrong: string) =>
  `{"version":1,"tiers":{},"words":{},"aliases":{"Kestrel":{"Alpha":{"notices":${notices},"cases":${cases},"wrong":${wrong}}}}}`;

describe("a learned file's tier counts", () => {
  it('read as written when they are whole numbers from 0: 195 of 195 right promotes, 195 of 255 does not', () => {
    expect(parseLearned(tierFile('195', '0'))?.tiers.model).toEqual({
      confirmed: 195,
      wrong: 0,
      lower: 0.981,
      level: 'match',
    });
    expect(parseLearned(tierFile('195', '60'))?.tiers.model?.level).toBe('possible');
  });

  it.each(BROKEN)('a wrong count that is %s: no file', (_, wrong) => {
    expect(parseLearned(tierFile('195', wrong))).toBeUndefined();
  });

  it.each(BROKEN)('a confirmed count that is %s: no file', (_, confirmed) => {
    expect(parseLearned(tierFile(confirmed, '0'))).toBeUndefined();
  });

  it('a count left out: no file', () => {
    expect(
      parseLearned('{"version":1,"tiers":{"model":{"confirmed":195,"level":"match"}},"words":{}}'),
    ).toBeUndefined();
  });
});

describe("a learned file's alias evidence", () => {
  it('read as written when every count is a whole number from 0; refuted as often as shown, dropped', () => {
    expect(parseLearned(aliasFile('2', '0', '1'))?.aliases).toEqual({
      kestrel: { alpha: { notices: 2, cases: 0, wrong: 1 } },
    });
    expect(parseLearned(aliasFile('1', '0', '1'))?.aliases).toEqual({});
  });

  it.each(BROKEN)('a count that is %s, in any of its three places: no file', (_, broken) => {
    expect(parseLearned(aliasFile('2', '0', broken))).toBeUndefined();
    expect(parseLearned(aliasFile(broken, '0', '0'))).toBeUndefined();
    expect(parseLearned(aliasFile('2', broken, '0'))).toBeUndefined();
  });
});

describe('read back by match, digest and report', () => {
  it('says the file is not one --learn wrote and goes on without it; a sound file is read without a word', async () => {
    const dir = tempDir('rf-learned-counts-');
    const warned: string[] = [];
    const status = { warn: (line: string) => void warned.push(line) };
    const broken = path.join(dir, 'broken.json');
    writeFileSync(broken, tierFile('195', '"60"'));
    expect(await readLearned(broken, status, true)).toBeUndefined();
    expect(warned).toEqual([
      `${broken} is not a file match --learn wrote: ignored (run match --learn again to rewrite it)`,
    ]);
    const sound = path.join(dir, 'sound.json');
    writeFileSync(sound, tierFile('195', '60'));
    expect((await readLearned(sound, status, true))?.tiers.model).toMatchObject({ confirmed: 195, wrong: 60 });
    expect(warned).toHaveLength(1);
  });
});
