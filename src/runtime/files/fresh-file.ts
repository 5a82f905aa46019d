// A file a run creates beside another (a lock's note, an append's journal, a temporary file): made afresh, never
// written through whatever a name someone else could plant there points to.
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { errnoCode } from './write-errors.js';

/** The owner and group a file replaced by root keeps (as -o's target does). */
export interface Owner {
  uid: number;
  gid: number;
}

/**
 * Opens `file` new, for writing, with `mode` (under the umask). What is at that name first goes: a stale file a
 * killed run left, or a symbolic or hard link someone who may write the folder planted there to have this run write
 * over another file (its name is fixed, or holds a pid). The file is then created with O_EXCL, which never follows
 * a link: a name planted again in between fails the open (EEXIST), it is never written through. A folder at that name
 * is EISDIR, as an open would say.
 */
export async function createFresh(file: string, mode = 0o600): Promise<FileHandle> {
  try {
    await fs.unlink(file);
  } catch (err) {
    if (errnoCode(err) !== 'ENOENT') throw err;
  }
  return fs.open(file, 'wx', mode);
}

/** As root, `owner` (the file replaced's); a run as another user makes its files its own (chown would fail). */
export async function keepOwnerAsRoot(handle: FileHandle, owner: Owner | undefined): Promise<void> {
  if (owner === undefined || process.getuid?.() !== 0) return;
  // A file system that refuses (root squashed on NFS) leaves the file root's, as it was before.
  await handle.chown(owner.uid, owner.gid).catch(() => {});
}
