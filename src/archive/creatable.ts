// Whether a sync could create the archive a target names, where there is none yet: asked, never tried (doctor creates nothing).
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import type { DbTarget } from './db-target.js';

/** Why a sync could not create the archive: its folder is missing, or it may not write there. */
export interface NotCreatable {
  problem: 'no-folder' | 'not-writable';
  /** The folder (SQLite), or the database and schema (PostgreSQL), named for the user. */
  where: string;
  detail: string;
}

/** A sync could create the archive; `newFolder` when it would create its folder too (the default one), in `under`. */
export interface Creatable {
  problem?: undefined;
  newFolder?: { folder: string; under: string };
}

/** What stands in the way of a sync creating the archive `target` names, or that nothing does. */
export async function creatable(target: DbTarget): Promise<Creatable | NotCreatable> {
  if (target.kind === 'postgres') {
    const { schemaCreatable } = await import('./postgres/creatable.js');
    return (await schemaCreatable(target))
      ? {}
      : {
          problem: 'not-writable',
          where: `database ${target.database} on ${target.host}`,
          detail: `this user may not create the schema ${target.schema} (or its tables) there`,
        };
  }
  const folder = path.dirname(path.resolve(target.file));
  // The default archives' folder is made by the sync (mkdir -p, sqlite/open.ts): then the nearest folder that exists
  // must be one it may write in. A folder --db names must exist.
  const under = target.createsFolder ? await nearestExisting(folder) : folder;
  try {
    const stat = await fs.stat(under);
    if (!stat.isDirectory()) return { problem: 'no-folder', where: under, detail: 'it is not a folder' };
  } catch (err) {
    return { problem: 'no-folder', where: under, detail: reason(err) };
  }
  try {
    await fs.access(under, constants.W_OK | constants.X_OK);
  } catch (err) {
    return { problem: 'not-writable', where: under, detail: reason(err) };
  }
  return under === folder ? {} : { newFolder: { folder, under } };
}

/** `folder`, or the nearest of its parents that exists (or that cannot be looked at: the stat after says why). */
async function nearestExisting(folder: string): Promise<string> {
  let dir = folder;
  for (;;) {
    // lstat: a link to a folder that is gone (an unmounted volume) exists, and the stat after says it is no folder.
    const missing = await fs.lstat(dir).then(
      () => false,
      (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT',
    );
    const parent = path.dirname(dir);
    if (!missing || parent === dir) return dir;
    dir = parent;
  }
}

function reason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'it does not exist';
  if (code === 'ENOTDIR') return 'a parent of it is not a folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'read-only file system';
  return err instanceof Error ? err.message : String(err);
}
