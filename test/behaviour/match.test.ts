// `match` in process: a catalogue built from the sandbox's live window, with decoys, against expectations computed here.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, any>;
let sandbox: Sandbox;
let recalls: Rec[];
const dir = tempDir('rf-match-');

/** The test's own GTIN rule: digits only, 8/12/13/14 long, mod-10 check with weights 3,1 from the right. */
function gtin14(raw: string): string | undefined {
  const d = raw.replace(/[\s-]/g, '');
  if (!/^\d+$/.test(d) || ![8, 12, 13, 14].includes(d.length)) return undefined;
  const digits = [...d].map(Number).reverse();
  const sum = digits.slice(1).reduce((s, x, i) => s + x * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === digits[0] ? d.padStart(14, '0') : undefined;
}
const codes = (r: Rec): string[] =>
  (r.standard_identifiers_and_barcodes as Rec[])
    .map((x) => gtin14(String(x.value)))
    .filter((x): x is string => x !== undefined);
const squash = (s: string) => s.toLowerCase().replace(/[\s\-./]/g, '');
const sameBrand = (a: unknown, b: unknown) =>
  typeof a === 'string' &&
  typeof b === 'string' &&
  a.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase() === b.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

beforeAll(async () => {
  sandbox = await sandboxFor({ seed: 11, recordCount: 400, clock: () => FIXED_START });
  const r = await runMainAgainst(sandbox, ['feed', '-f', 'jsonl']);
  recalls = jsonLines(r.stdout);
});

describe('match', () => {
  it('finds barcodes written as 12, 13 or 14 digits with spaces, and models in other case; decoys never match', async () => {
    const withCode = recalls.filter((r) => codes(r).length > 0);
    const withModel = recalls.filter((r) => r.product_model_numbers.length > 0 && r.product_brand);
    expect(withCode.length).toBeGreaterThan(3);
    expect(withModel.length).toBeGreaterThan(1);
    const [a, b, c] = withCode as [Rec, Rec, Rec];
    const m = withModel[0] as Rec;
    const spaced = (g: string) => g.replace(/(\d{4})/g, '$1 ').trim();
    const codeA = codes(a)[0] as string;
    const codeB = codes(b)[0] as string;
    const codeC = codes(c)[0] as string;
    const wrongCheck = `${codeC.slice(1, -1)}${(Number(codeC.at(-1)) + 1) % 10}`;
    const model = String(m.product_model_numbers[0]).toLowerCase().replace('-', ' / ');
    const rows = [
      ['sku', 'ean', 'brand', 'model', 'name'],
      ['A', spaced(codeA.slice(1)), 'X', '', 'Something'], // 13 digits with spaces
      ['B', codeB, '', '', ''], // 14 digits
      ['M', '', String(m.product_brand).toUpperCase(), model, ''], // model in other case and punctuation
      ['D1', '', String(m.product_brand), '', 'Garden Hose Reel'], // same brand only
      ['D2', '', 'Nobrand', '', 'Kids Toy Set'], // generic words only
      ['D3', wrongCheck, '', '', ''], // a wrong check digit
    ];
    const catalog = path.join(dir, 'catalog.csv');
    writeFileSync(catalog, `${rows.map((r) => r.join(',')).join('\n')}\n`);

    const expected = new Set<string>();
    for (const r of recalls) {
      if (codes(r).includes(codeA)) expected.add(`1 ${r.id} barcode`);
      if (codes(r).includes(codeB)) expected.add(`2 ${r.id} barcode`);
      if (
        r.product_model_numbers.some((x: string) => squash(x) === squash(model)) &&
        sameBrand(r.product_brand, m.product_brand)
      ) {
        if (!expected.has(`3 ${r.id} barcode`)) expected.add(`3 ${r.id} model+brand`);
      }
    }

    // On a terminal, where the last line (the counts) is said.
    const r = await runMainAgainst(sandbox, ['match', '--catalog', catalog, '-f', 'jsonl', '--exit-code'], {
      stderrIsTTY: true,
    });
    expect(r.code).toBe(8);
    const out = jsonLines(r.stdout) as Rec[];
    const matches = out.filter((x) => x.level === 'match');
    expect(new Set(matches.map((x) => `${x.catalog_line} ${x.recall_id} ${x.reason}`))).toEqual(expected);
    expect(out.some((x) => x.level === 'match' && x.catalog_line >= 4)).toBe(false);
    const first = matches.find((x) => x.catalog_line === 1) as Rec;
    const recallA = recalls.find((x) => x.id === first.recall_id) as Rec;
    expect(first).toMatchObject({
      sku: 'A',
      ean: rows[1]?.[1],
      alert_title: recallA.alert_title,
      risk_severity: recallA.risk_severity,
      data_source: recallA.data_source,
      published_at: recallA.published_at,
      source_url: recallA.source_url,
    });
    expect(Object.keys(first).slice(0, 3)).toEqual(['level', 'reason', 'catalog_line']);
    expect(r.stderr).toContain(`catalogue row 6: barcode '${wrongCheck}' has a wrong check digit`);
    expect(r.stderr).toContain(
      `catalogue: 6 rows · 0 barcodes rejected · 1 with a wrong check digit · recalls: ${recalls.length.toLocaleString('en-US')} published in the last 24 h · ${matches.length} match`,
    );
  });

  it('without --exit-code a match is exit 0; csv has the catalogue columns between ours and the recall', async () => {
    const catalog = path.join(dir, 'semi.csv');
    const code = recalls.flatMap(codes)[0] as string;
    writeFileSync(catalog, `\uFEFFEAN;Marque\n${code};Z\n`);
    const r = await runMainAgainst(sandbox, ['match', '--catalog', catalog, '--map', 'gtin=EAN', '-f', 'csv']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(
      'level,reason,catalog_line,EAN,Marque,recall_id,alert_title,risk_severity,data_source,published_at,source_url,scope,scope_evidence',
    );
    expect(r.stdout.split('\n')[1]).toMatch(new RegExp(`^match,barcode,1,${code},Z,\\d+,`));
  });

  it('a repeated column reads its first non-empty value, and says which column was repeated', async () => {
    const [a, b] = recalls.filter((r) => codes(r).length > 0) as [Rec, Rec];
    const codeA = codes(a)[0] as string;
    const codeB = codes(b)[0] as string;
    // An ERP export with a second, empty `ean` column (the case), and one where only the second is filled.
    const catalog = path.join(dir, 'repeated.csv');
    writeFileSync(catalog, `sku,ean,brand,name,ean\nA,${codeA},X,Thing,\nB,,Y,Other,${codeB}\n`);
    const expected = new Set<string>();
    for (const r of recalls) {
      if (codes(r).includes(codeA)) expected.add(`1 ${r.id}`);
      if (codes(r).includes(codeB)) expected.add(`2 ${r.id}`);
    }
    const r = await runMainAgainst(sandbox, ['match', '--catalog', catalog, '-f', 'jsonl', '--exit-code']);
    expect(r.code).toBe(8);
    const rows = jsonLines(r.stdout) as Rec[];
    expect(new Set(rows.filter((x) => x.reason === 'barcode').map((x) => `${x.catalog_line} ${x.recall_id}`))).toEqual(
      expected,
    );
    expect(rows.find((x) => x.catalog_line === 2)?.ean).toBe(codeB);
    expect(r.stderr).toContain(
      "warning: catalogue column 'ean' appears 2 times (columns 2, 5): each row reads its first non-empty value\n",
    );
  });

  it('a Windows-1252 catalogue is read with a warning, its Libellé column recognised; UTF-16 is decoded', async () => {
    const code = recalls.flatMap(codes)[0] as string;
    // Brand and name only: unrecognised, the Libellé column would leave nothing to match on (exit 2).
    const names = path.join(dir, 'latin.csv');
    writeFileSync(names, Buffer.from('Marque;Libellé\nCôté Cuisine;Pâte à tartiner\n', 'latin1'));
    const byName = await runMainAgainst(sandbox, ['match', '--catalog', names, '-f', 'jsonl']);
    expect(byName.code).toBe(0);
    expect(byName.stderr).toContain(`warning: ${names} is not UTF-8: read as Windows-1252`);
    const coded = path.join(dir, 'latin-codes.csv');
    // The euro sign is 0x80 in Windows-1252 (a C1 control character in Latin-1).
    const text = Buffer.from(`EAN;Marque;Libellé\n${code};Côté;Pâte à tartiner `, 'latin1');
    writeFileSync(coded, Buffer.concat([text, Buffer.from([0x80, 0x0a])]));
    const byCode = await runMainAgainst(sandbox, ['match', '--catalog', coded, '-f', 'jsonl']);
    expect(byCode.code).toBe(0);
    const row = (jsonLines(byCode.stdout) as Rec[])[0] as Rec;
    expect([row.Marque, row.Libellé]).toEqual(['Côté', 'Pâte à tartiner €']);
    for (const [encoding, bom] of [
      ['utf16le', [0xff, 0xfe]],
      ['utf16be', [0xfe, 0xff]],
    ] as const) {
      const text = `EAN,Libellé\n${code},Pâte\n`;
      const le = Buffer.from(text, 'utf16le');
      const bytes = encoding === 'utf16le' ? le : Buffer.from(le).swap16();
      const wide = path.join(dir, `${encoding}.csv`);
      writeFileSync(wide, Buffer.concat([Buffer.from(bom), bytes]));
      const r = await runMainAgainst(sandbox, ['match', '--catalog', wide, '-f', 'jsonl']);
      expect(r.code).toBe(0);
      expect(r.stderr).not.toContain('warning');
      expect((jsonLines(r.stdout) as Rec[])[0]).toMatchObject({ reason: 'barcode', EAN: code, Libellé: 'Pâte' });
    }
  });

  it('a UTF-32 catalogue is exit 2 naming its encoding, nothing sent (read as UTF-16 it matched nothing)', async () => {
    const le = (text: string) => {
      const points = [...text].map((c) => c.codePointAt(0) as number);
      const bytes = Buffer.alloc(points.length * 4);
      for (const [i, p] of points.entries()) bytes.writeUInt32LE(p, i * 4);
      return bytes;
    };
    const text = 'EAN,Libellé\n4006381333931,Pâte\n';
    for (const [name, bytes] of [
      ['le-bom', le(`\ufeff${text}`)],
      ['be-bom', Buffer.from(le(`\ufeff${text}`)).swap32()],
      ['le', le(text)],
    ] as const) {
      const file = path.join(dir, `utf32-${name}.csv`);
      writeFileSync(file, bytes);
      sandbox.clearRequests();
      const r = await runMainAgainst(sandbox, ['match', '--catalog', file, '-f', 'jsonl']);
      expect(r.code, name).toBe(2);
      expect(r.stderr).toBe(
        `error: ${file} is in UTF-32, which match does not read\nhint: save it as UTF-8 (or UTF-16)\n`,
      );
      expect(r.stdout).toBe('');
      expect(sandbox.requests()).toEqual([]);
    }
  });

  it('a JSON array catalogue is exit 2 saying match reads JSON lines, with how to convert it, nothing sent', async () => {
    const array = `[\n  {"ean": "4006381333931", "name": "Pâte"},\n  {"ean": "3017620422003", "name": "Nutella"}\n]\n`;
    for (const name of ['products.json', 'products.jsonl']) {
      const file = path.join(dir, name);
      writeFileSync(file, array);
      sandbox.clearRequests();
      const r = await runMainAgainst(sandbox, ['match', '--catalog', file, '-f', 'jsonl']);
      expect(r.code, name).toBe(2);
      expect(r.stderr).toBe(
        `error: ${file} is a JSON array: match reads CSV, or JSON lines (one object a line)\nhint: write it one object a line, e.g. jq -c '.[]' < products.json > products.jsonl\n`,
      );
      expect(r.stdout).toBe('');
      expect(sandbox.requests()).toEqual([]);
    }
    // A CSV whose header is bracketed is still a CSV.
    const bracketed = path.join(dir, 'bracketed.csv');
    writeFileSync(bracketed, '[ean],[name]\n4006381333931,Pâte\n');
    const csv = await runMainAgainst(sandbox, ['match', '--catalog', bracketed, '--map', 'gtin=[ean]', '-f', 'jsonl']);
    expect(csv.code, csv.stderr).toBe(0);
  });

  it('record filters narrow the recalls checked', async () => {
    const catalog = path.join(dir, 'all-codes.csv');
    const withCodes = recalls.filter((r) => codes(r).length > 0);
    writeFileSync(catalog, `gtin\n${withCodes.map((r) => codes(r)[0]).join('\n')}\n`);
    // On a terminal, where the last line (the counts) is said.
    const r = await runMainAgainst(sandbox, ['match', '--catalog', catalog, '-f', 'jsonl', '--severity', 'serious'], {
      stderrIsTTY: true,
    });
    expect(r.code).toBe(0);
    const expected = withCodes.filter((x) => x.risk_severity === 'serious').map((x) => x.id);
    expect(expected.length).toBeGreaterThan(0);
    const got = (jsonLines(r.stdout) as Rec[]).filter((x) => x.reason === 'barcode').map((x) => x.recall_id);
    expect(new Set(got)).toEqual(new Set(expected));
    const checked = recalls.filter((x) => x.risk_severity === 'serious').length;
    expect(r.stderr).toContain(`(${checked.toLocaleString('en-US')} after filters)`);
  });

  it('--archive matches the synced archive offline, with the same rows as the live window', async () => {
    const db = path.join(dir, 'archive.db');
    const synced = await runMainAgainst(sandbox, ['sync', '--db', db]);
    expect(synced.code).toBe(0);
    const catalog = path.join(dir, 'mixed.csv');
    const withCodes = recalls.filter((r) => codes(r).length > 0).slice(0, 20);
    const withModels = recalls.filter((r) => r.product_model_numbers.length > 0 && r.product_brand).slice(0, 20);
    const rows = [
      ...withCodes.map((r) => `${codes(r)[0]},,,`),
      ...withModels.map((r) => `,"${r.product_brand}",${r.product_model_numbers[0]},`),
    ];
    writeFileSync(catalog, `gtin,brand,model,name\n${rows.join('\n')}\n`);
    const key = (x: Rec) => `${x.catalog_line} ${x.recall_id} ${x.level} ${x.reason}`;
    const live = await runMainAgainst(sandbox, ['match', '--catalog', catalog, '-f', 'jsonl']);
    sandbox.clearRequests();
    const offline = await runMainAgainst(
      sandbox,
      ['match', '--catalog', catalog, '-f', 'jsonl', '--archive', '--db', db],
      {
        env: { RECALL_FEED_API_KEY: undefined },
      },
    );
    expect(offline.code).toBe(0);
    expect(sandbox.requests()).toEqual([]);
    const liveRows = (jsonLines(live.stdout) as Rec[]).map(key).sort();
    expect(liveRows.length).toBeGreaterThanOrEqual(40);
    expect((jsonLines(offline.stdout) as Rec[]).map(key).sort()).toEqual(liveRows);
    const since = await runMainAgainst(sandbox, ['match', '--catalog', catalog, '--since', '7d']);
    expect(since.code).toBe(2);
    expect(since.stderr).toContain('--since works with --archive');
  });

  it('--watch checks each new recall as it arrives and acts once per match row', async () => {
    const live = await sandboxFor({ seed: 13, recordCount: 50 });
    try {
      const catalog = path.join(dir, 'watch.csv');
      writeFileSync(catalog, 'sku,ean\nK-1,4006381333931\nK-2,0036000291452\n');
      const log = path.join(dir, 'acted.txt');
      const script = path.join(dir, 'act.cjs');
      writeFileSync(
        script,
        `require('fs').appendFileSync(${JSON.stringify(log)}, process.argv.slice(2).join(' ') + '\\n');`,
      );
      // In process: each pause between two polls is the injected clock's; the watch stops as Ctrl-C would.
      let out = '';
      let err = '';
      let added: { id: number }[] = [];
      let polls = 0;
      let pauses = 0;
      const stop = new AbortController();
      const acted = () => existsSync(log) && readFileSync(log, 'utf8').includes(String(added[0]!.id));
      const clock = fakeClock(Date.now(), () => {
        if (++pauses > 100) throw new Error(`the match was never acted on\nstdout: ${out}\nstderr: ${err}`);
        if (added.length === 0) {
          expect(live.requests().length).toBeGreaterThanOrEqual(1);
          added = live.addRecords([
            { standard_identifiers_and_barcodes: [{ type: 'EAN', value: '4006381333931' }] },
            { standard_identifiers_and_barcodes: [{ type: 'EAN', value: '4006381333932' }] },
          ]);
        } else if (polls === 0) {
          if (acted()) polls = live.requests().length;
        } else if (live.requests().length > polls + 1) stop.abort(new InterruptedError('SIGINT'));
      });
      const watched = await runMainAgainst(
        live,
        [
          'match',
          '--catalog',
          catalog,
          '--watch',
          '--interval',
          '1',
          '-f',
          'jsonl',
          '--exec',
          `'${process.execPath}' '${script}' {recall_id} {level} {sku}`,
        ],
        {
          env: { PATH: process.env.PATH },
          clock,
          signal: stop.signal,
          onOutput: (stream, text) => {
            if (stream === 'stdout') out += text;
            else err += text;
          },
        },
      );
      expect(watched.code, err).toBe(130);
      const [hit, miss] = added;
      const rows = jsonLines(out) as Rec[];
      expect(rows.filter((r) => r.recall_id === hit!.id).map((r) => [r.level, r.reason, r.sku])).toEqual([
        ['match', 'barcode', 'K-1'],
      ]);
      expect(rows.some((r) => r.recall_id === miss!.id)).toBe(false);
      expect(
        readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .filter((l) => l.startsWith(`${hit!.id} `)),
      ).toEqual([`${hit!.id} match K-1`]);
    } finally {
      await live.close();
    }
  });

  it('a bad catalogue or --map is exit 2 before any request', async () => {
    await fetch(`${sandbox.url}/_sandbox/requests`, { method: 'DELETE' });
    const none = await runMainAgainst(sandbox, ['match', '--catalog', path.join(dir, 'missing.csv')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^error: cannot read the catalogue .*missing\.csv: no such file$/m);
    const noCatalog = await runMainAgainst(sandbox, ['match']);
    expect(noCatalog.code).toBe(2);
    expect(noCatalog.stderr).toContain('error: match needs --catalog <file>');
    const badMap = await runMainAgainst(sandbox, ['match', '--catalog', path.join(dir, 'semi.csv'), '--map', 'ean']);
    expect(badMap.code).toBe(2);
    const log = (await (await fetch(`${sandbox.url}/_sandbox/requests`)).json()) as { requests: unknown[] };
    expect(log.requests).toEqual([]);
  });
});
