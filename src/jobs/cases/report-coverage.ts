// The catalogue side of the report: the matcher run over the archive it has open (rows matching, matches without a
// case, pairs excluded by lot or date), rows a recall can be matched on, rows whose identifier was refused, and the recalls the cases are on.
import type { CaseView } from '../../archive/index.js';
import type { Catalogue } from '../../match/catalogue.js';
import { roleHeaders } from '../../match/catalogue-columns.js';
import type { CatalogueIndex } from '../../match/matcher.js';
import type { StatusReporter } from '../../runtime/terminal/status.js';
import { rowKeys } from '../matching/open-cases.js';
import { utcMs } from '../../output/api-time.js';
import type {
  CatalogueCoverage,
  ExcludedRow,
  RecallFacts,
  UncasedMatch,
  VerifyRow,
} from '../../output/report/report-model.js';

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** What a report shows of a recall. */
export function recallFacts(recall: Record<string, unknown>): RecallFacts {
  return {
    risk_severity: text(recall.risk_severity),
    hazard: text(recall.hazard_description) ?? text(recall.hazard),
    source_url: text(recall.source_url),
    published_at: text(recall.published_at),
  };
}

/** Recalls published before `untilMs` (or without a readable date: they are checked rather than skipped). */
const publishedBefore = (recall: Record<string, unknown>, untilMs: number) => {
  const at = utcMs(recall.published_at);
  return !Number.isFinite(at) || at < untilMs;
};

/**
 * One pass over the archive's recalls: each is matched against the catalogue (the matcher, as `match` does), so the
 * report's statement rests on what the archive holds now, not on which cases happened to be opened. Also gathers the
 * recalls the cases are on.
 */
export async function checkCatalogue(
  file: string,
  catalogue: Catalogue,
  column: string | undefined,
  index: CatalogueIndex,
  cases: readonly CaseView[],
  records: AsyncIterable<Record<string, unknown>>,
  untilMs: number,
  status: StatusReporter,
  caseLevels: readonly string[] | undefined,
): Promise<{ coverage: CatalogueCoverage; recalls: Map<number, RecallFacts> }> {
  const keyOf = rowKeys(catalogue, column, status);
  const pairs = new Set(cases.map((c) => `${c.catalog_key}\u0000${c.recall_id}`));
  const caseRecalls = new Set(cases.map((c) => c.recall_id));
  const recalls = new Map<number, RecallFacts>();
  const matchingKeys = new Set<string>();
  const uncased = new Map<string, UncasedMatch>();
  const notOpened = new Map<string, UncasedMatch>();
  const excluded = new Map<string, ExcludedRow>();
  const toVerify = new Map<string, VerifyRow>();
  const nameColumn = catalogue.columns.name;
  // Every lot (date) column the matcher read, not only the first: one filled cell as written, several with their headers.
  const cells = (row: Catalogue['rows'][number], role: 'lot' | 'best_before') => {
    const filled = roleHeaders(catalogue.columns, role).flatMap((h) => {
      const v = text(row.values[h]?.trim());
      return v === null ? [] : [[h, v] as const];
    });
    return filled.length <= 1 ? (filled[0]?.[1] ?? null) : filled.map(([h, v]) => `${h}: ${v}`).join('; ');
  };
  for await (const recall of records) {
    if (typeof recall.id === 'number' && caseRecalls.has(recall.id)) recalls.set(recall.id, recallFacts(recall));
    if (typeof recall.id !== 'number' || !publishedBefore(recall, untilMs)) continue;
    for (const m of index.match(recall)) {
      const key = keyOf(m.row);
      const pair = `${key}\u0000${recall.id}`;
      const productName = nameColumn === undefined ? null : text(m.row.values[nameColumn]?.trim());
      // Out of the notice's lots and dates: no match, no case owed, but listed with the words that decided it.
      if (m.level === 'excluded') {
        if (!excluded.has(pair))
          excluded.set(pair, {
            catalog_key: key,
            line: m.row.line,
            product_name: productName,
            reason: m.reason,
            recall_id: recall.id,
            alert_title: text(recall.alert_title),
            risk_severity: text(recall.risk_severity),
            scope_evidence: m.scopeEvidence,
            row_lot: cells(m.row, 'lot'),
            row_date: cells(m.row, 'best_before'),
            excluded_on: m.excludedOn ?? 'lot or date',
          });
        continue;
      }
      matchingKeys.add(key);
      // A pair the notice's scope could not settle: said once, case or not, with what to check.
      if (m.scope === 'unknown' && m.scopeEvidence.startsWith('verify ') && !toVerify.has(pair))
        toVerify.set(pair, {
          catalog_key: key,
          line: m.row.line,
          product_name: productName,
          level: m.level,
          recall_id: recall.id,
          alert_title: text(recall.alert_title),
          row_lot: cells(m.row, 'lot'),
          row_date: cells(m.row, 'best_before'),
          verify: m.scopeEvidence,
        });
      if (pairs.has(pair) || uncased.has(pair) || notOpened.has(pair)) continue;
      // Below the levels cases are opened at: no case by the user's choice, not a case missing.
      const owed = caseLevels === undefined || caseLevels.includes(m.level);
      (owed ? uncased : notOpened).set(pair, {
        catalog_key: key,
        line: m.row.line,
        product_name: productName,
        level: m.level,
        reason: m.reason,
        recall_id: recall.id,
        alert_title: text(recall.alert_title),
        risk_severity: text(recall.risk_severity),
      });
    }
  }
  const refusedLines = new Map(index.rejected.map((r) => [r.line, r]));
  const caseKeys = new Set(cases.map((c) => c.catalog_key));
  let withId = 0;
  let withCases = 0;
  let matching = 0;
  const refused: CatalogueCoverage['refused'] = [];
  for (const row of catalogue.rows) {
    const key = keyOf(row);
    const bad = refusedLines.get(row.line);
    if (bad) refused.push({ line: row.line, catalog_key: key, value: bad.value, reason: bad.reason });
    else if (index.matchable.has(row.line)) withId++;
    if (caseKeys.has(key)) withCases++;
    if (caseKeys.has(key) || matchingKeys.has(key)) matching++;
  }
  const byLevel = (a: UncasedMatch, b: UncasedMatch) =>
    (a.level === 'match' ? 0 : 1) - (b.level === 'match' ? 0 : 1) || a.line - b.line || a.recall_id - b.recall_id;
  return {
    coverage: {
      file,
      rows: catalogue.rows.length,
      with_identifier: withId,
      without_identifier: catalogue.rows.length - withId,
      refused,
      key_column: column ?? null,
      rows_with_cases: withCases,
      rows_matching: matching,
      matches_without_case: [...uncased.values()].sort(byLevel),
      not_opened: [...notOpened.values()].sort(byLevel),
      case_levels: caseLevels === undefined ? null : [...caseLevels],
      excluded: [...excluded.values()].sort((a, b) => a.line - b.line || a.recall_id - b.recall_id),
      to_verify: [...toVerify.values()].sort((a, b) => a.line - b.line || a.recall_id - b.recall_id),
    },
    recalls,
  };
}

/** The recalls of the cases, when no catalogue was given (no matcher pass): read from the archive all the same. */
export async function caseRecalls(
  cases: readonly CaseView[],
  records: AsyncIterable<Record<string, unknown>>,
): Promise<Map<number, RecallFacts>> {
  const wanted = new Set(cases.map((c) => c.recall_id));
  const recalls = new Map<number, RecallFacts>();
  if (wanted.size === 0) return recalls;
  for await (const recall of records)
    if (typeof recall.id === 'number' && wanted.has(recall.id)) recalls.set(recall.id, recallFacts(recall));
  return recalls;
}
