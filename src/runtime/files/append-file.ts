// Adds one file's bytes to the end of another, all or nothing: a failure cuts the target back to its old size, and a
// journal flushed first lets the next run do so after a kill (append-journal.ts).
import { constants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { beginAppend, endAppend, type StagedCommit } from './append-journal.js';
import { writing } from './write-errors.js';
import { writeAll } from './file-writer.js';

const CHUNK = 1024 * 1024;

async function endsWithNewline(handle: FileHandle, size: number): Promise<boolean> {
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  return last[0] === 0x0a;
}

/** The line end of the file's first line (CRLF for a file saved on Windows), so that the one added matches. */
async function lineEndOf(handle: FileHandle, size: number): Promise<string> {
  const head = Buffer.alloc(Math.min(size, 64 * 1024));
  const { bytesRead } = await handle.read(head, 0, head.length, 0);
  const lf = head.subarray(0, bytesRead).indexOf(0x0a);
  return lf > 0 && head[lf - 1] === 0x0d ? '\r\n' : '\n';
}

/**
 * Appends the bytes of `from` to `to` (created if missing), first adding the final newline `to` lacks (in
 * the line end of its first line) so that the first new line is not glued onto its last one. Costs what `from` holds, whatever the size of
 * `to`. On any failure `to` is truncated back to its size before, and the error (CannotWriteError for
 * file-system errors, naming `shown`) is thrown. The append's journal, written first, goes when the append is done; with
 * `commit` (the --state it belongs to) it stays until that is in place too (endAppend), so that a run killed in between
 * has the append cut back by the next one.
 */
export async function appendFileBytes(from: string, to: string, shown: string, commit?: StagedCommit): Promise<void> {
  await writing(shown, async () => {
    // The partial this run wrote, never a link planted at its name: what it points to is not added to the file.
    const source = await fs.open(from, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const length = (await source.stat()).size;
      if (length === 0) return;
      // a+: appends, and can read the last byte.
      const target = await fs.open(to, 'a+');
      let before: number | undefined;
      try {
        before = (await target.stat()).size;
        const lineEnd = before > 0 && !(await endsWithNewline(target, before)) ? await lineEndOf(target, before) : '';
        // On the disk before the first byte is added: a kill from here on is repaired by the next run.
        await beginAppend(to, to, before, before + lineEnd.length + length, commit);
        if (lineEnd) await writeAll(target, Buffer.from(lineEnd));
        const buffer = Buffer.allocUnsafe(Math.min(CHUNK, length));
        for (let done = 0; done < length; ) {
          const { bytesRead } = await source.read(buffer, 0, buffer.length, done);
          if (bytesRead === 0) break;
          await writeAll(target, buffer, bytesRead);
          done += bytesRead;
        }
        // On the disk before the caller forgets the partial: a power cut never loses appended rows.
        await target.sync();
        if (!commit) await endAppend(to);
      } catch (err) {
        // Cut back, the journal has nothing left to repair; if the cut fails, it stays for the next run.
        if (
          before !== undefined &&
          (await target.truncate(before).then(
            () => true,
            () => false,
          ))
        ) {
          await endAppend(to).catch(() => {});
        }
        throw err;
      } finally {
        await target.close();
      }
    } finally {
      await source.close();
    }
  });
}
