// -o and --metrics-file never replace a file the run reads or keeps (its archive, catalogue, state, learned file), and
// --metrics-file writes through a link and never over a pipe; an empty --base-url is refused. Exit 2, nothing sent.
import {
  closeSync,
  constants,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { tempFolder } from '../helpers/archive.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';

let sandbox: Sandbox;
const folder = tempFolder('rf-kept-');
const file = folder.file;
let archiveBytes: Buffer;
const CATALOGUE = 'sku,ean,brand,name\nA-1,,Kidzone,Plush Toys\n';

beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 50 });
  const synced = await runMainAgainst(sandbox, ['sync', '--db', file('a.db'), '-q']);
  expect(synced.code, synced.stderr).toBe(0);
  archiveBytes = readFileSync(file('a.db'));
  writeFileSync(file('products.csv'), CATALOGUE);
  writeFileSync(file('state.json'), '{"version":1,"seen":{}}\n');
});
afterAll(async () => {
  await sandbox.close();
});

describe('-o and --metrics-file never name a file the run keeps', () => {
  it.each([
    [['query', '--db', 'a.db', '-f', 'jsonl', '-o', 'a.db'], '-o', 'is the archive: writing there would replace it'],
    [['sync', '--db', 'a.db', '-f', 'json', '-o', 'a.db'], '-o', 'is the archive: writing there would replace it'],
    [['digest', '--db', 'a.db', '-f', 'json', '-o', 'a.db'], '-o', 'is the archive: writing there would replace it'],
    [
      ['match', '--catalog', 'products.csv', '-o', 'products.csv'],
      '-o',
      'is the catalogue: writing there would replace it',
    ],
    [
      ['report', '--db', 'a.db', '--catalog', 'products.csv', '-o', 'products.csv'],
      '-o',
      'is the catalogue: writing there would replace it',
    ],
    [
      ['match', '--learn', '--catalog', 'products.csv', '--db', 'a.db', '--learned', 'products.csv'],
      '--learned',
      'is the catalogue: writing there would replace it',
    ],
    [['feed', '--state', 'state.json', '-o', 'state.json'], '-o', 'is the state file: writing there would replace it'],
    [['feed', '--max', '1', '--metrics-file', 'a.db'], '--metrics-file', 'must be a file name ending in .prom'],
    [['feed', '--base-url', '', '--max', '1'], '--base-url', 'needs a value'],
  ])('%j is exit 2, the file untouched, nothing sent', async (args, flag, words) => {
    sandbox.clearRequests();
    const r = await runMainAgainst(
      sandbox,
      args.map((a) => (/\.(db|csv|json)$/.test(a) ? file(a) : a)),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^error: ${flag} .*${words.replace('.', '\\.')}`));
    expect(r.stdout).toBe('');
    expect(sandbox.requests()).toEqual([]);
    expect(readFileSync(file('a.db')).equals(archiveBytes)).toBe(true);
    expect(readFileSync(file('products.csv'), 'utf8')).toBe(CATALOGUE);
    expect(readFileSync(file('state.json'), 'utf8')).toBe('{"version":1,"seen":{}}\n');
  });

  it('the same file by another name (a hard link) is refused too', async () => {
    linkSync(file('a.db'), file('hard.db'));
    const r = await runMainAgainst(sandbox, ['query', '--db', file('a.db'), '-f', 'jsonl', '-o', file('hard.db')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is the archive: writing there would replace it\nhint: give -o another file\n$/);
  });
});

describe('--metrics-file', () => {
  it('writes through a link, which stays a link', async () => {
    mkdirSync(file('m'), { recursive: true });
    symlinkSync('real.prom', file('m/link.prom'));
    const r = await runMainAgainst(sandbox, ['feed', '--max', '1', '--metrics-file', file('m/link.prom')]);
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(file('m/link.prom')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(file('m/link.prom'))).toBe('real.prom');
    expect(readFileSync(file('m/real.prom'), 'utf8')).toMatch(/^# HELP recall_feed_/m);
  });

  it('never replaces a named pipe, nor waits on one: a warning, the run still exit 0', async () => {
    execFileSync('mkfifo', [file('m/pipe.prom')]);
    const r = await runMainAgainst(sandbox, ['feed', '--max', '1', '--metrics-file', file('m/pipe.prom')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `warning: metrics file ${file('m/pipe.prom')} not written: ${file('m/pipe.prom')} is not a regular file`,
    );
    expect(lstatSync(file('m/pipe.prom')).isFIFO()).toBe(true);
  });
});

/** A run that regressed into opening the pipe is blocked there: a writer's open and close gives it end of file. */
function unblock(fifo: string): void {
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // ENXIO: nothing is waiting to read it.
  }
}

// A regression blocks on the pipe until the test's time is up; afterEach then lets it end.
describe('a pipe or device where the run reads a file is exit 2 before anything is read or sent', {
  timeout: 10_000,
}, () => {
  const fifo = file('p/fifo');
  beforeAll(() => {
    mkdirSync(file('p'), { recursive: true });
    execFileSync('mkfifo', [fifo]);
  });
  afterEach(() => unblock(fifo));

  it.each([
    [['match', '--catalog', fifo], `the catalogue ${fifo} is a pipe, not a file`, "save the pipe's output"],
    [['match', '--learn', '--catalog', fifo, '--db', 'a.db'], `the catalogue ${fifo} is a pipe`, 'save the pipe'],
    [['digest', '--db', 'a.db', '--catalog', fifo], `the catalogue ${fifo} is a pipe`, 'save the pipe'],
    [['report', '--db', 'a.db', '--catalog', fifo], `the catalogue ${fifo} is a pipe`, 'save the pipe'],
    [['feed', '--state', fifo], `the state file ${fifo} is a pipe, not a file`, 'a pipe or device may block'],
    [['feed', '--watch', '--state', fifo], `the state file ${fifo} is a pipe`, 'a pipe or device may block'],
    [
      ['match', '--catalog', 'products.csv', '--watch', '--state', fifo],
      `the state file ${fifo} is a pipe`,
      'a pipe or device may block',
    ],
    [['query', '--db', fifo], `the archive ${fifo} is a pipe, not a file`, 'a pipe or device may block'],
    [['sync', '--db', fifo], `the archive ${fifo} is a pipe`, 'a pipe or device may block'],
    [['match', '--catalog', '/dev/null'], 'the catalogue /dev/null is a device, not a file', 'save the pipe'],
  ])('%j', async (args, message, hint) => {
    sandbox.clearRequests();
    const r = await runMainAgainst(
      sandbox,
      args.map((a) => (/\.(db|csv)$/.test(a) ? file(a) : a)),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^error: ${message}.*\nhint: give a regular file: .*${hint}`));
    expect(r.stdout).toBe('');
    expect(sandbox.requests()).toEqual([]);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('doctor --state on a pipe fails that check without opening it', async () => {
    const r = await runMainAgainst(sandbox, ['doctor', '--state', fifo]);
    expect(r.stdout + r.stderr).toMatch(/state .*fifo.*a pipe, not a file/);
    expect(r.code).not.toBe(0);
  });
});
