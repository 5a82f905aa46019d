// Writes that meet a full disk: a small tmpfs mounted inside a temp folder, filled up, and the CLI run in process. Every
// write the run owes ends in exit 10 naming the file, nothing reports a success it did not store, and an output file
// stays as it was. Needs mount (root): skipped, saying so, where it is not permitted.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { expectedFeed } from '../helpers/expected.js';
import { bodyServer } from '../helpers/handler-server.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { ALL_KEY, FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { printedCommand } from '../helpers/shell-words.js';
import { tempDir } from '../helpers/temp-dir.js';

/** Whether this user may mount a tmpfs (root on Linux, outside a container that forbids it), tried once. */
function mountPermitted(): boolean {
  if (process.platform !== 'linux') return false;
  const probe = tempDir('rf-mount-probe-', { scope: 'file' });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
  } catch {
    return false;
  }
  execFileSync('umount', [probe]);
  return true;
}

const canMount = mountPermitted();
const NO_MOUNT = canMount ? '' : ' (skipped: mounting a tmpfs is not permitted here)';

/** A tmpfs of `kib` KiB in a temp folder of its own, unmounted when the test ends (before the folder is removed). */
function smallDisk(kib: number): string {
  const disk = path.join(tempDir('rf-disk-'), 'disk');
  mkdirSync(disk);
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k`, 'tmpfs', disk]);
  deferCleanup(() => {
    try {
      execFileSync('umount', [disk], { stdio: 'ignore' });
    } catch {
      // Still busy (a handle not closed yet): detached now, gone once the last one closes.
      execFileSync('umount', ['-l', disk]);
    }
  });
  return disk;
}

/** Fills `disk` up to its last `leaveKiB` KiB (by default to its last block), as another process on the host might. */
function fillUp(disk: string, leaveKiB = 0): void {
  const { bavail, bsize } = statfsSync(disk);
  writeFileSync(path.join(disk, 'fill'), Buffer.alloc(Math.max(0, bavail * bsize - leaveKiB * 1024)), { flag: 'a' });
}

const freeUp = (disk: string) => rmSync(path.join(disk, 'fill'), { force: true });

/**
 * A connection of the test's own, open until the test ends, that keeps the archive in WAL mode with its WAL and index
 * (a sync's last connection would checkpoint them away and leave rollback mode), as a reader beside a cron sync does,
 * or a sync that failed for a full disk leaves them: a write then needs new blocks for its WAL frames, which a full
 * disk refuses at the commit.
 */
function holdOpen(db: string): Database.Database {
  const held = new Database(db);
  deferCleanup(() => held.close());
  held.pragma('journal_mode = WAL');
  held.prepare('SELECT count(*) FROM sqlite_master').get();
  return held;
}

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ seed: 7, recordCount: 60, clock: () => FIXED_START });
});

describe('sync on a full disk', () => {
  it.skipIf(!canMount)(
    `ends with exit 10 naming the archive, never a success without its sync_runs row${NO_MOUNT}`,
    async () => {
      const s = sandbox;
      const disk = smallDisk(4096);
      const db = path.join(disk, 'a.db');
      expect((await runMainAgainst(s, ['sync', '--db', db, '-q'])).code).toBe(0);
      const held = holdOpen(db);
      fillUp(disk);
      const runs = () => held.prepare('SELECT id, outcome FROM sync_runs ORDER BY id').all();
      expect(runs()).toEqual([{ id: 1, outcome: 'ok' }]);

      // Every recall unchanged: the run's own row is all it would write.
      const again = await runMainAgainst(s, ['sync', '--db', db, '-f', 'json']);
      expect(again.stderr).toBe(
        `error: cannot write ${db}: the disk is full\nhint: choose another file with --db or RECALL_FEED_DB\n`,
      );
      expect(again.code).toBe(10);
      expect(again.stdout).toBe('');
      expect(runs()).toEqual([{ id: 1, outcome: 'ok' }]);

      freeUp(disk);
      const after = await runMainAgainst(s, ['sync', '--db', db, '-f', 'json']);
      expect(after.code, after.stderr).toBe(0);
      expect(JSON.parse(after.stdout)).toEqual({ fetched: 60, new: 0, updated: 0, unchanged: 60, total: 60 });
    },
  );
});

describe('sync --exec when the disk fills while it delivers', () => {
  it.skipIf(!canMount)(
    `ends with exit 10 naming the archive when the delivery cannot be recorded${NO_MOUNT}`,
    async () => {
      const s = sandbox;
      const disk = smallDisk(4096);
      const db = path.join(disk, 'a.db');
      const log = path.join(tempDir('rf-exec-'), 'exec.log');
      const script = path.join(path.dirname(log), 'fill.sh');
      // Its first call fills the disk (as another process on the host might), then succeeds.
      writeFileSync(
        script,
        `echo "$1" >> '${log}'\n[ -e '${disk}/fill' ] || head -c 100000000 /dev/zero > '${disk}/fill' 2>/dev/null\nexit 0\n`,
      );
      const env = { PATH: process.env.PATH };
      const r = await runMainAgainst(s, ['sync', '--db', db, '--exec', `sh ${script} {id}`], { env });
      expect(r.stderr).toMatch(new RegExp(`^error: cannot write ${db}: the disk is full\\n`));
      expect(r.code).toBe(10);
      expect(readFileSync(log, 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
    },
  );
});

describe('digest --since last when the disk is full once the digest was delivered', () => {
  it.skipIf(!canMount)(`ends with exit 10 naming the archive${NO_MOUNT}`, async () => {
    const s = sandbox;
    const disk = smallDisk(4096);
    const db = path.join(disk, 'a.db');
    expect((await runMainAgainst(s, ['sync', '--db', db, '-q'])).code).toBe(0);
    holdOpen(db);
    const posted: string[] = [];
    // The receiver takes the digest; meanwhile the disk fills, so that its end cannot be recorded.
    const receiver = await bodyServer((body, _req, res) => {
      posted.push(body);
      fillUp(disk);
      res.end('ok');
    });
    const r = await runMain(['digest', '--db', db, '--since', 'last', '--webhook', `${receiver.url}/hook`]);
    expect(posted).toHaveLength(1);
    expect(r.stderr).toMatch(new RegExp(`\\nerror: cannot write ${db}: the disk is full\\n`));
    expect(r.code).toBe(10);
  });
});

/** A catalogue of the sandbox's first recalls that carry a barcode: one row each, by its first barcode. */
function catalogueOfBarcodes(s: Sandbox, file: string): void {
  const codes = s
    .records()
    .map((r) => (r.standard_identifiers_and_barcodes as unknown[])[0])
    .filter((x) => x !== undefined)
    .map((x) => (typeof x === 'string' ? x : String((x as { value: unknown }).value)));
  expect(codes.length).toBeGreaterThanOrEqual(5);
  writeFileSync(file, ['sku,gtin', ...codes.slice(0, 5).map((code, i) => `P${i},${code}`)].join('\n'));
}

describe('match --archive --open-cases -o when the cases cannot be written', () => {
  async function setUp() {
    const s = sandbox;
    const disk = smallDisk(4096);
    const db = path.join(disk, 'a.db');
    expect((await runMainAgainst(s, ['sync', '--db', db, '-q'])).code).toBe(0);
    const held = holdOpen(db);
    const dir = tempDir('rf-match-');
    const catalog = path.join(dir, 'products.csv');
    catalogueOfBarcodes(s, catalog);
    const out = path.join(dir, 'm1.csv');
    writeFileSync(out, 'OLD previous export\n');
    const env = { RECALL_FEED_CACHE_DIR: path.join(dir, 'cache') };
    const match = (...more: string[]) =>
      runMain(['match', '--catalog', catalog, '--archive', '--db', db, ...more], { env });
    const cases = () => held.prepare('SELECT count(*) AS n FROM cases').get();
    return { disk, db, dir, out, match, cases };
  }

  it.skipIf(!canMount)(`a first run (every recall checked) leaves the -o file as it was${NO_MOUNT}`, async () => {
    const { disk, db, dir, out, match, cases } = await setUp();
    fillUp(disk);
    const r = await match('--open-cases', '--sla', '2wd', '-o', out, '-q');
    expect(r.stderr).toBe(
      `error: cannot write ${db}: the disk is full\nhint: choose another file with --db or RECALL_FEED_DB\n`,
    );
    expect(r.code).toBe(10);
    expect(readFileSync(out, 'utf8')).toBe('OLD previous export\n');
    expect(readdirSync(dir).sort()).toEqual(['m1.csv', 'products.csv']);
    expect(cases()).toEqual({ n: 0 });
  });

  it.skipIf(!canMount)(`a run that carries the last one's rows over leaves it as it was too${NO_MOUNT}`, async () => {
    const { disk, db, out, match, cases } = await setUp();
    // Its state kept (in the cache, off the full disk): the next run checks only what was stored since.
    const plain = await match('-f', 'csv');
    expect(plain.code, plain.stderr).toBe(0);
    fillUp(disk);
    const r = await match('--open-cases', '--sla', '2wd', '-o', out, '-v');
    // Carried over, not checked again (-v would say so).
    expect(r.stderr).toBe(
      `error: cannot write ${db}: the disk is full\nhint: choose another file with --db or RECALL_FEED_DB\n`,
    );
    expect(r.code).toBe(10);
    expect(readFileSync(out, 'utf8')).toBe('OLD previous export\n');
    expect(cases()).toEqual({ n: 0 });
  });
});

describe('feed --resume when the disk is full', () => {
  it.skipIf(!canMount)(
    `keeps both files and prints the command again; it finishes once there is room${NO_MOUNT}`,
    async () => {
      // Pages of 100 records: each write the disk refuses is a whole chunk of output, one the renderer waits on.
      const s = await sandboxFor({ seed: 7, recordCount: 400, clock: () => FIXED_START });
      const disk = smallDisk(2048);
      const target = path.join(disk, 'r.jsonl');
      s.setFaults({ failAfterPages: 1, failMode: 'cut' });
      const first = await runMainAgainst(s, ['--retries', '0', 'feed', '--page-size', '100', '-o', target]);
      expect(first.code).toBe(6);
      s.setFaults({});
      const again = printedCommand(first.stderr);
      expect(again).toContain('--resume');
      const kept = ['r.jsonl.partial', 'r.jsonl.partial.json'];
      expect(readdirSync(disk).sort()).toEqual(kept);
      const state = readFileSync(path.join(disk, 'r.jsonl.partial.json'), 'utf8');
      expect(JSON.parse(state)).toMatchObject({ count: 100 });

      // Room for the run lock, none for the records.
      fillUp(disk, 8);
      const full = await runMain(again, { env: { RECALL_FEED_API_KEY: ALL_KEY } });
      expect(full.stderr).toContain(`error: cannot write ${target}.partial: the disk is full\n`);
      expect(full.stderr).toContain(`${target} is unchanged; 100 records are kept in ${target}.partial. To finish`);
      expect(printedCommand(full.stderr)).toEqual(again);
      expect(full.code).toBe(10);
      expect(readdirSync(disk).sort()).toEqual(['fill', ...kept]);
      expect(readFileSync(path.join(disk, 'r.jsonl.partial.json'), 'utf8')).toBe(state);

      freeUp(disk);
      const done = await runMain(again, { env: { RECALL_FEED_API_KEY: ALL_KEY } });
      expect(done.code, done.stderr).toBe(0);
      const ids = jsonLines(readFileSync(target, 'utf8')).map((r) => r.id);
      expect(ids).toEqual(expectedFeed(s, { now: FIXED_START }).map((r) => r.id));
      expect(readdirSync(disk)).toEqual(['r.jsonl']);
    },
  );
});

describe('feed -o when the disk is full from the start', () => {
  it.skipIf(!canMount)(
    `small pages (each write under the buffer's size): exit 10 naming the partial file, nothing left behind${NO_MOUNT}`,
    async () => {
      const disk = smallDisk(1024);
      const target = path.join(disk, 'r.jsonl');
      // Room for the run lock, none for the records.
      fillUp(disk, 8);
      const r = await runMainAgainst(sandbox, ['feed', '--page-size', '10', '-o', target]);
      expect(r.stderr).toContain(`error: cannot write ${target}.partial: the disk is full\n`);
      expect(r.code).toBe(10);
      expect(readdirSync(disk)).toEqual(['fill']);
    },
  );
});

describe('the hint of a write that meets a full disk', () => {
  it.skipIf(!canMount)(`feed --state: free some space, not another folder${NO_MOUNT}`, async () => {
    const s = sandbox;
    const disk = smallDisk(1024);
    const state = path.join(disk, 'seen.json');
    fillUp(disk);
    const r = await runMainAgainst(s, ['feed', '--state', state, '-f', 'jsonl']);
    expect(r.stderr).toBe(
      `error: cannot write ${state}: the disk is full\nhint: free some space, or write to another disk\n`,
    );
    expect(r.code).toBe(10);
  });

  it.skipIf(!canMount)(`--metrics-file: a warning in the shared words, the run's exit kept${NO_MOUNT}`, async () => {
    const disk = smallDisk(1024);
    const file = path.join(disk, 'm.prom');
    fillUp(disk);
    const r = await runMainAgainst(sandbox, ['feed', '--max', '1', '-f', 'jsonl', '--metrics-file', file]);
    expect(r.stderr).toBe(`warning: metrics file ${file} not written: the disk is full\n`);
    expect(r.code).toBe(0);
    expect(readdirSync(disk)).toEqual(['fill']);
  });

  it.skipIf(!canMount)(`config set: the shared words, and no RECALL_FEED_CONFIG_DIR${NO_MOUNT}`, async () => {
    const disk = smallDisk(1024);
    const dir = path.join(disk, 'config');
    const env = { RECALL_FEED_CONFIG_DIR: dir };
    expect((await runMain(['config', 'set', 'format', 'jsonl'], { env })).code).toBe(0);
    const before = readFileSync(path.join(dir, 'config.json'), 'utf8');
    fillUp(disk);
    const r = await runMain(['config', 'set', 'format', 'csv'], { env });
    expect(r.stderr).toBe(
      `error: cannot write the config file ${path.join(dir, 'config.json')}: the disk is full\nhint: free some space, or write to another disk\n`,
    );
    expect(r.code).toBe(10);
    expect(readFileSync(path.join(dir, 'config.json'), 'utf8')).toBe(before);
  });
});
