// What every tool is handed: the run's session, the plan, the archive opened per call, the freshness, the actor.
import type { DbTarget } from '../archive/db-target.js';
import type { ArchiveStore } from '../archive/store.js';
import { openArchiveAt, writerOptions, writing } from '../runtime/archive/archive-file.js';
import { openUsedArchive } from '../runtime/archive/run-archive.js';
import type { Session } from '../runtime/session.js';
import { type Freshness, freshnessOf, type KeySources } from './freshness.js';
import type { McpPlan } from './plan.js';

export interface ToolDeps {
  session: Session;
  plan: McpPlan;
  where: DbTarget;
  /** The archive opened read-only for `fn` and closed after: a sync from cron may write between two calls. */
  read<T>(fn: (archive: ArchiveStore) => Promise<T>): Promise<T>;
  /** The archive opened for writing (case steps), a failure to write said as the CLI says it. */
  write<T>(fn: (archive: ArchiveStore) => Promise<T>): Promise<T>;
  /** `known`: the sources this answer already asked for (a second wait on an API that does not answer is not taken). */
  freshness(archive: ArchiveStore, known?: KeySources): Promise<Freshness>;
  /** The sources the key may use, as the server knows them: asked of the API once, never waited on long. */
  sources(): Promise<KeySources>;
  /** `mcp:<client name>`, from the client's initialize request: the actor of the steps it records. */
  actor(): string;
}

/** The parts every connection shares; `actor` is the connection's own. */
export function toolDeps(
  session: Session,
  plan: McpPlan,
  allowed: () => Promise<KeySources>,
  actor: () => string,
): ToolDeps {
  const where = session.archive(plan.db);
  const { ctx } = session;
  return {
    session,
    plan,
    where,
    actor,
    async read(fn) {
      // Per call, not per run: the server runs for hours while a sync from cron writes between two calls.
      const archive = await openUsedArchive({ db: plan.db, mode: 'read' }, where, session);
      if (archive === undefined) throw new TypeError('openUsedArchive() gave no archive for a required one');
      try {
        return await fn(archive);
      } finally {
        await archive.close();
      }
    },
    async write(fn) {
      const archive = await openArchiveAt(where, { create: false, ...writerOptions(ctx) });
      try {
        return await writing(where.name, () => fn(archive));
      } finally {
        await archive.close();
      }
    },
    async freshness(archive, known) {
      const { ids, why } = known ?? (await allowed());
      return freshnessOf(archive, ctx.now(), ids, why);
    },
    sources: allowed,
  };
}

/** A client's name as an actor: printable ASCII, at most 64 characters; hostile text never reaches the chain. */
export function actorOf(clientName: string | undefined): string {
  const name = (clientName ?? '')
    .replace(/[^\x20-\x7e]/g, '')
    .trim()
    .slice(0, 64);
  return `mcp:${name === '' ? 'unknown-client' : name}`;
}
