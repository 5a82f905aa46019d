// Where `match --learn` writes its file: refused before the catalogue or the archive's cases are read when it names the
// archive or cannot be written, and a write that fails anyway said as any other file that cannot be written (exit 10).
import { constants, promises as fs, type Stats } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../runtime/cli-errors.js';
import { writeFileAtomic } from '../../runtime/files/atomic-write.js';
import { refuseWritingOver } from '../../runtime/files/kept-files.js';
import { realFilePath } from '../../runtime/files/target-path.js';
import { cannotWrite, errnoCode } from '../../runtime/files/write-errors.js';

const FILE_HINT = 'give --learned a file name, e.g. --learned products.learned.json';

/** The codes whose usual hint (write-errors.ts) holds for --learned too; the others' name -o. */
const OWN_HINTS = new Set(['ENOENT', 'ENAMETOOLONG', 'ENOTDIR', 'ELOOP', 'ENOSPC', 'EDQUOT', 'EIO', 'EFBIG', 'EMFILE']);

/** CannotWriteError for the learned file, with a hint about --learned rather than -o. */
function cannotWriteLearned(file: string, err: unknown): unknown {
  const code = errnoCode(err) ?? '';
  if (OWN_HINTS.has(code)) return cannotWrite(file, err);
  if (code === 'EISDIR') return cannotWrite(file, err, FILE_HINT);
  const perms = code === 'EACCES' || code === 'EPERM' ? 'check the permissions, or ' : '';
  return cannotWrite(file, err, `${perms}give --learned a file in another folder`);
}

/**
 * Refuses a learned file that would replace the archive (exit 2), that names a folder (exit 2), or whose folder is
 * missing, not a folder or not writable, or whose name is too long (exit 10): checked as -o is, before any work.
 */
export async function checkLearnedTarget(file: string, archiveFile: string | undefined, named: boolean): Promise<void> {
  if (archiveFile !== undefined) refuseWritingOver('--learned', file, [{ path: archiveFile, what: 'archive' }]);
  if (/[/\\]$/.test(file)) throw new UsageError(`cannot write ${file}: a file name cannot end with /`, FILE_HINT);
  const found = await statOrMissing(file);
  if (found?.isDirectory()) throw new UsageError(`cannot write ${file}: it is a folder`, FILE_HINT);
  // Where it is written: a symbolic link's target, whose folder takes the new file.
  const folder = path.dirname((await learnedPath(file, named)).real);
  try {
    // The file is replaced by a new one made beside it: its folder must take a new file.
    if (!(await fs.stat(folder)).isDirectory()) throw Object.assign(new Error('ENOTDIR'), { code: 'ENOTDIR' });
    await fs.access(folder, constants.W_OK);
  } catch (err) {
    throw cannotWriteLearned(file, err);
  }
}

async function statOrMissing(file: string): Promise<Stats | undefined> {
  try {
    return await fs.stat(file);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return undefined;
    // A name too long, a part of the path that is a file, a loop of links: the file cannot be written.
    throw cannotWriteLearned(file, err);
  }
}

/**
 * The file a link named `file` points to (links followed, a dangling one too), else `file` itself, absolute; `planted`
 * when the default name (`<catalogue>.learned.json`, which anyone who may write the catalogue's folder can foresee)
 * is a link another user made: it is then replaced as a new file, never written through.
 */
async function learnedPath(file: string, named: boolean): Promise<{ real: string; planted: boolean }> {
  try {
    if (!named && (await plantedLink(file))) return { real: path.resolve(file), planted: true };
    return { real: await realFilePath(file), planted: false };
  } catch (err) {
    throw cannotWriteLearned(file, err);
  }
}

/** True when `file` is a symbolic link owned by another user than the run's. */
async function plantedLink(file: string): Promise<boolean> {
  const uid = process.getuid?.();
  if (uid === undefined) return false;
  const link = await fs.lstat(file).catch(() => undefined);
  return link?.isSymbolicLink() === true && link.uid !== uid;
}

/** A new learned file's mode, whatever the umask: `match`, `digest` and `report` of other users may read it. */
const NEW_MODE = 0o644;

/**
 * Writes the learned file in one step; a failure names the file given, never its temporary neighbour. A symbolic
 * link's target is replaced and the link stays a link (a dangling one creates the file it names), as -o, --state and
 * --metrics-file are written (but a link another user planted at the default name is replaced); an existing file
 * keeps its mode (a 0600 file stays private) and, as root, its owner and group; a new one is 0644.
 */
export async function writeLearned(file: string, content: string, named: boolean): Promise<void> {
  try {
    const { real, planted } = await learnedPath(file, named);
    const found = planted ? undefined : await fs.stat(real).catch(() => undefined);
    const owner = found && process.getuid?.() === 0 ? { uid: found.uid, gid: found.gid } : undefined;
    await writeFileAtomic(real, content, found ? found.mode & 0o7777 : NEW_MODE, owner);
  } catch (err) {
    throw cannotWriteLearned(file, err);
  }
}
