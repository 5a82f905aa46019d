// The matcher's row and brand records: a catalogue row as the index keeps it, and how a notice's brand relates to one.
import type { BrandRelation } from './brands.js';
import type { CatalogueBatch } from './catalogue-batch.js';
import type { CatalogueRow } from './catalogue.js';
import type { PackSize } from './pack-sizes.js';

export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export interface IndexedRow {
  row: CatalogueRow;
  /** The brand cell as written, and its cores (corporate forms dropped, multi-brand strings split; "A & B" halves last). */
  brandText: string;
  brands: string[];
  /** How many of `brands` are strong (the rest are halves of "A & B"). */
  strong: number;
  tokens: Set<string>;
  /** The name cell as written ("" without one): its pack size is read only when a notice covers every name word. */
  nameText: string;
  /** The pack sizes its name states, read the first time a notice weighs the row. */
  sizes?: PackSize[];
  /** Its name's variant words (variants.ts), read the first time a notice's product holds every word of its name. */
  variants?: ReadonlySet<string>;
  /** Its name words outside parentheses (a grocer's gloss: "Baby Bhindi (Okra)"), read the first time they are needed; null without. */
  outside?: ReadonlySet<string> | null;
  batch: CatalogueBatch;
  /** The row's barcode as 14 digits (valid or not): a notice's lines for that product decide its scope. */
  gtins: string[];
  /** The row's model key, when long enough to compare ("" otherwise). */
  modelKey: string;
}

/** How a recall's brand relates to a catalogue brand core, and the recall's words it rests on. */
export interface BrandHit {
  how: BrandRelation;
  recall: string;
}

export const STRENGTH: Record<BrandRelation, number> = {
  same: 0,
  spelled: 1,
  contained: 2,
  'shared-word': 3,
  'in-title': 4,
  'in-name': 5,
  alias: 6,
};
