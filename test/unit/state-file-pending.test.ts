// A --state file's pending deliveries: every field a delivery has must be of its type (gaveUp a list of action names,
// lastError a string, attempts a finite number, record an object). One that is not is a damaged file: feed refuses
// it with exit 2 naming the entry and doctor fails it, where a run used to stop at its first pass, every time, with
// an unexpected error (or, for `"gaveUp": "webhook"`, silently drop the recall as given up).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SeenState, StateFileError } from '../../src/jobs/watch/seen-state.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const NOT_OURS = 'is not one this tool wrote (or it is damaged)';
const MOVE_HINT = 'hint: move it away to start afresh: every recall in the window will then be written again\n';

/** A state file of one pending delivery: a good one, with `fields` put over it. */
const withPending = (fields: Record<string, unknown>) => {
  const delivery = { id: '1', record: { id: 1 }, done: [], attempts: 1, ...fields };
  // JSON has no Infinity: the file holds 1e999, which reads back as Infinity (and is shown as JSON shows it, null).
  const body = JSON.stringify({ version: 1, seen: {}, pending: [delivery] }).replace(
    '"attempts":null',
    '"attempts":1e999',
  );
  return { body, shown: JSON.stringify(delivery) };
};
const cut = (text: string) => (text.length > 40 ? `${text.slice(0, 39)}…` : text);

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe('a pending delivery with a field of the wrong type', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['gaveUp a number', { gaveUp: 5 }],
    ['gaveUp a string', { gaveUp: 'webhook' }],
    ['gaveUp a list of numbers', { gaveUp: [1] }],
    ['gaveUp null', { gaveUp: null }],
    ['lastError a number', { lastError: 5 }],
    ['lastError null', { lastError: null }],
    ['attempts too large for a number', { attempts: Number.POSITIVE_INFINITY }],
    ['record a list', { record: [1] }],
  ];
  for (const [what, fields] of cases) {
    it(`${what}: SeenState.load refuses it naming the entry, and leaves the file alone`, async () => {
      const file = path.join(tempDir('rf-state-'), 'seen.json');
      const { body, shown } = withPending(fields);
      writeFileSync(file, body);
      const err = await SeenState.load(file).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StateFileError);
      // The entry is shown as JSON shows it, cut at 40 characters.
      expect((err as Error).message).toBe(
        `the state file ${file} ${NOT_OURS}: "pending" entry 1 is not a delivery: ${cut(shown)}`,
      );
      expect(readFileSync(file, 'utf8')).toBe(body);
    });
  }

  it('one recall owed twice: refused naming the second entry (the queue keeps one, the other would never leave)', async () => {
    const file = path.join(tempDir('rf-state-'), 'seen.json');
    const delivery = { id: '1', record: { id: 1 }, done: [], attempts: 0 };
    const body = JSON.stringify({ version: 1, seen: {}, pending: [delivery, { ...delivery }] });
    writeFileSync(file, body);
    const err = await SeenState.load(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StateFileError);
    expect((err as Error).message).toBe(`the state file ${file} ${NOT_OURS}: "pending" entry 2 repeats the id "1"`);
    expect(readFileSync(file, 'utf8')).toBe(body);
  });

  it('a delivery as the queue writes it, given up for one action and with its last error, loads', async () => {
    const file = path.join(tempDir('rf-state-'), 'seen.json');
    const pending = {
      id: '1',
      record: { id: 1 },
      done: ['exec'],
      gaveUp: ['webhook'],
      attempts: 2,
      lastError: 'webhook: refused',
    };
    writeFileSync(file, JSON.stringify({ version: 1, seen: { '1': 1767261600 }, pending: [pending] }));
    expect((await SeenState.load(file)).deliveries).toEqual([pending]);
  });

  for (const gaveUp of [5, 'webhook']) {
    it(`"gaveUp": ${JSON.stringify(gaveUp)}: feed --state exits 2 with one line, nothing sent; doctor fails it`, async () => {
      sandbox = await sandboxFor({ recordCount: 3 });
      const dir = tempDir();
      const state = path.join(dir, 'seen.json');
      const out = path.join(dir, 'out.csv');
      const { body, shown } = withPending({ gaveUp });
      writeFileSync(state, body);
      // A loopback webhook that nothing listens on: the run must stop before any delivery.
      const r = await runMainAgainst(sandbox, [
        'feed',
        '--state',
        state,
        '-o',
        out,
        '--webhook',
        'http://127.0.0.1:9/hook',
      ]);
      const named = `"pending" entry 1 is not a delivery: ${cut(shown)}`;
      expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: '' });
      expect(r.stderr).toBe(`error: the state file ${state} ${NOT_OURS}: ${named}\n${MOVE_HINT}`);
      expect(sandbox.requests()).toEqual([]);
      expect(readFileSync(state, 'utf8')).toBe(body);

      const doctor = await runMainAgainst(sandbox, ['doctor', '--state', state, '-f', 'json']);
      expect(doctor.code).toBe(16);
      const checks = (JSON.parse(doctor.stdout) as { checks: { name: string; status: string; detail: string }[] })
        .checks;
      const check = checks.find((c) => c.name === `state ${state}`);
      expect(check?.status).toBe('fail');
      expect(check?.detail).toBe(`damaged: ${named}`);
    });
  }
});
