// GTIN handling for catalogue matching: GTIN-8/12/13/14 to one 14-digit form, with the check digit verified.

export type GtinResult = { ok: true; gtin14: string } | { ok: false; reason: string };

const LENGTHS = new Set([8, 12, 13, 14]);

/** The GS1 check digit of the digits before it: weights 3,1,3,... from the right. */
export function gtinCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += i % 2 === 0 ? digit * 3 : digit;
  }
  return (10 - (sum % 10)) % 10;
}

/**
 * Spaces and dashes are ignored (codes are often printed in groups); anything else that is not a digit
 * makes it no GTIN. A UPC-A (12) is an EAN-13 with a leading 0, and both are a GTIN-14 with leading 0s.
 */
export function normalizeGtin(raw: string): GtinResult {
  const compact = raw.replace(/[\s-]+/g, '');
  if (compact === '') return { ok: false, reason: 'empty' };
  if (!/^\d+$/.test(compact)) return { ok: false, reason: 'not only digits' };
  if (!LENGTHS.has(compact.length)) return { ok: false, reason: `${compact.length} digits (GTIN has 8, 12, 13 or 14)` };
  const body = compact.slice(0, -1);
  const check = compact.charCodeAt(compact.length - 1) - 48;
  const expected = gtinCheckDigit(body);
  if (check !== expected) return { ok: false, reason: `wrong check digit (${check}, expected ${expected})` };
  return { ok: true, gtin14: compact.padStart(14, '0') };
}
