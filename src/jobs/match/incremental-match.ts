// `match --archive`: incremental when an earlier run's state fits (docs/matching.md), else every recall checked and the state kept.
import { ArchiveTooOldError } from '../../archive/archive-errors.js';
import { micros } from '../../archive/record-columns.js';
import type { ArchiveStore } from '../../archive/store.js';
import type { Context } from '../../runtime/context.js';
import type { RecordOutput } from '../../runtime/files/record-output.js';
import { archiveIdentity } from '../../runtime/archive/archive-file.js';
import { tellsSuccess } from '../../runtime/files/write-output.js';
import { declaredStore, type Session } from '../../runtime/session.js';
import { learnedPath } from '../matching/learned-file.js';
import { finish, type MatchSummary } from './match-parts.js';
import { type CatalogueSha, replayMatch } from './match-replay.js';
import { fileSha256 } from '../../runtime/files/file-sha256.js';
import {
  type MatchState,
  type RecallRows,
  readState,
  STATE_FORMAT,
  stateFile,
  stateKey,
  writeState,
} from './match-state.js';
import { type FileStamp, fileStamp, keepNote, notedSha256, noteFile } from './catalogue-note.js';
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

/** Which kind of run this is: no problem, so said on a terminal or with -v only (cron mails only problems). */
function sayFull(session: Session, why: string | undefined): void {
  if (tellsSuccess(session)) session.status.note(`match --archive: checking every recall: ${why}`);
}

const NO_STATE = 'no earlier run with this catalogue (as it is now), archive and options';

/** Why this run checks every recall; undefined when the state lets it check only what was stored since. */
function fullReason(
  plan: MatchPlan,
  read: Awaited<ReturnType<typeof readState>>,
  horizonMs: number,
): string | undefined {
  if (plan.full) return '--full';
  if ('missing' in read) return NO_STATE;
  if ('unreadable' in read) return `its state was unreadable (${read.unreadable})`;
  const since = plan.recalls.kind === 'archive' ? plan.recalls.sinceUs : undefined;
  const { sinceUs, horizonMs: last } = read.state;
  if (sinceUs !== null && (since === undefined || since < sinceUs))
    return '--since reaches further back than the last run checked';
  if (horizonMs < last) return "the archive's clock is behind the last run's";
  return undefined;
}

/**
 * The catalogue's sha256 to look for a state by, without a read of its own where the run already has one: the bytes
 * indexed before (--open-cases), or what the last run noted for a file of this stamp (the replay checks it against
 * the bytes it reads); else the file hashed. Null when it cannot be read (the run that follows says why).
 */
async function catalogueSha(
  plan: MatchPlan,
  inputs: MatchInputs,
  note: string,
  stamp: FileStamp | undefined,
): Promise<CatalogueSha | null> {
  if (inputs.kind === 'indexed' && inputs.catalogue.sha256) return { sha256: inputs.catalogue.sha256, read: true };
  const noted = stamp && (await notedSha256(note, stamp));
  if (noted) return { sha256: noted, read: false };
  const sha256 = await fileSha256(plan.catalog).catch(() => null);
  return sha256 === null ? null : { sha256, read: true };
}

/** The latest writes a state also keeps the stamps of: a restored backup lacks them, or holds older versions. */
const WITNESSES = 32;

/**
 * The version stamps of the recalls the state carries rows of, and of the archive's latest writes before its horizon:
 * what the next run checks the archive still holds, as it was.
 */
async function stampsAt(archive: ArchiveStore, recalls: readonly RecallRows[], horizonMs: number) {
  const latest = await archive.latestStamps(horizonMs * 1000, WITNESSES);
  const stamps = await archive.versionStamps([...new Set([...recalls.map(([id]) => id), ...latest.map(([id]) => id)])]);
  return [...stamps];
}

/**
 * Whether the archive still holds every version the last run's state rests on: each recall it carries rows of, and
 * the archive's latest writes then, as they were or given a newer version since its horizon. A restored backup (or a
 * recall deleted by hand) fails this, and the run checks every recall: carried rows of a version the archive no longer
 * holds would be answers no full run gives.
 */
async function stillHeld(archive: ArchiveStore, state: MatchState): Promise<boolean> {
  const now = await archive.versionStamps(state.stamps.map(([id]) => id));
  const horizonUs = state.horizonMs * 1000;
  return state.stamps.every(([id, was]) => {
    if (!now.has(id)) return false;
    const stamp = now.get(id) as number | null;
    return stamp === was || (stamp !== null && stamp >= horizonUs);
  });
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
  if (typeof horizon === 'string') {
    sayFull(session, horizon);
    return finish(plan, session, await full(await session.output()));
  }
  // Taken before any read of the catalogue here: a note says what bytes a file of this stamp held when read.
  const stamp = inputs.kind === 'head' ? await fileStamp(plan.catalog) : undefined;
  const note = noteFile(ctx.env, plan.catalog);
  // --full looks for no state: its key is of the bytes its own read gives.
  const known = plan.full ? undefined : await catalogueSha(plan, inputs, note, stamp);
  if (known === null) return finish(plan, session, await full(await session.output()));
  const learnedSha256 = await fileSha256(learnedPath(plan.catalog, plan.learned)).catch(() => null);
  // The archive as it is, not as --db names it: `r.db` in another folder, or a URL whose database PGDATABASE chooses,
  // is another archive, whose state is another.
  const identity = await archiveIdentity(session.archive(source.db), await archive.archiveId());
  const keyOf = (catalogueSha256: string) =>
    stateKey({
      archive: identity,
      schema: source.db.schema,
      catalogueSha256,
      learnedSha256,
      map: plan.map,
      sources: source.sources,
      filter: plan.filter,
      explain: plan.explain === true,
    });
  const key = known && keyOf(known.sha256);
  const read = key ? await readState(stateFile(ctx.env, key), key) : ({ missing: true } as const);
  let why = fullReason(plan, read, horizon);
  if (why === undefined && 'state' in read && !(await stillHeld(archive, read.state)))
    why = 'the archive no longer holds every version the last run checked (a backup restored?)';
  let summary: MatchSummary | undefined;
  let next: MatchState | undefined;
  if (why === undefined && 'state' in read && known) {
    const replayed = await replayMatch(plan, inputs, session, read.state, horizon, known);
    if (replayed) {
      summary = replayed.summary;
      const { recalls } = replayed;
      const stamps = await stampsAt(archive, recalls, horizon);
      next = { ...read.state, horizonMs: horizon, sinceUs: source.sinceUs ?? null, recalls, stamps };
      if (stamp && known.read) await keepNote(note, plan.catalog, stamp, known.sha256);
    } else why = NO_STATE;
  }
  if (!summary) {
    sayFull(session, why);
    const capture = new RowCapture();
    summary = await full(teeOutput(await session.output(), capture));
    const shape = summary.shape;
    // Keyed by the bytes its rows came from (a full run refuses a catalogue whose passes read different bytes).
    if (shape?.sha256) {
      const recalls: RecallRows[] = [...capture.byRecall].map(([id, rows]) => [
        id,
        micros(rows[0]?.published_at),
        rows,
      ]);
      next = {
        format: STATE_FORMAT,
        key: keyOf(shape.sha256),
        horizonMs: horizon,
        sinceUs: source.sinceUs ?? null,
        catalogue: { headers: shape.headers, columns: shape.columns, ...summary.catalogue, report: shape.report },
        recalls,
        stamps: await stampsAt(archive, recalls, horizon),
      };
      if (stamp) await keepNote(note, plan.catalog, stamp, shape.sha256);
    }
  }
  if (next) {
    const file = stateFile(ctx.env, next.key);
    await writeState(file, next, ctx.now()).catch((err: Error) =>
      status.warn(`could not keep match's state in ${file} (${err.message}): the next run checks every recall again`),
    );
  }
  finish(plan, session, summary);
}
