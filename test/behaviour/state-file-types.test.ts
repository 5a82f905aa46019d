// A --state file whose entries have the wrong type (a script quoted the times, nulled them, or kept a list of ids) is
// refused by feed (exit 2, nothing sent or written) and failed by doctor, never read as empty; and a state file or
// folder this user may not use is said in words, with a --state hint.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const MOVE_HINT = 'hint: move it away to start afresh: every recall in the window will then be written again\n';

interface Check {
  name: string;
  status: string;
  detail: string;
}

describe('a state file with entries of the wrong type', () => {
  it('feed refuses it (exit 2) naming the first bad entry; doctor fails it alike; nothing is sent or written', async () => {
    const sandbox = await sandboxFor({ recordCount: 12 });
    const dir = tempDir();
    const state = path.join(dir, 'seen.json');
    const out = path.join(dir, 'new.csv');
    const feed = () => runMainAgainst(sandbox, ['feed', '--state', state, '-f', 'csv', '-o', out, '--append']);
    const first = await feed();
    expect(first.code).toBe(0);
    const written = JSON.parse(readFileSync(state, 'utf8')) as { version: number; seen: Record<string, number> };
    const ids = Object.keys(written.seen);
    expect(ids).toHaveLength(12);
    const [firstId] = ids;
    const csv = readFileSync(out, 'utf8');

    const quoted = Object.fromEntries(ids.map((id) => [id, String(written.seen[id])]));
    const nulled = { ...written.seen, [ids[3] as string]: null };
    const cases: [string, unknown, string][] = [
      [
        'quoted times',
        { version: 1, seen: quoted },
        `"seen" has "${firstId}": "${written.seen[firstId as string]}", not a time in seconds`,
      ],
      ['one null time', { version: 1, seen: nulled }, `"seen" has "${ids[3]}": null, not a time in seconds`],
      ['a list of ids', { version: 1, seen: ids }, '"seen" is a list, not an object of ids and times'],
    ];
    for (const [what, body, named] of cases) {
      const text = JSON.stringify(body);
      writeFileSync(state, text);
      sandbox.clearRequests();
      const r = await feed();
      const line = `error: the state file ${state} is not one this tool wrote (or it is damaged): ${named}`;
      expect({ what, code: r.code, stdout: r.stdout }).toEqual({ what, code: 2, stdout: '' });
      expect(r.stderr).toBe(`${line}\n${MOVE_HINT}`);
      expect(sandbox.requests()).toEqual([]);
      expect(readFileSync(state, 'utf8')).toBe(text);
      expect(readFileSync(out, 'utf8')).toBe(csv);

      const doctor = await runMainAgainst(sandbox, ['doctor', '--state', state, '-f', 'json']);
      expect(doctor.code).toBe(16);
      const check = (JSON.parse(doctor.stdout) as { checks: Check[] }).checks.find((c) => c.name === `state ${state}`);
      expect(check?.status).toBe('fail');
      expect(check?.detail).toContain(named);
    }
  });

  it('a time too large for a number (1e999) is refused too', async () => {
    const sandbox = await sandboxFor({ recordCount: 3 });
    const state = path.join(tempDir(), 'seen.json');
    writeFileSync(state, '{"version":1,"seen":{"7":1e999}}');
    const r = await runMainAgainst(sandbox, ['feed', '--state', state]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(': "seen" has "7": Infinity, not a time in seconds\n');
    expect(sandbox.requests()).toEqual([]);
  });
});

// Root reads and writes whatever the modes say: these run as any other user (a cron user).
describe.skipIf(process.getuid?.() === 0)('a state file or folder this user may not use', () => {
  it('a state file it may not read: exit 2, the absolute path and "permission denied", a --state hint', async () => {
    const sandbox = await sandboxFor({ recordCount: 3 });
    const state = path.join(tempDir(), 'seen.json');
    writeFileSync(state, '{"version":1,"seen":{}}', { mode: 0o200 });
    chmodSync(state, 0o200);
    const r = await runMainAgainst(sandbox, ['feed', '--state', state]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: cannot read the state file ${state}: permission denied\n` +
        'hint: give --state a file this user can read and write: the state is what keeps each recall from being written twice\n',
    );
    expect(sandbox.requests()).toEqual([]);
  });

  it('a state file in a folder it may not write, no -o: exit 10 with the --state hint, not the -o one', async () => {
    const sandbox = await sandboxFor({ recordCount: 3 });
    const locked = path.join(tempDir(), 'locked');
    mkdirSync(locked, { mode: 0o555 });
    chmodSync(locked, 0o555);
    const state = path.join(locked, 'seen.json');
    const r = await runMainAgainst(sandbox, ['feed', '--state', state]);
    expect(r.code).toBe(10);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: cannot write ${state}: permission denied\n` +
        'hint: give --state a file in a folder this user can write to: the state is what keeps each recall from being written twice\n',
    );
    expect(sandbox.requests()).toEqual([]);
  });
});
