// Lots a notice writes in the fields the reader does not read for scope: news there leaves its scope unread.
import { fold } from '../filters/normalize.js';
import { lotKey, type ScopeItem } from './scope-items.js';

/** Fields the reader does not read for scope, where notices still write some: an update's added lots, "all lots". */
const OTHER_FIELDS = [
  'alert_summary',
  'measure_details',
  'hazard_description',
  'product_name',
  'product_model_numbers',
];
/** A lot label and the list of codes right after it: "batch codes 2405 and 2406", "lots L555 et L556". */
const LOT_LIST =
  /\b(?:lots?|batch\w*|charge\w*|lotes?|los(?:nummer\w*)?|serial\w*)\b(?:\s*(?:numbers?|nos?\.?|#|codes?|nummern?|:))*\s*([a-z]*\d[a-z0-9]*(?:[-.][a-z0-9]+)*(?:\s*(?:,|;|\/|and|et|und|y|&)\s*[a-z]*\d[a-z0-9]*(?:[-.][a-z0-9]+)*)*)/g;
/** A quantity, not a lot: "7-oz", "4-l", "12". */
const NOT_A_CODE = /^(?:\d{1,2}|\d+-?(?:oz|lb|g|kg|l|ml|ct|pk|pack|count))$/;
/** Every lot, in words: "all lots", "all unexpired lots", "the entire production", "Lot: All", "Sämtliche Losnummern". */
const EVERY_LOT =
  /\b(?:all|every|any|entire|whole)\s+(?:the\s+)?(?:(?:unexpired|in-date|current|product)\s+)?(?:lots?|batch\w*|codes?|production)\b|\b(?:lots?|batch\w*|lotes?|charge\w*)\s*(?:numbers?|codes?|nos?\.?|#s?)?\s*:\s*(?:all|any|alle|tous|toutes|todos|todas)\b|\btous\s+les\s+lots\b|\b(?:alle|samtliche|saemtliche)\s+(?:chargen|losnummern)\b|\btodos\s+los\s+lotes\b/;

/**
 * Lots a notice names outside the fields read for scope ("updated to include additional batch codes 2405", "recalling
 * all lots"), that the scope read does not already name: the scope is then not read whole, and no row is excluded.
 * `items`: the scope read, with writtenCodes' mentions, so every code the read fields write anywhere is one of them.
 */
export function lotsElsewhere(
  recall: Record<string, unknown>,
  items: readonly ScopeItem[],
  limit: number,
): ScopeItem[] {
  // Nothing to prove with, or scope already left unread: nothing more to find.
  if (!items.some((i) => i.sure && (i.kind === 'lot' || i.kind === 'lot-range' || i.kind === 'date'))) return [];
  if (items.some((i) => i.kind === 'unread')) return [];
  const named = new Set(items.flatMap((i) => (i.kind === 'lot' ? [lotKey(i.lot)] : [])));
  for (const field of OTHER_FIELDS) {
    const value = recall[field];
    const text = Array.isArray(value) ? value.filter((v) => typeof v === 'string').join('; ') : value;
    if (typeof text !== 'string' || text.trim() === '') continue;
    const folded = fold(text.slice(0, limit));
    const every = EVERY_LOT.exec(folded);
    const other = [...folded.matchAll(LOT_LIST)]
      .flatMap((m) => (m[1] ?? '').split(/\s*(?:,|;|\/|and|et|und|y|&)\s*/))
      .find((code) => code !== '' && !NOT_A_CODE.test(code) && !named.has(lotKey(code)));
    const seen = every?.[0] ?? other;
    if (seen !== undefined)
      return [
        { kind: 'unread', why: 'lots named in a field the reader does not read', field, text: seen, sure: false },
      ];
  }
  return [];
}
