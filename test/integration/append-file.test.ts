// Appending a partial to its target is all or nothing: a write that fails part-way cuts the target back.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { childModule } from '../helpers/child-module.js';
import { tempDir } from '../helpers/temp-dir.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

const MODULE = await childModule('src/runtime/files/append-file.ts');

/** Appends argv[1] to argv[2]; prints the error's name and message, if any. */
const APPEND = `
const { appendFileBytes } = await import(${JSON.stringify(MODULE)});
try {
  await appendFileBytes(process.argv[1], process.argv[2], 'the target');
  console.log('ok');
} catch (err) {
  console.log(err.name + ': ' + err.message);
}
`;

/** Runs APPEND under a file-size limit of `blocks` × 512 bytes; a write past it fails with EFBIG. */
function appendUnderLimit(from: string, to: string, blocks: number) {
  // SIGXFSZ ignored: the write fails instead of the process being killed.
  const script = `trap "" XFSZ; ulimit -f ${blocks}; exec "$@"`;
  return execa('sh', ['-c', script, 'sh', 'node', '--input-type=module', '-e', APPEND, from, to], { cwd: ROOT });
}

describe('appendFileBytes', () => {
  it('adds the bytes, with the final newline the target lacked', async () => {
    const dir = tempDir('rf-append-');
    const [from, to] = [path.join(dir, 'new'), path.join(dir, 'old')];
    writeFileSync(from, 'c\nd\n');
    writeFileSync(to, 'a\nb');
    const r = await appendUnderLimit(from, to, 1024);
    expect(r.stdout).toBe('ok');
    expect(readFileSync(to, 'utf8')).toBe('a\nb\nc\nd\n');
  });

  it('adds the missing final line end as the target ends its lines: CRLF after a CRLF file', async () => {
    const dir = tempDir('rf-append-');
    const [from, to] = [path.join(dir, 'new'), path.join(dir, 'old')];
    writeFileSync(from, 'c\r\n');
    writeFileSync(to, 'a\r\nb');
    const r = await appendUnderLimit(from, to, 1024);
    expect(r.stdout).toBe('ok');
    expect(readFileSync(to, 'utf8')).toBe('a\r\nb\r\nc\r\n');
  });

  it('a write that fails part-way (file too large) leaves the target exactly as it was', async () => {
    const dir = tempDir('rf-append-');
    const [from, to] = [path.join(dir, 'new'), path.join(dir, 'old')];
    const limit = 128 * 512;
    const old = `${'o'.repeat(99)}\n`.repeat(500); // 50 000 bytes
    writeFileSync(to, old);
    writeFileSync(from, `${'n'.repeat(99)}\n`.repeat(300)); // 30 000 bytes: past the limit together
    expect(old.length < limit).toBe(true);
    const r = await appendUnderLimit(from, to, 128);
    expect(r.stdout).toBe('CannotWriteError: cannot write the target: the file is too large');
    expect(readFileSync(to, 'utf8')).toBe(old);
    expect(readdirSync(dir).sort()).toEqual(['new', 'old']);
  });
});
