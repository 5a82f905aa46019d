// Doctor's outbox check: what sync's actions still owe in the archive (pending, retrying, given up), read-only.
import type { DbTarget } from '../../archive/db-target.js';
import type { ArchiveStore } from '../../archive/store.js';
import { type CheckResult, fail, ok, warn } from './check.js';

/**
 * A row still owed this long after its sync started is late: a sync delivers right after storing (a --watch
 * round, or the end of a run), so only a receiver that keeps failing or a host that stopped leaves one this old.
 */
export const OUTBOX_LATE_MS = 10 * 60_000;

/** The table as a SQL client names it: on PostgreSQL, inside the archive's schema. */
function table(target: DbTarget): string {
  return target.kind === 'postgres' ? `${target.schema}.outbox` : 'outbox';
}

function client(target: DbTarget): string {
  return target.kind === 'postgres' ? 'psql' : `sqlite3 ${target.file}`;
}

export async function checkOutbox(archive: ArchiveStore, target: DbTarget, now: number): Promise<CheckResult> {
  const backlog = await archive.outboxBacklog();
  const t = table(target);
  const see = `see them: ${client(target)} "SELECT id, recall_id, action, attempts, last_error FROM ${t} WHERE state = 'failed'"`;
  if (backlog.failed > 0)
    return fail(
      'outbox',
      `${backlog.failed} given up (their action can never succeed as given), ${backlog.pending} pending, ${backlog.retrying} retrying`,
      `${see}; fix the action, then queue them again: UPDATE ${t} SET state = 'pending', lease_until = NULL WHERE state = 'failed' (the next sync delivers them)`,
    );
  if (backlog.pending === 0) return ok('outbox', 'nothing owed: every action sync queued was delivered');
  const oldest = await archive.outboxOldestPending();
  const ageMs = oldest === undefined ? 0 : now - Date.parse(oldest);
  const age =
    oldest === undefined
      ? ''
      : `; the oldest queued ${new Date(Date.parse(oldest)).toISOString()} (${Math.max(0, Math.round(ageMs / 60_000))} min ago)`;
  const detail = `${backlog.pending} pending, ${backlog.retrying} of them retrying${age}`;
  if (backlog.retrying > 0 || ageMs > OUTBOX_LATE_MS)
    return warn(
      'outbox',
      detail,
      `the next \`sync\` with the same actions delivers them; why they wait: ${client(target)} "SELECT id, recall_id, action, attempts, last_error FROM ${t} WHERE state = 'pending'"`,
    );
  return ok('outbox', `${detail}: the next delivery takes them`);
}
