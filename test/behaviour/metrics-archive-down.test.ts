// sync --metrics-file when its PostgreSQL archive cannot be reached: the file is still replaced with the failed run's
// outcome (a collector must see the failure, not the last success's numbers), without the archive's series.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { closedPort } from '../helpers/test-proxy.js';

/** The samples of a metric in a Prometheus text file, as `labels value` strings. */
function samples(text: string, name: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .map((line) => line.slice(name.length).trim());
}

describe('sync --metrics-file with its PostgreSQL archive down', () => {
  it("replaces the file with the failed run's exit code, keeping the last success; no archive series", async () => {
    const sandbox = await sandboxFor({ recordCount: 5 });
    const dir = tempDir('rf-metrics-pg-down-');
    const file = path.join(dir, 'recall_feed.prom');
    // A success first, on a SQLite archive: the file a collector has read until now.
    const ok = await runMainAgainst(sandbox, ['sync', '--db', path.join(dir, 'recalls.db'), '--metrics-file', file]);
    expect(ok.code, ok.stderr).toBe(0);
    const before = readFileSync(file, 'utf8');
    const [success] = samples(before, 'recall_feed_last_success_timestamp_seconds');
    expect(success).toMatch(/^\{command="sync",source="all"\} \d+/);
    expect(samples(before, 'recall_feed_cases')).toHaveLength(3);

    const port = await closedPort();
    const url = `postgres://dbuser@127.0.0.1:${port}/recalls`;
    const r = await runMainAgainst(sandbox, ['sync', '--db', url, '--metrics-file', file]);
    expect(r.code).not.toBe(0);
    const lines = r.stderr.trimEnd().split('\n');
    const error = lines.find((l) => l.startsWith('error: '));
    expect(error).toMatch(/^error: no PostgreSQL server answers at 127\.0\.0\.1 /);
    // One warning: the file lacks the archive's series, and why (the run's own error's words).
    expect(lines.filter((l) => l.startsWith('warning: '))).toEqual([
      `warning: metrics file ${file} written without the archive's series: ${error!.slice('error: '.length)}`,
    ]);
    const after = readFileSync(file, 'utf8');
    expect(samples(after, 'recall_feed_last_run_exit_code')).toEqual([`{command="sync"} ${r.code}`]);
    expect(samples(after, 'recall_feed_last_run_success')).toEqual(['{command="sync"} 0']);
    expect(samples(after, 'recall_feed_last_success_timestamp_seconds')).toEqual([success]);
    expect(samples(after, 'recall_feed_cases')).toEqual([]);
    expect(samples(after, 'recall_feed_outbox_pending')).toEqual([]);
  });
});
