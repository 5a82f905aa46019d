// Links planted beside an -o or --state file by someone who may write its folder (a shared group folder, /tmp without
// protected_symlinks): the lock's note, the append's journal, the state's temporary file and a resumed partial are
// never written through them, so the file they point to stays as it was.
import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { holdingProxy } from '../helpers/holding-proxy.js';
import { fakeClock, runMain, runMainAgainst } from '../helpers/in-process.js';
import { ALL_KEY, FIXED_START, sandboxFor } from '../helpers/sandbox.js';
import { printedCommand } from '../helpers/shell-words.js';
import { tempDir } from '../helpers/temp-dir.js';
import { until } from '../helpers/wait.js';

const PRECIOUS = 'IMPORTANT DATA\n';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ clock: () => FIXED_START });
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.setFaults({}));

/** A file outside the shared folder that the run may write (the test's own), and the shared folder. */
function setUp(): { precious: string; shared: string } {
  const dir = tempDir('rf-planted-');
  const precious = path.join(dir, 'precious.txt');
  writeFileSync(precious, PRECIOUS, { mode: 0o600 });
  const shared = path.join(dir, 'shared');
  mkdirSync(shared);
  return { precious, shared };
}

const plant = (target: string, at: string) => symlinkSync(target, at);

describe('a link planted at a fixed name beside the output is never written through', () => {
  it('the run lock note (<file>.lock.json): the run writes its own, the linked file is untouched', async () => {
    const { precious, shared } = setUp();
    const out = path.join(shared, 'new.csv');
    plant(precious, `${out}.lock.json`);
    const r = await runMainAgainst(sandbox, ['feed', '--max', '3', '-f', 'csv', '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(precious, 'utf8')).toBe(PRECIOUS);
    // The note (and the link it replaced) went with the lock.
    expect(readdirSync(shared)).toEqual(['new.csv']);
    // A header and three rows.
    expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(4);
  });

  it("the append's journal (<file>.appending.json), planted while the run fetches: untouched", async () => {
    const { precious, shared } = setUp();
    const out = path.join(shared, 'new.csv');
    expect((await runMainAgainst(sandbox, ['feed', '--max', '2', '-f', 'csv', '-o', out])).code).toBe(0);
    const proxy = await holdingProxy(sandbox.url);
    const held = proxy.hold();
    const running = runMain(['--base-url', proxy.url, 'feed', '--max', '3', '-f', 'csv', '-o', out, '--append'], {
      env: { RECALL_FEED_API_KEY: ALL_KEY },
    });
    await until('the feed request', held.arrived);
    // Under the run lock, after its repair of a killed append: the journal is written once the rows are fetched.
    plant(precious, `${out}.appending.json`);
    held.release();
    const r = await running;
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(precious, 'utf8')).toBe(PRECIOUS);
    expect(readdirSync(shared)).toEqual(['new.csv']);
    expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(1 + 2 + 3);
  });

  it("the --state file's temporary file (.<name>.<pid>.tmp): its probe and its save leave the linked file alone", async () => {
    const { precious, shared } = setUp();
    const state = path.join(shared, 'seen.json');
    // The run is in this process: its pid is this one's.
    plant(precious, path.join(shared, `.seen.json.${process.pid}.tmp`));
    const r = await runMainAgainst(
      sandbox,
      ['feed', '--max', '3', '-f', 'csv', '-o', path.join(shared, 'new.csv'), '--state', state],
      { clock: fakeClock(FIXED_START) },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(precious, 'utf8')).toBe(PRECIOUS);
    expect(Object.keys(JSON.parse(readFileSync(state, 'utf8')).seen)).toHaveLength(3);
    expect(readdirSync(shared).sort()).toEqual(['new.csv', 'seen.json']);
  });

  it('a partial replaced by a link before --resume: refused (exit 2), neither truncated nor written through', async () => {
    const { precious, shared } = setUp();
    // jsonl: csv would read the linked file as the header to follow, and refuse it for that.
    const out = path.join(shared, 'new.jsonl');
    sandbox.setFaults({ failAfterPages: 2 });
    const first = await runMainAgainst(sandbox, ['--retries', '0', 'feed', '--page-size', '50', '-o', out]);
    expect(first.code, first.stderr).toBe(6);
    sandbox.setFaults({});
    const partial = `${out}.partial`;
    rmSync(partial);
    plant(precious, partial);
    const again = await runMain(printedCommand(first.stderr), { env: { RECALL_FEED_API_KEY: ALL_KEY } });
    expect(readFileSync(precious, 'utf8')).toBe(PRECIOUS);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`error: ${partial} is not the file recall-feed wrote: it is a symbolic link`);
    expect(lstatSync(partial).isSymbolicLink()).toBe(true);
  });
});
