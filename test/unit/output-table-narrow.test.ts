// A narrow terminal leaves out the feed table's low-priority columns, as gh does, instead of cutting every column short.
import { describe, expect, it } from 'vitest';
import { createRenderer } from '../../src/output/renderer.js';
import { TABLE_COLUMNS, TABLE_DROP_ORDER } from '../../src/jobs/watch/record-sink.js';
import { collector } from './output-helpers.js';

const RECORDS = [
  {
    id: 3560462,
    published_at: '2026-11-28T06:06:26',
    data_source: 'rappel_conso',
    risk_severity: 'high',
    product_brand: "Les Jardins d'Émilie",
    product_name: 'Casque de vélo Lumo',
    alert_title: 'Rappel de produit : Casque de vélo Lumo',
  },
];

async function header(width: number, extra: { columns?: string[] } = {}) {
  const out = collector();
  const r = await createRenderer({
    format: 'table',
    out,
    tableColumns: TABLE_COLUMNS,
    dropOrder: TABLE_DROP_ORDER,
    width,
    ...extra,
  });
  await r.write(RECORDS);
  await r.end();
  return (
    out
      .text()
      .split('\n')[0]
      ?.trim()
      .split(/\s{2,}/) ?? []
  );
}

describe('the feed table on a narrow terminal', () => {
  it('puts the id first, for show <id> --history', async () => {
    expect(TABLE_COLUMNS[0]).toBe('id');
    expect((await header(200))[0]).toBe('id');
  });

  it.each([
    // The API's times are headed as UTC (docs/formats.md).
    [200, ['id', 'published_at (UTC)', 'data_source', 'risk_severity', 'product_brand', 'product_name', 'alert_title']],
    [80, ['id', 'published_at (UTC)', 'risk_severity', 'product_brand', 'alert_title']],
    [60, ['id', 'published_at (UTC)', 'alert_title']],
  ])('at %i columns shows %j, every header whole', async (width, shown) => {
    const got = await header(width);
    // Headers are compared whole: a cut one would end in "…".
    expect(got).toEqual(shown);
  });

  it('never drops a column the user asked for with --columns: those are cut instead', async () => {
    const asked = ['id', 'data_source', 'product_name', 'alert_title'];
    const got = await header(40, { columns: asked });
    expect(got.length).toBe(4);
  });
});
