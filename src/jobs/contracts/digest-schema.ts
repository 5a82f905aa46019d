// The contract of `digest -f json` (docs/digest.md) as a zod schema: `recall-feed schema digest`.
import { z } from 'zod';
import { RecallSchema } from '../../api/schemas.js';
import { CASE_STATUSES } from '../../archive/cases-model.js';
import { MonitoringHealthSchema } from './case-schema.js';
import { MatchRowSchema } from './match-row-schema.js';

const valueCount = z.object({ value: z.string(), count: z.number().int().min(1) });

/** One catalogue row and the recall it matched (ProductRow in your-products.ts), as every digest format opens with it. */
const ProductRowSchema = z.object({
  level: MatchRowSchema.shape.level,
  reason: MatchRowSchema.shape.reason,
  key: z.string().nullable().describe("the key column's value (sku, or --key), else null"),
  key_column: z.string().nullable(),
  name: z.string().nullable().describe("the catalogue's name column, when it has one"),
  catalog_line: MatchRowSchema.shape.catalog_line,
  recall_id: z.number().int().nullable(),
  alert_title: z.string().nullable(),
  risk_severity: z.string().nullable(),
  hazard: z.string().nullable().describe("the recall's hazard_description"),
  data_source: z.string().nullable(),
  published_at: z.string().nullable(),
  source_url: z.string().nullable().describe('an http(s) link to the notice, else null'),
  case: z
    .object({ id: z.number().int().min(1), status: z.enum(CASE_STATUSES), due_at: z.string().nullable() })
    .nullable()
    .describe('the case opened on this pair (match --open-cases), when there is one'),
  scope: z.string().nullable(),
  scope_evidence: z
    .string()
    .nullable()
    .describe("the notice's words that decided the scope: why an excluded row is not affected"),
});

/** A case overdue or due soon (deadlines.ts), as every digest format opens with it. */
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

export const DigestSchema = z
  .object({
    period: z.object({ from: z.string(), to: z.string() }),
    deadlines: z
      .object({
        as_of: z.string(),
        due_soon_until: z.string(),
        overdue: z.number().int().min(0),
        due_soon: z.number().int().min(0),
        cases: z.array(DeadlineSchema),
      })
      .describe('open and waiting cases past their due time, or due by the end of the next working day'),
    products: z
      .array(ProductRowSchema)
      .nullable()
      .describe(
        'null without --catalog; your products in reading order: matches, then possibles, then excluded rows (out of the lots and dates named); within each, severity, newest',
      ),
    recalls: z.object({ new: z.array(RecallSchema), updated: z.array(RecallSchema) }),
    counts: z.object({
      new: z.number().int(),
      updated: z.number().int(),
      by_severity: z.array(valueCount),
      by_source: z.array(valueCount),
      products: z
        .object({
          period: z
            .object({ from: z.string(), to: z.string() })
            .describe("what is counted: the recalls stored (new or updated) in the period, the digest's"),
          recalls_checked: z.number().int().min(0),
          pairs: z
            .object({
              match: z.number().int().min(0),
              possible: z.number().int().min(0),
              excluded: z.number().int().min(0),
              closed: z.number().int().min(0).describe('match and possible pairs whose case is closed'),
            })
            .describe('pairs of a catalogue row and a recall by level, as recall-feed match counts its rows'),
          rows: z
            .object({
              match: z.number().int().min(0),
              match_serious: z.number().int().min(0),
              possible: z.number().int().min(0),
              closed: z.number().int().min(0).describe("rows whose every pair's case is closed"),
            })
            .describe(
              'catalogue rows with a pair still to act on (no case, or open or waiting), each once by its strongest level: what the subject counts',
            ),
        })
        .nullable()
        .describe('your products counted once for every format of the digest; null without --catalog'),
    }),
    matches: z.array(MatchRowSchema).nullable(),
    health: MonitoringHealthSchema.extend({
      sources_checked: z.boolean(),
      writes_settled: z
        .boolean()
        .describe("every page stamped before the period's end had committed when the digest read (docs/digest.md)"),
    }),
  })
  .describe(
    'What the archive stored in a period, the cases overdue or due soon, and whether monitoring held: recall-feed digest -f json, and the json webhook of digest.',
  );
