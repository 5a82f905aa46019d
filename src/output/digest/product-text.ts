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
  const why = outOfScope(p);
  if (why !== null) facts.push(why);
  return facts.join(' · ');
}

/** Why an excluded row is not affected, in the notice's own words: `out of scope: <field>: "<text>"`; else null. */
export function outOfScope(p: ProductRow): string | null {
  return p.level === 'excluded' ? `out of scope: ${p.scope_evidence ?? 'the notice names other lots or dates'}` : null;
}

/** The note after a list cut to its budget: `… and 212 more of your products (200 matches, 12 possible), in the attached recalls-2026-11-26.csv.` */
export function productsMore(left: readonly ProductRow[], attachment: string | undefined): string {
  const by = new Map<string, number>();
  for (const p of left) by.set(p.level, (by.get(p.level) ?? 0) + 1);
  const levels = [...by].map(
    ([level, n]) => `${groupDigits(n)} ${level === 'match' ? (n === 1 ? 'match' : 'matches') : level}`,
  );
  const where = attachment === undefined ? '' : `, in the attached ${attachment}`;
  return `… and ${groupDigits(left.length)} more of your products (${levels.join(', ')})${where}.`;
}
