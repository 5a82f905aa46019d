// `feed --state` from cron, in process: --max counts new records, the state is checked before any request, and id-less
// records are refused before anything is written (the file-size limit case: test/e2e/file-targets.test.ts).
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { ALL_KEY, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { expectedFeed } from '../helpers/expected.js';
import { feedBody, scriptedServer } from '../helpers/scripted-server.js';

const ids = (text: string) => jsonLines(text).map((r) => r.id);
const feedRequests = (s: Sandbox) => s.requests().filter((r) => r.path === '/v1/recalls/feed');

describe('--max with --state', () => {
  it('counts new records written, oldest first, and sends no request beyond what they need', async () => {
    // The state forgets what was published more than 25 hours before the real clock: no fixed clock here.
    const sandbox = await sandboxFor();
    const state = path.join(tempDir(), 'seen.json');
    const all = expectedFeed(sandbox).map((r) => r.id);
    const run = (max: string[]) => runMainAgainst(sandbox, ['feed', '--page-size', '10', '--state', state, ...max]);

    const first = await run(['--max', '15']);
    expect(first.code).toBe(0);
    // The first 15 of the window in the server's order (newest first), written oldest first.
    expect(ids(first.stdout)).toEqual(all.slice(0, 15).reverse());
    expect(feedRequests(sandbox)).toHaveLength(2);

    sandbox.clearRequests();
    const second = await run(['--max', '5']);
    expect(ids(second.stdout)).toEqual(all.slice(15, 20).reverse());
    // Pages 1 and 2 hold only records written before; page 2 has the 5 new ones.
    expect(feedRequests(sandbox)).toHaveLength(2);

    const rest = await run([]);
    const written = [...ids(first.stdout), ...ids(second.stdout), ...ids(rest.stdout)];
    expect(new Set(written).size).toBe(written.length);
    // The window moved on while the test ran: what is still in it was written, nothing from outside it.
    const inWindowNow = expectedFeed(sandbox).map((r) => r.id);
    expect(inWindowNow.filter((id) => !written.includes(id))).toEqual([]);
    expect(written.filter((id) => !all.includes(id as number))).toEqual([]);
  });
});

describe('the state file is checked before any request', () => {
  it('a folder that does not exist: exit 10 naming the path and the reason, nothing sent, nothing written', async () => {
    const sandbox = await sandboxFor();
    const dir = tempDir();
    const state = path.join(dir, 'missing', 'seen.json');
    const out = path.join(dir, 'new.csv');
    const r = await runMainAgainst(sandbox, ['feed', '--state', state, '-o', out]);
    expect(r.code).toBe(10);
    expect(r.stderr).toMatch(
      new RegExp(`^error: cannot write ${state}: its folder does not exist\\nhint: give --state a file in a folder`),
    );
    expect(r.stdout).toBe('');
    expect(sandbox.requests()).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.skipIf(process.getuid?.() === 0)('a read-only folder: exit 10 before any request', async () => {
    const sandbox = await sandboxFor();
    const locked = path.join(tempDir(), 'locked');
    mkdirSync(locked, { mode: 0o555 });
    const r = await runMainAgainst(sandbox, ['feed', '--state', path.join(locked, 'seen.json')]);
    expect(r.code).toBe(10);
    expect(r.stderr).toMatch(/^error: cannot write .*seen\.json: permission denied/);
    expect(sandbox.requests()).toEqual([]);
  });
});

describe('records without an id', () => {
  it('--state with a custom feed whose records have no id: exit 2 before anything is written', async () => {
    const page1 = feedBody([{ id: 'a1', sku: 'X-1' }], { hasMore: true, next: 'c2' });
    const page2 = feedBody([{ sku: 'X-2', title: 'no id here' }]);
    const dir = tempDir();
    const state = path.join(dir, 'seen.json');
    for (const output of [[], ['-o', path.join(dir, 'out.jsonl')]]) {
      const scripted = await scriptedServer([{ body: page1 }, { body: page2 }]);
      const r = await runMain(['--base-url', scripted.url, 'feed', '--custom', 'demo', '--state', state, ...output], {
        env: { RECALL_FEED_API_KEY: ALL_KEY },
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        /^error: --state needs an id in every record, and the custom feed 'demo' sent records without one\nhint: /,
      );
      expect(r.stdout).toBe('');
      expect(scripted.requests.map((q) => q.url.split('?')[0])).toEqual([
        '/v1/recalls/feed/demo',
        '/v1/recalls/feed/demo',
      ]);
      expect(readdirSync(dir)).toEqual([]);
      await scripted.close();
    }
  });
});
