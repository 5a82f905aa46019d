// Opening `<file>.partial` for a run (fresh or resumed) and putting it in place of the target, keeping what the target
// had (mode, owner, group); the partial is never written through a link planted at its name.
import { constants as fsConstants, promises as fs, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { BusyError, UsageError } from '../cli-errors.js';
import { checkPartialMatches, type PartialState, readPartialState } from './partial-state.js';
import { cannotWrite, errnoCode, writing } from './write-errors.js';

export interface FileTargetOptions {
  append: boolean;
  resume: boolean;
  fingerprint: string;
  /** Told what a replace could not keep of the file it replaced (its group). */
  warn?: (line: string) => void;
}

/** The file as resolveTargetPath found it: its real path (symlinks followed) and its stat, if it exists. */
export interface RealFile {
  path: string;
  stat: Stats | undefined;
}

export interface Opened {
  handle: FileHandle;
  resumed: PartialState | undefined;
  /** The partial holds only the records to add to the target (--append), not the whole new file. */
  appending: boolean;
  startsEmpty: boolean;
  headerSource: string | undefined;
}

const permissions = (stat: Stats) => stat.mode & 0o7777;

/**
 * Gives the partial `handle` the owner and group of `target`: as root both, as another user the group where this user
 * is in it. Returns the group the partial could not take, if any.
 */
async function keepOwner(handle: FileHandle, target: Stats): Promise<number | undefined> {
  const mine = await handle.stat();
  if (mine.uid === target.uid && mine.gid === target.gid) return undefined;
  if (process.getuid?.() === 0) {
    await handle.chown(target.uid, target.gid).catch(() => {});
    return undefined;
  }
  if (mine.gid === target.gid) return undefined;
  return handle.chown(-1, target.gid).then(
    () => undefined,
    () => mine.gid,
  );
}

/**
 * Found out now, not after the records were fetched: a file replaced or appended to must be writable itself (a
 * read-only file is refused, exit 10, as it would be written to in place). Root may write any.
 */
const checkWritable = (file: RealFile) =>
  file.stat ? writing(file.path, () => fs.access(file.path, fsConstants.W_OK)) : Promise.resolve();

/** A fresh run: a stale partial from an earlier run goes; the new one is created exclusively. */
export async function openFresh(
  file: RealFile,
  partial: string,
  statePath: string,
  opts: FileTargetOptions,
): Promise<Opened> {
  await checkWritable(file);
  await writing(statePath, () => fs.rm(statePath, { force: true }));
  await writing(partial, () => fs.rm(partial, { force: true }));
  // Made with the target's permissions from the start: a 0600 file's records are never readable by others.
  const mode = file.stat ? permissions(file.stat) : 0o666;
  let handle: FileHandle;
  try {
    handle = await fs.open(partial, 'wx', mode);
  } catch (err) {
    if (errnoCode(err) === 'EEXIST') {
      throw new BusyError(`another run is writing ${partial}`, 'let it finish, then run again');
    }
    throw cannotWrite(partial, err);
  }
  if (file.stat) {
    const stat = file.stat;
    // Its owner and group (who may read it) first, then the mode, which the umask may have cut and a chown clear bits of.
    await writing(partial, async () => {
      await keepOwner(handle, stat);
      await handle.chmod(mode);
    }).catch(async (err: unknown) => {
      await handle.close();
      throw err;
    });
  }
  const existing = opts.append ? (file.stat?.size ?? 0) : 0;
  return {
    handle,
    resumed: undefined,
    appending: opts.append,
    startsEmpty: existing === 0,
    headerSource: existing > 0 ? file.path : undefined,
  };
}

/** A field a fingerprint names (a JSON object's): its `version` (undefined before versions), its output `format`. */
function fingerprintField(fingerprint: string, field: 'version' | 'format'): unknown {
  try {
    return (JSON.parse(fingerprint) as Record<string, unknown> | null)?.[field];
  } catch {
    return undefined;
  }
}

/** A resume: the partial is cut back to what its state covers and written on from there. */
export async function openResumed(
  file: RealFile,
  partial: string,
  statePath: string,
  opts: FileTargetOptions,
): Promise<Opened> {
  const resumed = await readPartialState(partial, statePath);
  const again = 'resume with the exact command printed when it stopped, or run without --resume to start over';
  if (resumed.fingerprint !== opts.fingerprint) {
    if (fingerprintField(resumed.fingerprint, 'version') !== fingerprintField(opts.fingerprint, 'version')) {
      throw new UsageError(
        `cannot resume ${partial}: it was written by another version of recall-feed`,
        'run without --resume to start over',
      );
    }
    throw new UsageError(`cannot resume ${partial}: it was written with other options`, again);
  }
  // State files of earlier versions have no `append`: their partial is the whole file, either way.
  if (resumed.append !== undefined && resumed.append !== opts.append) {
    throw new UsageError(
      `cannot resume ${partial}: it was started ${resumed.append ? 'with' : 'without'} --append`,
      again,
    );
  }
  const appending = resumed.append === true;
  await checkWritable(file);
  // Read too: the partial is checked against its state before it is cut back to it (never extended: truncate would pad
  // a partial shorter than its state with NUL bytes). The fingerprint, the same as this run's, names the format.
  const handle = await openPartial(partial, fsConstants.O_RDWR | fsConstants.O_APPEND);
  const format = fingerprintField(resumed.fingerprint, 'format');
  await writing(partial, async () => {
    await checkPartialMatches(handle, { partial, statePath }, resumed, typeof format === 'string' ? format : undefined);
    await handle.truncate(resumed.bytes);
  }).catch(async (err: unknown) => {
    await handle.close();
    throw err;
  });
  const existing = appending ? (file.stat?.size ?? 0) : 0;
  return {
    handle,
    resumed,
    appending,
    // Nothing was written yet: headers still go first.
    startsEmpty: existing === 0 && resumed.bytes === 0,
    headerSource: existing > 0 ? file.path : resumed.bytes > 0 ? partial : undefined,
  };
}

/**
 * Opens the partial an earlier run (or this one) wrote, with `flags`: never through a symbolic link, and only a regular
 * file, so that a name someone replaced in the folder meanwhile is never written, truncated or chmodded through.
 */
export async function openPartial(partial: string, flags: number): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await fs.open(partial, flags | fsConstants.O_NOFOLLOW);
  } catch (err) {
    throw errnoCode(err) === 'ELOOP' ? notOurs(partial) : cannotWrite(partial, err);
  }
  if ((await handle.stat()).isFile()) return handle;
  await handle.close();
  throw notOurs(partial);
}

/** A partial someone replaced with a link (or anything but a file): it is left alone, neither followed nor removed. */
const notOurs = (partial: string) =>
  new UsageError(
    `${partial} is not the file recall-feed wrote: it is a symbolic link or not a regular file`,
    'move it away, then run again',
  );

/**
 * Replaces the target with the partial, keeping the target's permissions and its owner and group (as root), or its
 * group (as another user in that group; a warning says when it cannot).
 */
export async function replaceWith(
  partial: string,
  file: string,
  shown: string,
  warn?: (line: string) => void,
): Promise<void> {
  const current = await fs.stat(file).catch(() => undefined);
  if (current) {
    const handle = await openPartial(partial, fsConstants.O_RDONLY);
    try {
      const lost = await keepOwner(handle, current);
      if (lost !== undefined)
        warn?.(
          `${shown} now belongs to group ${lost}: its group ${current.gid} could not be kept, as this user is not in it`,
        );
      await handle.chmod(permissions(current));
    } finally {
      await handle.close();
    }
  }
  await fs.rename(partial, file);
}
