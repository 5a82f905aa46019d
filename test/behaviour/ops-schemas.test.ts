// `recall-feed schema`: the shipped schemas are current, and the tool's own outputs validate against them (ajv); wrong values fail.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SpecRecall } from '../../src/api/schemas.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { receivingServer } from '../helpers/handler-server.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const SCHEMAS = path.resolve(import.meta.dirname, '..', '..', 'schemas');
type Json = Record<string, unknown>;

const ajv = new Ajv2020({ allErrors: true });
const validators = new Map<string, ReturnType<typeof ajv.compile>>();
function validate(name: string, value: unknown): string {
  let v = validators.get(name);
  if (!v) {
    v = ajv.compile(JSON.parse(readFileSync(path.join(SCHEMAS, `${name}.schema.json`), 'utf8')) as Json);
    validators.set(name, v);
  }
  return v(value) ? 'valid' : ajv.errorsText(v.errors);
}

const jsonl = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Json);

describe('schema', () => {
  it('--list names every contract, and schemas/ holds exactly those, each equal to what `schema <name>` prints (npm run schemas)', async () => {
    const list = await runMain(['schema', '--list']);
    expect(list.code).toBe(0);
    const names = list.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t')[0]);
    expect(names).toEqual(
      expect.arrayContaining([
        'record',
        'match',
        'case',
        'digest',
        'report',
        'webhook-json',
        'webhook-slack',
        'webhook-teams',
      ]),
    );
    const files = readdirSync(SCHEMAS).filter((f) => f.endsWith('.schema.json'));
    expect(files.sort()).toEqual(names.map((n) => `${n}.schema.json`).sort());
    for (const name of names) {
      const printed = await runMain(['schema', name as string]);
      expect(
        readFileSync(path.join(SCHEMAS, `${name}.schema.json`), 'utf8'),
        `schemas/${name} is stale: npm run schemas`,
      ).toBe(printed.stdout);
      const schema = JSON.parse(printed.stdout) as Json;
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schema.$id).toBe(`urn:recall-feed:schema:${name}:v2`);
    }
  });

  it('an unknown contract is a usage error (exit 2)', async () => {
    const r = await runMain(['schema', 'recalls']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no contract named 'recalls'/);
  });
});

describe("the tool's outputs validate against their schemas; a wrong value fails", () => {
  let sandbox: Sandbox;
  const dir = tempDir('rf-schemas-');
  const db = path.join(dir, 'r.db');
  const catalog = path.join(dir, 'products.csv');
  beforeAll(async () => {
    sandbox = await sandboxFor({ seed: 21, recordCount: 120 });
    const codes = (r: SpecRecall) =>
      (r.standard_identifiers_and_barcodes as unknown[]).map((x) =>
        typeof x === 'string' ? x : String((x as { value: unknown }).value),
      );
    const lines = ['sku,gtin,brand,model,name'];
    for (const [i, r] of sandbox
      .records()
      .filter((r) => codes(r).length > 0)
      .slice(0, 8)
      .entries())
      lines.push(`P${i},${codes(r)[0]},,,`);
    writeFileSync(catalog, `${lines.join('\n')}\n`);
  });

  const check = (name: string, good: Json, wrong: (v: Json) => Json) => {
    expect(validate(name, good)).toBe('valid');
    expect(validate(name, wrong(structuredClone(good)))).not.toBe('valid');
  };

  it('sync-summary, record, match, case, digest, report, doctor', async () => {
    const sync = await runMainAgainst(sandbox, ['sync', '--db', db, '-f', 'json']);
    expect(sync.code).toBe(0);
    check('sync-summary', JSON.parse(sync.stdout) as Json, (v) => ({ ...v, fetched: -1 }));

    const feed = await runMainAgainst(sandbox, ['feed', '-f', 'jsonl']);
    const records = jsonl(feed.stdout);
    expect(records.length).toBe(120);
    for (const r of records) expect(validate('record', r)).toBe('valid');
    check('record', records[0] as Json, (v) => ({ ...v, id: 'R-1' }));
    check('webhook-json', records[0] as Json, (v) => ({ ...v, published_at: null }));

    const match = await runMainAgainst(sandbox, [
      'match',
      '--catalog',
      catalog,
      '--archive',
      '--db',
      db,
      '--open-cases',
      '-f',
      'jsonl',
    ]);
    expect(match.code, match.stderr).toBe(0);
    const rows = jsonl(match.stdout);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(validate('match', r)).toBe('valid');
    check('match', rows[0] as Json, (v) => ({ ...v, level: 'maybe' }));

    const cases = jsonl((await runMainAgainst(sandbox, ['cases', '--db', db, '-f', 'jsonl'])).stdout);
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) expect(validate('case', c)).toBe('valid');
    check('case', cases[0] as Json, (v) => ({ ...v, status: 'lost' }));

    const digest = await runMainAgainst(sandbox, ['digest', '--db', db, '--catalog', catalog, '-f', 'json']);
    expect(digest.code, digest.stderr).toBe(0);
    const digestJson = JSON.parse(digest.stdout) as Json;
    check('digest', digestJson, (v) => ({ ...v, counts: { ...(v.counts as Json), new: '3' } }));
    // Your products (the digest merge's field) are part of the contract: a row with a wrong type fails.
    expect((digestJson.products as Json[]).length).toBeGreaterThan(0);
    check('digest', digestJson, (v) => ({ ...v, products: [{ ...(v.products as Json[])[0], catalog_line: 'x' }] }));

    const report = await runMainAgainst(sandbox, ['report', '--db', db, '--catalog', catalog, '-f', 'json']);
    expect(report.code, report.stderr).toBe(0);
    check('report', JSON.parse(report.stdout) as Json, (v) => ({
      ...v,
      chain: { ...(v.chain as Json), intact: 'yes' },
    }));

    const doctor = await runMainAgainst(sandbox, ['doctor', '--db', db, '-f', 'json']);
    check('doctor', JSON.parse(doctor.stdout) as Json, (v) => ({ ...v, status: 'fine' }));
  });

  it('webhook-slack and webhook-teams: the bodies a loopback receiver got', async () => {
    for (const format of ['slack', 'teams'] as const) {
      const receiver = await receivingServer();
      const state = path.join(dir, `seen-${format}.json`);
      const r = await runMainAgainst(sandbox, [
        'feed',
        '--max',
        '3',
        '--state',
        state,
        '-f',
        'jsonl',
        '--webhook',
        `${receiver.url}/hook`,
        '--webhook-format',
        format,
      ]);
      expect(r.code, r.stderr).toBe(0);
      const bodies = receiver.received.map((r) => JSON.parse(r.body) as Json);
      expect(bodies.length).toBe(3);
      for (const b of bodies) expect(validate(`webhook-${format}`, b)).toBe('valid');
      check(`webhook-${format}`, bodies[0] as Json, (v) => (format === 'slack' ? { text: 5 } : { ...v, type: 'card' }));
    }
  });
});
