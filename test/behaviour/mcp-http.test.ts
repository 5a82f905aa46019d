// `recall-feed mcp --http` in process: the SDK's client over Streamable HTTP on a loopback port 0, the guard live
// (Host, Origin, bearer token from the config), a stale archive said first, and a write recorded as mcp:<client>.
import { SOURCE_IDS } from '../../src/api/constants.js';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SpecRecall } from '../../src/api/schemas.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { handlerServer } from '../helpers/handler-server.js';
import { fakeClock, type MainResult, runMain, runMainAgainst } from '../helpers/in-process.js';
import { answered, callFails, callOk, OutputSchemas, type Rec } from '../helpers/mcp.js';
import { ALL_KEY, FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { testArchive } from '../helpers/archive-engines.js';
import { ENGINES } from '../helpers/postgres.js';

const DAY_MS = 86_400_000;
const TOKEN = 'f00dfeed'.repeat(6);
let sandbox: Sandbox;
let db: string;
let archived: SpecRecall[];

/** `recall-feed mcp --http 127.0.0.1:0` running until the test ends: its URL, and everything it wrote. */
async function serve(
  extra: string[],
  opts: { env?: Record<string, string>; nowMs?: number; db?: string; api?: { url: string } } = {},
) {
  const stop = new AbortController();
  let stderr = '';
  let announced: (url: string) => void = () => {};
  const url = new Promise<string>((resolve) => {
    announced = resolve;
  });
  const run: Promise<MainResult> = runMainAgainst(
    (opts.api as Sandbox | undefined) ?? sandbox,
    ['mcp', '--http', '127.0.0.1:0', '--db', opts.db ?? db, ...extra],
    {
      signal: stop.signal,
      env: opts.env,
      clock: fakeClock(opts.nowMs ?? Date.now()),
      onOutput: (stream, text) => {
        if (stream !== 'stderr') return;
        stderr += text;
        const m = /serving MCP at (http:\/\/\S+?\/mcp)/.exec(stderr);
        if (m) announced(m[1]!);
      },
    },
  );
  const ended = run.then((r) => {
    announced('');
    return r;
  });
  deferCleanup(async () => {
    stop.abort();
    await ended;
  });
  const at = await url;
  expect(at, (await Promise.race([ended, Promise.resolve(undefined)]))?.stderr).toMatch(
    /^http:\/\/127\.0\.0\.1:\d+\/mcp$/,
  );
  const halt = () => {
    stop.abort();
    return ended;
  };
  return { url: at, stop: halt, stderr: () => stderr };
}

async function connect(url: string, name: string, headers: Record<string, string> = {}) {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  deferCleanup(() => client.close());
  const { tools } = await client.listTools();
  return { client, tools, schemas: new OutputSchemas(tools) };
}

/** A raw POST, with the headers a browser page (or an attacker) would send. */
function post(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }));
  });
}

beforeAll(async () => {
  db = path.join(tempDir('rf-mcp-http-'), 'archive.db');
  sandbox = await sandboxFor({ seed: 5, recordCount: 60, clock: () => FIXED_START });
  const synced = await runMainAgainst(sandbox, ['sync', '--db', db]);
  expect(synced.code, synced.stderr).toBe(0);
  archived = jsonLines((await runMain(['query', '--db', db, '-f', 'jsonl'])).stdout) as SpecRecall[];
  expect(archived.length).toBeGreaterThan(10);
});

describe.each(ENGINES)('on $engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }
  let engineDb: string;
  beforeAll(async () => {
    engineDb = (await testArchive(engine)).db;
    const synced = await runMainAgainst(sandbox, ['sync', '--db', engineDb]);
    expect(synced.code, synced.stderr).toBe(0);
  });

  it('answers every read tool, each answer valid against its outputSchema; writes as mcp:<client>', async () => {
    const server = await serve(['--allow-writes'], { db: engineDb });
    const { client, tools, schemas } = await connect(server.url, 'http-assistant');
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['search_recalls', 'open_case', 'resolve_case']));
    // The source ids the schema gives as examples are ones the archive holds (an assistant copies them).
    const search = tools.find((t) => t.name === 'search_recalls') as unknown as {
      inputSchema: { properties: { sources: { description: string } } };
    };
    const examples = search.inputSchema.properties.sources.description.match(/\b[a-z]+_[a-z_]+\b/g) ?? [];
    expect(examples.length).toBeGreaterThan(0);
    for (const id of examples) expect(SOURCE_IDS).toContain(id);
    const one = archived[3]!;
    const found = await callOk(client, schemas, 'search_recalls', { query: String(one.product_brand), limit: 100 });
    expect(found.data.hits.map((h: Rec) => h.id)).toContain(one.id);
    expect((await callOk(client, schemas, 'get_recall', { id: one.id })).data.recall.id).toBe(one.id);
    expect((await callOk(client, schemas, 'list_cases', {})).data.total).toBe(0);
    const digest = await callOk(client, schemas, 'digest', {});
    expect(digest.data.digest.counts.new).toBe(archived.length);
    expect(digest.data.digest.products).toBeNull();
    // Products of ours from the notices' barcodes; not every one is a valid GTIN, so the pair is the first row found.
    const gtins = archived.map(
      (r) =>
        (r.standard_identifiers_and_barcodes as unknown[]).map((x) =>
          typeof x === 'string' ? x : String((x as Rec).value),
        )[0],
    );
    const products = gtins.flatMap((gtin, i) => (gtin ? [{ sku: `H-${i}`, gtin }] : []));
    const checked = await callOk(client, schemas, 'check_products', { products });
    const row = checked.data.rows.find((r: Rec) => r.level !== 'excluded');
    expect(row, checked.text).toBeDefined();
    const product = products[row.catalog_line - 1]!;
    const opened = await callOk(client, schemas, 'open_case', { recall_id: row.recall_id, product });
    const id = opened.data.case.id as number;
    // A sku the archive stores otherwise (a lone surrogate becomes U+FFFD): the case is found, opened once.
    const odd = { ...product, sku: '\ud800X' };
    const first = await callOk(client, schemas, 'open_case', { recall_id: row.recall_id, product: odd });
    expect(first.text).toMatch(/^Opened: - case \d+ \[open\]/m);
    const again = await callOk(client, schemas, 'open_case', { recall_id: row.recall_id, product: odd });
    expect(again.data).toMatchObject({ opened: false, case: { id: first.data.case.id } });
    await callOk(client, schemas, 'resolve_case', { id: first.data.case.id, outcome: 'false-positive' });
    // A note is anyone's text: the timeline quotes it without its control codes (a screen clear, a bidi override).
    const note = 'other supplier\u001b[2J\u202e\n  2099-01-01T00:00:00Z alice: resolved';
    await callOk(client, schemas, 'resolve_case', { id, outcome: 'not-our-product', note });
    const c = await callOk(client, schemas, 'get_case', { id });
    expect(c.text).toMatch(/\(other supplier\[2J +2099-01-01T00:00:00Z alice: resolved\)/);
    expect(c.text).not.toMatch(/[\u001b\u202e]|\n {2}2099/);
    // The data too: the note without its control codes (a line break is data there, in a JSON string).
    const resolved = c.data.case.events.find((e: Rec) => e.action === 'resolved');
    expect(resolved.note).toBe('other supplier[2J\n  2099-01-01T00:00:00Z alice: resolved');
    expect(c.data.case.events.map((e: Rec) => `${e.actor} ${e.action}`)).toEqual([
      'mcp:http-assistant opened',
      'mcp:http-assistant resolved',
    ]);
    expect(c.data.chain.intact).toBe(true);
    expect(await callFails(client, 'get_case', { id: 4242 })).toMatch(/^no case 4242 in the archive/);
    const result = await server.stop();
    expect(result.code).toBe(0);
    // A PostgreSQL URL's password is a secret too.
    const password = URL.canParse(engineDb) ? new URL(engineDb).password : '';
    if (password !== '') for (const text of [...answered, result.stderr]) expect(text).not.toContain(password);
  });
});

describe('over Streamable HTTP', () => {
  it('refuses a foreign Host or Origin (DNS rebinding), and any path but /mcp', async () => {
    const { url } = await serve([]);
    const port = new URL(url).port;
    expect(await post(url, { host: `evil.example:${port}` })).toBe(403);
    expect(await post(url, { origin: 'https://evil.example' })).toBe(403);
    expect(await post(url.replace(/\/mcp$/, '/other'), {})).toBe(404);
    // The same request from this machine gets past the guard to the transport (which wants its Accept header).
    expect(await post(url, { origin: `http://localhost:${port}` })).not.toBe(403);
  });

  it('with a token in the config, every request needs it, and the token is never printed', async () => {
    const env = { RECALL_FEED_MCP_TOKEN: TOKEN };
    const server = await serve([], { env });
    await expect(connect(server.url, 'no-token')).rejects.toThrow(/401|bearer/i);
    const { client, schemas } = await connect(server.url, 'with-token', { authorization: `Bearer ${TOKEN}` });
    await callOk(client, schemas, 'list_cases', {});
    expect(server.stderr()).toContain('bearer token required');
    const result = await server.stop();
    expect(result.code).toBe(0);
    expect(result.stderr + result.stdout).not.toContain(TOKEN);
  });

  it('serves a 65th client after 64 that closed without ending their session; the one unused longest is the one given up', async () => {
    const server = await serve([]);
    const first = await connect(server.url, 'kept-busy');
    for (let i = 0; i < 63; i++) {
      const { client } = await connect(server.url, `editor-${i}`);
      await client.close();
    }
    // The first client is used again, so the least recent is now editor-0's.
    expect((await callOk(first.client, first.schemas, 'list_cases', {})).data.total).toBe(0);
    const late = await connect(server.url, 'late');
    expect((await callOk(late.client, late.schemas, 'list_cases', {})).data.total).toBe(0);
    expect((await callOk(first.client, first.schemas, 'list_cases', {})).data.total).toBe(0);
    expect((await server.stop()).code).toBe(0);
  });

  it('150 initializations at once leave at most 64 sessions that answer', async () => {
    const server = await serve([]);
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'burst', version: '1' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    // Every request's headers first, so that all 150 are being answered before any session exists; then the bodies.
    const requests = Array.from({ length: 150 }, () => {
      const req = http.request(server.url, { method: 'POST', headers });
      const answered = new Promise<string | undefined>((resolve, reject) => {
        req.on('response', (res) => {
          res.resume();
          res.on('end', () => resolve(res.headers['mcp-session-id'] as string | undefined));
        });
        req.on('error', reject);
      });
      req.flushHeaders();
      return { req, answered };
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const { req } of requests) req.end(init);
    const ids = await Promise.all(requests.map((r) => r.answered));
    const given = ids.filter((id): id is string => id !== undefined);
    const alive = await Promise.all(
      given.map(
        (id) =>
          new Promise<number>((resolve, reject) => {
            const req = http.request(
              server.url,
              { method: 'POST', headers: { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' } },
              (res) => {
                res.resume();
                resolve(res.statusCode ?? 0);
              },
            );
            req.on('error', reject);
            req.end(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
          }),
      ),
    );
    expect(given.length).toBeGreaterThan(0);
    expect(alive.filter((status) => status === 200).length).toBeLessThanOrEqual(64);
    expect((await server.stop()).code).toBe(0);
  });

  it('refuses to bind beyond loopback without a token, or with a bad one, before listening', async () => {
    const bare = await runMain(['mcp', '--http', '0.0.0.0:0', '--db', db]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/^error: --http 0\.0\.0\.0 reaches beyond this machine: a bearer token is required\n/);
    expect(bare.stderr).toContain('recall-feed config set mcp-token');
    const short = await runMain(['mcp', '--http', '0.0.0.0:0', '--db', db], {
      env: { RECALL_FEED_MCP_TOKEN: 'sekrit' },
    });
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/RECALL_FEED_MCP_TOKEN must be at least 32 printable characters/);
    expect(short.stderr).not.toContain('sekrit');
    expect((await runMain(['mcp', '--http', '0.0.0.0:0', '--api-key', ALL_KEY, '--db', db])).stderr).not.toContain(
      ALL_KEY,
    );
  });

  it('a --catalog that cannot serve is exit 2 before listening (it failed only at the first check_products)', async () => {
    const dir = tempDir('rf-mcp-cat-');
    const products = path.join(dir, 'products.csv');
    writeFileSync(products, 'sku,name,brand\nA-1,Kettle,Acme\n');
    for (const [extra, message] of [
      [
        ['--catalog', path.join(dir, 'missing.csv')],
        `error: cannot read the catalogue ${path.join(dir, 'missing.csv')}: no such file\n`,
      ],
      [
        ['--catalog', products, '--key', 'ean'],
        'error: --key ean: the catalogue has no such column\nhint: its columns: sku, name, brand\n',
      ],
      [
        ['--catalog', products, '--map', 'gtin=EAN'],
        "error: the catalogue has no column 'EAN' (--map gtin=EAN); its columns: sku, name, brand\n",
      ],
      [['--catalog', '/dev/null'], 'error: the catalogue /dev/null is a device, not a file\n'],
    ] as const) {
      const r = await runMain(['mcp', '--http', '127.0.0.1:0', '--db', db, ...extra]);
      expect(r.code, extra.join(' ')).toBe(2);
      expect(r.stderr.startsWith(message), r.stderr).toBe(true);
      expect(r.stderr).not.toContain('serving MCP');
    }
  });

  it('answers from the archive while the API takes connections and never replies: the sources said unchecked', async () => {
    const silent = await handlerServer(() => {});
    const { url, stop } = await serve([], { api: silent });
    const { client, schemas } = await connect(url, 'offline');
    const { data, text } = await callOk(client, schemas, 'list_cases', {});
    expect(data.freshness.complete).toBe(false);
    expect(data.freshness.problems).toContain(
      'the sources the key may use were not checked (the API has not answered within 5 s), so monitoring cannot be called complete',
    );
    expect(text).toMatch(/^WARNING, INCOMPLETE MONITORING: /);
    expect(silent.requests.map((r) => r.url)).toEqual(['/v1/recalls/sources']);
    expect((await stop()).code).toBe(0);
  });

  it('says a stale archive first, in the text and in the data', async () => {
    const { url } = await serve([], { nowMs: Date.now() + 3 * DAY_MS });
    const { client, schemas } = await connect(url, 'late');
    const { data, text } = await callOk(client, schemas, 'search_recalls', {});
    // The sync was three days before this server's clock: older than the 24 hours judged, still said.
    expect(data.freshness).toMatchObject({ stale: true, complete: false });
    expect(data.freshness.last_ok_sync).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(data.freshness.problems[0]).toMatch(/^the last successful sync ended 3 days ago \(/);
    expect(text).toMatch(/^WARNING, STALE ARCHIVE: the last successful sync ended 3 days ago/);
  });
});
