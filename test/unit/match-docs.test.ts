// docs/matching.md held to what the matcher does: each scope label, "all" phrase and date form it lists is read as it
// says, and each brand spelling it calls the same brand is one.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { brandCore, relateBrands } from '../../src/match/brands.js';
import { DE, FR, judge, US } from '../helpers/scope-judge.js';

const DOC = readFileSync(path.resolve(import.meta.dirname, '../../docs/matching.md'), 'utf8');
const LANGUAGES = ['English', 'French', 'German', 'Spanish'] as const;
/** A notice's country for each column: the order of day and month in its dates. */
const WHERE = { English: US, French: FR, German: DE, Spanish: FR } as const;

/** The table whose header starts `| item | English |`: each row's item and, per language, its backticked words. */
function scopeTable(): Map<string, Record<(typeof LANGUAGES)[number], string[]>> {
  const lines = DOC.split('\n');
  const start = lines.findIndex((l) => l.startsWith('| item | English | French | German | Spanish |'));
  const rows = new Map<string, Record<(typeof LANGUAGES)[number], string[]>>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const [item, ...cells] = line.split(' | ').map((c) => c.replace(/^\| ?| ?\|$/g, ''));
    const words = (cell = '') => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
    rows.set(item as string, Object.fromEntries(LANGUAGES.map((lang, i) => [lang, words(cells[i])])) as never);
  }
  return rows;
}

/** `Lot number(s)` is `Lot number` and `Lot numbers`; `Best before (end)` is `Best before` and `Best before end`. */
const spelled = (label: string) => {
  const optional = /^(.*?)\s?\((\w+)\)$/.exec(label);
  if (!optional) return [label];
  const [, head, tail] = optional as unknown as [string, string, string];
  return [head, `${head}${label.includes(' (') ? ' ' : ''}${tail}`];
};

const table = scopeTable();
const labels = (item: string) =>
  LANGUAGES.flatMap((lang) =>
    (table.get(item)?.[lang] ?? [])
      // Examples of what follows a label (a table's header, a barcode's line) are not labels.
      .filter((w) => !/\d/.test(w))
      .flatMap(spelled)
      .map((label) => [lang, label] as const),
  );

describe('every lot label docs/matching.md lists is read as one', () => {
  it('the table is there, with lot labels in every language', () => {
    for (const lang of LANGUAGES) expect(labels('lot').filter(([l]) => l === lang).length).toBeGreaterThan(0);
  });

  it.each(labels('lot'))('%s: "%s 4521, 4522"', (lang, label) => {
    const text = `${label} 4521, 4522`;
    expect(judge({ production_dates: text, ...WHERE[lang] }, { lot: '4522' }).scope).toBe('in-scope');
    const other = judge({ production_dates: text, ...WHERE[lang] }, { lot: '7777' });
    expect([other.level, other.scope]).toEqual(['excluded', 'out-of-scope']);
  });
});

describe('every pack date label docs/matching.md lists is read as one', () => {
  const dated = ['best before', 'use by', 'expiry'].flatMap((item) => labels(item).map(([l, w]) => [item, l, w]));

  it('the table gives labels for each kind of pack date', () => {
    expect(dated.length).toBeGreaterThanOrEqual(3 * LANGUAGES.length);
  });

  it.each(dated)('%s, %s: "%s 13/04/2026"', (_, lang, label) => {
    // 13/04 has one reading in any order; the row's dates are written in the notice's own order.
    const date = lang === 'English' ? '04/13/2026' : '13/04/2026';
    const text = `${label} ${date}`;
    const where = WHERE[lang as keyof typeof WHERE];
    expect(judge({ production_dates: text, ...where }, { bb: '2026-04-13' }).scope).toBe('in-scope');
    const other = judge({ production_dates: text, ...where }, { bb: '2026-05-20' });
    expect([other.level, other.scope]).toEqual(['excluded', 'out-of-scope']);
  });
});

describe('every sell-by and code date label docs/matching.md lists is read as one', () => {
  const dated = ['sell by', 'code date'].flatMap((item) => labels(item).map(([l, w]) => [item, l, w]));

  it('the table gives them', () => {
    expect(dated.length).toBeGreaterThanOrEqual(LANGUAGES.length + 1);
  });

  it.each(dated)('%s, %s: "%s 13/04/2026" holds that day, and proves no other pack date out', (_, lang, label) => {
    const date = lang === 'English' ? '04/13/2026' : '13/04/2026';
    const where = WHERE[lang as keyof typeof WHERE];
    const text = `${label} ${date}`;
    expect(judge({ production_dates: text, ...where }, { bb: '2026-04-13' }).scope).toBe('in-scope');
    // Another date is no proof (the pack's best-before may differ from its sell-by date), and no match either.
    const other = judge({ production_dates: text, ...where }, { bb: '2026-05-20' });
    expect([other.level, other.scope]).toEqual(['possible', 'unknown']);
  });
});

describe('every "all" phrase docs/matching.md lists puts any lot and date in scope', () => {
  it.each(labels('all'))('%s: "%s"', (lang, phrase) => {
    const m = judge({ production_dates: phrase, ...WHERE[lang] }, { lot: '7777', bb: '2026-04-13' });
    expect([m.level, m.scope]).toEqual(['match', 'in-scope']);
  });
});

describe('every date form docs/matching.md lists is read as that day or month', () => {
  // Each form as the doc writes it, with the notice's country and what it means (worked out by hand, not by the reader).
  const forms: [form: string, where: Record<string, unknown>, from: string, to: string][] = [
    ['04/04/2021', FR, '2021-04-04', '2021-04-04'],
    ['04.04.21', DE, '2021-04-04', '2021-04-04'],
    ['2021-04-04', US, '2021-04-04', '2021-04-04'],
    ['04/2021', FR, '2021-04-01', '2021-04-30'],
    ['4 avril 2021', FR, '2021-04-04', '2021-04-04'],
    ['April 4, 2021', US, '2021-04-04', '2021-04-04'],
    ['4. April 2021', DE, '2021-04-04', '2021-04-04'],
    ['4 de abril de 2021', FR, '2021-04-04', '2021-04-04'],
    ['04-APR-2021', US, '2021-04-04', '2021-04-04'],
  ];
  const flat = DOC.replace(/\s+/g, ' ');

  it.each(forms)('"Best before %s"', (form, where, from, to) => {
    expect(flat).toContain(`\`${form}\``);
    const text = `Best before ${form}`;
    expect(judge({ production_dates: text, ...where }, { bb: from }).scope).toBe('in-scope');
    expect(judge({ production_dates: text, ...where }, { bb: to }).scope).toBe('in-scope');
    const other = judge({ production_dates: text, ...where }, { bb: '2021-05-20' });
    expect([other.level, other.scope]).toEqual(['excluded', 'out-of-scope']);
  });
});

describe('every brand spelling docs/matching.md says is the same brand is', () => {
  const bullet = /- \*\*Spellings\.\*\*([\s\S]*?)\n(?:- \*\*|\n)/.exec(DOC)?.[1] ?? '';
  const pairs = [...bullet.replace(/\s+/g, ' ').matchAll(/`([^`]+)` = `([^`]+)`/g)].map(
    (m) => [m[1] as string, m[2] as string] as const,
  );

  it('the bullet gives its examples', () => {
    expect(pairs.length).toBeGreaterThanOrEqual(5);
  });

  it.each(pairs)('"%s" and "%s"', (a, b) => {
    expect(relateBrands(brandCore(a), brandCore(b))).toBe('same');
  });
});
