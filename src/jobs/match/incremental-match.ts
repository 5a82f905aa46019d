// `match --archive`: incremental when an earlier run's state fits (docs/matching.md), else every recall checked and the state kept.
import { ArchiveTooOldError } from '../../archive/archive-errors.js';
import { micros } from '../../archive/record-columns.js';
import type { ArchiveStore } from '../../archive/store.js';
import type { Context } from '../../runtime/context.js';
import type { RecordOutput } from '../../runtime/files/record-output.js';
import { declaredStore, type Session } from '../../runtime/session.js';
import { learnedPath } from '../matching/learned-file.js';
import { finish, type MatchSummary } from './match-parts.js';
import { replayMatch } from './match-replay.js';
import { fileSha256, type MatchState, readState, stateFile, stateKey, writeState } from './match-state.js';
import { RowCapture, teeOutput } from './row-capture.js';
import type { MatchInputs, MatchPlan } from './match-plan.js';

/** How long a run waits for a sync storing a page to let go of the archive's write lock, and how often it asks. */
const HORIZON_WAIT_MS = 30_000;
const HORIZON_STEP_MS = 250;

/**
 * The archive's commit horizon (every write stamped before it has committed), read before any recall is; or, when a
 * writer kept the lock the whole wait or the archive predates commit stamps, why there is none. Then no state is kept.
 */
async function horizonOf(archive: ArchiveStore, ctx: Context): Promise<number | string> {
  try {
    for (let waited = 0; ; waited += HORIZON_STEP_MS) {
      const horizon = await archive.commitHorizon();
      if (horizon !== undefined) return horizon;
      if (waited >= HORIZON_WAIT_MS) return 'a sync kept the archive busy, so this run is not remembered';
      await ctx.sleep(HORIZON_STEP_MS, ctx.signal);
    }
  } catch (err) {
    if (err instanceof ArchiveTooOldError) return 'the archive predates commit stamps (a sync upgrades it)';
    throw err;
  }
}

/** Why this run checks every recall; undefined when the state lets it check only what was stored since. */
function fullReason(
  plan: MatchPlan,
  read: Awaited<ReturnType<typeof readState>>,
  horizonMs: number,
): string | undefined {
  if (plan.full) return '--full';
  if ('missing' in read) return 'no earlier run with this catalogue (as it is now), archive and options';
  if ('unreadable' in read) return `its state was unreadable (${read.unreadable})`;
  const since = plan.recalls.kind === 'archive' ? plan.recalls.sinceUs : undefined;
  const { sinceUs, horizonMs: last } = read.state;
  if (sinceUs !== null && (since === undefined || since < sinceUs))
    return '--since reaches further back than the last run checked';
  if (horizonMs < last) return "the archive's clock is behind the last run's";
  return undefined;
}

/**
 * `match --archive` (without --watch): the archive's horizon read first, then the state of this catalogue, archive
 * and options; with one that fits, only the recalls stored since are checked; otherwise `full` checks them all, its
 * rows kept. Either way the state is replaced (atomically, mode 0600), and the output, summary and counts are a full
 * run's. A state that cannot be read or written is said, never fatal.
 */
export async function incrementalMatch(
  plan: MatchPlan,
  inputs: MatchInputs,
  session: Session,
  full: (output: RecordOutput) => Promise<MatchSummary>,
): Promise<void> {
  const { ctx, status } = session;
  const archive = declaredStore(session);
  const source = plan.recalls as Extract<MatchPlan['recalls'], { kind: 'archive' }>;
  const horizon = await horizonOf(archive, ctx);
  const sha256 = await fileSha256(plan.catalog).catch(() => null);
  const learnedSha256 = await fileSha256(learnedPath(plan.catalog, plan.learned)).catch(() => null);
  if (typeof horizon === 'string' || sha256 === null) {
    if (typeof horizon === 'string') status.note(`match --archive: checking every recall: ${horizon}`);
    return finish(plan, session, await full(await session.output()));
  }
  const key = stateKey({
    archive: archive.name,
    schema: source.db.schema,
    catalogueSha256: sha256,
    learnedSha256,
    map: plan.map,
    sources: source.sources,
    filter: plan.filter,
    explain: plan.explain === true,
  });
  const file = stateFile(ctx.env, key);
  const read = plan.full ? ({ missing: true } as const) : await readState(file, key);
  const why = fullReason(plan, read, horizon);
  let summary: MatchSummary;
  let next: MatchState | undefined;
  if (why === undefined && 'state' in read) {
    const replayed = await replayMatch(plan, inputs, session, read.state, horizon, sha256);
    summary = replayed.summary;
    next = { ...read.state, horizonMs: horizon, sinceUs: source.sinceUs ?? null, recalls: replayed.recalls };
  } else {
    status.note(`match --archive: checking every recall: ${why}`);
    const capture = new RowCapture();
    summary = await full(teeOutput(await session.output(), capture));
    const shape = summary.shape;
    // A catalogue replaced while it was read keeps no state: its rows may be of either version.
    if (shape && shape.sha256 === sha256)
      next = {
        format: 1,
        key,
        horizonMs: horizon,
        sinceUs: source.sinceUs ?? null,
        catalogue: { headers: shape.headers, columns: shape.columns, ...summary.catalogue },
        recalls: [...capture.byRecall].map(([id, rows]) => [id, micros(rows[0]?.published_at), rows]),
      };
  }
  if (next)
    await writeState(file, next, ctx.now()).catch((err: Error) =>
      status.warn(`could not keep match's state in ${file} (${err.message}): the next run checks every recall again`),
    );
  finish(plan, session, summary);
}
