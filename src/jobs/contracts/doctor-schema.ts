// The contract of `doctor -f json` (and each line of -f jsonl) as a zod schema.
import { z } from 'zod';

export const DoctorCheckSchema = z.object({
  name: z.string(),
  status: z.enum(['ok', 'warn', 'fail', 'skip']),
  detail: z.string(),
  hint: z.string().optional(),
});

export const DoctorReportSchema = z
  .object({ status: z.enum(['ok', 'warn', 'fail']), checks: z.array(DoctorCheckSchema) })
  .describe('recall-feed doctor -f json; -f jsonl prints one check per line.');
