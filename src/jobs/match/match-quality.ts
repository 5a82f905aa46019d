// Runs `match --quality`: each tier's precision from the archive's closed cases, and each source's coverage, as one listing.
import type { RecordFilter } from '../../filters/record-filter.js';
import { CoverageCounter, MIN_JUDGED, QUALITY_COLUMNS, tierPrecision } from '../../match/quality.js';
import { groupDigits } from '../../output/numbers.js';
import { inBatches, type DbChoice } from '../../runtime/archive/archive-file.js';
import { openLocal, readArchive } from '../../runtime/archive/local-session.js';
import type { Context } from '../../runtime/context.js';
import { chooseFormat, openTarget, reachesTerminal } from '../../runtime/files/output-target.js';
import { writeOutput } from '../../runtime/files/write-output.js';
import type { GlobalFlags } from '../../runtime/settings.js';

export interface QualityPlan {
  db: DbChoice;
  sources: string[] | undefined;
  sinceUs: number | undefined;
  filter: RecordFilter;
  formulaGuard: boolean;
  bom: boolean;
}

export async function runMatchQuality(plan: QualityPlan, globals: GlobalFlags, ctx: Context): Promise<void> {
  const local = await openLocal(globals, ctx, plan.db);
  // Reads only: cases through the archive's own listing (whose filter applies to each case's recall), recalls likewise.
  const archive = await readArchive(local, local.archive);
  const coverage = new CoverageCounter();
  let tiers: ReturnType<typeof tierPrecision>;
  try {
    const sinceMs = plan.sinceUs === undefined ? undefined : plan.sinceUs / 1000;
    const cases = (await archive.cases({ statuses: ['open', 'waiting', 'closed'] }, plan.filter)).filter(
      (c) => sinceMs === undefined || Date.parse(c.opened_at) >= sinceMs,
    );
    tiers = tierPrecision(cases);
    const records = archive.records({ sinceUs: plan.sinceUs, sources: plan.sources, filter: plan.filter });
    for await (const batch of inBatches(records, ctx.signal)) for (const r of batch) coverage.add(r);
  } finally {
    await archive.close();
  }
  const rows = [...tiers, ...coverage.rows()];
  const format = chooseFormat(local.settings, local.terminal);
  await writeOutput(
    () => openTarget(local.settings, ctx),
    async (target) => {
      const { createRenderer } = await import('../../output/renderer.js');
      const renderer = createRenderer({
        format,
        out: target.stream,
        tableColumns: [...QUALITY_COLUMNS],
        csvColumns: [...QUALITY_COLUMNS],
        formulaGuard: plan.formulaGuard,
        bom: plan.bom,
        width: local.terminal.columns,
        color: local.terminal.color,
        toTerminal: reachesTerminal(target, local.terminal),
      });
      await renderer.write(rows as unknown as Record<string, unknown>[]);
      await renderer.end();
    },
  );
  const judged = tiers.reduce((n, t) => n + t.sample, 0);
  local.status.note(
    `quality: ${groupDigits(judged)} cases closed as confirmed or wrong, over ${tiers.length} tiers (precision shown from ${MIN_JUDGED}) · coverage: ${groupDigits(rows.length - tiers.length)} sources`,
  );
}
