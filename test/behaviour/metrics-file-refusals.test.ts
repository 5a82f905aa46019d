// A --metrics-file refused because it names a file the run keeps (its archive, -o, state file, catalogue, learned file)
// leaves that file as it was: the metrics a run writes at its end, however it ends, never go there. And the metrics'
// source label is the sources the run asked for, as its settings resolved them (the profile's too).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { tempFolder } from '../helpers/archive.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { ALL_KEY, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { receivingServer } from '../helpers/handler-server.js';

let sandbox: Sandbox;
const folder = tempFolder('rf-metrics-kept-');
const file = folder.file;
/** The recalls the sandbox serves in sync's default window, asked of it directly (not through the CLI). */
let served: number;

async function servedIn24h(source?: string): Promise<number> {
  const only = source === undefined ? '' : `&data_sources=${source}`;
  const res = await fetch(`${sandbox.url}/v1/recalls/feed?hours_ago=24&limit=1${only}`, {
    headers: { 'x-api-key': ALL_KEY },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { pagination: { total_count: number } }).pagination.total_count;
}

/** The ids `query` reads from the archive at `db`, exit 0. */
async function archived(db: string): Promise<unknown[]> {
  const r = await runMainAgainst(sandbox, ['query', '--db', db, '-f', 'jsonl']);
  expect(r.code, r.stderr).toBe(0);
  return jsonLines(r.stdout).map((row) => row.id);
}

beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 30 });
  served = await servedIn24h();
  // An archive whose name ends .prom, as a slip would make it.
  const synced = await runMainAgainst(sandbox, ['sync', '--db', file('arch.prom'), '-q']);
  expect(synced.code, synced.stderr).toBe(0);
  writeFileSync(file('products.prom'), 'sku,ean,brand,name\nA-1,,Kidzone,Plush Toys\n');
  writeFileSync(file('state.prom'), '{"version":1,"seen":{}}\n');
  writeFileSync(file('learned.prom'), '{"not":"metrics"}\n');
  const exported = await runMainAgainst(sandbox, ['feed', '-f', 'jsonl', '--max', '3', '-o', file('keep.prom')]);
  expect(exported.code, exported.stderr).toBe(0);
});

describe('a --metrics-file that names a file the run keeps: exit 2, the file untouched', () => {
  it('the archive: still a SQLite archive holding every recall, byte for byte as it was', async () => {
    expect(served).toBeGreaterThan(0);
    expect(await archived(file('arch.prom'))).toHaveLength(served);
    const before = readFileSync(file('arch.prom'));
    sandbox.clearRequests();
    const r = await runMainAgainst(sandbox, ['sync', '--db', file('arch.prom'), '--metrics-file', file('arch.prom')]);
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `error: --metrics-file ${file('arch.prom')} is the archive: writing there would replace it\n` +
        'hint: give --metrics-file another file\n',
    ]);
    expect(sandbox.requests()).toEqual([]);
    expect(readFileSync(file('arch.prom')).equals(before)).toBe(true);
    expect(await archived(file('arch.prom'))).toHaveLength(served);
  });

  it('-o: the export stays as it was', async () => {
    const before = readFileSync(file('keep.prom'));
    expect(jsonLines(before.toString('utf8'))).toHaveLength(3);
    const r = await runMainAgainst(sandbox, [
      'feed',
      '-f',
      'jsonl',
      '-o',
      file('keep.prom'),
      '--metrics-file',
      file('keep.prom'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: --metrics-file ${file('keep.prom')} is the output (-o): writing there would replace it\n` +
        'hint: give --metrics-file another file\n',
    );
    expect(readFileSync(file('keep.prom')).equals(before)).toBe(true);
  });

  it.each([
    [['feed', '--state', 'state.prom', '--metrics-file', 'state.prom'], 'state.prom', 'state file'],
    [['match', '--catalog', 'products.prom', '--metrics-file', 'products.prom'], 'products.prom', 'catalogue'],
    [
      ['digest', '--db', 'arch.prom', '--catalog', 'products.prom', '--metrics-file', 'products.prom'],
      'products.prom',
      'catalogue',
    ],
    [
      [
        'match',
        '--learn',
        '--catalog',
        'products.prom',
        '--db',
        'arch.prom',
        '--learned',
        'learned.prom',
        '--metrics-file',
        'learned.prom',
      ],
      'learned.prom',
      'learned file',
    ],
    // Refused for another reason before the session would have looked: the metrics file is checked first.
    [['sync', '--db', 'arch.prom', '--interval', '60', '--metrics-file', 'arch.prom'], 'arch.prom', 'archive'],
    [['sync', '--db', 'arch.prom', '--timeout', '0', '--metrics-file', 'arch.prom'], 'arch.prom', 'archive'],
  ])('%j', async (args, kept, what) => {
    const before = readFileSync(file(kept));
    sandbox.clearRequests();
    const r = await runMainAgainst(
      sandbox,
      args.map((a) => (a.endsWith('.prom') ? file(a) : a)),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: --metrics-file ${file(kept)} is the ${what}: writing there would replace it\n` +
        'hint: give --metrics-file another file\n',
    );
    expect(sandbox.requests()).toEqual([]);
    expect(readFileSync(file(kept)).equals(before)).toBe(true);
  });

  it('named by RECALL_FEED_METRICS_FILE or the profile: refused the same, the archive untouched', async () => {
    const before = readFileSync(file('arch.prom'));
    const fromEnv = await runMainAgainst(sandbox, ['sync', '--db', file('arch.prom')], {
      env: { RECALL_FEED_METRICS_FILE: file('arch.prom') },
    });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toMatch(
      /^error: --metrics-file .*arch\.prom is the archive: writing there would replace it\n/,
    );
    const config = tempFolder('rf-metrics-profile-').dir;
    const set = await runMain(['config', 'set', 'metrics-file', file('arch.prom')], {
      env: { RECALL_FEED_CONFIG_DIR: config },
    });
    expect(set.code, set.stderr).toBe(0);
    const fromProfile = await runMainAgainst(sandbox, ['sync', '--db', file('arch.prom')], {
      env: { RECALL_FEED_CONFIG_DIR: config },
    });
    expect(fromProfile.code).toBe(2);
    expect(fromProfile.stderr).toMatch(/is the archive: writing there would replace it\n/);
    expect(readFileSync(file('arch.prom')).equals(before)).toBe(true);
  });

  it('the monitor still hears the refusal: /start, then /fail with its message', async () => {
    const server = await receivingServer('OK');
    const url = `${server.url}/ping/run-1`;
    const r = await runMainAgainst(sandbox, [
      'sync',
      '--db',
      file('arch.prom'),
      '--monitor',
      url,
      '--metrics-file',
      file('arch.prom'),
    ]);
    expect(r.code).toBe(2);
    expect(server.received.map((p) => p.url)).toEqual(['/ping/run-1/start', '/ping/run-1/fail']);
    expect(server.received[1]?.body).toContain('exit code 2: --metrics-file');
  });

  it('a -o refused for the archive is reported in a metrics file elsewhere, the archive untouched', async () => {
    const before = readFileSync(file('arch.prom'));
    const r = await runMainAgainst(sandbox, [
      'sync',
      '--db',
      file('arch.prom'),
      '-f',
      'json',
      '-o',
      file('arch.prom'),
      '--metrics-file',
      file('other.prom'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: -o .*arch\.prom is the archive/);
    expect(readFileSync(file('other.prom'), 'utf8')).toContain('recall_feed_last_run_exit_code{command="sync"} 2\n');
    expect(readFileSync(file('arch.prom')).equals(before)).toBe(true);
  });

  it('the refused runs left nothing beside those files: no lock, partial or temporary metrics file', () => {
    expect(readdirSync(folder.dir).sort()).toEqual([
      'arch.prom',
      'keep.prom',
      'learned.prom',
      'other.prom',
      'products.prom',
      'state.prom',
    ]);
  });
});

describe("the source label is the run's resolved sources", () => {
  const success = (command: string, source: string) =>
    new RegExp(`^recall_feed_last_success_timestamp_seconds\\{command="${command}",source="${source}"\\} \\d+`, 'm');

  it("the profile's sources for feed and sync, --sources over them; match and digest, which read every source, all", async () => {
    const config = tempFolder('rf-metrics-sources-').dir;
    const env = { RECALL_FEED_CONFIG_DIR: config };
    expect((await runMain(['config', 'set', 'sources', 'us_cpsc'], { env })).code).toBe(0);
    const prom = (name: string) => file(`labels/${name}.prom`);
    mkdirSync(file('labels'));
    const runs = [
      ['sync', '--db', file('labels/a.db'), '--metrics-file', prom('sync')],
      ['feed', '-f', 'jsonl', '--metrics-file', prom('feed')],
      ['feed', '-f', 'jsonl', '--sources', 'uk_opss', '--metrics-file', prom('feed-flag')],
      ['match', '--catalog', file('products.prom'), '--metrics-file', prom('match')],
      ['digest', '--db', file('labels/a.db'), '-f', 'json', '--metrics-file', prom('digest')],
    ];
    for (const args of runs) {
      const r = await runMainAgainst(sandbox, args, { env });
      expect([0, 8], `${args.join(' ')}: ${r.stderr}`).toContain(r.code);
    }
    const text = (name: string) => readFileSync(prom(name), 'utf8');
    expect(text('sync')).toMatch(success('sync', 'us_cpsc'));
    expect(text('sync')).not.toContain('source="all"');
    expect(text('feed')).toMatch(success('feed', 'us_cpsc'));
    expect(text('feed-flag')).toMatch(success('feed', 'uk_opss'));
    expect(text('feed-flag')).not.toContain('us_cpsc');
    expect(text('match')).toMatch(success('match', 'all'));
    expect(text('digest')).toMatch(success('digest', 'all'));
    // The sync asked for the profile's source only: its archive holds that source's recalls.
    expect(await servedIn24h('us_cpsc')).toBeGreaterThan(0);
    expect(await archived(file('labels/a.db'))).toHaveLength(await servedIn24h('us_cpsc'));
  });
});
