// The numbers of an answer JSON.parse cannot keep as sent: found in the body's text, never in its strings.
import { describe, expect, it } from 'vitest';
import { inexactNumbers } from '../../src/api/inexact-numbers.js';

describe('inexactNumbers', () => {
  it('an integer past 2^53 that a double rounds, named with what it becomes', () => {
    // 2^53 + 1 = 9007199254740993 has no double; the nearest is 2^53.
    expect(inexactNumbers('{"a":9007199254740993}')).toEqual([{ sent: '9007199254740993', kept: '9007199254740992' }]);
    expect(inexactNumbers('{"a":-12345678901234567890}')).toEqual([
      { sent: '-12345678901234567890', kept: '-12345678901234567000' },
    ]);
  });

  it('a double written out as another number than the one sent: 2^60 is a double, but JSON writes it shorter', () => {
    // 1152921504606846976 = 2^60 exactly; JavaScript writes the shortest text that reads back as it.
    expect(inexactNumbers('[1152921504606846976]')).toEqual([
      { sent: '1152921504606846976', kept: '1152921504606847000' },
    ]);
  });

  it('a whole number past 2^53 written with a fraction of zeros or an exponent: the same', () => {
    expect(inexactNumbers('[9007199254740993.0, 9.007199254740993e15, 90071992547409930e-1, 1.5e300]')).toEqual([
      { sent: '9007199254740993.0', kept: '9007199254740992' },
      { sent: '9.007199254740993e15', kept: '9007199254740992' },
      { sent: '90071992547409930e-1', kept: '9007199254740992' },
    ]);
  });

  it('an exponent past the range: Infinity, which JSON writes as null', () => {
    expect(inexactNumbers('[1e400, -2.5E+400, 1e300]')).toEqual([
      { sent: '1e400', kept: 'null' },
      { sent: '-2.5E+400', kept: 'null' },
    ]);
  });

  it('numbers written out again as sent, however long, and digits inside strings, are none', () => {
    // 2^53 is written as sent; 0e500 is 0; 0.1 and 1e300 read back as the text sent (the shortest that does).
    expect(inexactNumbers('{"a":9007199254740992,"c":0e500,"d":0.000,"e":0.1,"f":1e300,"g":-0}')).toEqual([]);
    // A hostile run of zeros is read in one pass.
    expect(inexactNumbers(`[1${'0'.repeat(200_000)}e-200000]`)).toEqual([]);
    expect(inexactNumbers('{"lot":"90071992547409931234","t":"x\\"12345678901234567890\\"","e":"E500 5e999"}')).toEqual(
      [],
    );
  });

  it('at most `limit`, a long one named by its start', () => {
    const long = `1${'0'.repeat(400)}1`;
    const found = inexactNumbers(`[${long}, 9007199254740993, 9007199254740995, 9007199254740997]`);
    expect(found).toHaveLength(3);
    expect(inexactNumbers('[9007199254740993, 9007199254740993]')).toHaveLength(1);
    expect(found[0]).toEqual({ sent: `1${'0'.repeat(38)}…`, kept: 'null' });
  });
});
