// bin/code-cache.cjs: the front's V8 code cache is used only when it is this build's and intact; otherwise the
// bundle compiles from its source, and a damaged cache never reaches V8 (a release V8 does not check its checksum, and crashes on one).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';

const CODE_CACHE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/code-cache.cjs');
/**
 * A small CommonJS bundle with a build id line, its cache written after one call; returns its path. Made in
 * a child process of its own: V8 refuses a cache made under other V8 flags, and a test process may have set
 * some (the CLI's session sets --liftoff-only).
 */
async function bundleWithCache(id: string): Promise<string> {
  const file = path.join(tempDir('rf-cache-'), 'front.cjs');
  writeFileSync(
    file,
    `exports.sum = (n) => { let s = 0; for (let i = 1; i <= n; i++) s += i; return s; };\n//# recall-feed-build ${id}\n`,
  );
  await execa(process.execPath, [
    '-e',
    'const { loadWithCodeCache, writeCodeCache } = require(process.argv[1]);' +
      ' const { exports, script } = loadWithCodeCache(process.argv[2]); exports.sum(3); writeCodeCache(process.argv[2], script);',
    CODE_CACHE,
    file,
  ]);
  return file;
}

/** Loads `file` in a child process, so that a cache V8 chokes on fails this test and not the runner. */
async function loadInChild(file: string) {
  const r = await execa(
    process.execPath,
    [
      '-e',
      'const { loadWithCodeCache } = require(process.argv[1]); const { exports, script } = loadWithCodeCache(process.argv[2]);' +
        ' console.log(JSON.stringify({ sum: exports.sum(100), rejected: script.cachedDataRejected ?? null }));',
      CODE_CACHE,
      file,
    ],
    { reject: false },
  );
  return { code: r.exitCode, signal: r.signal, ...(r.exitCode === 0 ? JSON.parse(r.stdout) : {}) };
}

describe('the code cache', () => {
  it('is handed to V8 and accepted when it is the build it names', async () => {
    const file = await bundleWithCache('0123abcd');
    expect(await loadInChild(file)).toEqual({ code: 0, signal: undefined, sum: 5050, rejected: false });
  });

  it('is not used without a file: a normal compile', async () => {
    const file = path.join(tempDir('rf-cache-'), 'front.cjs');
    writeFileSync(file, 'exports.sum = (n) => n * (n + 1) / 2;\n//# recall-feed-build 99\n');
    expect(await loadInChild(file)).toEqual({ code: 0, signal: undefined, sum: 5050, rejected: null });
  });

  it("is not used for another build's bundle, even one of the same length", async () => {
    const file = await bundleWithCache('0123abcd');
    // Same length, other code: V8 checks only the length, so our build id must catch it.
    writeFileSync(file, readFileSync(file, 'utf8').replace('s += i', 's -= i').replace('0123abcd', '0123abce'));
    expect(await loadInChild(file)).toEqual({ code: 0, signal: undefined, sum: -5050, rejected: null });
  });

  /** The header's end and the payload's size in a cache file (`<id> <size>\n` and the payload twice). */
  const layout = (b: Buffer) => ({
    end: b.indexOf(10),
    size: Number(b.subarray(0, b.indexOf(10)).toString().split(' ')[1]),
  });
  it.each([
    [
      'bytes flipped in the first copy',
      (b: Buffer) => {
        const { end, size } = layout(b);
        return b.map((x, i) => (i > end + 16 && i <= end + size && i % 7 === 0 ? x ^ 0xff : x));
      },
    ],
    [
      'zeros from the middle of the first copy on',
      (b: Buffer) => Buffer.from(b).fill(0, layout(b).end + 1 + layout(b).size / 2),
    ],
    ['cut short', (b: Buffer) => b.subarray(0, b.length - 10)],
    ['one copy only', (b: Buffer) => b.subarray(0, layout(b).end + 1 + layout(b).size)],
    ['no header', (b: Buffer) => b.subarray(layout(b).end + 1)],
  ])('%s: not used, and the run goes on', async (_, damage) => {
    const file = await bundleWithCache('0123abcd');
    writeFileSync(`${file}.v8cache`, damage(readFileSync(`${file}.v8cache`)));
    expect(await loadInChild(file)).toEqual({ code: 0, signal: undefined, sum: 5050, rejected: null });
  });
});
