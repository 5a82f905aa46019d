// Opening the archive a run names for reading only: what query, stats, show, match, cases, digest and report read.
import type { DbTarget } from '../../archive/db-target.js';
import type { ArchiveStore } from '../../archive/store.js';
import type { Settings } from '../settings.js';
import type { StatusReporter } from '../terminal/status.js';
import { openArchiveAt } from './archive-file.js';

/** Opens `target` for reading only: a read-only file, mount or database role is enough. */
export async function readArchive(
  run: { settings: Pick<Settings, 'verbose'>; status: StatusReporter },
  target: DbTarget,
): Promise<ArchiveStore> {
  if (run.settings.verbose) run.status.note(`archive: ${target.name}`);
  return openArchiveAt(target, { create: false, readOnly: true });
}
