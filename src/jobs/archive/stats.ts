// Runs `stats`: counts over the archive, or over the live window loaded into an in-memory archive; prints charts or data.
import { groupDigits } from '../../output/numbers.js';
import { jsonText } from '../../output/control-escapes.js';
import type { OutputTarget } from '../../runtime/files/file-target.js';
import { BOUNDS } from '../../api/constants.js';
import type { StatsResult } from '../../archive/store.js';
import type { StatsPlan } from './plans.js';
import type { Context } from '../../runtime/context.js';
import { chooseFormat, openTarget, reachesTerminal } from '../../runtime/files/output-target.js';
import { writeOutput } from '../../runtime/files/write-output.js';
import { openSession } from '../../runtime/session.js';
import type { Format, GlobalFlags, Settings } from '../../runtime/settings.js';
import { openLocal, readArchive, type LocalSession } from '../../runtime/archive/local-session.js';

async function countArchive(local: LocalSession, plan: StatsPlan): Promise<StatsResult> {
  const archive = await readArchive(local, local.archive);
  try {
    return await archive.stats(plan.query, plan.by);
  } finally {
    await archive.close();
  }
}

/** The live window, every page, stored in an in-memory archive so that the same SQL counts it. */
async function countLive(
  plan: StatsPlan,
  globals: GlobalFlags,
  settings: Settings,
  ctx: Context,
): Promise<StatsResult> {
  const session = await openSession(globals, ctx, { needsKey: true, settings });
  const { openScratchArchive } = await import('../../archive/open-archive.js');
  const archive = await openScratchArchive();
  try {
    await session.status.start('fetching recalls…');
    const run = await archive.beginRun({ live: true }, ctx.now());
    let fetched = 0;
    for await (const page of session.client.feedPages({
      dataSources: plan.query.sources && [...plan.query.sources],
      limit: BOUNDS.pageSizeMax,
    })) {
      await archive.upsertPage(page.data, run);
      fetched += page.data.length;
      session.status.progress(`fetching recalls… ${fetched} of ${page.pagination.total_count}`);
      if (ctx.signal.aborted) throw ctx.signal.reason;
    }
    session.status.stop();
    return await archive.stats(plan.query, plan.by);
  } finally {
    await archive.close();
    await session.close();
  }
}

export async function runStats(plan: StatsPlan, globals: GlobalFlags, ctx: Context): Promise<void> {
  const local = await openLocal(globals, ctx, plan.db);
  const format = chooseFormat(local.settings, local.terminal);
  const result = plan.live ? await countLive(plan, globals, local.settings, ctx) : await countArchive(local, plan);
  await writeOutput(
    () => openTarget(local.settings, ctx),
    (target) => write(result, plan, format, local, target),
  );
  if (format === 'table') {
    local.status.note(
      `${groupDigits(result.total)} recalls ${plan.live ? 'in the live window' : `in ${local.archive.name}`}`,
    );
  }
}

async function write(
  result: StatsResult,
  plan: StatsPlan,
  format: Format,
  local: LocalSession,
  target: OutputTarget,
): Promise<void> {
  const out = target.stream;
  if (format === 'json') {
    const object = Object.fromEntries(plan.by.map((f) => [f, result.counts[f] ?? []]));
    out.write(`${jsonText(object)}\n`);
    return;
  }
  if (format === 'table') {
    const { barChart } = await import('../../output/bar-chart.js');
    const { chartSeries } = await import('./stats-chart.js');
    const charts = plan.by.map((f) => barChart(chartSeries(f, result.counts[f] ?? []), local.terminal.columns));
    out.write(charts.join('\n'));
    return;
  }
  const { createRenderer } = await import('../../output/renderer.js');
  const columns = ['field', 'value', 'count'];
  const toTerminal = reachesTerminal(target, local.terminal);
  const renderer = createRenderer({ format, out, tableColumns: columns, csvColumns: columns, toTerminal });
  for (const field of plan.by)
    await renderer.write((result.counts[field] ?? []).map((c) => ({ field, value: c.value, count: c.count })));
  await renderer.end();
}
