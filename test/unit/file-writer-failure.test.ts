// A FileWriter whose write fails (a full disk: /dev/full) while nothing waits on it: the failure is kept for close() and
// the write path to report (exit 10, the file named), never an 'error' event with no listener, which would end the
// process with a stack trace and leave the partial file behind.
import { open } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { FileWriter } from '../../src/runtime/files/file-writer.js';

describe.skipIf(process.platform !== 'linux')('FileWriter on a full disk', () => {
  it('a small write that fails is reported by close(), naming the file, and raises nothing unheard', async () => {
    const writer = new FileWriter(await open('/dev/full', 'w'), 'out.jsonl.partial');
    // Under the 64 KiB high-water mark: write() asks for no drain, so no caller is listening when the write fails.
    expect(writer.write('{"id":1}\n')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(writer.errored).toBeTruthy();
    const failed = await writer.close().then(
      () => undefined,
      (err: unknown) => err as Error,
    );
    expect(failed?.message).toBe('cannot write out.jsonl.partial: the disk is full');
  });
});
