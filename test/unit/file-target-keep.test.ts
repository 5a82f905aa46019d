// A --resume whose own writes fail (the disk full) keeps its partial and the state it continued: that state still says
// where the partial's records end, so the failure can say the resume command again (docs/formats.md: "A --resume that
// fails in its turn, for any reason, keeps both files and prints the command again").
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CannotWriteError } from '../../src/runtime/cli-errors.js';
import { fileTarget } from '../../src/runtime/files/file-target.js';
import { tempDir } from '../helpers/temp-dir.js';

const write = (stream: NodeJS.WritableStream, text: string) =>
  new Promise<void>((resolve, reject) => stream.write(text, (err) => (err ? reject(err) : resolve())));

describe('keeping a resumed partial whose writer failed', () => {
  it('keeps the state it resumed from, and says how many records that state covers', async () => {
    const file = path.join(tempDir('rf-keep-'), 'r.jsonl');
    const opts = { append: false, fingerprint: '{"version":1}' };
    const first = await fileTarget({ path: file, stat: undefined }, file, { ...opts, resume: false });
    await write(first.stream, '{"id":1}\n{"id":2}\n');
    await first.keep({ cursor: 'after-2', count: 2 });
    const state = readFileSync(`${file}.partial.json`, 'utf8');

    const resumed = await fileTarget({ path: file, stat: undefined }, file, { ...opts, resume: true });
    await write(resumed.stream, '{"id":3}\n');
    // What the writer says when the disk refuses a write (file-writer.ts); the run hears it, as its pipeline does.
    resumed.stream.on('error', () => {});
    resumed.stream.destroy(new CannotWriteError(`${file}.partial`, 'the disk is full'));
    await expect(resumed.keep({ cursor: 'after-5', count: 5 })).resolves.toEqual({
      partial: `${file}.partial`,
      count: 2,
    });
    expect(readFileSync(`${file}.partial.json`, 'utf8')).toBe(state);
  });
});
