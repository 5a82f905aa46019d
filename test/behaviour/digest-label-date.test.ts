// The digest's opening line is dated by the last instant of its period: a period that ends at 00:00 UTC (exclusive) is
// the day before's, not the day it ends on, and so is one that reaches less than an hour into its last day from an
// earlier one, as a digest run at midnight does (docs/digest.md, "What the words say").
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { type TestArchive, testArchive } from '../helpers/archive-engines.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';

let sandbox: Sandbox;
let archive: TestArchive;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 5, seed: 31 });
  archive = await testArchive('sqlite');
  expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db, '-q'])).code).toBe(0);
});

const firstLine = async (args: string[]) => {
  const r = await runMainAgainst(sandbox, ['digest', '--db', archive.db, ...args]);
  expect(r.code).toBe(0);
  return r.stdout.split('\n')[0];
};

describe('the date of the digest', () => {
  it.each([
    // [since, until, the day the period's last instant falls on]
    ['2026-03-29', '2026-03-30', '29 Mar'],
    // A digest run at midnight by cron: its period reaches a moment (or up to an hour) into the day: the day before.
    ['2026-03-29T00:00:00Z', '2026-03-30T00:00:00.001Z', '29 Mar'],
    ['2026-03-29T00:00:30Z', '2026-03-30T00:00:30Z', '29 Mar'],
    ['2026-03-29T00:59:00Z', '2026-03-30T00:59:00Z', '29 Mar'],
    ['2026-03-29T01:00:01Z', '2026-03-30T01:00:01Z', '30 Mar'],
    // A period within one day is that day's, however early it ends.
    ['2026-03-30T00:00:00Z', '2026-03-30T00:30:00Z', '30 Mar'],
    ['2026-03-29T08:00:00Z', '2026-03-30T08:00:00Z', '30 Mar'],
    ['2025-12-31T00:00:00Z', '2026-01-01T00:00:00Z', '31 Dec'],
  ])('--since %s --until %s: %s', async (since, until, day) => {
    expect(await firstLine(['--since', since, '--until', until, '-f', 'text'])).toMatch(
      new RegExp(`^Recalls ${day}: `),
    );
    expect(await firstLine(['--since', since, '--until', until, '-f', 'markdown'])).toMatch(
      new RegExp(`^# Recalls ${day}: `),
    );
  });
});
