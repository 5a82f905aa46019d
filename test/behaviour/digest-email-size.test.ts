// The digest e-mail with hundreds of matching catalogue rows, on both engines: each MIME part, as a real SMTP server received it, under 100 KB; the rows left out counted.
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { tempFolder } from '../helpers/archive.js';
import { testArchive } from '../helpers/archive-engines.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { ENGINES } from '../helpers/postgres.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { smtpServer } from '../helpers/smtp.js';

const folder = tempFolder('rf-digest-size-');

interface Rec {
  id: number;
  product_brand: string | null;
  product_model_numbers: string[];
}

/** One catalogue row per stored recall with a brand and a usable model number: each matches its recall. */
function catalogueOf(sandbox: Sandbox, stored: ReadonlySet<number>): { file: string; rows: number } {
  const usable = (sandbox.records() as unknown as Rec[]).filter(
    (r) =>
      stored.has(r.id) &&
      r.product_brand &&
      !/[",\n]/.test(r.product_brand) &&
      r.product_model_numbers.length > 0 &&
      /^[A-Za-z0-9-]{4,}$/.test(r.product_model_numbers[0]!),
  );
  const file = folder.file(`many-${usable.length}.csv`);
  const name = (i: number) => `Catalogue product number ${i} with a long descriptive name in colour and size`;
  writeFileSync(
    file,
    [
      'sku,name,brand,model',
      ...usable.map((r, i) => `SKU-${i},${name(i)},${r.product_brand},${r.product_model_numbers[0]}`),
    ].join('\n'),
  );
  return { file, rows: usable.length };
}

describe.each(ENGINES)('$engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }

  it('with 250+ matching rows, the text and HTML parts each stay under 100 KB as sent, and say how many more the attachment holds', async () => {
    const sandbox = await sandboxFor({ recordCount: 20, seed: 71 });
    sandbox.addRecords(900);
    const archive = await testArchive(engine);
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
    const stored = new Set((await archive.rows<{ id: number }>('SELECT id FROM recalls')).map((r) => Number(r.id)));
    const { file, rows } = catalogueOf(sandbox, stored);
    expect(rows).toBeGreaterThanOrEqual(250);

    const json = await runMainAgainst(sandbox, ['digest', '--db', archive.db, '--catalog', file, '-f', 'json']);
    const products = (JSON.parse(json.stdout) as { products: { level: string }[] }).products;
    const matches = products.filter((p) => p.level === 'match').length;
    expect(matches).toBeGreaterThanOrEqual(250);

    const smtp = await smtpServer();
    const r = await runMainAgainst(sandbox, [
      'digest',
      '--db',
      archive.db,
      '--catalog',
      file,
      '--email',
      'qa@example.test',
      '--email-from',
      'recalls@example.test',
      '--smtp-url',
      smtp.url,
    ]);
    expect(r.code).toBe(0);
    const mail = smtp.received[0]!;
    const part = (type: string) => mail.parts.find((p) => p.contentType === type)!;
    for (const type of ['text/plain', 'text/html']) {
      expect(part(type)).toBeDefined();
      expect(part(type).bytes).toBeLessThan(100_000);
    }
    // Decoded too (a client shows the decoded text).
    expect(Buffer.byteLength(mail.text)).toBeLessThan(100_000);
    expect(Buffer.byteLength(mail.html)).toBeLessThan(100_000);
    // What is not listed is counted, and the count adds up with what is.
    for (const body of [mail.text, mail.html]) {
      const shown = new Set([...body.matchAll(/SKU-(\d+) · Catalogue product/g)].map((m) => m[1])).size;
      expect(shown).toBeGreaterThan(0);
      expect(shown).toBeLessThan(products.length);
      const more = /… and ([\d,]+) more pairs of a row and a recall/.exec(body);
      expect(Number(more?.[1]?.replace(/,/g, ''))).toBe(products.length - shown);
      expect(body).toContain(mail.attachments[0]!.filename);
    }
  }, 120_000);
});
