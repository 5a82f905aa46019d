// The contract of `digest -f json` (docs/digest.md) as a zod schema: `recall-feed schema digest`.
import { z } from 'zod';
import { RecallSchema } from '../../api/schemas.js';
import { MonitoringHealthSchema } from '../cases/case-schema.js';
import { MatchRowSchema } from '../match/match-row-schema.js';

const valueCount = z.object({ value: z.string(), count: z.number().int().min(1) });

export const DigestSchema = z
  .object({
    period: z.object({ from: z.string(), to: z.string() }),
    recalls: z.object({ new: z.array(RecallSchema), updated: z.array(RecallSchema) }),
    counts: z.object({
      new: z.number().int(),
      updated: z.number().int(),
      by_severity: z.array(valueCount),
      by_source: z.array(valueCount),
    }),
    matches: z.array(MatchRowSchema).nullable(),
    health: MonitoringHealthSchema.extend({ sources_checked: z.boolean() }),
  })
  .describe(
    'What the archive stored in a period and whether monitoring held: recall-feed digest -f json, and the json webhook of digest.',
  );
