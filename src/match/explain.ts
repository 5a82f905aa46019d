// The words of `match --explain`: which rule fired on which normalised values.
import type { BrandRelation } from './brands.js';

const HOW: Record<BrandRelation, string> = {
  same: 'the same once normalised',
  contained: 'one inside the other',
  'shared-word': 'a shared distinctive word',
  'in-title': "named in the notice's title (its brand field names the recalling firm)",
};

export function explainBrand(
  recallBrand: string,
  rowBrand: string,
  core: string,
  hit: { how: BrandRelation; recall: string },
): string {
  return `brand: notice "${recallBrand}" ~ catalogue "${rowBrand}" (${HOW[hit.how]}: "${hit.recall}" / "${core}")`;
}

export function explainName(
  notice: ReadonlySet<string>,
  row: ReadonlySet<string>,
  similarity: number,
  threshold: number,
): string {
  const shared = [...notice].filter((t) => row.has(t));
  return `name words: notice {${[...notice].join(' ')}}, catalogue {${[...row].join(' ')}}, shared {${shared.join(' ')}}, similarity ${similarity.toFixed(2)} >= ${threshold}`;
}
