// The contract of a `match` row (jsonl, json, and the digest's matches) as a zod schema: `recall-feed schema match`.
import { z } from 'zod';

/** The tier and why, the catalogue row's own columns (strings, as read), then what identifies the recall. */
export const MatchRowSchema = z
  .object({
    level: z
      .enum(['match', 'possible', 'excluded'])
      .describe("excluded: the row is out of the notice's lots and dates (scope out-of-scope); never a match"),
    reason: z.enum(['barcode', 'model+brand', 'brand+full-name', 'barcode-unchecked', 'model', 'brand+name']),
    catalog_line: z.number().int().min(1).describe('the catalogue line (1 is the first data row after a header)'),
    recall_id: z.number().int().nullable(),
    alert_title: z.string().nullable(),
    risk_severity: z.string().nullable(),
    data_source: z.string().nullable(),
    published_at: z.string().nullable(),
    source_url: z.string().nullable(),
    scope: z.enum(['in-scope', 'out-of-scope', 'unknown']),
    scope_evidence: z
      .string()
      .describe("the notice's words that decided the scope; empty when it names no lot or date"),
    explain: z.string().optional().describe('--explain: which rule fired on which normalised values'),
  })
  .catchall(z.string().describe('a catalogue column, as read (a name we use ourselves becomes catalog.<name>)'))
  .describe('One catalogue row that a recall touches: recall-feed match -f jsonl, one per line.');
