// Runs `stats`: counts over the archive, or over the live window loaded into an in-memory archive; prints charts or data.
import { counted } from '../../output/numbers.js';
import { announceWritten } from '../../runtime/files/write-output.js';
import { BOUNDS } from '../../api/constants.js';
import type { StatsResult } from '../../archive/store.js';
import type { StatsPlan } from './plans.js';
import type { RecordSink } from '../../runtime/files/record-output.js';
import { declaredStore, type Session } from '../../runtime/session.js';
import { withScratchArchive } from '../../runtime/archive/run-archive.js';

/** The live window, every page, stored in an in-memory archive so that the same SQL counts it. */
async function countLive(plan: StatsPlan, session: Session): Promise<StatsResult> {
  const { client, status } = await session.api({ needsKey: true });
  const { ctx } = session;
  return withScratchArchive(async (archive) => {
    await status.start('fetching recalls…');
    const run = await archive.beginRun({ live: true }, ctx.now());
    let fetched = 0;
    for await (const page of client.feedPages({
      dataSources: plan.query.sources && [...plan.query.sources],
      limit: BOUNDS.pageSizeMax,
    })) {
      await archive.upsertPage(page.data, run, ctx.now);
      fetched += page.data.length;
      status.progress(`fetching recalls… ${fetched} of ${page.pagination.total_count}`);
      if (ctx.signal.aborted) throw ctx.signal.reason;
    }
    status.stop();
    return await archive.stats(plan.query, plan.by);
  });
}

/** `session`: with the output and, unless --live, the archive (read-only) the command declared. */
export async function runStats(plan: StatsPlan, session: Session): Promise<void> {
  const output = await session.output();
  const archive = plan.live ? undefined : declaredStore(session);
  const result = archive ? await archive.stats(plan.query, plan.by) : await countLive(plan, session);
  await output.write((sink) => write(result, plan, session, sink));
  const what = `${counted(result.total, 'recall', 'recalls')} ${archive ? `in ${archive.name}` : 'in the live window'}`;
  if (output.toFile) announceWritten(session, `the counts of ${what}`);
  else if (output.format.forPeople) session.status.note(what);
}

async function write(result: StatsResult, plan: StatsPlan, session: Session, sink: RecordSink): Promise<void> {
  const columns = ['field', 'value', 'count'];
  // Bar charts for people, one JSON object of every count (json), else a row per field and value.
  await sink.document({
    people: async () => {
      const { barChart } = await import('../../output/bar-chart.js');
      const { chartSeries } = await import('./stats-chart.js');
      return plan.by.map((f) => barChart(chartSeries(f, result.counts[f] ?? []), session.terminal.columns)).join('\n');
    },
    one: Object.fromEntries(plan.by.map((f) => [f, result.counts[f] ?? []])),
    rows: {
      spec: { tableColumns: columns, csvColumns: columns },
      rows: plan.by.flatMap((field) =>
        (result.counts[field] ?? []).map((c) => ({ field, value: c.value, count: c.count })),
      ),
    },
  });
}
