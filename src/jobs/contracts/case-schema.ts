// The contracts of `cases` (a case with its timeline) and `report -f json`, as zod schemas: `recall-feed schema case|report`.
import { z } from 'zod';
import { CASE_STATUSES, OUTCOMES } from '../../archive/cases-model.js';

export const CaseEventSchema = z.object({
  seq: z.number().int().min(1),
  at: z.string().describe('ISO 8601 UTC'),
  actor: z.string(),
  action: z.enum(['opened', 'waiting', 'resolved', 'reopened', 'recall-updated']),
  status: z.enum(CASE_STATUSES),
  outcome: z.enum(OUTCOMES).nullable(),
  note: z.string().nullable(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});

const caseFields = {
  id: z.number().int().min(1),
  status: z.enum(CASE_STATUSES),
  recall_id: z.number().int(),
  level: z.string(),
  reason: z.string(),
  catalog_row: z.record(z.string(), z.string()),
  catalog_key: z.string(),
  alert_title: z.string().nullable(),
  opened_at: z.string(),
  updated_at: z.string(),
  outcome: z.enum(OUTCOMES).nullable(),
  due_at: z.string().nullable().describe('ISO 8601 UTC: when the case should be acted on (match --open-cases --sla)'),
  sla: z.string().nullable().describe('the SLA the due time came from: 2wd, 24h, 2wd:FR'),
  risk_severity: z.string().nullable(),
  product_name: z.string().nullable(),
  events: z.array(CaseEventSchema),
};

export const CaseSchema = z
  .object({ ...caseFields, recall: z.record(z.string(), z.unknown()).nullable().optional() })
  .describe('One case: recall-feed cases -f jsonl (one per line), cases show -f json (with its recall).');

const gap = z.object({ from: z.string(), to: z.string(), hours: z.number() });

export const MonitoringHealthSchema = z.object({
  complete: z.boolean(),
  runs: z.object({ ok: z.number().int(), failed: z.number().int(), interrupted: z.number().int() }),
  last_ok_sync: z.string().nullable(),
  gaps: z.array(gap),
  sources_missing: z.array(z.string()),
});

export const ReportSchema = z
  .object({
    title: z.string(),
    generated_at: z.string(),
    period: z.object({ since: z.string().nullable(), until: z.string() }),
    coverage: z.object({
      catalogue: z
        .object({
          file: z.string(),
          rows: z.number().int(),
          with_identifier: z.number().int(),
          without_identifier: z.number().int(),
          key_column: z.string().nullable(),
          rows_with_cases: z.number().int(),
        })
        .nullable(),
      monitoring: MonitoringHealthSchema,
    }),
    summary: z.object({
      cases: z.number().int(),
      open: z.number().int(),
      waiting: z.number().int(),
      closed: z.number().int(),
      outcomes: z.record(z.string(), z.number().int()),
    }),
    statement: z.object({
      text: z.string(),
      incomplete: z.boolean(),
      as_of: z.string(),
      rows_without_match: z.number().int().nullable(),
    }),
    chain: z.object({
      intact: z.boolean(),
      events: z.number().int(),
      head: z.string(),
      problem: z.string().nullable(),
    }),
    cases: z.array(z.object(caseFields)),
  })
  .describe('The evidence report: recall-feed report -f json.');
