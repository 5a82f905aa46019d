// A recall as a search hit: the few fields an assistant cites, the link only when it is a safe http(s) URL.
import { z } from 'zod';
import { RecallSchema } from '../../api/schemas.js';
import { plain, safeLink } from '../../output/recall-text.js';
import { cutText } from '../fit.js';

const text = z.string().nullable();

export const RecallHitSchema = z.object({
  id: RecallSchema.shape.id,
  title: text.describe('alert_title'),
  brand: text.describe('product_brand'),
  product: text.describe('product_name'),
  severity: text.describe('risk_severity'),
  source: RecallSchema.shape.data_source.describe('data_source'),
  source_url: text.describe("the regulator's notice: an http(s) link, else null"),
  published_at: RecallSchema.shape.published_at,
});

export type RecallHit = z.infer<typeof RecallHitSchema>;

/** The longest text a hit gives: a title is a line, and a hit is one of up to 100 (the whole is one get_recall away). */
const HIT_TEXT = 500;

/** Control characters and line breaks gone: a hit is read by people and models alike. Cut, marked, when too long. */
function field(record: Record<string, unknown>, name: string): string | null {
  const v = plain(record, name);
  return v === '' ? null : cutText(v, HIT_TEXT);
}

export function recallHit(record: Record<string, unknown>): RecallHit {
  return {
    id: record.id as number,
    title: field(record, 'alert_title'),
    brand: field(record, 'product_brand'),
    product: field(record, 'product_name'),
    severity: field(record, 'risk_severity'),
    source: String(record.data_source ?? ''),
    source_url: safeLink(record) ?? null,
    published_at: String(record.published_at ?? ''),
  };
}

/** One hit as a text line. */
export function hitLine(h: RecallHit): string {
  const what = [h.brand, h.product].filter((x) => x !== null).join(' ');
  return `- ${h.id} [${h.severity ?? 'severity unknown'}] ${h.title ?? what} (${h.source}, ${h.published_at.slice(0, 10)})${h.source_url ? ` ${h.source_url}` : ''}`;
}
