// A catalogue name's parenthesis is a grocer's gloss the notice need not write: "Baby Bhindi (Okra)" for the FDA's "Baby Bhindi".
import { describe, expect, it } from 'vitest';
import { matchesOf } from '../helpers/catalogue-rows.js';

// FDA enforcement report, Chetak New York LLC (2025): no brand field; the brand is written in the product's name.
const bhindi = {
  product_brand: '',
  alert_title: 'Product tested positive Salmonella .',
  product_name: 'Deep-brand Premium Select Baby Bhindi KEEP FROZEN Net Wt. 12 oz (340 g)',
};

describe('a row name with a gloss in parentheses', () => {
  it('is covered by its words outside the parenthesis, and says so, at most possible', () => {
    const [found, ...rest] = matchesOf([{ brand: 'Deep', name: 'Baby Bhindi (Okra) Frozen 12 oz' }], bhindi);
    expect(rest).toEqual([]);
    expect(found).toMatchObject({ line: 1, level: 'possible', reason: 'brand+name' });
    expect(found?.explain).toMatch(
      /weighed cover 1\.00 \(>= 0\.75: bhindi [\d.]+, frozen [\d.]+\), the row's words in parentheses left out/,
    );
  });

  it('is still a match when the notice covers the whole name, gloss and all', () => {
    const withGloss = {
      ...bhindi,
      product_name: 'Deep-brand Premium Select Baby Bhindi (Okra) KEEP FROZEN Net Wt. 12 oz (340 g)',
    };
    const rows = [
      { brand: 'Deep', name: 'Baby Bhindi (Okra) Frozen 12 oz' },
      { brand: 'Deep', name: 'Baby Bhindi Frozen 12 oz' },
    ];
    expect(matchesOf(rows, withGloss).map((m) => [m.line, m.level, m.reason])).toEqual([
      [1, 'match', 'brand+full-name'],
      [2, 'match', 'brand+full-name'],
    ]);
    expect(matchesOf(rows, bhindi).map((m) => [m.line, m.level])).toEqual([
      [2, 'match'],
      [1, 'possible'],
    ]);
  });

  it('never hides a word that makes the row a sibling', () => {
    const rows = [{ brand: 'Deep', name: 'Baby Bhindi Frozen (Sugar Free) 12 oz' }];
    expect(matchesOf(rows, bhindi)).toEqual([]);
  });

  it('is not left out when it is all the row has to say, or nothing of it is a word', () => {
    expect(matchesOf([{ brand: 'Deep', name: '(Okra)' }], bhindi)).toEqual([]);
    expect(matchesOf([{ brand: 'Deep', name: 'Baby Okra Frozen (12 oz)' }], bhindi)).toEqual([]);
  });
});
