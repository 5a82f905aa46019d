// `digest` monitoring health against answers the sandbox never gives but the operator's own examples do: /sources
// spelling the EU source `eu_safety_gate` where the feed says `safety_gate`, and feed pages without `data_sources`
// (a sync then counts what it asked for as served).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { expectedFeed } from '../helpers/expected.js';
import { handlerServer } from '../helpers/handler-server.js';
import { runMain } from '../helpers/in-process.js';
import { ALL_KEY, FIXED_START, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const KEY = { RECALL_FEED_API_KEY: ALL_KEY };
const ALL_SOURCES = ['us_cpsc', 'safety_gate', 'uk_opss', 'rappel_conso', 'rappel_conso_food'];

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 60, seed: 5, clock: () => FIXED_START });
});
afterAll(async () => {
  await sandbox.close();
});

/**
 * The sandbox behind a rewriting proxy: /sources says `eu_safety_gate` for `safety_gate`; with `strip`, feed pages
 * lose their `data_sources` and `meta` blocks.
 */
async function production(opts: { strip?: boolean } = {}) {
  return handlerServer((req, res) => {
    const headers: Record<string, string> = {};
    const key = req.headers['x-api-key'];
    if (typeof key === 'string') headers['x-api-key'] = key;
    fetch(`${sandbox.url}${req.url}`, { headers })
      .then(async (up) => {
        const body = (await up.json()) as Record<string, unknown>;
        if (Array.isArray(body.data_sources))
          body.data_sources = body.data_sources.map((s: { id: string }) =>
            s.id === 'safety_gate' ? { ...s, id: 'eu_safety_gate' } : s,
          );
        if (opts.strip && body.pagination) {
          delete body.data_sources;
          delete body.meta;
        }
        res.writeHead(up.status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      })
      .catch(() => res.destroy());
  });
}

interface Health {
  complete: boolean;
  sources_missing: string[];
}

async function syncThenDigest(url: string, sync: string[] = []) {
  const db = path.join(tempDir('rf-spell-'), 'a.db');
  const synced = await runMain(['--base-url', url, 'sync', '--db', db, ...sync], { env: KEY });
  expect(synced.stderr).toBe('');
  expect(synced.code).toBe(0);
  const json = await runMain(['--base-url', url, 'digest', '--db', db, '-f', 'json'], { env: KEY });
  const text = await runMain(['--base-url', url, 'digest', '--db', db], { env: KEY });
  return { health: (JSON.parse(json.stdout) as { health: Health }).health, json, text };
}

describe('digest, with /sources spelling the EU source eu_safety_gate', () => {
  it('a sync the feed served as safety_gate covers it: monitoring complete', async () => {
    const server = await production();
    const { health, json, text } = await syncThenDigest(server.url);
    expect(json.code).toBe(0);
    expect(health).toMatchObject({ complete: true, sources_missing: [] });
    expect(text.stdout).not.toContain('INCOMPLETE');
    expect(text.stdout).not.toContain('eu_safety_gate');
  });
});

describe('sync against feed pages without data_sources', () => {
  it('counts the sources it asked for as served: those are covered, the others missing', async () => {
    const server = await production({ strip: true });
    const { health } = await syncThenDigest(server.url, ['--sources', 'us_cpsc,safety_gate']);
    const missing = ALL_SOURCES.filter((s) => s !== 'us_cpsc' && s !== 'safety_gate');
    expect(health).toMatchObject({ complete: false, sources_missing: missing });
  });

  it('asking for no sources (all the key may use) covers them all', async () => {
    const server = await production({ strip: true });
    const { health } = await syncThenDigest(server.url);
    expect(health).toMatchObject({ complete: true, sources_missing: [] });
  });
});

describe('the archive selecting by source, in either spelling', () => {
  it('query --sources eu_safety_gate finds the recalls stored as safety_gate, as --sources safety_gate does', async () => {
    const db = path.join(tempDir('rf-spell-q-'), 'a.db');
    expect((await runMain(['--base-url', sandbox.url, 'sync', '--db', db], { env: KEY })).code).toBe(0);
    const ids = async (source: string) => {
      const r = await runMain(['query', '--db', db, '--sources', source, '-f', 'jsonl']);
      expect(r.code, r.stderr).toBe(0);
      return r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { id: number; data_source: string }).id);
    };
    const expected = expectedFeed(sandbox, { now: FIXED_START })
      .filter((r) => r.data_source === 'safety_gate')
      .map((r) => r.id)
      .sort((a, b) => a - b);
    expect(expected.length).toBeGreaterThan(0);
    expect((await ids('eu_safety_gate')).sort((a, b) => a - b)).toEqual(expected);
    expect((await ids('safety_gate')).sort((a, b) => a - b)).toEqual(expected);
  });
});
