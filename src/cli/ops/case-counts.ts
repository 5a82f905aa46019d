// Open, waiting and overdue cases for the metrics, read from the archive the run used (read-only), if it has one.
import { existsSync } from 'node:fs';
import type { Context } from '../context.js';
import type { GlobalFlags } from '../settings.js';
import { archiveTarget, openArchiveAt } from '../archive/archive-file.js';
import type { OpsSettings } from './ops-settings.js';
import { OVERDUE_AFTER_MS, type CaseCounts } from './run-metrics.js';

interface ArchiveFlags {
  db?: string;
  dbSchema?: string;
  archive?: boolean;
}

/** Undefined for feed and `match` on the live feed, or when the archive does not exist (yet). */
export async function caseCounts(
  command: string,
  opts: ArchiveFlags,
  globals: GlobalFlags,
  settings: OpsSettings,
  ctx: Context,
): Promise<CaseCounts | undefined> {
  if (command === 'feed' || (command === 'match' && !opts.archive)) return undefined;
  const target = archiveTarget(
    { db: opts.db, schema: opts.dbSchema },
    ctx.env,
    settings.profileDb,
    globals.sandbox === true,
  );
  if (target.kind === 'sqlite' && !existsSync(target.file)) return undefined;
  const archive = await openArchiveAt(target, { create: false, readOnly: true });
  try {
    const cases = await archive.cases({ statuses: ['open', 'waiting'] });
    const now = ctx.now();
    const overdue = cases.filter((c) => now - Date.parse(c.opened_at) > OVERDUE_AFTER_MS).length;
    return {
      open: cases.filter((c) => c.status === 'open').length,
      waiting: cases.filter((c) => c.status === 'waiting').length,
      overdue,
    };
  } finally {
    await archive.close();
  }
}
