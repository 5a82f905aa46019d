// Doctor's archive check where there is no archive yet (a fresh install, before the first sync): a note when a sync
// could create it, a failure when it could not (its folder missing, unless it is the default one a sync creates, or not
// writable); doctor itself creates nothing.
import type { DbTarget } from '../../archive/db-target.js';
import { shellQuote } from '../../runtime/shell-quote.js';
import { type CheckResult, fail, ok } from './check.js';

const ELSEWHERE = 'or point --db or RECALL_FEED_DB at an archive';

export async function checkArchiveMissing(target: DbTarget): Promise<CheckResult> {
  const { creatable } = await import('../../archive/creatable.js');
  const why = await creatable(target);
  if (why.problem === undefined) {
    const may =
      target.kind === 'postgres'
        ? 'this user may create its schema'
        : why.newFolder
          ? `and its folder ${why.newFolder.folder}: ${why.newFolder.under} is writable`
          : 'its folder is writable';
    return ok(
      'archive',
      `${target.name}: not created yet; the first \`recall-feed sync\` creates it (${may}); nothing else to check until then`,
    );
  }
  const detail = `${target.name}: no archive, and a sync could not create one: ${why.where}: ${why.detail}`;
  if (why.problem === 'no-folder')
    return fail('archive', detail, `create the folder (mkdir -p ${shellQuote(why.where)}), ${ELSEWHERE}`);
  return fail(
    'archive',
    detail,
    target.kind === 'sqlite'
      ? `run doctor and sync as the user the job runs as, give that user the folder, ${ELSEWHERE}`
      : `GRANT CREATE ON DATABASE ${target.database} TO the job's user, ${ELSEWHERE}`,
  );
}
