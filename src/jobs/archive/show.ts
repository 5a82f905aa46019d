// Runs `show`: finds the recall (archive first, then the live window) and prints it for a person or as data.
import { counted } from '../../output/numbers.js';
import { announceWritten } from '../../runtime/files/write-output.js';
import { BOUNDS, RECALL_FIELDS } from '../../api/constants.js';
import type { ArchiveStore } from '../../archive/store.js';
import type { VersionEntry } from '../../output/record-view.js';
import type { ShowPlan } from './plans.js';
import type { DbTarget } from '../../archive/db-target.js';
import { MissingApiKeyError, UsageError } from '../../runtime/cli-errors.js';
import type { Session } from '../../runtime/session.js';

/** The stored versions of the recall, oldest first (empty when the archive lacks it); undefined without an archive. */
async function fromArchive(archive: ArchiveStore | undefined, plan: ShowPlan): Promise<VersionEntry[] | undefined> {
  // A missing archive is no error yet: the live window may still have the recall.
  if (archive === undefined) return undefined;
  const all = await archive.versions(plan.id);
  const wanted = plan.history ? all : all.filter((v) => v.current);
  return wanted.map((v) => ({
    version: v.version,
    storedAt: v.storedAt,
    current: v.current,
    record: JSON.parse(v.raw),
  }));
}

/** `recall N is not archived`, saying why: no archive at all, or an archive without it. */
function notArchived(plan: ShowPlan, where: DbTarget, archived: VersionEntry[] | undefined, hint: string): UsageError {
  const why = archived === undefined ? `no archive at ${where.name}` : `not in ${where.name}`;
  return new UsageError(`recall ${plan.id} is not archived (${why})`, hint);
}

/** Pages through the live window until the recall turns up; undefined when it is not there. */
async function fromLive(plan: ShowPlan, session: Session): Promise<Record<string, unknown> | undefined> {
  const { client, status } = await session.api({ needsKey: true });
  try {
    await status.start(`looking for recall ${plan.id} in the live window…`);
    for await (const page of client.feedPages({ limit: BOUNDS.pageSizeMax })) {
      const found = page.data.find((r) => r.id === plan.id);
      if (found) return found;
      if (session.ctx.signal.aborted) throw session.ctx.signal.reason;
    }
    return undefined;
  } finally {
    // The spinner goes before the recall is printed.
    status.stop();
  }
}

/** `session`: with the output and the archive (read-only, when there is one) the command declared. */
export async function runShow(plan: ShowPlan, session: Session): Promise<void> {
  const output = await session.output();
  const where = session.archive(plan.db);
  const archived = await fromArchive(session.store, plan);
  let versions = archived ?? [];
  if (versions.length === 0) {
    if (plan.history) throw notArchived(plan, where, archived, 'run `recall-feed sync` to store it');
    let live: Record<string, unknown> | undefined;
    try {
      live = await fromLive(plan, session);
    } catch (err) {
      // Without a key the live window cannot be asked: what the user needs to know is that it is not archived.
      if (!(err instanceof MissingApiKeyError)) throw err;
      throw notArchived(
        plan,
        where,
        archived,
        'run `recall-feed sync` to store it, or give a key to look in the live window',
      );
    }
    if (!live) {
      throw new UsageError(`no recall ${plan.id} in the archive ${where.name} or in the last 24 hours of the feed`);
    }
    versions = [{ version: 1, storedAt: undefined, current: true, record: live }];
  }
  await output.write(async (sink) => {
    const width = session.terminal.columns;
    // A view for people; one record as one JSON object (json); else every version as rows.
    await sink.document({
      people: async () => {
        const { historyView, recordView } = await import('../../output/record-view.js');
        return plan.history ? historyView(versions, width) : recordView((versions[0] as VersionEntry).record, width);
      },
      one: plan.history ? undefined : (versions[0] as VersionEntry).record,
      rows: { spec: { tableColumns: [], csvColumns: RECALL_FIELDS }, rows: versions.map((v) => v.record) },
    });
  });
  if (output.toFile)
    announceWritten(session, plan.history ? counted(versions.length, 'version', 'versions') : `recall ${plan.id}`);
}
