// The contract of `sync -f json` (one summary per sync; one line per sync with --watch) as a zod schema.
import { z } from 'zod';

const count = z.number().int().min(0);

export const SyncSummarySchema = z
  .object({ fetched: count, new: count, updated: count, unchanged: count, total: count })
  .describe('One sync: recall-feed sync -f json (total is the archive size after it).');
