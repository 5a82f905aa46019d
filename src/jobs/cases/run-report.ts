// Runs `report`: gathers the period's cases, coverage and monitoring health, and writes them in one format, atomically with -o.
import type { ReportFormat } from '../../output/format-kinds.js';
import path from 'node:path';
import { GENESIS } from '../../archive/cases-chain.js';
import { allowedSources } from '../../runtime/archive/allowed-sources.js';
import type { ColumnMap } from '../../match/catalogue-columns.js';
import { loadMatcher } from '../matching/load-catalogue.js';
import type { DbChoice } from '../../runtime/archive/archive-file.js';
import { announceWritten } from '../../runtime/files/write-output.js';
import { TOOL_VERSION } from '../../runtime/tool-version.js';
import type { ArchiveSession } from '../../runtime/session.js';
import { caseRecalls, checkCatalogue } from './report-coverage.js';
import { casesOrNone } from '../../runtime/archive/cases-or-none.js';
import { byLevelAndSeverity } from '../matching/case-order.js';
import { REPORT_CSV_COLUMNS, reportCsvExcludedRow, reportCsvRow } from '../../output/report/report-csv.js';
import type { CatalogueCoverage, RecallFacts, ReportData } from '../../output/report/report-model.js';
import { caseInPeriod, judgedAt, reportEnd, statement, summarize } from './report-data.js';
import { lastSyncStart, monitoringOver, reportVerdict } from './report-verdict.js';
import { renderReport } from '../../output/report/render-report.js';

export type { ReportFormat } from '../../output/format-kinds.js';

export interface ReportPlan {
  db: DbChoice;
  format: ReportFormat;
  sinceMs: number | undefined;
  untilMs: number | undefined;
  catalog: string | undefined;
  map: ColumnMap;
  key: string | undefined;
}

/** `session`: with the output in the report's own format (the plan's) and the archive (read-only) the command declared. */
export async function runReport(plan: ReportPlan, session: ArchiveSession): Promise<void> {
  const { ctx, status } = session;
  const output = await session.output();
  const archive = session.store;
  const reading = { archive, status };
  const nowMs = ctx.now();
  // Never past now (overdue, SLA and gaps are judged only over time that has come); without --until, now included.
  const { untilMs, clamped } = reportEnd(plan.untilMs, nowMs);
  if (clamped)
    status.warn(
      `--until ${new Date(plan.untilMs as number).toISOString()} is after now: the report's period ends now (${new Date(nowMs).toISOString()}), as time that has not come cannot be judged`,
    );
  // A wrong --key is refused now, before any request or archive read.
  const matcher =
    plan.catalog === undefined ? undefined : await loadMatcher(plan.catalog, plan.map, plan.key, status, ctx.env);
  // The sources monitoring had to cover, as the digest asks for them: without them it cannot be complete.
  const allowed = await allowedSources(undefined, session);
  const all = await casesOrNone(reading, () => archive.cases({ statuses: ['open', 'waiting', 'closed'] }));
  // Every run up to the period's end: the first successful one says when monitoring began.
  const runs = await archive.syncRuns({ fromMs: 0, toMs: untilMs });
  // The levels cases are opened at (match --open-cases --level): pairs below them are not owed a case.
  const levels = await archive.caseLevels();
  const [check = { events: 0, cases: 0, head: GENESIS, broken: undefined }] = await casesOrNone(reading, async () => [
    await archive.verifyCases(),
  ]);
  // Cases up to the period's end, whether or not active in it: their rows have been looked at.
  const opened = all.filter((c) => Date.parse(c.opened_at) < untilMs);
  const records = () => archive.records({ sinceUs: undefined, sources: undefined, filter: {} });
  let coverage: CatalogueCoverage | null = null;
  let recalls: Map<number, RecallFacts>;
  if (matcher && plan.catalog !== undefined) {
    ({ coverage, recalls } = await checkCatalogue(
      path.basename(plan.catalog),
      matcher.catalogue,
      matcher.column,
      matcher.index,
      opened,
      records(),
      untilMs,
      status,
      levels,
    ));
  } else recalls = await caseRecalls(all, records());
  const cases = all
    .flatMap((c) => caseInPeriod(c, plan.sinceMs, untilMs, recalls.get(c.recall_id) ?? null) ?? [])
    .sort(byLevelAndSeverity);
  const firstMs = Math.min(
    ...runs.map((r) => Date.parse(r.started_at)),
    ...all.map((c) => Date.parse(c.opened_at)),
    untilMs,
  );
  const { health, first, unmonitoredMs } = monitoringOver(runs, plan.sinceMs ?? firstMs, untilMs, allowed);
  const verdict = reportVerdict({
    health,
    first,
    unmonitoredMs,
    sourcesChecked: allowed !== undefined,
    uncased: coverage?.matches_without_case.length ?? 0,
  });
  const until = new Date(untilMs).toISOString();
  const data: ReportData = {
    title: 'Recall monitoring: cases and coverage',
    generated_at: new Date(nowMs).toISOString(),
    period: { since: plan.sinceMs === undefined ? null : new Date(plan.sinceMs).toISOString(), until },
    provenance: {
      tool: 'recall-feed',
      version: TOOL_VERSION,
      archive: archive.name,
      catalogue:
        plan.catalog === undefined
          ? null
          : { file: path.basename(plan.catalog), sha256: matcher?.catalogue.sha256 ?? '' },
      chain_head: check.head,
    },
    coverage: { catalogue: coverage, monitoring: health },
    summary: summarize(cases, judgedAt(untilMs, nowMs)),
    verdict,
    statement: statement(coverage, lastSyncStart(runs, untilMs), until, verdict),
    chain: { intact: !check.broken, events: check.events, head: check.head, problem: check.broken?.problem ?? null },
    cases,
  };
  const columns = [...REPORT_CSV_COLUMNS];
  // A page (html, markdown) or the model (json) from the report's renderers; rows for a tabular format (csv).
  await output.write((sink) =>
    sink.document({
      text: (format) => renderReport(format.name, data),
      rows: {
        spec: { tableColumns: columns, csvColumns: columns, formulaGuard: true },
        rows: [...data.cases.map(reportCsvRow), ...(data.coverage.catalogue?.excluded ?? []).map(reportCsvExcludedRow)],
      },
    }),
  );
  if (!data.chain.intact)
    status.warn(`the case log is broken: ${data.chain.problem ?? ''} (see recall-feed cases verify)`);
  // The verdict the page and the JSON give, in the same words; a complete one only where someone reads it live.
  if (data.verdict.state === 'complete') status.success(data.verdict.text);
  else status.warn(data.verdict.text);
  announceWritten(session, `the report (${data.summary.cases} cases)`);
}
