// Runs `stats`: counts over the archive, or over the live window loaded into an in-memory archive; prints charts or data.
import { groupDigits } from '../../output/numbers.js';
import { BOUNDS } from '../../api/constants.js';
import type { StatsResult } from '../../archive/store.js';
import type { StatsPlan } from './plans.js';
import type { RecordSink } from '../../runtime/files/record-output.js';
import type { Session } from '../../runtime/session.js';
import type { DbTarget } from '../../archive/db-target.js';
import { readArchive } from '../../runtime/archive/read-archive.js';

async function countArchive(session: Session, where: DbTarget, plan: StatsPlan): Promise<StatsResult> {
  const archive = await readArchive(session, where);
  try {
    return await archive.stats(plan.query, plan.by);
  } finally {
    await archive.close();
  }
}

/** The live window, every page, stored in an in-memory archive so that the same SQL counts it. */
async function countLive(plan: StatsPlan, session: Session): Promise<StatsResult> {
  const { client, status } = await session.api({ needsKey: true });
  const { ctx } = session;
  const { openScratchArchive } = await import('../../archive/open-archive.js');
  const archive = await openScratchArchive();
  try {
    await status.start('fetching recalls…');
    const run = await archive.beginRun({ live: true }, ctx.now());
    let fetched = 0;
    for await (const page of client.feedPages({
      dataSources: plan.query.sources && [...plan.query.sources],
      limit: BOUNDS.pageSizeMax,
    })) {
      await archive.upsertPage(page.data, run);
      fetched += page.data.length;
      status.progress(`fetching recalls… ${fetched} of ${page.pagination.total_count}`);
      if (ctx.signal.aborted) throw ctx.signal.reason;
    }
    status.stop();
    return await archive.stats(plan.query, plan.by);
  } finally {
    await archive.close();
  }
}

export async function runStats(plan: StatsPlan, session: Session): Promise<void> {
  const output = await session.output();
  const where = session.archive(plan.db);
  const result = plan.live ? await countLive(plan, session) : await countArchive(session, where, plan);
  await output.write((sink) => write(result, plan, session, sink));
  if (output.format.forPeople) {
    session.status.note(
      `${groupDigits(result.total)} recalls ${plan.live ? 'in the live window' : `in ${where.name}`}`,
    );
  }
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
