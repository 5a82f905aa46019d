// --log-format json end to end in process: every stderr line one JSON object, stdout unchanged, errors with their exit code
// (that the real process adds nothing else to stderr: test/e2e/launcher.test.ts).
import { describe, expect, it } from 'vitest';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';

interface LogLine {
  time: string;
  level: string;
  msg: string;
  [field: string]: unknown;
}

function parseLines(stderr: string): LogLine[] {
  const lines = stderr.split('\n');
  expect(lines.pop()).toBe('');
  return lines.map((l) => {
    const o = JSON.parse(l) as LogLine;
    expect(Number.isNaN(Date.parse(o.time))).toBe(false);
    expect(['debug', 'info', 'warn', 'error']).toContain(o.level);
    expect(typeof o.msg).toBe('string');
    return o;
  });
}

describe('--log-format json', () => {
  it('-v request lines become debug records with fields; stdout is byte-equal to a text run', async () => {
    const sandbox = await sandboxFor({ recordCount: 700, seed: 3 });
    const text = await runMainAgainst(sandbox, ['-v', 'feed', '-f', 'jsonl']);
    const json = await runMainAgainst(sandbox, ['--log-format', 'json', '-v', 'feed', '-f', 'jsonl']);
    expect(json.code).toBe(0);
    expect(json.stdout).toBe(text.stdout);
    const logs = parseLines(json.stderr);
    const requests = logs.filter((l) => l.level === 'debug');
    expect(requests.length).toBe(text.stderr.split('\n').filter((l) => l.startsWith('GET ')).length);
    expect(requests[0]).toMatchObject({ method: 'GET', path: '/v1/recalls/feed', status: 200 });
    expect(typeof requests[0]?.ms).toBe('number');
  });

  it('an error is one error record with its exit code and hints; RECALL_FEED_LOG_FORMAT does the same', async () => {
    const sandbox = await sandboxFor({ recordCount: 5 });
    const r = await runMainAgainst(sandbox, ['feed'], {
      env: { RECALL_FEED_API_KEY: 'rf_wrong_1', RECALL_FEED_LOG_FORMAT: 'json' },
      stderrIsTTY: true,
      stdoutIsTTY: true,
      columns: 80,
    });
    expect(r.code).toBe(3);
    const logs = parseLines(r.stderr);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ level: 'error', exit_code: 3 });
    expect(logs[0]?.msg).toMatch(/^the API rejected the key/);
    expect((logs[0]?.hints as string[] | undefined)?.[0]).toMatch(/config set api-key/);
    // No spinner frame and no colour code ever reached stderr.
    expect(r.stderr).not.toMatch(/\u001b/);
  });

  it('warnings become warn records; a bad value is a usage error', async () => {
    const sandbox = await sandboxFor({ recordCount: 5 });
    const r = await runMainAgainst(sandbox, [
      '--log-format',
      'json',
      'feed',
      '-f',
      'jsonl',
      '--monitor',
      'http://127.0.0.1:9/x',
    ]);
    expect(r.code).toBe(0);
    const warns = parseLines(r.stderr).filter((l) => l.level === 'warn');
    expect(warns.length).toBe(2);
    expect(warns[0]?.msg).toMatch(/^monitor http:\/\/127\.0\.0\.1:9\/… not reached/);
    const bad = await runMain(['--log-format', 'xml', 'feed']);
    expect(bad.code).toBe(2);
  });
});
