// "Your products" as every digest format names them: a catalogue row and the recall it matched, and their words.
import { groupDigits } from '../numbers.js';
import { shorten } from '../shorten.js';

/** One catalogue row and the recall it matched, as every digest format opens with it (docs/digest.md). */
export interface ProductRow {
  level: string;
  reason: string;
  /** The key column's value (sku, or --key), else null: the row is then known by its line. */
  key: string | null;
  key_column: string | null;
  /** The catalogue's name column, when it has one. */
  name: string | null;
  catalog_line: number;
  recall_id: number | null;
  alert_title: string | null;
  risk_severity: string | null;
  hazard: string | null;
  data_source: string | null;
  published_at: string | null;
  /** An http(s) link to the notice, else null. */
  source_url: string | null;
  /** The case opened on this pair (match --open-cases), when there is one. */
  case: { id: number; status: string; due_at: string | null } | null;
  /** Whether the row's lot and date are among the notice's (`in-scope`, `out-of-scope`, `unknown`), as `match` says. */
  scope: string | null;
  /** The notice's words that decided the scope (why an `excluded` row is not affected); empty when it names none. */
  scope_evidence: string | null;
}

/**
 * Your products counted once, on the job side, for every format of a digest (docs/digest.md, "Counts"). Pairs count
 * as `match` counts its rows; rows count each catalogue row once, by its strongest pair still to act on.
 */
export interface ProductCounts {
  /** What is counted: the recalls stored (new or updated) from `from` to `to`, the digest's period. */
  period: { from: string; to: string };
  recalls_checked: number;
  /** Pairs of a catalogue row and a recall by level; `closed`: the match and possible pairs whose case is closed. */
  pairs: { match: number; possible: number; excluded: number; closed: number };
  /**
   * Catalogue rows with a pair still to act on (no case, or one open or waiting): `match` when one of them is a
   * match (`match_serious` when a serious one), else `possible`; `closed`: rows whose every pair's case is closed.
   */
  rows: { match: number; match_serious: number; possible: number; closed: number };
}

/** `4 of your products match (1 serious), 3 possible, 2 closed`: the subject's words, rows only. */
export function productsPhrase(c: ProductCounts): string {
  const { match, match_serious: serious, possible, closed } = c.rows;
  const also = `${possible > 0 ? `, ${groupDigits(possible)} possible` : ''}${closed > 0 ? `, ${groupDigits(closed)} closed` : ''}`;
  if (match === 0) return `none of your products match${also}`;
  return `${groupDigits(match)} of your products ${match === 1 ? 'matches' : 'match'}${serious > 0 ? ` (${groupDigits(serious)} serious)` : ''}${also}`;
}

/** `2026-11-24 08:00 UTC`: a period's bound to the minute. */
const minute = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/**
 * The sentence every format says under "your products": which recalls were checked, the rows as the subject counts
 * them, then the pairs as `match` counts them, so the two can be compared when their windows are the same.
 */
export function productsLine(c: ProductCounts): string {
  const what = `Your products in the ${groupDigits(c.recalls_checked)} recalls stored ${minute(c.period.from)} to ${minute(c.period.to)}`;
  const { match, possible, excluded, closed } = c.pairs;
  if (match + possible + excluded === 0)
    return `${what}: no catalogue row matches (no row is not a verdict on a product).`;
  const rows = c.rows;
  const rowWords = [
    `${groupDigits(rows.match)} ${rows.match === 1 ? 'matches' : 'match'}${rows.match_serious > 0 ? ` (${groupDigits(rows.match_serious)} serious)` : ''}`,
    `${groupDigits(rows.possible)} possible`,
    ...(rows.closed > 0 ? [`${groupDigits(rows.closed)} with every case closed`] : []),
  ];
  const pairWords = [
    `${groupDigits(match)} ${match === 1 ? 'match' : 'matches'}`,
    `${groupDigits(possible)} possible`,
    ...(excluded > 0 ? [`${groupDigits(excluded)} excluded (out of scope)`] : []),
  ];
  const closedWords = closed > 0 ? `; ${groupDigits(closed)} of the match and possible pairs have a closed case` : '';
  return `${what}: ${rowWords.join(', ')}. As pairs of a row and a recall, as recall-feed match counts them: ${pairWords.join(' · ')}${closedWords}.`;
}

/** How every format labels a row's level: `MATCH` stands out, the others as `match` writes them. */
export const levelTag = (p: ProductRow) => (p.level === 'match' ? 'MATCH' : p.level);

/** The recall a row matched, by its title (cut at 300 code points), else by its id. */
export const productTitle = (p: ProductRow) => shorten(p.alert_title ?? `recall ${p.recall_id ?? ''}`, 300);

/** `SKU A-1 · Kettle 2000` (or `catalogue line 3`): how a row is named everywhere. */
export function productName(p: ProductRow): string {
  const key = p.key !== null ? `${p.key_column ?? 'key'} ${p.key}` : `catalogue line ${p.catalog_line}`;
  return p.name !== null ? `${key} · ${p.name}` : key;
}

/** `serious · hazard: burns · us_cpsc · match (gtin)`, the case when there is one, and an excluded row's evidence. */
export function productFacts(p: ProductRow): string {
  const facts = [
    p.risk_severity ?? 'severity not given',
    ...(p.hazard !== null ? [`hazard: ${shorten(p.hazard, 150)}`] : []),
    ...(p.data_source !== null ? [p.data_source] : []),
    `${p.level} (${p.reason})`,
    ...(p.recall_id !== null ? [`recall ${p.recall_id}`] : []),
  ];
  if (p.case !== null)
    facts.push(`case ${p.case.id} ${p.case.status}${p.case.due_at !== null ? `, due ${p.case.due_at}` : ''}`);
  const why = scopeNote(p);
  if (why !== null) facts.push(why);
  return facts.join(' · ');
}

/**
 * What the reader should know of a row's scope, in the notice's own words: why an excluded row is not affected
 * (`out of scope: <field>: "<text>"`), or what to check on the shelf for a row the notice's scope could not settle
 * (`verify lot: …`); else null.
 */
export function scopeNote(p: ProductRow): string | null {
  if (p.level === 'excluded') return `out of scope: ${p.scope_evidence ?? 'the notice names other lots or dates'}`;
  return p.scope === 'unknown' && p.scope_evidence?.startsWith('verify ') ? p.scope_evidence : null;
}

/**
 * The note after a list cut to its budget, over the pairs `left` out. The list names pairs of a catalogue row and a
 * recall, so the note counts pairs, by level as `match` counts them, not your products (the rows):
 * `… and 212 more pairs of a row and a recall (200 matches, 12 possible), in the attached recalls-2026-11-26.csv.`
 * Without `attachment` (the chat posts), no place and no full stop.
 */
export function productsMore(left: readonly ProductRow[], attachment?: string): string {
  const by = new Map<string, number>();
  for (const p of left) by.set(p.level, (by.get(p.level) ?? 0) + 1);
  const levels = [...by].map(
    ([level, n]) => `${groupDigits(n)} ${level === 'match' ? (n === 1 ? 'match' : 'matches') : level}`,
  );
  const pairs = left.length === 1 ? 'pair' : 'pairs';
  const note = `… and ${groupDigits(left.length)} more ${pairs} of a row and a recall (${levels.join(', ')})`;
  return attachment === undefined ? note : `${note}, in the attached ${attachment}.`;
}
