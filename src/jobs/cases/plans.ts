// What the `cases` commands run with, every flag checked.
import type { CaseQuery, CaseStep, DueSelection } from '../../archive/cases-model.js';
import type { RecordFilter } from '../../filters/record-filter.js';
import type { DbChoice } from '../../runtime/archive/archive-file.js';

export interface CasesListPlan {
  db: DbChoice;
  query: CaseQuery;
  filter: RecordFilter;
  formulaGuard: boolean;
  bom: boolean;
  /** `--overdue`, `--due-soon`: only open and waiting cases past their due time, or due by the next working day's end. */
  due: DueSelection;
}

export interface CaseStepPlan {
  db: DbChoice;
  /** The cases named by id; or undefined, and `select` says which. */
  ids: number[] | undefined;
  /** The record filters and --level/--status: every case they select (one transaction, an event each). */
  select?: { query: CaseQuery; filter: RecordFilter; due: DueSelection } | undefined;
  step: CaseStep;
  note: string | null;
  by: string;
  /** --yes: a bulk step on a terminal does not ask first. */
  yes: boolean;
}

/** The fields of a case in jsonl, json and csv, in this order (`events` holds the whole timeline). */
export const CASE_FIELDS = [
  'id',
  'status',
  'recall_id',
  'level',
  'reason',
  'catalog_row',
  'catalog_key',
  'alert_title',
  'opened_at',
  'updated_at',
  'outcome',
  'due_at',
  'sla',
  'risk_severity',
  'product_name',
  'events',
] as const;

/** What a table shows of each case on a terminal. */
export const CASE_TABLE_COLUMNS = [
  'id',
  'status',
  'level',
  'risk_severity',
  'catalog_key',
  'product_name',
  'recall_id',
  'due_at',
  'outcome',
  'alert_title',
];
