// The contract of `digest -f json` (docs/digest.md) as a zod schema: `recall-feed schema digest`.
import { z } from 'zod';
import { RecallSchema } from '../../api/schemas.js';
import { MonitoringHealthSchema } from '../cases/case-schema.js';
import { MatchRowSchema } from '../match/match-row-schema.js';

const valueCount = z.object({ value: z.string(), count: z.number().int().min(1) });

const DeadlineSchema = z.object({
  state: z.enum(['overdue', 'due-soon']),
  case_id: z.number().int(),
  status: z.string(),
  level: z.string(),
  catalog_key: z.string(),
  product_name: z.string().nullable(),
  recall_id: z.number().int(),
  alert_title: z.string().nullable(),
  risk_severity: z.string().nullable(),
  due_at: z.string(),
  sla: z.string().nullable(),
  hours_left: z.number(),
});

const ProductSchema = z.object({
  level: z.string(),
  reason: z.string(),
  key: z.string().nullable(),
  key_column: z.string().nullable(),
  name: z.string().nullable(),
  catalog_line: z.number().int(),
  recall_id: z.number().int().nullable(),
  alert_title: z.string().nullable(),
  risk_severity: z.string().nullable(),
  hazard: z.string().nullable(),
  data_source: z.string().nullable(),
  published_at: z.string().nullable(),
  source_url: z.string().nullable(),
  case: z.object({ id: z.number().int(), status: z.string(), due_at: z.string().nullable() }).nullable(),
});

export const DigestSchema = z
  .object({
    period: z.object({ from: z.string(), to: z.string() }),
    deadlines: z.object({
      as_of: z.string(),
      due_soon_until: z.string(),
      overdue: z.number().int().min(0),
      due_soon: z.number().int().min(0),
      cases: z.array(DeadlineSchema),
    }),
    products: z.array(ProductSchema).nullable(),
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
    'What the archive stored in a period, the cases overdue or due soon, and whether monitoring held: recall-feed digest -f json, and the json webhook of digest.',
  );
