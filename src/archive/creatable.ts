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

/** Undefined when a sync could create the archive `target` names; what stands in its way otherwise. */
export async function whyNotCreatable(target: DbTarget): Promise<NotCreatable | undefined> {
  if (target.kind === 'postgres') {
    const { schemaCreatable } = await import('./postgres/creatable.js');
    return (await schemaCreatable(target))
      ? undefined
      : {
          problem: 'not-writable',
          where: `database ${target.database} on ${target.host}`,
          detail: `this user may not create the schema ${target.schema} (or its tables) there`,
        };
  }
  const folder = path.dirname(path.resolve(target.file));
  try {
    const stat = await fs.stat(folder);
    if (!stat.isDirectory()) return { problem: 'no-folder', where: folder, detail: 'it is not a folder' };
  } catch (err) {
    return { problem: 'no-folder', where: folder, detail: reason(err) };
  }
  try {
    await fs.access(folder, constants.W_OK | constants.X_OK);
    return undefined;
  } catch (err) {
    return { problem: 'not-writable', where: folder, detail: reason(err) };
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
