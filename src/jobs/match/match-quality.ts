// Runs `match --quality`: each tier's precision from the archive's closed cases, and each source's coverage, as one listing.
import type { RecordFilter } from '../../filters/record-filter.js';
import { CoverageCounter, MIN_JUDGED, QUALITY_COLUMNS, tierPrecision } from '../../match/quality.js';
import { groupDigits } from '../../output/numbers.js';
import { inBatches, type DbChoice } from '../../runtime/archive/archive-file.js';
import type { ArchiveSession } from '../../runtime/session.js';

export interface QualityPlan {
  db: DbChoice;
  sources: string[] | undefined;
  sinceUs: number | undefined;
  filter: RecordFilter;
  formulaGuard: boolean;
  bom: boolean;
}

/** `session`: with the output and the archive (read-only) the command declared: a bad -f or -o reads nothing. */
export async function runMatchQuality(plan: QualityPlan, session: ArchiveSession): Promise<void> {
  const output = await session.output();
  // Reads only: cases through the archive's own listing (whose filter applies to each case's recall), recalls likewise.
  const archive = session.store;
  const coverage = new CoverageCounter();
  const sinceMs = plan.sinceUs === undefined ? undefined : plan.sinceUs / 1000;
  const cases = (await archive.cases({ statuses: ['open', 'waiting', 'closed'] }, plan.filter)).filter(
    (c) => sinceMs === undefined || Date.parse(c.opened_at) >= sinceMs,
  );
  const tiers = tierPrecision(cases);
  const records = archive.records({ sinceUs: plan.sinceUs, sources: plan.sources, filter: plan.filter });
  for await (const batch of inBatches(records, session.ctx.signal)) for (const r of batch) coverage.add(r);
  const rows = [...tiers, ...coverage.rows()];
  const spec = {
    tableColumns: [...QUALITY_COLUMNS],
    csvColumns: [...QUALITY_COLUMNS],
    formulaGuard: plan.formulaGuard,
    bom: plan.bom,
  };
  await output.write((sink) => sink.rows(spec, rows as unknown as Record<string, unknown>[]));
  const judged = tiers.reduce((n, t) => n + t.sample, 0);
  session.status.note(
    `quality: ${groupDigits(judged)} cases closed as confirmed or wrong, over ${tiers.length} tiers (precision shown from ${MIN_JUDGED}) · coverage: ${groupDigits(rows.length - tiers.length)} sources`,
  );
}
