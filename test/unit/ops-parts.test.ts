// The parts behind --monitor, --metrics-file and --log-format json: ping addresses, masking, the exposition text, JSON lines.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pingUrl } from '../../src/runtime/ops/monitor.js';
import { previousSuccesses, renderMetrics } from '../../src/runtime/ops/metrics.js';
import { maskPingBody, type OpsFlags, opsSettings } from '../../src/runtime/ops/ops-settings.js';
import { JsonLogStream, logFormatOf } from '../../src/runtime/terminal/json-log.js';
import type { OutStream } from '../../src/runtime/context.js';
import { tempDir } from '../helpers/temp-dir.js';
import { rmSync } from 'node:fs';
import { configPath, openConfigStore } from '../../src/runtime/config/open-store.js';
import { loadSettings } from '../../src/runtime/session.js';

describe('pingUrl', () => {
  it('adds /start and /fail to the path, keeps the query, and drops a trailing slash', () => {
    const base = new URL('https://hc-ping.com/abc/?create=1');
    expect(pingUrl(base, 'start').href).toBe('https://hc-ping.com/abc/start?create=1');
    expect(pingUrl(base, 'fail').href).toBe('https://hc-ping.com/abc/fail?create=1');
    expect(pingUrl(base, 'success').href).toBe('https://hc-ping.com/abc/?create=1');
  });
});

describe('maskPingBody', () => {
  it('replaces each secret, longest first, and the password of any URL', () => {
    const text = 'key rf_abcdef rf_abc; db postgres://sync:pa55@db/x; smtp://u:p%40ss@mail:587';
    expect(maskPingBody(text, ['rf_abc', 'rf_abcdef'])).toBe(
      'key **** ****; db postgres://sync:***@db/x; smtp://u:***@mail:587',
    );
  });

  it('masks a secret percent-encoded too (a webhook URL quoted in a query string)', () => {
    const hook = 'https://hooks.example.com/services/T0/B0/tok3ntok3ntok3n';
    const body = `webhook refused: see https://status.example.com/?url=${encodeURIComponent(hook)}`;
    expect(maskPingBody(body, [hook])).not.toContain('tok3ntok3ntok3n');
  });
});

describe('renderMetrics', () => {
  it('writes HELP and TYPE once per family, escapes label values, leaves out empty families', () => {
    const text = renderMetrics([
      { name: 'a_x', help: 'x.', type: 'gauge', samples: [{ labels: { s: 'q"b\\n\nz' }, value: 1.5 }] },
      { name: 'a_empty', help: 'e.', type: 'gauge', samples: [] },
      { name: 'a_y', help: 'y.', type: 'gauge', samples: [{ value: 2 }, { value: Number.NaN }] },
    ]);
    expect(text).toBe(
      '# HELP a_x x.\n# TYPE a_x gauge\na_x{s="q\\"b\\\\n\\nz"} 1.5\n# HELP a_y y.\n# TYPE a_y gauge\na_y 2\na_y NaN\n',
    );
  });

  it('reads back the last-success samples it wrote, escaped labels included, and nothing else', async () => {
    const file = path.join(tempDir('rf-prom-'), 'x.prom');
    writeFileSync(
      file,
      [
        'recall_feed_last_success_timestamp_seconds{command="sync",source="a\\"b"} 1700000000.5',
        'recall_feed_last_run_success{command="sync"} 1',
        'recall_feed_last_success_timestamp_seconds{broken 12',
        '',
      ].join('\n'),
    );
    expect(await previousSuccesses(file)).toEqual([
      { labels: { command: 'sync', source: 'a"b' }, value: 1700000000.5 },
    ]);
    expect(await previousSuccesses(`${file}.missing`)).toEqual([]);
  });
});

describe('JsonLogStream', () => {
  function capture() {
    const lines: string[] = [];
    const target = { write: (s: string) => lines.push(s) } as unknown as OutStream;
    return { lines, log: new JsonLogStream(target, () => Date.parse('2026-11-26T08:00:00Z')) };
  }

  it('one record per line, however the text is cut; prefixes become levels; a last partial line on flush', () => {
    const { lines, log } = capture();
    log.write('warning: disk al');
    log.write('most full\nhint: free some\nrecall-feed: polling\n\nplain\r\nerror: x\u001b[2J\ntail');
    expect(lines).toHaveLength(5);
    log.flush();
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.map((r) => [r.level, r.msg])).toEqual([
      ['warn', 'disk almost full'],
      ['info', 'free some'],
      ['info', 'polling'],
      ['info', 'plain'],
      ['error', 'x[2J'], // the control character is gone (plainLine); what follows it is text
      ['info', 'tail'],
    ]);
    expect(records[1]?.hint).toBe(true);
    expect(records[0]?.time).toBe('2026-11-26T08:00:00.000Z');
  });
});

describe('logFormatOf', () => {
  it('the last --log-format before --, else the environment, else text', () => {
    expect(logFormatOf(['--log-format', 'json', 'feed'], {})).toBe('json');
    expect(logFormatOf(['--log-format=json', '--log-format', 'text'], {})).toBe('text');
    expect(logFormatOf(['feed', '--', '--log-format', 'json'], {})).toBe('text');
    expect(logFormatOf(['feed'], { RECALL_FEED_LOG_FORMAT: 'JSON' })).toBe('json');
    expect(logFormatOf(['feed'], {})).toBe('text');
  });
});

describe('the secrets a ping body masks', () => {
  it("include --webhook and --smtp-url's login given as flags, and a database password given as ?password=", async () => {
    const env = { RECALL_FEED_CONFIG_DIR: tempDir('rf-ops-cfg-') };
    const ctx = { env, stderr: { write: () => true } } as unknown as Parameters<typeof loadSettings>[1];
    const hook = 'https://hooks.example.com/services/T0/B0/tok3n';
    const smtp = 'smtps://mailbot:s3cret@mail.example.com:465';
    const settings = opsSettings(await loadSettings({}, ctx), { webhook: hook, smtpUrl: smtp } as OpsFlags, ctx);
    const body = `posting to ${hook} failed; smtp ${smtp}; db postgres://db.example.com/r?sslmode=require&password=pgpw9 gone`;
    expect(maskPingBody(body, settings.secrets)).toBe(
      // The SMTP server stays named; its user name and password are the secrets.
      'posting to https://…ok3n failed; smtp smtps://****:***@mail.example.com:465; db postgres://db.example.com/r?sslmode=require&password=*** gone',
    );
  });
});

describe('the profile a run reads', () => {
  it("is read from the config file once: the ops settings come from the session's settings", async () => {
    const env = { RECALL_FEED_CONFIG_DIR: tempDir('rf-ops-once-') };
    const store = await openConfigStore(env);
    await store.set('default', 'metrics-file', '/var/lib/rf/rf.prom');
    await store.set('default', 'api-key', 'dr_test_0123456789abcdef');
    const ctx = { env, stderr: { write: () => true } } as unknown as Parameters<typeof loadSettings>[1];
    const settings = await loadSettings({}, ctx);
    // Gone from disk after the first read: the ops settings can only come from that read.
    rmSync(configPath(env));
    expect(opsSettings(settings, {}, ctx).metricsFile).toBe('/var/lib/rf/rf.prom');
    expect(settings.apiKey).toBe('dr_test_0123456789abcdef');
    expect((await loadSettings({ metricsFile: '/tmp/flag.prom' } as object, ctx)).metricsFile).toBe('/tmp/flag.prom');
  });
});
