// Each recall field's column type, read from the record schema, for output formats with typed columns (Parquet).
import type { z } from 'zod';
import { SORT_FIELDS } from './constants.js';
import { SpecRecallSchema } from './schemas.js';

/** The same names as src/output's ColumnKind (the library imports nothing of the CLI's output). */
export type RecallColumnKind = 'integer' | 'timestamp' | 'strings' | 'json' | 'string';

function kindOf(field: string, schema: z.ZodType): RecallColumnKind {
  const def = schema.def as { type: string; innerType?: z.ZodType; element?: z.ZodType };
  if (def.type === 'nullable' || def.type === 'optional') return kindOf(field, def.innerType as z.ZodType);
  if (def.type === 'number') return (schema as z.ZodNumber).isInt ? 'integer' : 'json';
  if (def.type === 'array') return (def.element as z.ZodType).def.type === 'string' ? 'strings' : 'json';
  // The sort fields are the record's instants (ISO 8601; no offset means UTC): timestamps.ts reads them too.
  if (def.type === 'string') return (SORT_FIELDS as readonly string[]).includes(field) ? 'timestamp' : 'string';
  return 'json';
}

/** Every spec field's kind: `id` an integer, the three `*_at` timestamps, `risk_types` a list of strings... */
export const RECALL_COLUMN_KINDS: Readonly<Record<string, RecallColumnKind>> = Object.fromEntries(
  Object.entries(SpecRecallSchema.shape).map(([field, schema]) => [field, kindOf(field, schema as z.ZodType)]),
);
