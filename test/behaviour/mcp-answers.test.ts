// The MCP tools in process, a client linked to the server the `mcp` command builds: the digest never waits on an API
// that does not answer, inline barcodes that cannot match are said, the catalogue's once-only warnings left to cron,
// answers bounded in size, hints worded for tools, and why the sources were not checked.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { openArchive } from '../../src/archive/open-archive.js';
import type { ArchivedRecord } from '../../src/archive/store.js';
import { sourcesOf } from '../../src/mcp/key-sources.js';
import type { McpPlan } from '../../src/mcp/plan.js';
import { buildServer } from '../../src/mcp/server.js';
import type { Context } from '../../src/runtime/context.js';
import { createSession } from '../../src/runtime/session.js';
import { sampleRecords, storeRun } from '../helpers/archive.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { handlerServer } from '../helpers/handler-server.js';
import { type FakeClock, fakeClock, runMain } from '../helpers/in-process.js';
import { callFails, callOk, OutputSchemas, type Rec } from '../helpers/mcp.js';
import { ALL_KEY, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { until } from '../helpers/wait.js';

/** A server as `recall-feed mcp` builds it, its client linked in memory; `waitMs`: how long an answer waits on the API. */
async function serve(
  db: string,
  opts: {
    api?: string;
    key?: string;
    waitMs?: number;
    catalog?: string;
    writes?: boolean;
    config?: string;
    clock?: FakeClock;
  } = {},
) {
  let stderr = '';
  const ctx: Context = {
    stdout: new PassThrough(),
    stderr: new Writable({
      write(chunk: Buffer, _enc, callback) {
        stderr += chunk.toString('utf8');
        callback();
      },
    }),
    stdin: new PassThrough(),
    env: {
      TERM: 'dumb',
      RECALL_FEED_CONFIG_DIR: opts.config ?? tempDir('rf-config-'),
      RECALL_FEED_CACHE_DIR: tempDir('rf-cache-'),
      ...(opts.key === undefined ? {} : { RECALL_FEED_API_KEY: opts.key }),
    },
    now: opts.clock?.now ?? (() => Date.now()),
    sleep: opts.clock?.sleep ?? (async () => {}),
    signal: new AbortController().signal,
  };
  const session = await createSession(opts.api === undefined ? {} : { baseUrl: opts.api }, ctx);
  const plan: McpPlan = {
    db: { db, schema: undefined },
    http: undefined,
    allowWrites: opts.writes === true,
    catalog: opts.catalog === undefined ? undefined : { file: opts.catalog, map: {}, key: undefined },
  };
  const server = buildServer(session, plan, sourcesOf(session, opts.waitMs));
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'answers', version: '1' });
  await server.connect(ours);
  await client.connect(theirs);
  deferCleanup(async () => {
    await client.close();
    await server.close();
    await session.close();
  });
  const { tools } = await client.listTools();
  return { client, schemas: new OutputSchemas(tools), stderr: () => stderr };
}

/** An archive of one successful sync of `records` (sampleRecords(6) unless given). */
async function archive(records: Record<string, unknown>[] = sampleRecords(6)): Promise<string> {
  const db = path.join(tempDir('rf-mcp-answers-'), 'archive.db');
  await storeRun(db, records);
  return db;
}

/** A GTIN-13 with its check digit, from 12 digits (computed here, not by the code under test). */
function gtin13(first12: string): string {
  const sum = [...first12].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return `${first12}${(10 - (sum % 10)) % 10}`;
}

describe('digest over MCP', () => {
  it('answers within the server bound on sources while the API takes connections and never replies', async () => {
    const silent = await handlerServer(() => {});
    const db = await archive();
    const { client, schemas } = await serve(db, { api: silent.url, key: ALL_KEY, waitMs: 200 });
    const started = Date.now();
    let late: NodeJS.Timeout | undefined;
    const answered = await Promise.race([
      callOk(client, schemas, 'digest', {}),
      new Promise<never>((_, reject) => {
        late = setTimeout(() => reject(new Error('digest still not answered 3 s on')), 3000);
      }),
    ]).finally(() => clearTimeout(late));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(answered.data.digest.counts.new).toBe(6);
    expect(answered.data.digest.health.sources_checked).toBe(false);
    expect(answered.data.freshness.problems).toContain(
      'the sources the key may use were not checked (the API has not answered within 0.2 s), so monitoring cannot be called complete',
    );
    // Asked once, by the server (the request still out): the digest did not ask again on its own.
    await until('the sources asked of the API', () => silent.requests.length >= 1, 2000);
    expect(silent.requests.map((r) => r.url)).toEqual(['/v1/recalls/sources']);
  });
});

describe('check_products: barcodes that cannot match', () => {
  it('says a rejected or unchecked inline barcode as a warning, naming the product', async () => {
    const db = await archive();
    const { client, schemas, stderr } = await serve(db);
    const valid = gtin13('400638133393');
    const wrong = `${valid.slice(0, 12)}${(Number(valid[12]) + 1) % 10}`;
    const products = [
      { sku: 'A-1', gtin: '12345' },
      { sku: 'B-2', gtin: wrong },
      { sku: 'C-3', gtin: valid },
    ];
    const { data, text } = await callOk(client, schemas, 'check_products', { products });
    expect(data.warnings).toEqual([
      "product 1 (sku A-1): barcode '12345' rejected (5 digits (GTIN has 8 to 14, or more with leading zeros)); it is never matched",
      `product 2 (sku B-2): barcode '${wrong}' has a wrong check digit (${wrong[12]}, expected ${valid[12]}): only the identical code in a notice matches it, as possible (barcode-unchecked)`,
      'not checked, nothing can match them: product 1 (sku A-1): a barcode that is not a GTIN, and no model, nor a brand and a name (give a gtin of 8 to 14 digits (its check digit last), a model, or a brand and a name)',
    ]);
    for (const w of data.warnings) expect(text).toContain(`warning: ${w}`);
    expect(data.counts.products).toBe(3);
    // Said in the answer, not on the server's stderr (where only the missing key is said).
    expect(stderr()).not.toContain('barcode');
  });

  it('refuses products of which none can be checked (a lone rejected barcode)', async () => {
    const db = await archive();
    const { client } = await serve(db);
    const text = await callFails(client, 'check_products', { products: [{ sku: 'A-1', gtin: '12345' }] });
    expect(text).toBe(
      'no product can be checked: product 1 (sku A-1): a barcode that is not a GTIN, and no model, nor a brand and a name (hint: give a gtin of 8 to 14 digits (its check digit last), a model, or a brand and a name)',
    );
  });
});

describe("the catalogue's once-only warnings", () => {
  it('check_products and digest over MCP say them, and leave them for the next cron digest to say', async () => {
    const db = await archive();
    const folder = tempDir('rf-mcp-catalogue-');
    const catalog = path.join(folder, 'products.csv');
    writeFileSync(catalog, `sku,gtin,brand,name\nA-1,12345,Acme,Kettle\nB-2,${gtin13('400638133393')},Acme,Toaster\n`);
    const config = tempDir('rf-config-');
    const warning =
      "catalogue row 1: barcode '12345' rejected (5 digits (GTIN has 8 to 14, or more with leading zeros)); it is never matched";
    const { client, schemas, stderr } = await serve(db, { catalog, config });
    for (const tool of ['check_products', 'digest', 'check_products']) {
      const { data, text } = await callOk(client, schemas, tool, {});
      expect(data.warnings, tool).toEqual([warning]);
      expect(text, tool).toContain(`warning: ${warning}`);
    }
    expect(stderr()).not.toContain('barcode');
    // Nothing remembered as said: the folder holds what the CLI writes, and no catalogue-warnings.json.
    expect(existsSync(path.join(config, 'catalogue-warnings.json')), readdirSync(config).join(',')).toBe(false);
    const cron = await runMain(['digest', '--db', db, '--catalog', catalog, '-f', 'json'], {
      env: { RECALL_FEED_CONFIG_DIR: config },
    });
    expect(cron.stderr).toContain(`warning: ${warning}\n`);
    expect(cron.code, cron.stderr).toBe(0);
  });
});

describe('answer sizes', () => {
  it('get_recall gives the record once, earlier versions as what differs, long texts cut and marked', async () => {
    const [first, ...rest] = sampleRecords(3);
    const huge = 'Lorem ipsum dolor sit amet. '.repeat(200_000);
    const old = { ...first!, product_description: huge, alert_summary: 'first words' };
    const db = await archive([old, ...rest]);
    await storeRun(db, [{ ...old, alert_summary: 'second words', updated_at: '2026-02-01T00:00:00Z' }]);
    const { client, schemas } = await serve(db);
    const r = await client.callTool({ name: 'get_recall', arguments: { id: first!.id } });
    const size = Buffer.byteLength(JSON.stringify(r), 'utf8');
    expect(size).toBeLessThan(1_200_000);
    const data = r.structuredContent as Rec;
    expect(schemas.check('get_recall', data)).toBe('valid');
    expect(data.recall.alert_summary).toBe('second words');
    expect(data.recall.product_description).toMatch(/^Lorem ipsum/);
    expect(data.recall.product_description).toMatch(/ \[…cut: [\d,]+ more characters\]$/);
    expect(data.recall.product_description.length).toBeLessThan(huge.length);
    expect(data.cut[0]).toMatch(/^recall\.product_description: 5,600,000 characters, the first \d+ kept$/);
    expect(data.versions).toEqual([
      {
        version: 1,
        stored_at: expect.any(String),
        current: false,
        differs: { alert_summary: 'first words', updated_at: first!.updated_at },
      },
      { version: 2, stored_at: expect.any(String), current: true, differs: {} },
    ]);
  });

  it("get_case gives the case's recall within the bound, a long text cut and marked", async () => {
    const [recall] = sampleRecords(1);
    const db = await archive([{ ...recall!, product_description: 'Kettle details. '.repeat(400_000) }]);
    const { client, schemas } = await serve(db, { writes: true });
    const product = { sku: 'K-1', brand: recall!.product_brand, name: recall!.product_name };
    const opened = await callOk(client, schemas, 'open_case', { recall_id: recall!.id, product });
    const r = await client.callTool({ name: 'get_case', arguments: { id: opened.data.case.id } });
    expect(Buffer.byteLength(JSON.stringify(r), 'utf8')).toBeLessThan(1_200_000);
    const data = r.structuredContent as Rec;
    expect(schemas.check('get_case', data)).toBe('valid');
    expect(data.case.recall.id).toBe(recall!.id);
    expect(data.case.recall.product_description).toMatch(/^Kettle details\. .* \[…cut: [\d,]+ more characters\]$/s);
  });

  it('check_products cuts a long title repeated in many rows, within the bound, and names each cut', async () => {
    const [recall] = sampleRecords(1);
    const title = 'Recall of kettles '.repeat(20_000);
    const db = await archive([{ ...recall!, alert_title: title }]);
    const { client, schemas } = await serve(db);
    const products = Array.from({ length: 40 }, (_, i) => ({
      sku: `K-${i}`,
      brand: recall!.product_brand,
      name: recall!.product_name,
    }));
    const r = await client.callTool({ name: 'check_products', arguments: { products, limit: 1000 } });
    expect(Buffer.byteLength(JSON.stringify(r), 'utf8')).toBeLessThan(1_200_000);
    const data = r.structuredContent as Rec;
    expect(schemas.check('check_products', data)).toBe('valid');
    for (const row of data.rows) expect(row.alert_title).toMatch(/\[…cut: [\d,]+ more characters\]$/);
    // Each text cut is named in cut, as get_recall and digest name theirs, and the text says so.
    expect(data.rows).toHaveLength(40);
    expect(data.truncated).toBe(false);
    const kept = /\[…cut: ([\d,]+) more characters\]$/.exec(data.rows[0].alert_title);
    expect(kept).not.toBeNull();
    const first = title.length - Number(kept![1]!.replaceAll(',', ''));
    // 40 titles cut: the first 20 named, then how many more.
    expect(data.cut).toEqual([
      ...Array.from({ length: 20 }, (_, i) => `rows[${i}].alert_title: 360,000 characters, the first ${first} kept`),
      '… and 20 more cut',
    ]);
    const text = (r.content as { text: string }[])[0]!.text;
    expect(text).toContain(`Cut to keep the answer small: ${data.cut.join('; ')}.`);
  });
});

describe('errors and freshness worded for an assistant', () => {
  it('hints name tools, never a CLI command the assistant cannot run', async () => {
    const records = sampleRecords(6);
    const db = await archive(records);
    const { client, schemas } = await serve(db, { writes: true });
    expect(await callFails(client, 'get_case', { id: 999 })).toBe(
      'no case 999 in the archive (hint: list_cases with state "all" lists every case)',
    );
    const products = records.map((r, i) => ({ sku: `P-${i}`, brand: r.product_brand, name: r.product_name }));
    const { data } = await callOk(client, schemas, 'check_products', { products });
    const row = data.rows.find((x: Rec) => x.level !== 'excluded');
    expect(row, JSON.stringify(data.counts)).toBeDefined();
    const product = products[row.catalog_line - 1];
    const opened = await callOk(client, schemas, 'open_case', { recall_id: row.recall_id, product });
    const id = opened.data.case.id as number;
    await callOk(client, schemas, 'resolve_case', { id, outcome: 'not-our-product' });
    const again = await callFails(client, 'resolve_case', { id, outcome: 'not-our-product' });
    expect(again).toBe(
      `case ${id} is closed (not-our-product) (hint: no tool reopens a closed case: the user can reopen it from the command line)`,
    );
  });

  it('a refused key is said as such, the key itself never', async () => {
    const key = ALL_KEY;
    const refusing = await handlerServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: { error: 'invalid_api_key', message: `unknown key ${key}` } }));
    });
    const db = await archive();
    const { client, schemas, stderr } = await serve(db, { api: refusing.url, key });
    const { data, text } = await callOk(client, schemas, 'list_cases', {});
    // The key as the CLI masks it: its kind and last four characters.
    const masked = `${key.slice(0, 8)}…${key.slice(-4)}`;
    expect(data.freshness.problems).toEqual([
      `the sources the key may use were not checked (the API rejected the key: unknown key ${masked}), so monitoring cannot be called complete`,
    ]);
    expect(stderr()).toBe(
      `warning: the sources this key may use were not checked: the API rejected the key: unknown key ${masked}, so monitoring cannot be called complete\n`,
    );
    expect(text).not.toContain(key);
    expect(JSON.stringify(data)).not.toContain(key);
    expect(stderr()).not.toContain(key);
  });

  it('no key is said as such', async () => {
    const sandbox = await sandboxFor({});
    const db = await archive();
    const { client, schemas } = await serve(db, { api: sandbox.url });
    const { data } = await callOk(client, schemas, 'list_cases', {});
    expect(data.freshness.problems).toContain(
      'the sources the key may use were not checked (no API key is set), so monitoring cannot be called complete',
    );
    expect(sandbox.requests()).toEqual([]);
  });
});

describe('digest on a clock that stands still (the sandbox pinned with --sandbox-now)', () => {
  it('a sync stored at exactly now is in the period (it ends 1 ms after now): its run counted, monitoring complete', async () => {
    // Every stamp at one instant, as a run on the pinned clock makes them: the sync began, stored and ended at now.
    const now = Date.parse('2026-06-01T12:00:00Z');
    const db = path.join(tempDir('rf-mcp-pinned-'), 'archive.db');
    const store = await openArchive(db, { create: true });
    try {
      const run = await store.beginRun({}, now);
      await store.upsertPage(sampleRecords(6) as ArchivedRecord[], run, () => now);
      await store.finishRun(run, 'ok', now);
    } finally {
      await store.close();
    }
    const sandbox = await sandboxFor({});
    const { client, schemas } = await serve(db, { api: sandbox.url, key: ALL_KEY, clock: fakeClock(now) });
    const { data } = await callOk(client, schemas, 'digest', {});
    expect(data.digest.health.runs).toEqual({ ok: 1, failed: 0, interrupted: 0 });
    expect(data.digest.health.complete).toBe(true);
    // The days back from now, as the digest command counts them, to 1 ms after now.
    expect(data.digest.period.from).toBe(new Date(now - 86_400_000).toISOString());
    expect(data.digest.period.to).toBe(new Date(now + 1).toISOString());
  });
});

describe('answers cut to fit keep their links whole', () => {
  it('get_recall keeps the notice link and image links whole, cutting the image list before texts go to 300', async () => {
    const [first, ...rest] = sampleRecords(3);
    const url = `https://rappel.conso.gouv.fr/fiche-rappel/12756/Interne?${'q=1&'.repeat(120)}end=1`;
    const images = Array.from(
      { length: 3_000 },
      (_, i) => `https://rappel.conso.gouv.fr/images/${i}.jpg?${'w=1&'.repeat(370)}`,
    );
    const description = 'Présence de salmonelles. '.repeat(220_000);
    const title = Array(1_000).fill('Rappel de produit : Saucisson sec Saveurs d’Antan.').join(' ');
    const recall = { ...first!, alert_title: title, source_url: url, images, product_description: description };
    const db = await archive([recall, ...rest]);
    const { client, schemas } = await serve(db);
    const r = await client.callTool({ name: 'get_recall', arguments: { id: first!.id } });
    expect(Buffer.byteLength(JSON.stringify(r), 'utf8')).toBeLessThan(1_200_000);
    const data = r.structuredContent as Rec;
    expect(schemas.check('get_recall', data)).toBe('valid');
    expect(data.recall.source_url).toBe(url);
    const kept = data.recall.images as string[];
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).toEqual(images.slice(0, kept.length));
    expect(data.cut).toContain(`recall.images: 3000 items, the first ${kept.length} kept`);
    // Texts are not cut to 300 while cutting the list would do.
    expect(data.recall.product_description).toBe(
      `${description.slice(0, 1_000)} […cut: ${(description.length - 1_000).toLocaleString('en-US')} more characters]`,
    );
    // The text's line for the recall is made from the record as stored: the notice linked whole, the title cut at a
    // hit's 500 characters and marked with what the title lacks, not what the fitted copy lacks.
    const hitTitle = `${title.slice(0, 500)} […cut: ${(title.length - 500).toLocaleString('en-US')} more characters]`;
    const text = (r.content as { text: string }[])[0]!.text;
    expect(text.split('\n')).toContain(
      `- ${first!.id} [${first!.risk_severity}] ${hitTitle} (${first!.data_source}, ${first!.published_at.slice(0, 10)}) ${url}`,
    );
  });
});

describe('a learned file that cannot be used, over MCP', () => {
  it('check_products and digest say it in warnings, never on the server stderr', async () => {
    const db = await archive();
    const folder = tempDir('rf-mcp-learned-');
    const catalog = path.join(folder, 'products.csv');
    writeFileSync(catalog, `sku,gtin,brand,name\nA-1,12345,Acme,Kettle\n`);
    writeFileSync(`${catalog}.learned.json`, '{"not":"learned"}');
    const learned = `${catalog}.learned.json is not a file match --learn wrote: ignored (run match --learn again to rewrite it)`;
    const barcode =
      "catalogue row 1: barcode '12345' rejected (5 digits (GTIN has 8 to 14, or more with leading zeros)); it is never matched";
    const { client, schemas, stderr } = await serve(db, { catalog });
    for (const tool of ['check_products', 'digest', 'check_products']) {
      const { data, text } = await callOk(client, schemas, tool, {});
      expect(data.warnings, tool).toEqual([learned, barcode]);
      expect(text, tool).toContain(`warning: ${learned}`);
    }
    expect(stderr()).not.toContain('learned');
  });
});
