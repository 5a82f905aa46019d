// The words of `match --explain`: which rule fired on which normalised values.
import type { BrandRelation } from './brands.js';
import { describeItem, type ScopeItem } from './scope-items.js';

const HOW: Record<BrandRelation, string> = {
  same: 'the same once normalised',
  spelled: 'the same but for one letter',
  contained: 'one inside the other',
  'shared-word': 'a shared distinctive word',
  'in-title': "named in the notice's title (its brand field names the recalling firm)",
  'in-name': "written in the notice's product name (the label's words, as FSIS quotes them)",
  alias: "a brand the notice's firm recalls under, as match --learn learned it",
};

export function explainBrand(
  recallBrand: string,
  rowBrand: string,
  core: string,
  hit: { how: BrandRelation; recall: string },
): string {
  // An empty brand field is said so: the brand then came from the notice's firm, title or label (hit.recall).
  const notice = recallBrand.trim() === '' ? 'notice (no brand field)' : `notice "${recallBrand}"`;
  return `brand: ${notice} ~ catalogue "${rowBrand}" (${HOW[hit.how]}: "${hit.recall}" / "${core}")`;
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

/** At most this many scope items are listed in an explanation; a lot table can hold hundreds. */
const MAX_ITEMS = 12;

/** What the scope reader read in the notice, what the row gives, and the answer: the scope part of `--explain`. */
export function explainScope(
  items: readonly ScopeItem[],
  batch: { lot?: string; dates?: readonly { from: string; to: string }[] },
  answer: { scope: string; evidence: string },
): string {
  const listed = items.filter((i) => !i.quiet);
  const read = [...new Set(listed.map((i) => (i.sure || i.kind === 'unread' ? '' : 'maybe ') + describeItem(i)))];
  const more = read.length > MAX_ITEMS ? ` (+${read.length - MAX_ITEMS} more)` : '';
  const text = read.length === 0 ? 'nothing' : read.slice(0, MAX_ITEMS).join(', ') + more;
  const dates = (batch.dates ?? []).map((d) => (d.from === d.to ? d.from : `${d.from} to ${d.to}`)).join(' or ');
  const row = [
    batch.lot !== undefined ? `lot "${batch.lot}"` : 'no lot',
    dates !== '' ? `date ${dates}` : 'no date',
  ].join(', ');
  return `scope read: ${text}; row ${row}: ${answer.scope}${answer.evidence === '' ? '' : ` (${answer.evidence})`}`;
}
