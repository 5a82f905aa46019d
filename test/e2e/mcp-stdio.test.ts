// `recall-feed mcp` over stdio, the built binary driven by the MCP SDK's own client: every tool on an archive synced
// from the sandbox, each answer checked against its outputSchema and against what the CLI says of the same archive.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SpecRecall } from '../../src/api/schemas.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ALL_KEY, BIN, cleanEnv, FIXED_START, jsonLines, sandboxFor, tempDir } from '../helpers/cli.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { answered, callFails, callOk, OutputSchemas, type Rec } from '../helpers/mcp.js';

const READ_TOOLS = ['check_products', 'digest', 'get_case', 'get_recall', 'list_cases', 'search_recalls'];
const WRITE_TOOLS = ['open_case', 'resolve_case', 'wait_case'];

let sandbox: Sandbox;
let db: string;
let catalog: string;
let withCodes: SpecRecall[];
/** The recalls the sync archived (the sandbox's window), as `query` lists them. */
let archived: SpecRecall[];
/** Secrets in the servers' environment besides the key: in no answer, no log line, no error. */
const SECRETS = {
  RECALL_FEED_WEBHOOK: 'https://hooks.example/T000/s3cret-hook',
  RECALL_FEED_SMTP_URL: 'smtp://u:s3cret-pw@127.0.0.1:25',
};
/** Every text the servers answered, and what they wrote on stderr: no key may be in any of it. */
const said: string[] = [];

const barcodes = (r: SpecRecall): string[] =>
  (r.standard_identifiers_and_barcodes as unknown[]).map((x) =>
    typeof x === 'string' ? x : String((x as { value: unknown }).value),
  );

/** A client of a spawned `recall-feed mcp`, closed (and the child with it) when the file ends. */
async function connect(extra: string[], name = 'e2e-reader') {
  const env = Object.fromEntries(
    Object.entries(cleanEnv({ RECALL_FEED_API_KEY: ALL_KEY, ...SECRETS })).filter(
      (e): e is [string, string] => e[1] !== undefined,
    ),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '--base-url', sandbox.url, 'mcp', '--db', db, ...extra],
    env,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => said.push(chunk.toString('utf8')));
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  deferCleanup(() => client.close());
  const { tools } = await client.listTools();
  return { client, tools, schemas: new OutputSchemas(tools) };
}

async function cli(args: string[]): Promise<string> {
  const r = await runMain([...args, '--db', db]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

const rowKey = (r: Rec) => `${r.catalog_line} ${r.recall_id} ${r.level} ${r.reason} ${r.scope}`;

beforeAll(async () => {
  const dir = tempDir('rf-mcp-');
  db = path.join(dir, 'archive.db');
  catalog = path.join(dir, 'products.csv');
  sandbox = await sandboxFor({ seed: 21, recordCount: 120, clock: () => FIXED_START });
  const synced = await runMainAgainst(sandbox, ['sync', '--db', db]);
  expect(synced.code, synced.stderr).toBe(0);
  archived = jsonLines(await cli(['query', '-f', 'jsonl'])) as SpecRecall[];
  withCodes = archived.filter((r) => barcodes(r).length > 0);
  const lines = ['sku,gtin,brand,model,name', ...withCodes.slice(0, 12).map((r, i) => `P${i},${barcodes(r)[0]},,,`)];
  lines.push('PZ,,Nobrand,,Nothing at all');
  writeFileSync(catalog, `${lines.join('\n')}\n`);
  await cli(['match', '--catalog', catalog, '--archive', '--open-cases', '-f', 'jsonl']);
});

describe('read-only (the default)', () => {
  let server: Awaited<ReturnType<typeof connect>>;
  beforeAll(async () => {
    server = await connect(['--catalog', catalog]);
  });

  it('lists the read tools only, each with an input and an output schema; the schemas as resources; one prompt', async () => {
    expect(server.tools.map((t) => t.name).sort()).toEqual(READ_TOOLS);
    for (const t of server.tools) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(t.annotations?.readOnlyHint, t.name).toBe(true);
    }
    const { resources } = await server.client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain('recall-feed://schemas/match.schema.json');
    const match = await server.client.readResource({ uri: 'recall-feed://schemas/match.schema.json' });
    const shipped = (await import('../../schemas/match.schema.json', { with: { type: 'json' } })).default;
    expect(JSON.parse((match.contents[0] as { text: string }).text)).toEqual(shipped);
    const { prompts } = await server.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['check-my-products']);
    const prompt = await server.client.getPrompt({ name: 'check-my-products' });
    expect(JSON.stringify(prompt.messages)).toContain('check_products');
  });

  it('search_recalls: the recalls `query` lists with the same filters, newest first, cited', async () => {
    const severity = String(archived[0]!.risk_severity);
    const expected = jsonLines(await cli(['query', '--severity', severity, '-f', 'jsonl', '--sort', 'published_at']));
    const { data, text } = await callOk(server.client, server.schemas, 'search_recalls', {
      severity: [severity],
      limit: 100,
    });
    expect(data.hits.map((h: Rec) => h.id)).toEqual(expected.slice(0, 100).map((r) => r.id));
    expect(data.truncated).toBe(expected.length > 100);
    for (const h of data.hits) expect(h.severity).toBe(severity);
    expect(text.split('\n')[0]).toMatch(/^Archive fresh: last successful sync /);
    expect(data.freshness).toMatchObject({ stale: false, complete: true, problems: [] });
    expect(data.warnings).toEqual([]);
    const typo = await callOk(server.client, server.schemas, 'search_recalls', { severity: ['seriuos'] });
    expect(typo.data.hits).toEqual([]);
    expect(typo.data.warnings).toHaveLength(1);
    expect(typo.data.warnings[0]).toMatch(/^severity seriuos matched no recall .*values seen: .*serious/);
    expect(typo.text).toContain(`warning: ${typo.data.warnings[0]}`);
    const one = withCodes[0]!;
    const word = String(one.product_brand);
    const found = await callOk(server.client, server.schemas, 'search_recalls', { query: word, limit: 100 });
    expect(found.data.hits.map((h: Rec) => h.id)).toContain(one.id);
    const hit = found.data.hits.find((h: Rec) => h.id === one.id);
    expect(hit).toMatchObject({ title: one.alert_title, source: one.data_source, source_url: one.source_url });
  });

  it('get_recall: the recall as archived, with its versions', async () => {
    const one = archived[5]!;
    const { data } = await callOk(server.client, server.schemas, 'get_recall', { id: one.id });
    expect(data.recall).toEqual(JSON.parse(await cli(['show', String(one.id), '-f', 'json'])));
    expect(data.versions).toHaveLength(1);
    expect(data.versions[0]).toMatchObject({ version: 1, current: true });
  });

  it('check_products: the rows `match --archive` prints, inline or from the catalogue, with the safety rule', async () => {
    const expected = jsonLines(await cli(['match', '--catalog', catalog, '--archive', '--explain', '-f', 'jsonl']));
    expect(expected.length).toBeGreaterThanOrEqual(5);
    const fromCatalogue = await callOk(server.client, server.schemas, 'check_products', {});
    expect(fromCatalogue.data.rows.map(rowKey).sort()).toEqual(expected.map(rowKey).sort());
    expect(fromCatalogue.data.rows.map((r: Rec) => r.explain)).toEqual(
      fromCatalogue.data.rows.map((r: Rec) => expected.find((e) => rowKey(e) === rowKey(r))!.explain),
    );
    const products = withCodes.slice(0, 12).map((r, i) => ({ sku: `P${i}`, gtin: barcodes(r)[0] }));
    products.push({ sku: 'PZ', brand: 'Nobrand', name: 'Nothing at all' } as never);
    const inline = await callOk(server.client, server.schemas, 'check_products', { products });
    expect(inline.data.rows.map(rowKey).sort()).toEqual(expected.map(rowKey).sort());
    expect(inline.data.counts).toMatchObject({
      recalls_checked: archived.length,
      products: 13,
      match: expected.filter((r) => r.level === 'match').length,
    });
    expect(inline.data.note).toMatch(/A product with no row is not thereby safe/);
    expect(inline.text).toMatch(/A product with no row is not thereby safe/);
  });

  it('list_cases and get_case: the cases `cases` lists, a timeline as `cases show` gives it, the chain verified', async () => {
    const expected = jsonLines(await cli(['cases', '--status', 'all', '-f', 'jsonl']));
    expect(expected.length).toBeGreaterThan(0);
    const { data } = await callOk(server.client, server.schemas, 'list_cases', { state: 'all' });
    expect(data.cases.map((c: Rec) => c.id).sort()).toEqual(expected.map((c) => c.id).sort());
    expect(data.total).toBe(expected.length);
    const active = await callOk(server.client, server.schemas, 'list_cases', {});
    expect(active.data.total).toBe(expected.filter((c) => c.status !== 'closed').length);
    const id = expected[0]!.id as number;
    const one = await callOk(server.client, server.schemas, 'get_case', { id });
    const shown = JSON.parse(await cli(['cases', 'show', String(id), '-f', 'json']));
    expect(one.data.case.events).toEqual(shown.events);
    expect(one.data.case.recall.id).toBe(shown.recall.id);
    expect(one.data.chain).toMatchObject({ intact: true, this_case_ok: true, problem: null });
  });

  it('digest: the period as `digest -f json` collects it, your products first, with monitoring health', async () => {
    const { data, text } = await callOk(server.client, server.schemas, 'digest', { days: 1 });
    const cliDigest = JSON.parse(await cli(['digest', '--catalog', catalog, '-f', 'json']));
    expect(data.digest.counts.new).toBe(archived.length);
    expect(data.digest.counts.new).toBe(cliDigest.counts.new);
    expect(data.digest.products.map((p: Rec) => `${p.catalog_line} ${p.recall_id}`)).toEqual(
      cliDigest.products.map((p: Rec) => `${p.catalog_line} ${p.recall_id}`),
    );
    expect(data.digest.recalls.new.length).toBe(Math.min(50, archived.length));
    expect(text).toMatch(/monitoring/i);
  });

  it('errors come back as tool errors with a clear message, and the server goes on', async () => {
    const { client } = server;
    expect(await callFails(client, 'get_recall', { id: 999_999_999 })).toBe(
      'recall 999999999 is not in the archive (hint: search_recalls finds ids)',
    );
    expect(await callFails(client, 'get_case', { id: 99_999 })).toMatch(/^no case 99999 in the archive/);
    expect(await callFails(client, 'get_recall', { id: 'x' })).toMatch(/Input validation error.*id/);
    expect(await callFails(client, 'search_recalls', { limit: 0 })).toMatch(/Input validation error.*limit/);
    expect(await callFails(client, 'check_products', { since: 'last tuesday' })).toMatch(
      /^since must be a duration such as 36h or 7d/,
    );
    expect(await callFails(client, 'check_products', { products: [{ sku: 'X' }] })).toMatch(
      /each product needs a gtin, a model, or a brand and a name/,
    );
    expect(await callFails(client, 'open_case', { recall_id: 1 })).toMatch(/open_case not found/);
    expect((await client.listTools()).tools).toHaveLength(READ_TOOLS.length);
  });

  it('an archive that is not there is a tool error that says to sync', async () => {
    const { client } = await connect(['--db', path.join(tempDir('rf-mcp-none-'), 'none.db')]);
    expect(await callFails(client, 'search_recalls', {})).toMatch(
      /^no archive at .*none\.db \(hint: run `recall-feed sync`/,
    );
  });

  it('without a catalogue, check_products asks for products', async () => {
    const bare = await connect([]);
    expect(await callFails(bare.client, 'check_products', {})).toMatch(
      /no products given, and the server has no catalogue \(hint: .*--catalog/,
    );
  });
});

describe('--allow-writes', () => {
  it('adds open_case, wait_case and resolve_case; each step is in the chain as mcp:<client name>', async () => {
    // -v: the requests it sends are said on stderr, where the key must not be.
    const { client, tools, schemas } = await connect(['--allow-writes', '--catalog', catalog, '-v'], 'e2e-assistant');
    expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    // A product of ours that matches a recall (not every notice's barcode is a valid one): as check_products finds it.
    const candidates = withCodes.slice(12).map((r, i) => ({ sku: `MCP-${i}`, gtin: barcodes(r)[0] }));
    const checked = await callOk(client, schemas, 'check_products', { products: candidates });
    const row = checked.data.rows.find((r: Rec) => r.level !== 'excluded');
    expect(row).toBeDefined();
    const product = { ...candidates[row.catalog_line - 1]!, name: 'Our own product' };
    const recall = { id: row.recall_id as number };
    const opened = await callOk(client, schemas, 'open_case', { recall_id: recall.id, product, note: 'seen in chat' });
    expect(opened.data.opened).toBe(true);
    expect(opened.data.case).toMatchObject({ recall_id: recall.id, catalog_key: `sku:${product.sku}`, status: 'open' });
    const id = opened.data.case.id as number;
    const again = await callOk(client, schemas, 'open_case', { recall_id: recall.id, product });
    expect(again.data).toMatchObject({ opened: false, case: { id } });
    await callOk(client, schemas, 'wait_case', { id, note: 'asked the supplier' });
    const resolved = await callOk(client, schemas, 'resolve_case', { id, outcome: 'removed-from-sale' });
    expect(resolved.data.case).toMatchObject({ status: 'closed', outcome: 'removed-from-sale' });
    expect(await callFails(client, 'resolve_case', { id, outcome: 'removed-from-sale' })).toMatch(/closed/);
    expect(await callFails(client, 'resolve_case', { id, outcome: 'shrug' })).toMatch(/Input validation error/);
    const other = { sku: 'MCP-2', brand: 'Nobrand', name: 'Nothing at all' };
    expect(await callFails(client, 'open_case', { recall_id: recall.id, product: other })).toMatch(
      /does not match recall/,
    );

    // A line of the server's catalogue whose pair match --open-cases already opened: the same case, none new.
    const byMatch = jsonLines(await cli(['cases', '--status', 'all', '-f', 'jsonl'])).find((c) =>
      /^sku:P\d+$/.test(String(c.catalog_key)),
    )!;
    const line = Number(String(byMatch.catalog_key).slice('sku:P'.length)) + 1;
    const kept = await callOk(client, schemas, 'open_case', { recall_id: byMatch.recall_id, catalog_line: line });
    expect(kept.data).toMatchObject({ opened: false, case: { id: byMatch.id, catalog_key: byMatch.catalog_key } });
    expect(await callFails(client, 'open_case', { recall_id: byMatch.recall_id })).toMatch(/give either product/);

    const shown = JSON.parse(await cli(['cases', 'show', String(id), '-f', 'json']));
    expect(shown.events.map((e: Rec) => [e.actor, e.action, e.note])).toEqual([
      ['mcp:e2e-assistant', 'opened', 'seen in chat'],
      ['mcp:e2e-assistant', 'waiting', 'asked the supplier'],
      ['mcp:e2e-assistant', 'resolved', null],
    ]);
    const verified = await runMain(['cases', 'verify', '--db', db]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, broken: null });
  });

  it('never says the key, the webhook or the SMTP password: in no answer and nowhere on stderr', () => {
    expect(said.join('')).toMatch(/GET \/v1\/recalls\/sources 200/);
    expect(answered.length).toBeGreaterThan(20);
    for (const text of [...said, ...answered]) {
      expect(text).not.toContain(ALL_KEY);
      expect(text).not.toContain('s3cret');
    }
  });
});
