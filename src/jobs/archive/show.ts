// Runs `show`: finds the recall (archive first, then the live window) and prints it for a person or as data.
import { BOUNDS, RECALL_FIELDS } from '../../api/constants.js';
import { ArchiveMissingError } from '../../archive/archive-errors.js';
import type { ArchiveStore } from '../../archive/store.js';
import { jsonText } from '../../output/control-escapes.js';
import type { VersionEntry } from '../../output/record-view.js';
import type { ShowPlan } from './plans.js';
import type { Context } from '../../runtime/context.js';
import { MissingApiKeyError, UsageError } from '../../runtime/cli-errors.js';
import { chooseFormat, openTarget, reachesTerminal } from '../../runtime/files/output-target.js';
import { writeOutput } from '../../runtime/files/write-output.js';
import { openSession } from '../../runtime/session.js';
import type { GlobalFlags, Settings } from '../../runtime/settings.js';
import { openLocal, readArchive, type LocalSession } from '../../runtime/archive/local-session.js';

/** The stored versions of the recall, oldest first (empty when the archive lacks it); undefined without an archive. */
async function fromArchive(local: LocalSession, plan: ShowPlan): Promise<VersionEntry[] | undefined> {
  let archive: ArchiveStore;
  try {
    archive = await readArchive(local, local.archive);
  } catch (err) {
    // A missing archive is no error yet: the live window may still have the recall.
    if (err instanceof ArchiveMissingError) return undefined;
    throw err;
  }
  try {
    const all = await archive.versions(plan.id);
    const wanted = plan.history ? all : all.filter((v) => v.current);
    return wanted.map((v) => ({
      version: v.version,
      storedAt: v.storedAt,
      current: v.current,
      record: JSON.parse(v.raw),
    }));
  } finally {
    await archive.close();
  }
}

/** `recall N is not archived`, saying why: no archive at all, or an archive without it. */
function notArchived(
  plan: ShowPlan,
  local: LocalSession,
  archived: VersionEntry[] | undefined,
  hint: string,
): UsageError {
  const where = archived === undefined ? `no archive at ${local.archive.name}` : `not in ${local.archive.name}`;
  return new UsageError(`recall ${plan.id} is not archived (${where})`, hint);
}

/** Pages through the live window until the recall turns up; undefined when it is not there. */
async function fromLive(
  plan: ShowPlan,
  globals: GlobalFlags,
  settings: Settings,
  ctx: Context,
): Promise<Record<string, unknown> | undefined> {
  const session = await openSession(globals, ctx, { needsKey: true, settings });
  try {
    await session.status.start(`looking for recall ${plan.id} in the live window…`);
    for await (const page of session.client.feedPages({ limit: BOUNDS.pageSizeMax })) {
      const found = page.data.find((r) => r.id === plan.id);
      if (found) return found;
      if (ctx.signal.aborted) throw ctx.signal.reason;
    }
    return undefined;
  } finally {
    await session.close();
  }
}

export async function runShow(plan: ShowPlan, globals: GlobalFlags, ctx: Context): Promise<void> {
  const local = await openLocal(globals, ctx, plan.db);
  const format = chooseFormat(local.settings, local.terminal);
  const archived = await fromArchive(local, plan);
  let versions = archived ?? [];
  if (versions.length === 0) {
    if (plan.history) throw notArchived(plan, local, archived, 'run `recall-feed sync` to store it');
    let live: Record<string, unknown> | undefined;
    try {
      live = await fromLive(plan, globals, local.settings, ctx);
    } catch (err) {
      // Without a key the live window cannot be asked: what the user needs to know is that it is not archived.
      if (!(err instanceof MissingApiKeyError)) throw err;
      throw notArchived(
        plan,
        local,
        archived,
        'run `recall-feed sync` to store it, or give a key to look in the live window',
      );
    }
    if (!live) {
      throw new UsageError(
        `no recall ${plan.id} in the archive ${local.archive.name} or in the last 24 hours of the feed`,
      );
    }
    versions = [{ version: 1, storedAt: undefined, current: true, record: live }];
  }
  await writeOutput(
    () => openTarget(local.settings, ctx),
    async (target) => {
      const width = local.terminal.columns;
      if (format === 'table') {
        const { historyView, recordView } = await import('../../output/record-view.js');
        const text = plan.history
          ? historyView(versions, width)
          : recordView((versions[0] as VersionEntry).record, width);
        target.stream.write(text);
      } else if (format === 'json' && !plan.history) {
        target.stream.write(`${jsonText((versions[0] as VersionEntry).record)}\n`);
      } else {
        const { createRenderer } = await import('../../output/renderer.js');
        const renderer = createRenderer({
          format,
          out: target.stream,
          tableColumns: [],
          csvColumns: RECALL_FIELDS,
          width,
          toTerminal: reachesTerminal(target, local.terminal),
        });
        await renderer.write(versions.map((v) => v.record));
        await renderer.end();
      }
    },
  );
}
