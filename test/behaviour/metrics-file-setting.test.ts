// A metrics file the environment or the profile names is checked only by the commands that write it (feed, sync,
// match, digest: exit 2 before anything runs); every other command leaves it alone, and doctor reports it as a check.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { tempFolder } from '../helpers/archive.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import type { CheckResult as Check } from '../../src/jobs/doctor/check.js';

let sandbox: Sandbox;
const folder = tempFolder('rf-metrics-setting-');
const db = folder.file('r.db');
const BAD = { RECALL_FEED_METRICS_FILE: 'metrics.txt' };
const REFUSED = "RECALL_FEED_METRICS_FILE must be a file name ending in .prom, not 'metrics.txt'";

beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 5 });
  const synced = await runMainAgainst(sandbox, ['sync', '--db', db, '-q']);
  expect(synced.code, synced.stderr).toBe(0);
});

describe('a bad RECALL_FEED_METRICS_FILE', () => {
  it.each([
    [['health']],
    [['sources', '-f', 'json']],
    [['query', '--db', db, '-f', 'jsonl']],
    [['stats', '--db', db, '-f', 'json']],
    [['cases', '--db', db, '-f', 'jsonl']],
  ])('%j: never written, never checked: exit 0', async (args) => {
    const r = await runMainAgainst(sandbox, args, { env: BAD });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('RECALL_FEED_METRICS_FILE');
  });

  it.each([[['feed', '-f', 'jsonl', '--max', '1']], [['sync', '--db', db]]])(
    '%j: refused, exit 2, nothing sent',
    async (args) => {
      sandbox.clearRequests();
      const r = await runMainAgainst(sandbox, args, { env: BAD });
      expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `error: ${REFUSED}\n`]);
      expect(sandbox.requests()).toEqual([]);
    },
  );

  it('doctor reports it as a failed metrics-file check, with the rest of its report: exit 16', async () => {
    const r = await runMainAgainst(sandbox, ['doctor', '-f', 'json'], { env: BAD });
    expect(r.code, r.stderr).toBe(16);
    const report = JSON.parse(r.stdout) as { status: string; checks: Check[] };
    expect(report.status).toBe('fail');
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([
      {
        name: 'metrics-file',
        status: 'fail',
        detail: REFUSED,
        hint: 'recall-feed config set metrics-file /var/lib/node_exporter/recall_feed.prom',
      },
    ]);
    expect(report.checks.map((c) => c.name)).toEqual(expect.arrayContaining(['config', 'api', 'key', 'quota']));
  });
});

describe("doctor's metrics-file check", () => {
  it("the profile's value, checked as the run checks it (a hand-edited config file)", async () => {
    const config = tempFolder('rf-metrics-config-').dir;
    writeFileSync(
      path.join(config, 'config.json'),
      JSON.stringify({ profiles: { default: { 'metrics-file': 'recalls.db' } } }),
      { mode: 0o600 },
    );
    const env = { RECALL_FEED_CONFIG_DIR: config };
    const doctor = await runMainAgainst(sandbox, ['doctor', '-f', 'json'], { env });
    expect(doctor.code).toBe(16);
    const checks = (JSON.parse(doctor.stdout) as { checks: Check[] }).checks;
    expect(checks.find((c) => c.name === 'metrics-file')).toMatchObject({
      status: 'fail',
      detail: "the metrics-file setting must be a file name ending in .prom, not 'recalls.db'",
    });
    // The profile itself reads fine: its other values still count.
    expect(checks.find((c) => c.name === 'config')?.status).toBe('ok');
    const query = await runMainAgainst(sandbox, ['query', '--db', db, '-f', 'jsonl'], { env });
    expect(query.code, query.stderr).toBe(0);
    const sync = await runMainAgainst(sandbox, ['sync', '--db', db], { env });
    expect(sync.code).toBe(2);
    expect(sync.stderr).toMatch(/^error: the profile's metrics-file must be a file name ending in \.prom/);
  });

  it('a good one is ok; one in a folder that does not exist, a warning (exit 15)', async () => {
    mkdirSync(folder.file('prom'));
    const good = folder.file('prom/rf.prom');
    const ok = await runMainAgainst(sandbox, ['doctor', '-f', 'json'], { env: { RECALL_FEED_METRICS_FILE: good } });
    expect(ok.code, ok.stdout).toBe(0);
    expect((JSON.parse(ok.stdout) as { checks: Check[] }).checks.find((c) => c.name === 'metrics-file')).toEqual({
      name: 'metrics-file',
      status: 'ok',
      detail: `${good} (RECALL_FEED_METRICS_FILE); written by feed, sync, match and digest`,
    });
    const missing = folder.file('nowhere/rf.prom');
    const warned = await runMainAgainst(sandbox, ['doctor', '-f', 'json'], {
      env: { RECALL_FEED_METRICS_FILE: missing },
    });
    expect(warned.code).toBe(15);
    expect(
      (JSON.parse(warned.stdout) as { checks: Check[] }).checks.find((c) => c.name === 'metrics-file'),
    ).toMatchObject({
      status: 'warn',
      detail: `${missing} (RECALL_FEED_METRICS_FILE): the folder ${folder.file('nowhere')} does not exist`,
    });
  });
});
