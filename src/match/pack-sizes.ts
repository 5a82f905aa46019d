// Pack sizes in product names ("12-oz.", "5 and 10-pound bags", "two liter", "5.29 oz (150 g)"): do two names state the same size?
import { decodeEntities } from './match-keys.js';
import { NUMBER_WORDS, poundsWritten, SIZE_ABBREVIATIONS, SPELT_UNITS } from './unit-words.js';

/** A size as grams (mass) or millilitres (volume); an "oz" may be either, so it gives one of each. */
export interface PackSize {
  family: 'mass' | 'volume';
  value: number;
  /** As the text writes it ("12-oz."), for `--explain`. */
  written: string;
}

/** How two names' sizes compare: a size both state, sizes that all differ, or nothing to compare. */
export type SizeAgreement =
  | { kind: 'same'; size: string }
  | { kind: 'differs'; row: string; notice: string }
  | { kind: 'unknown' };

const OUNCE = 28.349_523;
const FLUID_OUNCE = 29.573_53;
/** Unit words (English, French, Spanish, German) to their family and factor. Longest alternatives first in the pattern. */
const UNITS: [RegExp, ('mass' | 'volume' | 'oz')[], number][] = [
  [/^fl\.?[ -]?oz\.?$|^fluid ounces?$/, ['volume'], FLUID_OUNCE],
  [/^(?:oz|ozs|ounces?|onzas?)\.?$/, ['oz'], 1],
  [/^(?:lbs?|pounds?|libras?)\.?$/, ['mass'], 453.592_37],
  [/^(?:mg)$/, ['mass'], 0.001],
  [/^(?:g|gr|grams?|grammes?|gramos?|gramm)\.?$/, ['mass'], 1],
  [/^(?:kg|kgs|kilos?|kilograms?|kilogrammes?|kilogramos?)\.?$/, ['mass'], 1000],
  [/^(?:ml|millilit(?:er|re)s?|mililitros?)\.?$/, ['volume'], 1],
  [/^(?:cl)$/, ['volume'], 10],
  [/^(?:dl)$/, ['volume'], 100],
  [/^(?:l|lt|ltr|lit(?:er|re)s?|litros?)\.?$/, ['volume'], 1000],
  [/^(?:qt|quarts?)\.?$/, ['volume'], 946.352_946],
  [/^(?:pt|pints?)\.?$/, ['volume'], 473.176_473],
  [/^(?:gal|gallons?)\.?$/, ['volume'], 3785.411_784],
];
/** Units as labels abbreviate them, a dot allowed after each part ("fl. oz.", "12-oz."), then spelt out. */
const UNIT_WORDS = [...SIZE_ABBREVIATIONS.map((u) => `${u.replace(' ', '\\.?[ -]?')}\\.?`), SPELT_UNITS].join('|');
const NUMBER = `\\d+(?:[.,]\\d+)?|${Object.keys(NUMBER_WORDS).join('|')}`;
/** A number and its unit: "12-oz.", "26 FL OZ", "150 g", "two liter". */
const SIZE = new RegExp(`(?<![\\p{L}\\p{N}.,])(${NUMBER})\\s?-?\\s?(${UNIT_WORDS})(?![\\p{L}\\p{N}])`, 'giu');
/** The numbers before a size that share its unit: "5 and 10-pound", "4, 8 or 16 oz". */
const SHARED_UNIT = new RegExp(
  `(?<![\\p{L}\\p{N}.,])(${NUMBER})\\s*(?:,\\s*(?:and|or)?|and|or|&|y|o|et|ou)\\s*$`,
  'iu',
);
/** How much of a name is read: a hostile one may be huge. */
const TEXT_LIMIT = 2000;
/** Two sizes this close are the same ("5.29 oz (150 g)", "12 oz (340 g)"): labels round their conversions. */
const TOLERANCE = 0.03;

/** "1,000 mg" is a thousand, "1,5 l" one and a half. */
const numberOf = (raw: string) =>
  NUMBER_WORDS[raw.toLowerCase()] ?? Number(/^\d{1,3},\d{3}$/.test(raw) ? raw.replace(',', '') : raw.replace(',', '.'));

function unitOf(raw: string): { families: ('mass' | 'volume')[]; factor: (family: 'mass' | 'volume') => number } {
  const word = raw.toLowerCase().replace(/\s+/g, ' ');
  for (const [re, families, factor] of UNITS)
    if (re.test(word)) {
      if (families[0] === 'oz')
        return { families: ['mass', 'volume'], factor: (f) => (f === 'mass' ? OUNCE : FLUID_OUNCE) };
      return { families: families as ('mass' | 'volume')[], factor: () => factor };
    }
  return { families: [], factor: () => 0 };
}

/** The sizes a name states, each unit applied to the bare numbers listed before it. */
export function packSizes(raw: string): PackSize[] {
  const text = poundsWritten(decodeEntities(raw.slice(0, TEXT_LIMIT)));
  if (!/\d|one|two|three|four|five|six|seven|eight|nine|ten|twelve/i.test(text)) return [];
  const out: PackSize[] = [];
  for (const m of text.matchAll(SIZE)) {
    const unit = unitOf(m[2] as string);
    const numbers = [numberOf(m[1] as string)];
    let before = text.slice(0, m.index);
    for (let shared = SHARED_UNIT.exec(before); shared; shared = SHARED_UNIT.exec(before)) {
      numbers.push(numberOf(shared[1] as string));
      before = before.slice(0, shared.index);
    }
    for (const n of numbers) {
      if (!(n > 0)) continue;
      for (const family of unit.families) out.push({ family, value: n * unit.factor(family), written: m[0].trim() });
    }
  }
  return out;
}

const close = (a: number, b: number) => Math.abs(a - b) <= TOLERANCE * Math.max(a, b);

/**
 * Whether a catalogue row's name and a notice state the same pack size. `same` when a size of the row is one the
 * notice names; `differs` when both state sizes of one family (mass or volume) and none agrees; `unknown` when
 * either states none, or only of another family.
 */
export function compareSizes(row: readonly PackSize[], notice: readonly PackSize[]): SizeAgreement {
  let compared: { row: string; notice: string } | undefined;
  for (const r of row)
    for (const n of notice) {
      if (r.family !== n.family) continue;
      if (close(r.value, n.value)) return { kind: 'same', size: r.written };
      compared ??= { row: r.written, notice: n.written };
    }
  return compared ? { kind: 'differs', ...compared } : { kind: 'unknown' };
}
