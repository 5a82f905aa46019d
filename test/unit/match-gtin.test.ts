// GTIN normalisation and check digits, against published example codes and a left-to-right check written here.
import { describe, expect, it } from 'vitest';
import { gtinCheckDigit, normalizeGtin } from '../../src/match/gtin.js';

/** GS1's rule read left to right: in a code padded to 18 digits, odd positions weigh 3, even 1. */
function validByHand(code: string): boolean {
  const padded = code.padStart(18, '0');
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(padded[i]) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10 === Number(padded[17]);
}

describe('normalizeGtin', () => {
  it.each([
    ['036000291452', '00036000291452', 'UPC-A (12)'],
    ['4006381333931', '04006381333931', 'EAN-13'],
    ['73513537', '00000073513537', 'EAN-8'],
    ['00036000291452', '00036000291452', 'GTIN-14 of the UPC'],
    ['0036000291452', '00036000291452', 'the UPC written as EAN-13'],
    ['4006 3813 3393 1', '04006381333931', 'spaces'],
    ['4-006381-333931', '04006381333931', 'dashes'],
  ])('%s is %s (%s)', (raw, gtin14) => {
    expect(validByHand(raw.replace(/[\s-]/g, ''))).toBe(true);
    expect(normalizeGtin(raw)).toEqual({ ok: true, gtin14 });
  });

  it.each([
    ['036000291453', /wrong check digit \(3, expected 2\)/],
    ['4006381333932', /wrong check digit/],
    ['12345', /5 digits/],
    ['123456789012345', /15 digits/],
    ['B012345678', /not only digits/],
    ['', /empty/],
  ])('%s is refused', (raw, reason) => {
    const result = normalizeGtin(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it('agrees with the left-to-right rule on every check digit of a few bodies', () => {
    for (const body of ['03600029145', '400638133393', '7351353', '1003600029145']) {
      for (let d = 0; d <= 9; d++) {
        const code = `${body}${d}`;
        expect(normalizeGtin(code).ok).toBe(validByHand(code));
      }
      expect(validByHand(`${body}${gtinCheckDigit(body)}`)).toBe(true);
    }
  });
});
