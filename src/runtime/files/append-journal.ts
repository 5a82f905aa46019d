// The journal of an append under way (`<file>.appending.json`): flushed to the disk before the first byte is added, removed
// once the append (and the state it belongs to) is in place; a run that finds one under the run lock repairs what a killed run left.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { groupDigits } from '../../output/numbers.js';
import { writeFileSynced } from './atomic-write.js';
import { fileSha256 } from './file-sha256.js';
import { sidecarPath } from './sidecar-names.js';
import { cannotWrite, errnoCode } from './write-errors.js';

/** Another file's replacement that an append belongs to (feed's --state): its next version staged, renamed onto `file` after the append. */
export interface StagedCommit {
  file: string;
  staged: string;
}

interface Journal {
  version: 1;
  /** The target's size before the append, and once the append is whole. */
  before: number;
  after: number;
  /** The file the bytes go into (device:inode): a file moved away and another put in its place is never cut. */
  id: string;
  /** sha256 of its first and its last 4 KiB (at most) before the append: an edited file is never cut. */
  head: string;
  tail: string;
  /** The replacement the append belongs to: the sha256 of that file as it was (null: not there) and as staged. */
  commit?: { file: string; was: string | null; next: string };
}

const EDGE = 4096;

const journalPath = (file: string) => sidecarPath(file, '.appending.json');

async function sha256(data: Buffer): Promise<string> {
  const { createHash } = await import('node:crypto');
  return createHash('sha256').update(data).digest('hex');
}

/** The identity and the digests of the first `before` bytes of `file`. */
async function fingerprint(file: string, before: number): Promise<Pick<Journal, 'id' | 'head' | 'tail'>> {
  const handle = await fs.open(file, 'r');
  try {
    const st = await handle.stat({ bigint: true });
    const read = async (from: number, length: number) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, from);
      return sha256(buffer.subarray(0, bytesRead));
    };
    const length = Math.min(before, EDGE);
    return { id: `${st.dev}:${st.ino}`, head: await read(0, length), tail: await read(before - length, length) };
  } finally {
    await handle.close();
  }
}

/** Flushes a folder's entries (a new or removed name) to the disk, where the system can. */
async function syncFolder(file: string): Promise<void> {
  const folder = await fs.open(path.dirname(file), 'r').catch(() => undefined);
  await folder?.sync().catch(() => {});
  await folder?.close();
}

/**
 * Writes and flushes the journal of an append to `file`: `source` holds what `file` will hold (the target itself, or a
 * partial renamed onto a target not there yet, then with `before` 0), of which the first `before` bytes are kept.
 */
export async function beginAppend(
  file: string,
  source: string,
  before: number,
  after: number,
  commit?: StagedCommit,
): Promise<void> {
  const journal: Journal = { version: 1, before, after, ...(await fingerprint(source, before)) };
  if (commit) {
    const next = await fileSha256(commit.staged);
    if (next !== null) journal.commit = { file: commit.file, was: await fileSha256(commit.file), next };
  }
  await writeFileSynced(journalPath(file), `${JSON.stringify(journal)}\n`);
  await syncFolder(file);
}

/** The append is in place (and the replacement it belongs to): nothing to repair any more. */
export async function endAppend(file: string): Promise<void> {
  await fs.rm(journalPath(file), { force: true });
}

function asJournal(raw: string): Journal | undefined {
  try {
    const j = JSON.parse(raw) as Journal;
    const ok = j?.version === 1 && Number.isSafeInteger(j.before) && Number.isSafeInteger(j.after);
    return ok && typeof j.id === 'string' && typeof j.head === 'string' && typeof j.tail === 'string' ? j : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the append was kept by its run: the replacement it belongs to was put in place (or, with none, it is whole). */
async function kept(journal: Journal, size: number): Promise<boolean | 'unknown'> {
  if (!journal.commit) return size === journal.after;
  const now = await fileSha256(journal.commit.file);
  if (now === journal.commit.next) return true;
  return now === journal.commit.was ? false : 'unknown';
}

/** Whether `file` is still the one the journal describes, with the killed run's bytes (some or all) after its old end. */
async function unchanged(file: string, journal: Journal, size: number): Promise<boolean> {
  if (size < journal.before || size > journal.after) return false;
  const now = await fingerprint(file, journal.before);
  return now.id === journal.id && now.head === journal.head && now.tail === journal.tail;
}

/** What to do with an append a killed run left: cut it off, or leave it (saying why, when it might be wrong). */
async function judge(file: string, journal: Journal, size: number): Promise<{ cut: boolean; why?: string }> {
  if (size === journal.before) return { cut: false }; // nothing was added
  const verdict = await kept(journal, size);
  if (verdict === true) return { cut: false }; // its run saved that it added them: they stay
  if (verdict === 'unknown') return { cut: false, why: `${journal.commit?.file} changed since` };
  return (await unchanged(file, journal, size)) ? { cut: true } : { cut: false, why: 'it was moved or changed since' };
}

/**
 * Under the run lock, before the file is written: a journal left by a run killed while appending to `file` is acted on.
 * An append its run did not keep (its state not put in place) is cut off, back to the size before it, so that its
 * records, written again, are in the file once and no row is left cut; a kept one stays. A file moved or edited since,
 * or a state changed since, is left as it is, with a warning. Then the journal goes.
 */
export async function repairKilledAppend(file: string, warn: (line: string) => void): Promise<void> {
  const where = journalPath(file);
  let raw: string;
  try {
    raw = await fs.readFile(where, 'utf8');
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return;
    throw cannotWrite(where, err);
  }
  // A journal not whole was being written when its run was killed: nothing had been added yet.
  const journal = asJournal(raw);
  // A file not there holds nothing: a run killed before it renamed a new file into place added nothing.
  const size = (await fs.stat(file).catch(() => undefined))?.size ?? 0;
  const { cut, why } = journal ? await judge(file, journal, size) : { cut: false };
  if (journal && cut) {
    await fs.truncate(file, journal.before).catch((err: unknown) => {
      throw cannotWrite(file, err);
    });
    const removed = groupDigits(size - journal.before);
    warn(
      `cut ${file} back to its ${groupDigits(journal.before)} bytes before a run that was killed while adding rows to it (${removed} bytes removed)`,
    );
  } else if (why) {
    warn(
      `did not cut ${file} back after a run that was killed while adding rows to it: ${why}; its last rows may be cut off or written twice`,
    );
  }
  await fs.rm(where, { force: true }).catch((err: unknown) => {
    throw cannotWrite(where, err);
  });
}
