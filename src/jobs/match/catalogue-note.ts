// Which sha256 a catalogue had when a run last read it, by its file's stamp: how a daily run finds its state unhashed.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../runtime/files/atomic-write.js';
import { stateFolder } from './match-state.js';

/** What the file system says of a file without reading it: device, inode, size, modified and changed times (ns). */
export type FileStamp = [dev: string, ino: string, size: string, mtimeNs: string, ctimeNs: string];

/** The stamp of `file` now; undefined when it cannot be had (the read that follows says why). */
export async function fileStamp(file: string): Promise<FileStamp | undefined> {
  try {
    const s = await fs.stat(file, { bigint: true });
    return [s.dev, s.ino, s.size, s.mtimeNs, s.ctimeNs].map(String) as FileStamp;
  } catch {
    return undefined;
  }
}

/** Whether two stamps are of the same file, unchanged. */
export const sameStamp = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

/** `<state folder>/catalogue-<sha256 of its absolute path>.json`: one note per catalogue, whatever the options. */
export function noteFile(env: Record<string, string | undefined>, catalogue: string): string {
  const name = createHash('sha256').update(path.resolve(catalogue)).digest('hex');
  return path.join(stateFolder(env), `catalogue-${name}.json`);
}

/**
 * The sha256 the note gives for a file of this stamp; undefined when there is no note, another stamp, or a note that
 * cannot be read. Only a guess of which state to look for: the run checks it against the bytes it reads.
 */
export async function notedSha256(file: string, stamp: FileStamp): Promise<string | undefined> {
  try {
    const note = JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
    if (typeof note !== 'object' || note === null) return undefined;
    const { stamp: noted, sha256 } = note as { stamp?: unknown; sha256?: unknown };
    if (!Array.isArray(noted) || typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(sha256)) return undefined;
    return sameStamp(noted, stamp) ? sha256 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Notes the sha256 of bytes read between two stamps of the file, when the two agree (a file written to during the
 * read is not noted). Best effort: a note not kept costs the next run one hash of the file.
 */
export async function keepNote(file: string, catalogue: string, before: FileStamp, sha256: string): Promise<void> {
  const after = await fileStamp(catalogue);
  if (!after || !sameStamp(before, after)) return;
  try {
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFileAtomic(file, JSON.stringify({ stamp: before, sha256 }));
  } catch {
    // The state's own write says what is wrong with the folder.
  }
}
