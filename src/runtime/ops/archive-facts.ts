// What the metrics read from the archive the run used (read-only), if it has one: open, waiting and overdue cases,
// and for sync the outbox's backlog.
import { existsSync } from 'node:fs';
import type { OutboxBacklog } from '../../archive/outbox-model.js';
import type { Context } from '../context.js';
import { archiveTarget, openArchiveAt } from '../archive/archive-file.js';
import { isOverdue } from '../../archive/cases-model.js';
import type { OpsSettings } from './ops-settings.js';
import type { CaseCounts } from './run-metrics.js';

interface ArchiveFlags {
  db?: string;
  dbSchema?: string;
  archive?: boolean;
}

export interface ArchiveFacts {
  cases: CaseCounts;
  /** sync's only: the one command that queues and delivers the outbox's rows. */
  outbox: OutboxBacklog | undefined;
}

/** Undefined for feed and `match` on the live feed, or when the archive does not exist (yet). */
export async function archiveFacts(
  command: string,
  opts: ArchiveFlags,
  settings: OpsSettings,
  ctx: Context,
): Promise<ArchiveFacts | undefined> {
  if (command === 'feed' || (command === 'match' && !opts.archive)) return undefined;
  // The archive the run used: with --sandbox or a dr_test_ key, by default the sandbox's own file.
  const target = archiveTarget({ db: opts.db, schema: opts.dbSchema }, ctx.env, settings.profileDb, settings.sandbox);
  if (target.kind === 'sqlite' && !existsSync(target.file)) return undefined;
  const archive = await openArchiveAt(target, { create: false, readOnly: true });
  try {
    const cases = await archive.cases({ statuses: ['open', 'waiting'] });
    const now = ctx.now();
    return {
      cases: {
        open: cases.filter((c) => c.status === 'open').length,
        waiting: cases.filter((c) => c.status === 'waiting').length,
        // Past the due time each case was given (--sla, case-sla); a case opened without one is never overdue.
        overdue: cases.filter((c) => isOverdue(c, now)).length,
      },
      outbox: command === 'sync' ? await archive.outboxBacklog() : undefined,
    };
  } finally {
    await archive.close();
  }
}
