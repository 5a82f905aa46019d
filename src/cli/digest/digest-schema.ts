// The contract of `digest -f json` (docs/digest.md) as a zod schema: `recall-feed schema digest`.
import { z } from 'zod';
import { RecallSchema } from '../../api/schemas.js';
import { MonitoringHealthSchema } from '../cases/case-schema.js';
import { MatchRowSchema } from '../match/match-row-schema.js';

const valueCount = z.object({ value: z.string(), count: z.number().int().min(1) });

const text = z.string().nullable();

/** One catalogue row and the recall it touches, as "your products" lists it (your-products.ts ProductRow). */
const ProductSchema = z.object({
  level: z.string(),
  reason: z.string(),
  key: text,
  key_column: text,
  name: text,
  catalog_line: z.number().int(),
  recall_id: z.number().int().nullable(),
  alert_title: text,
  risk_severity: text,
  hazard: text,
  data_source: text,
  published_at: text,
  source_url: text,
  case: z.object({ id: z.number().int(), status: z.string(), due_at: text }).nullable(),
  scope: text,
  scope_evidence: text.describe("The notice's words that decided the scope: why an excluded row is not affected."),
});

export const DigestSchema = z
  .object({
    period: z.object({ from: z.string(), to: z.string() }),
    products: z
      .array(ProductSchema)
      .nullable()
      .describe('With --catalog: matches, then possibles, then excluded rows (out of the lots and dates named).'),
    recalls: z.object({ new: z.array(RecallSchema), updated: z.array(RecallSchema) }),
    counts: z.object({
      new: z.number().int(),
      updated: z.number().int(),
      by_severity: z.array(valueCount),
      by_source: z.array(valueCount),
    }),
    matches: z.array(MatchRowSchema).nullable(),
    health: MonitoringHealthSchema.extend({ sources_checked: z.boolean(), writes_settled: z.boolean() }),
  })
  .describe(
    'What the archive stored in a period and whether monitoring held: recall-feed digest -f json, and the json webhook of digest.',
  );
