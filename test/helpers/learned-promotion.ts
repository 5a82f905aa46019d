// A learned file that promotes one tier, as `match --learn` writes it, and a barcode that falls in that tier.

/** A barcode with a wrong check digit: in a notice and a row alike it is `barcode-unchecked`, possible unless learned. */
export const UNCHECKED_BARCODE = '4006381333932';

/** What --learn writes when 200 closed cases of `barcode-unchecked` were all right (Wilson lower bound above 0.98). */
export const PROMOTES_UNCHECKED = JSON.stringify({
  version: 1,
  learned_at: '2026-11-29T00:00:00.000Z',
  catalogue_sha256: 'x',
  cases: 200,
  tiers: { 'barcode-unchecked': { confirmed: 200, wrong: 0, lower: 0.981, level: 'match' } },
  words: {},
});
