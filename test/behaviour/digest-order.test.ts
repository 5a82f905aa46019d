// The digest's order, worst severity first and then newest published: published_at compared as the instants it names, not as text.
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../helpers/archive.js';
import { testArchive } from '../helpers/archive-engines.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';

const folder = tempFolder('rf-digest-order-');

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19);

/**
 * Four serious recalls published within the feed's last 24 hours, each with its own barcode. As text their published_at
 * sort otherwise than in time: east's local time (-04:00) reads an hour before west's UTC time without an offset.
 */
function recalls(now: number) {
  const west = Math.floor(now / HOUR) * HOUR - 12 * HOUR;
  return [
    { title: 'Kettle west', published_at: iso(west), gtin: '4006381333931' }, // no offset: UTC
    { title: 'Kettle east', published_at: `${iso(west - HOUR)}-04:00`, gtin: '5901234123457' }, // west + 3 h
    { title: 'Kettle noon', published_at: `${iso(west + 2.5 * HOUR)}Z`, gtin: '8712345678906' }, // west + 2.5 h
    { title: 'Kettle same', published_at: `${iso(west + 3 * HOUR)}Z`, gtin: '7612345678900' }, // as east
  ];
}

describe('digest order', () => {
  it('recalls and your products: newest published first by instant, a tie by the higher id', async () => {
    const sandbox = await sandboxFor({ recordCount: 10, seed: 5 });
    const run = (args: string[]) => runMainAgainst(sandbox, args);
    const RECALLS = recalls(Date.now());
    const added = sandbox.addRecords(
      RECALLS.map((r) => ({
        alert_title: r.title,
        risk_severity: 'serious',
        published_at: r.published_at,
        standard_identifiers_and_barcodes: [r.gtin],
      })),
    );
    const idOf = new Map(added.map((r) => [r.alert_title, r.id]));
    // The same instant (east, same): the higher id first; then noon, then west.
    const expected = ['Kettle same', 'Kettle east', 'Kettle noon', 'Kettle west'];
    expect(idOf.get('Kettle same')!).toBeGreaterThan(idOf.get('Kettle east')!);

    const archive = await testArchive('sqlite');
    expect((await run(['sync', '--db', archive.db])).code).toBe(0);
    const catalog = folder.file('products.csv');
    writeFileSync(catalog, ['sku,name,gtin', ...RECALLS.map((r, i) => `K${i},${r.title},${r.gtin}`)].join('\n'));
    const r = await run(['digest', '--db', archive.db, '--catalog', catalog, '-f', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout) as {
      recalls: { new: { id: number; alert_title: string }[] };
      products: { recall_id: number; name: string }[];
    };
    const ours = new Set(idOf.values());
    expect(d.recalls.new.filter((x) => ours.has(x.id)).map((x) => x.alert_title)).toEqual(expected);
    expect(d.products.filter((p) => ours.has(p.recall_id)).map((p) => p.name)).toEqual(expected);

    // The Markdown lists them in the same order.
    const md = await run(['digest', '--db', archive.db, '-f', 'markdown']);
    const at = expected.map((t) => md.stdout.indexOf(t));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    await sandbox.close();
  });
});
