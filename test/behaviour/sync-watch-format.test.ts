// `sync --watch` writes one summary per poll: -f jsonl makes that one JSON Lines document; -f json (one JSON document)
// is refused before anything is sent or opened, since objects concatenated one per poll are no JSON document.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('sync --watch and the summary format', () => {
  it('-f json is refused (exit 2) before any request, and no archive is made', async () => {
    const sandbox = await sandboxFor({ recordCount: 5 });
    const db = path.join(tempDir('rf-sync-watch-'), 'live.db');
    for (const format of [['-f', 'json'], ['--format=json']]) {
      // Were it taken, the watch would end at its first interval (Ctrl-C) rather than run on.
      const stop = new AbortController();
      const clock = fakeClock(Date.now(), () => stop.abort(new InterruptedError('SIGINT')));
      const r = await runMainAgainst(sandbox, ['sync', '--watch', '--db', db, ...format], {
        clock,
        signal: stop.signal,
      });
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        'error: -f json is one JSON document, but sync --watch writes one summary per poll: use -f jsonl\n',
      );
      expect(r.code).toBe(2);
    }
    expect(sandbox.requests()).toEqual([]);
    expect(existsSync(db)).toBe(false);
  });

  it('-f jsonl prints one JSON line per sync; -f json without --watch is still one object', async () => {
    const sandbox = await sandboxFor({ recordCount: 5, seed: 9 });
    const db = path.join(tempDir('rf-sync-watch-'), 'live.db');
    const stop = new AbortController();
    // Two syncs, then Ctrl-C during the second interval.
    const clock = fakeClock(Date.now(), (_ms, count) => {
      if (count === 2) stop.abort(new InterruptedError('SIGINT'));
    });
    const r = await runMainAgainst(sandbox, ['sync', '--watch', '--interval', '60', '--db', db, '-f', 'jsonl'], {
      clock,
      signal: stop.signal,
    });
    expect(r.code).toBe(130);
    const lines = r.stdout.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { fetched: 5, new: 5, updated: 0, unchanged: 0, total: 5 },
      { fetched: 5, new: 0, updated: 0, unchanged: 5, total: 5 },
    ]);

    const once = await runMainAgainst(sandbox, ['sync', '--db', db, '-f', 'json']);
    expect(once.code).toBe(0);
    expect(JSON.parse(once.stdout)).toEqual({ fetched: 5, new: 0, updated: 0, unchanged: 5, total: 5 });
  });
});
