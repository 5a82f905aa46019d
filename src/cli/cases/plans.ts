// What the `cases` commands run with, every flag checked.
import type { CaseQuery, CaseStep } from '../../archive/cases-model.js';
import type { RecordFilter } from '../../filters/record-filter.js';
import type { DbChoice } from '../archive/archive-file.js';

export interface CasesListPlan {
  db: DbChoice;
  query: CaseQuery;
  filter: RecordFilter;
  formulaGuard: boolean;
  bom: boolean;
}

export interface CaseStepPlan {
  db: DbChoice;
  id: number;
  step: CaseStep;
  note: string | null;
  by: string;
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
  'events',
] as const;

/** What a table shows of each case on a terminal. */
export const CASE_TABLE_COLUMNS = [
  'id',
  'status',
  'level',
  'reason',
  'recall_id',
  'catalog_key',
  'outcome',
  'updated_at',
  'alert_title',
];
