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
  .describe(
    'One case: recall-feed cases -f jsonl (one per line), cases show -f json (with its recall; several ids: an array of them).',
  );

const gap = z.object({ from: z.string(), to: z.string(), hours: z.number() });

export const MonitoringHealthSchema = z.object({
  complete: z.boolean(),
  runs: z.object({ ok: z.number().int(), failed: z.number().int(), interrupted: z.number().int() }),
  last_ok_sync: z.string().nullable(),
  gaps: z.array(gap),
  sources_missing: z.array(z.string()),
});

const nullableText = z.string().nullable();

/** A pair the report's own matcher run found: with no case (uncased) or out of the notice's lots and dates (excluded). */
const pairFields = {
  catalog_key: z.string(),
  line: z.number().int(),
  product_name: nullableText,
  reason: z.string(),
  recall_id: z.number().int(),
  alert_title: nullableText,
  risk_severity: nullableText,
};

const recallFacts = z.object({
  risk_severity: nullableText,
  hazard: nullableText,
  source_url: nullableText,
  published_at: nullableText,
});

export const ReportSchema = z
  .object({
    title: z.string(),
    generated_at: z.string(),
    period: z.object({ since: z.string().nullable(), until: z.string() }),
    provenance: z.object({
      tool: z.string(),
      version: z.string(),
      archive: z.string(),
      catalogue: z.object({ file: z.string(), sha256: z.string() }).nullable(),
      chain_head: z
        .string()
        .nullable()
        .describe(
          "the case log's head hash (write it down to detect a later truncation); null when the chain is broken",
        ),
    }),
    coverage: z.object({
      catalogue: z
        .object({
          file: z.string(),
          rows: z.number().int(),
          with_identifier: z.number().int(),
          without_identifier: z.number().int(),
          refused: z.array(
            z.object({ line: z.number().int(), catalog_key: z.string(), value: z.string(), reason: z.string() }),
          ),
          key_column: z.string().nullable(),
          rows_with_cases: z.number().int(),
          rows_matching: z.number().int(),
          matches_without_case: z
            .array(z.object({ ...pairFields, level: z.string() }))
            .describe('pairs at a level cases are opened at that have no case: they make the verdict incomplete'),
          not_opened: z
            .array(z.object({ ...pairFields, level: z.string() }))
            .describe('pairs below the levels cases are opened at (possible after --level match): no case by choice'),
          case_levels: z
            .array(z.string())
            .nullable()
            .describe(
              'the levels match --open-cases opens cases at, as the archive recorded them; null when never recorded',
            ),
          excluded: z
            .array(
              z.object({
                ...pairFields,
                scope_evidence: z.string(),
                row_lot: nullableText.describe(
                  "the row's lot cell, as the catalogue writes it; with several lot columns filled, each as `header: value`, joined by `; `",
                ),
                row_date: nullableText.describe(
                  "the row's best-before cell, as the catalogue writes it; with several date columns filled, each as `header: value`, joined by `; `",
                ),
                excluded_on: z.string().describe('which of them the notice proved outside: lot, date, or lot and date'),
              }),
            )
            .describe(
              "Pairs the matcher found whose row's lot or date the notice does not name: never matches, never making the statement incomplete.",
            ),
          to_verify: z
            .array(
              z.object({
                catalog_key: z.string(),
                line: z.number().int(),
                product_name: nullableText,
                level: z.string(),
                recall_id: z.number().int(),
                alert_title: nullableText,
                row_lot: nullableText,
                row_date: nullableText,
                verify: z.string().describe("what to check, in the notice's words: verify lot: …, verify date: …"),
              }),
            )
            .describe("pairs at match or possible whose lot or date the notice's scope could not settle"),
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
      overdue: z.number().int(),
      next_due: z
        .object({ case_id: z.number().int(), due_at: z.string() })
        .nullable()
        .describe('the open or waiting case due first, overdue ones included; null when none has a due time'),
      time_to_action: z.object({
        closed: z.number().int(),
        median_hours: z.number().nullable(),
        p90_hours: z.number().nullable(),
        with_due: z.number().int(),
        closed_within_sla: z.number().int(),
        share_within_sla: z.number().nullable(),
      }),
    }),
    verdict: z
      .object({
        state: z.enum(['complete', 'complete-since-start', 'incomplete']),
        text: z.string().describe('the verdict as the page and stderr say it'),
        monitoring_began: z
          .string()
          .nullable()
          .describe("from when the archive's first successful sync fetched recalls; null before any"),
        unmonitored_hours: z.number().describe('hours of the period before monitoring began: never monitored'),
      })
      .describe('the one verdict on the period: monitoring and the cases owed'),
    statement: z.object({
      text: z.string(),
      incomplete: z.boolean(),
      as_of: z.string(),
      rows_without_match: z.number().int().nullable(),
    }),
    chain: z.object({
      intact: z.boolean(),
      events: z.number().int().describe('the events that checked out: all of them, or those before the break'),
      head: z.string().nullable().describe('the hash of the last event; null when the chain is broken'),
      problem: z.string().nullable(),
    }),
    cases: z.array(
      z.object({
        ...caseFields,
        recall: recallFacts.nullable(),
        closed_at: nullableText,
        time_to_action_hours: z.number().nullable(),
        events: z.array(CaseEventSchema.extend({ number: z.number().int().min(1) })),
      }),
    ),
  })
  .describe('The evidence report: recall-feed report -f json.');
