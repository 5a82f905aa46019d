// Runs `show`: finds the recall (archive first, then the live window) and prints it for a person or as data.
import { BOUNDS, RECALL_FIELDS } from '../../api/constants.js';
import { ArchiveMissingError } from '../../archive/archive-errors.js';
import type { Archive } from '../../archive/index.js';
import { jsonText } from '../../output/control-escapes.js';
import type { VersionEntry } from '../../output/record-view.js';
import type { ShowPlan } from './plans.js';
import type { Context } from '../context.js';
import { UsageError } from '../cli-errors.js';
import { chooseFormat, openTarget } from '../files/output-target.js';
import { writeOutput } from '../files/write-output.js';
import { openSession } from '../session.js';
import type { GlobalFlags, Settings } from '../settings.js';
import { openArchiveFile } from './archive-file.js';
import { openLocal } from './local-session.js';

/** The stored versions of the recall, oldest first: empty when the archive lacks it or does not exist. */
async function fromArchive(file: string, plan: ShowPlan): Promise<VersionEntry[]> {
  let archive: Archive;
  try {
    archive = await openArchiveFile(file, { create: false });
  } catch (err) {
    // Without --history a missing archive is no error: the live window may still have the recall.
    if (err instanceof ArchiveMissingError && !plan.history) return [];
    throw err;
  }
  try {
    const all = archive.versions(plan.id);
    const wanted = plan.history ? all : all.filter((v) => v.current);
    return wanted.map((v) => ({
      version: v.version,
      storedAt: v.storedAt,
      current: v.current,
      record: JSON.parse(v.raw),
    }));
  } finally {
    archive.close();
  }
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
  let versions = await fromArchive(local.file, plan);
  if (versions.length === 0) {
    if (plan.history)
      throw new UsageError(
        `recall ${plan.id} is not in the archive ${local.file}`,
        'run `recall-feed sync` to store it',
      );
    const live = await fromLive(plan, globals, local.settings, ctx);
    if (!live) {
      throw new UsageError(`no recall ${plan.id} in the archive ${local.file} or in the last 24 hours of the feed`);
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
          toTerminal: target.kind === 'stdout' && local.terminal.stdoutIsTTY,
        });
        await renderer.write(versions.map((v) => v.record));
        await renderer.end();
      }
    },
  );
}
