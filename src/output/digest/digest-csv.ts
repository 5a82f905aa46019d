// The digest's CSV attachment: every recall of the period, one row each, with the catalogue rows it touches; quoted by csv-stringify, formulas guarded.
import { stringify } from 'csv-stringify/sync';
import { csvCell } from '../cells.js';
import { type Digest, periodLastMs } from './digest-view.js';
import { productName } from './product-text.js';

export const DIGEST_CSV_COLUMNS = [
  'change',
  'id',
  'published_at',
  'risk_severity',
  'data_source',
  'alert_title',
  'product_name',
  'product_brand',
  'product_model_numbers',
  'hazard_description',
  'source_url',
  'your_products',
] as const;

/** The attachment's file name: the date of the period's last instant, as the label's, e.g. `recalls-2026-11-26.csv`. */
export const digestCsvName = (d: Digest) => `recalls-${new Date(periodLastMs(d)).toISOString().slice(0, 10)}.csv`;

/** The whole file: a BOM (spreadsheets then read UTF-8), the header, a row per recall (new, then updated). */
export function digestCsv(d: Digest): string {
  const touched = new Map<number, string[]>();
  for (const p of d.products ?? []) {
    if (p.recall_id === null) continue;
    const list = touched.get(p.recall_id) ?? [];
    // The case's state as the counts read it: a pair whose case is closed is no longer one to act on.
    const kase = p.case === null ? '' : ` (case ${p.case.id} ${p.case.status})`;
    list.push(`${p.level}: ${productName(p)}${kase}`);
    touched.set(p.recall_id, list);
  }
  const rows = [
    ...d.recalls.new.map((r): Record<string, unknown> => ({ ...r, change: 'new' })),
    ...d.recalls.updated.map((r): Record<string, unknown> => ({ ...r, change: 'updated' })),
  ].map((r) => {
    const row: Record<string, unknown> = { ...r, your_products: touched.get(Number(r.id)) ?? null };
    return DIGEST_CSV_COLUMNS.map((c) => csvCell(row[c], true));
  });
  return `\uFEFF${stringify([[...DIGEST_CSV_COLUMNS], ...rows], { record_delimiter: 'unix', quoted_match: /\r/ })}`;
}
