// `--resume` that fails keeps what it was meant to finish; leftovers of killed runs are named; resuming an --append.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEYS, type Sandbox } from '../../src/sandbox/index.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { expectedFeed } from '../helpers/expected.js';
import { printedCommand } from '../helpers/shell-words.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ clock: () => FIXED_START });
});
afterAll(() => sandbox.close());

afterEach(() => {
  sandbox.setFaults({});
});
const scratch = () => tempDir('rf-resume-');

const ids = (text: string) => jsonLines(text).map((r) => r.id);
const expectedIds = (n?: number) =>
  expectedFeed(sandbox, { now: FIXED_START })
    .slice(0, n)
    .map((r) => r.id);
/** A key of the right shape that the sandbox does not know. */
const WRONG_KEY = `${DEMO_KEYS.all.key.slice(0, -6)}zzzzzz`;

describe('a --resume that fails', () => {
  it('keeps the partial and its state, and a later --resume still completes the export', async () => {
    const dir = scratch();
    const target = path.join(dir, 'export.jsonl');
    sandbox.setFaults({ failAfterPages: 4, failMode: 'cut' });
    const first = await runMainAgainst(sandbox, ['--retries', '1', 'feed', '--page-size', '100', '-o', target]);
    expect(first.code).toBe(6);
    sandbox.setFaults({});
    const again = printedCommand(first.stderr);
    const kept = readdirSync(dir).sort();
    expect(kept).toEqual(['export.jsonl.partial', 'export.jsonl.partial.json']);
    const before = kept.map((f) => readFileSync(path.join(dir, f), 'utf8'));

    const wrongKey = await runMain(again, { env: { RECALL_FEED_API_KEY: WRONG_KEY } });
    expect(wrongKey.code).toBe(3);
    expect(readdirSync(dir).sort()).toEqual(kept);
    expect(kept.map((f) => readFileSync(path.join(dir, f), 'utf8'))).toEqual(before);

    const done = await runMain(again, { env: { RECALL_FEED_API_KEY: DEMO_KEYS.all.key } });
    expect(done.code).toBe(0);
    expect(ids(readFileSync(target, 'utf8'))).toEqual(expectedIds());
    expect(readdirSync(dir)).toEqual(['export.jsonl']);
  });
});

describe('leftovers of a run that was killed', () => {
  it('a partial without its state: --resume says the state file is missing, sends nothing, touches nothing', async () => {
    const dir = scratch();
    writeFileSync(path.join(dir, 'x.jsonl.partial'), '{"id":1}\n');
    sandbox.clearRequests();
    const r = await runMainAgainst(sandbox, ['feed', '-o', path.join(dir, 'x.jsonl'), '--resume']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: cannot resume: \S*x\.jsonl\.partial is there, but \S*x\.jsonl\.partial\.json, which says where to continue, is missing/,
    );
    expect(r.stderr).toMatch(/\nhint: run without --resume to start over \(that discards \S*x\.jsonl\.partial\)\n$/);
    expect(sandbox.requests()).toEqual([]);
    expect(readdirSync(dir)).toEqual(['x.jsonl.partial']);
  });

  it('a state without its partial: --resume says the records are gone', async () => {
    const dir = scratch();
    writeFileSync(path.join(dir, 'x.jsonl.partial.json'), '{"version":1,"count":0,"bytes":0,"fingerprint":""}\n');
    const r = await runMainAgainst(sandbox, ['feed', '-o', path.join(dir, 'x.jsonl'), '--resume']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: cannot resume: \S*x\.jsonl\.partial\.json is there, but the records it describes \(\S*x\.jsonl\.partial\) are gone\n/,
    );
  });
});

describe('--append, failed and resumed', () => {
  it('the partial holds only the new records; the target stays as it was until the resume adds them', async () => {
    const dir = scratch();
    const target = path.join(dir, 'log.jsonl');
    const old = '{"id":"old-1"}\n{"id":"old-2"}\n';
    writeFileSync(target, old);
    sandbox.setFaults({ failAfterPages: 2 });
    const args = ['feed', '--page-size', '10', '--max', '45', '-o', target, '--append'];
    const first = await runMainAgainst(sandbox, ['--retries', '0', ...args]);
    expect(first.code).toBe(6);
    sandbox.setFaults({});
    expect(readFileSync(target, 'utf8')).toBe(old);
    expect(ids(readFileSync(`${target}.partial`, 'utf8'))).toEqual(expectedIds(20));

    const withoutAppend = await runMainAgainst(sandbox, [
      'feed',
      '--page-size',
      '10',
      '--max',
      '45',
      '-o',
      target,
      '--resume',
    ]);
    expect(withoutAppend.code).toBe(2);
    expect(withoutAppend.stderr).toMatch(
      /^error: cannot resume \S*log\.jsonl\.partial: it was started with --append\n/,
    );

    const done = await runMain(printedCommand(first.stderr), { env: { RECALL_FEED_API_KEY: DEMO_KEYS.all.key } });
    expect(done.code).toBe(0);
    expect(ids(readFileSync(target, 'utf8'))).toEqual(['old-1', 'old-2', ...expectedIds(45)]);
    expect(readdirSync(dir)).toEqual(['log.jsonl']);
  });
});
