// The case store: opens cases for match pairs (never twice), lists them with their timelines, and records each step.
import type Database from 'better-sqlite3';
import { compileFilter, isEmptyFilter, type RecordFilter } from '../../filters/record-filter.js';
import { candidateDetail, canonicalJson } from '../cases-chain.js';
import { CaseNotFoundError, CasesNotKeptError } from '../cases-errors.js';
import { caseView, EVENT_COLUMNS, eventsByCase, stepFields } from '../cases-steps.js';
import { EventWriter } from './cases-events.js';
import type {
  CaseCandidate,
  CaseRow,
  CaseEventView,
  CaseQuery,
  CaseStatus,
  CaseStep,
  CaseView,
  StepBy,
} from '../cases-model.js';

type EventRow = CaseEventView & { case_id: number; detail: string | null };

function where(q: CaseQuery): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  const inList = (column: string, values: readonly unknown[]) => {
    parts.push(`${column} IN (${values.map(() => '?').join(', ')})`);
    params.push(...values);
  };
  inList('c.status', q.statuses.length > 0 ? q.statuses : ['']);
  if (q.levels && q.levels.length > 0) inList('c.level', q.levels);
  if (q.ids) inList('c.id', q.ids.length > 0 ? q.ids : [-1]);
  return { sql: parts.join(' AND '), params };
}

/** Whether the file has the case tables: one written by an earlier version and opened read-only has not. */
export function keepsCases(db: Database.Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'case_events'").get() !== undefined;
}

export class CaseStore {
  private readonly db: Database.Database;
  private writer: EventWriter | undefined;

  constructor(db: Database.Database) {
    this.db = db;
    if (!keepsCases(db)) throw new CasesNotKeptError(db.name);
  }

  private get events(): EventWriter {
    this.writer ??= new EventWriter(this.db);
    return this.writer;
  }

  /** One transaction: a case and its opened event for each new pair; a pair that has a case is left alone. */
  open(
    candidates: readonly CaseCandidate[],
    by: StepBy,
    levels?: readonly string[],
  ): { opened: number; existing: number } {
    const insert = this.db.prepare(
      `INSERT INTO cases (recall_id, catalog_key, level, reason, catalog_row, alert_title, status, outcome, opened_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'open', NULL, ?, ?) ON CONFLICT (catalog_key, recall_id) DO NOTHING RETURNING id`,
    );
    const run = this.db.transaction(() => {
      if (levels !== undefined)
        this.db
          .prepare("INSERT OR REPLACE INTO archive_meta (key, value) VALUES ('case_levels', ?)")
          .run(levels.join(','));
      let opened = 0;
      for (const c of candidates) {
        const row = canonicalJson(c.catalogRow);
        const made = insert.get(c.recallId, c.catalogKey, c.level, c.reason, row, c.alertTitle, by.at, by.at) as
          | { id: number }
          | undefined;
        if (!made) continue;
        opened++;
        const detail = candidateDetail(c, row);
        this.events.append({ caseId: made.id, ...by, action: 'opened', status: 'open', outcome: null, detail });
      }
      return { opened, existing: candidates.length - opened };
    });
    return run.immediate();
  }

  /** The cases `q` asks for, oldest first, each with its timeline; `filter` applies to the recall as archived. */
  list(q: CaseQuery, filter: RecordFilter = {}): CaseView[] {
    const w = where(q);
    const rows = this.db
      .prepare(
        `SELECT c.*, r.raw AS recall_raw FROM cases c LEFT JOIN recalls r ON r.id = c.recall_id WHERE ${w.sql} ORDER BY c.id`,
      )
      .all(...w.params) as (CaseRow & { recall_raw: string | null })[];
    const keep = isEmptyFilter(filter) ? undefined : compileFilter(filter);
    const chosen = keep
      ? rows.filter((r) => r.recall_raw !== null && keep(JSON.parse(r.recall_raw) as Record<string, unknown>))
      : rows;
    const byCase = eventsByCase(
      this.db
        .prepare(
          `SELECT ${EVENT_COLUMNS} FROM case_events e JOIN cases c ON c.id = e.case_id WHERE ${w.sql} ORDER BY e.case_id, e.seq`,
        )
        .iterate(...w.params) as IterableIterator<EventRow>,
    );
    return chosen.map((r) => caseView(r, byCase.get(r.id)));
  }

  /** One case with its timeline, and its recall as the archive holds it now (undefined when it does not). */
  get(id: number): { case: CaseView; recall: Record<string, unknown> | undefined } {
    const [found] = this.list({ statuses: ['open', 'waiting', 'closed'], ids: [id] });
    if (!found) throw new CaseNotFoundError(id);
    const raw = this.db.prepare('SELECT raw FROM recalls WHERE id = ?').get(found.recall_id) as
      | { raw: string }
      | undefined;
    return { case: found, recall: raw ? (JSON.parse(raw.raw) as Record<string, unknown>) : undefined };
  }

  /** Resolve, wait or reopen: checked against the status inside the write transaction, then appended. */
  step(id: number, step: CaseStep, by: StepBy): CaseView {
    return this.stepMany([id], step, by)[0] as CaseView;
  }

  /**
   * The same step on every case of `ids`, in one transaction, one event each: an unknown id, or a case whose
   * status does not allow the step, refuses the whole step (nothing is written).
   */
  stepMany(ids: readonly number[], step: CaseStep, by: StepBy): CaseView[] {
    this.db
      .transaction(() => {
        const read = this.db.prepare('SELECT status, outcome FROM cases WHERE id = ?');
        const planned = ids.map((id) => {
          const row = read.get(id) as { status: CaseStatus; outcome: string | null } | undefined;
          if (!row) throw new CaseNotFoundError(id);
          return { id, fields: stepFields(id, row, step) };
        });
        for (const { id, fields } of planned) this.events.append({ caseId: id, ...by, ...fields, detail: null });
      })
      .immediate();
    const after = new Map(this.list({ statuses: ['open', 'waiting', 'closed'], ids }).map((c) => [c.id, c]));
    return ids.map((id) => after.get(id) as CaseView);
  }
}
