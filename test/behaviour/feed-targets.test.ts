// `feed -o` onto what is not a plain new file, in process: symlinks, modes, long names, /dev/null, /dev/full, FIFOs
// (/dev/stdout, relative folders and nobody: test/e2e/file-targets.test.ts).
import {
  existsSync,
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, lines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { expectedFeed } from '../helpers/expected.js';

let sandbox: Sandbox;
let piped30: string;
beforeAll(async () => {
  sandbox = await sandboxFor({ seed: 3, clock: () => FIXED_START });
  piped30 = (await runMainAgainst(sandbox, ['feed', '--max', '30', '-f', 'jsonl'])).stdout;
});
afterAll(() => sandbox.close());

const scratch = () => tempDir('rf-targets-');

const ids = (text: string) => jsonLines(text).map((r) => r.id);
const expectedIds = (n: number) =>
  expectedFeed(sandbox, { now: FIXED_START })
    .slice(0, n)
    .map((r) => r.id);

describe('symlinks', () => {
  it('-o link and -o link --append update the file the link points to; the link stays a link', async () => {
    const dir = scratch();
    mkdirSync(path.join(dir, 'real'));
    const real = path.join(dir, 'real', 'data.jsonl');
    const link = path.join(dir, 'link.jsonl');
    symlinkSync(real, link); // dangling until the first run
    expect((await runMainAgainst(sandbox, ['feed', '--max', '3', '-o', link])).code).toBe(0);
    expect((await runMainAgainst(sandbox, ['feed', '--max', '2', '-o', link, '--append'])).code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(ids(readFileSync(real, 'utf8'))).toEqual([...expectedIds(3), ...expectedIds(2)]);
    expect((await runMainAgainst(sandbox, ['feed', '--max', '1', '-o', link])).code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(ids(readFileSync(real, 'utf8'))).toEqual(expectedIds(1));
    expect(readdirSync(dir).sort()).toEqual(['link.jsonl', 'real']);
    expect(readdirSync(path.join(dir, 'real'))).toEqual(['data.jsonl']);
  });
});

describe('what the target keeps', () => {
  it('a replaced or appended 0600 file stays 0600', async () => {
    const file = path.join(scratch(), 'secret.jsonl');
    writeFileSync(file, '', { mode: 0o600 });
    chmodSync(file, 0o600);
    await runMainAgainst(sandbox, ['feed', '--max', '2', '-o', file]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await runMainAgainst(sandbox, ['feed', '--max', '2', '-o', file, '--append']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(ids(readFileSync(file, 'utf8'))).toEqual([...expectedIds(2), ...expectedIds(2)]);
  });

  it('--append to a file without a final newline starts the new records on a line of their own', async () => {
    const file = path.join(scratch(), 'log.jsonl');
    writeFileSync(file, '{"id":"old"}');
    await runMainAgainst(sandbox, ['feed', '--max', '2', '-o', file, '--append']);
    expect(ids(readFileSync(file, 'utf8'))).toEqual(['old', ...expectedIds(2)]);
  });

  it('--append leaves the target as it was when the run fails', async () => {
    const file = path.join(scratch(), 'log.jsonl');
    writeFileSync(file, '{"id":"old"}\n');
    const r = await runMainAgainst(sandbox, ['feed', '--sources', 'us_fda', '-o', file, '--append']);
    expect(r.code).toBe(4);
    expect(readFileSync(file, 'utf8')).toBe('{"id":"old"}\n');
    expect(readdirSync(path.dirname(file))).toEqual(['log.jsonl']);
  });

  it('a csv file with no records holds the header; stdout stays empty', async () => {
    const empty = await sandboxFor({ recordCount: 0, clock: () => FIXED_START });
    try {
      const file = path.join(scratch(), 'none.csv');
      const r = await runMainAgainst(empty, ['feed', '-o', file]);
      expect(r.code).toBe(0);
      expect(lines(readFileSync(file, 'utf8'))).toEqual([expect.stringMatching(/^id,data_source,/)]);
      // On stdout nothing found stays silence.
      expect((await runMainAgainst(empty, ['feed', '-f', 'csv'])).stdout).toBe('');
    } finally {
      await empty.close();
    }
  });

  it('a 247-character file name works, also when a failed run must keep its partial and state', async () => {
    const dir = scratch();
    const file = path.join(dir, `${'r'.repeat(241)}.jsonl`);
    sandbox.setFaults({ failAfterPages: 1 });
    try {
      const failed = await runMainAgainst(sandbox, [
        '--retries',
        '0',
        'feed',
        '--page-size',
        '10',
        '--max',
        '30',
        '-o',
        file,
      ]);
      expect(failed.code).toBe(6);
      expect(readdirSync(dir)).toHaveLength(2);
    } finally {
      sandbox.setFaults({});
    }
    const resumed = await runMainAgainst(sandbox, ['feed', '--page-size', '10', '--max', '30', '-o', file, '--resume']);
    expect(resumed.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(piped30);
    expect(readdirSync(dir)).toEqual([path.basename(file)]);
  });
});

// Devices and FIFOs opened by the CLI in process (writing to the real /dev/stdout needs a process: test/e2e/).
describe('devices and pipes are written through, never replaced', () => {
  it('-o /dev/null leaves /dev/null a character device', async () => {
    const r = await runMainAgainst(sandbox, ['feed', '--max', '3', '-o', '/dev/null']);
    expect(r.code).toBe(0);
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    expect(existsSync('/dev/null.partial')).toBe(false);
  });

  it('a FIFO read by another process gets the records, and stays a FIFO', async () => {
    const fifo = path.join(scratch(), 'feed.pipe');
    await execa('mkfifo', [fifo]);
    // Killed after 30 s at most: a CLI that never opened the FIFO would leave it waiting for ever.
    const reader = execa('cat', [fifo], { timeout: 30_000 });
    const r = await runMainAgainst(sandbox, ['feed', '--max', '30', '-f', 'jsonl', '-o', fifo]);
    expect(r.code).toBe(0);
    expect((await reader).stdout).toBe(piped30.trimEnd());
    expect(statSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(path.dirname(fifo))).toEqual(['feed.pipe']);
  });

  it('a full device is exit 10 naming the file and the reason', async () => {
    const r = await runMainAgainst(sandbox, ['feed', '--max', '3', '-o', '/dev/full']);
    expect(r.code).toBe(10);
    expect(r.stderr).toMatch(/^error: cannot write \/dev\/full: the disk is full\nhint: free some space/);
    expect(statSync('/dev/full').isCharacterDevice()).toBe(true);
  });
});
