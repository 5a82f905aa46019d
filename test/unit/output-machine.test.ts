// Byte-exact contracts of the jsonl and json renderers, including empty runs, resumed documents and backpressure.
import { describe, expect, it } from 'vitest';
import { createRenderer, type Format, type RenderOptions } from '../../src/output/renderer.js';
import { AWKWARD, collector, makeRecall } from './output-helpers.js';

async function render(format: Format, extra: Partial<RenderOptions> = {}) {
  const out = collector();
  const renderer = await createRenderer({ format, out, tableColumns: ['id'], ...extra });
  return { out, renderer };
}

const LINE_1 =
  '{"id":1,"data_source":"us_cpsc","alert_title":"Heater, \\"Model X\\"\\nrecalled","risk_severity":"high",' +
  '"risk_types":["fire","burn"],"product_name":"=HYPERLINK(\\"http://evil\\")","packaging_description":null,' +
  '"involved_parties":[{"name":"Acme","role":"maker","country":"US"}],"published_at":"2024-05-01T10:00:00"}';
const LINE_2 =
  '{"id":22,"data_source":"safety_gate","alert_title":"電気ケトル 😀 リコール","risk_severity":"medium",' +
  '"risk_types":[],"product_name":"+1 kettle","packaging_description":"@home","involved_parties":[],' +
  '"published_at":"2024-05-01T11:00:00","extra_field":{"nested":true}}';
const LINE_3 =
  '{"id":333,"data_source":"uk_opss","alert_title":"\\tTabbed\\r\\nline","risk_severity":"low",' +
  '"risk_types":["-x",2],"product_name":"-5","packaging_description":"plain","involved_parties":null,' +
  '"published_at":"2024-05-01T12:00:00","score":-5,"ok":false}';

describe('jsonl', () => {
  it('writes one compact object per line, every field in its order, untouched', async () => {
    const { out, renderer } = await render('jsonl');
    await renderer.write(AWKWARD.slice(0, 2));
    await renderer.write([]);
    await renderer.write(AWKWARD.slice(2));
    await renderer.end();
    expect(out.text()).toBe(`${LINE_1}\n${LINE_2}\n${LINE_3}\n`);
    expect(renderer.count).toBe(3);
  });

  it('hands each batch to the output as soon as write() resolves (a watch pipeline reacts at once)', async () => {
    const { out, renderer } = await render('jsonl');
    await renderer.write([AWKWARD[0]!]);
    expect(out.text()).toBe(`${LINE_1}\n`);
    await renderer.write([AWKWARD[1]!]);
    expect(out.text()).toBe(`${LINE_1}\n${LINE_2}\n`);
  });

  it('writes nothing for an empty run', async () => {
    const { out, renderer } = await render('jsonl');
    await renderer.write([]);
    await renderer.end();
    expect(out.text()).toBe('');
    expect(renderer.count).toBe(0);
  });
});

describe('json', () => {
  it('streams one array: "[\\n", one record per line joined by ",\\n", "\\n]\\n"', async () => {
    const { out, renderer } = await render('json');
    await renderer.write(AWKWARD.slice(0, 2));
    await renderer.write(AWKWARD.slice(2));
    await renderer.end();
    expect(out.text()).toBe(`[\n${LINE_1},\n${LINE_2},\n${LINE_3}\n]\n`);
    expect(JSON.parse(out.text())).toEqual(AWKWARD.map((r) => JSON.parse(JSON.stringify(r))));
    expect(renderer.count).toBe(3);
  });

  it('writes "[]\\n" for an empty run, once even when end() is called twice', async () => {
    const { out, renderer } = await render('json');
    await renderer.write([]);
    await renderer.end();
    await renderer.end();
    expect(out.text()).toBe('[]\n');
  });

  it('continues a resumed document with ",\\n" and closes it again (resumeCount)', async () => {
    // An earlier run wrote two records; the caller removed its closing "\n]\n" before appending.
    const earlier = `[\n${LINE_1},\n${LINE_2}`;
    const { out, renderer } = await render('json', { resumeCount: 2 });
    await renderer.write([AWKWARD[2]!]);
    await renderer.end();
    expect(out.text()).toBe(`,\n${LINE_3}\n]\n`);
    expect(renderer.count).toBe(1);
    expect(JSON.parse(earlier + out.text())).toHaveLength(3);
  });

  it('re-closes a resumed document when this run has no records', async () => {
    const { out, renderer } = await render('json', { resumeCount: 5 });
    await renderer.end();
    expect(out.text()).toBe('\n]\n');
  });
});

describe('records given as JSON text (writeJson)', () => {
  it('gives the bytes write() gives for the parsed records, in jsonl and json, mixed with write()', async () => {
    for (const format of ['jsonl', 'json'] as const) {
      const parsed = await render(format);
      await parsed.renderer.write(AWKWARD);
      await parsed.renderer.end();
      const texts = await render(format);
      await texts.renderer.writeJson!(AWKWARD.slice(0, 2).map((r) => JSON.stringify(r)));
      await texts.renderer.write(AWKWARD.slice(2));
      await texts.renderer.end();
      expect(texts.out.text()).toBe(parsed.out.text());
      expect(texts.renderer.count).toBe(3);
    }
  });

  it('is offered by jsonl and json only: csv and table need the fields', async () => {
    expect((await render('csv')).renderer.writeJson).toBeUndefined();
    expect((await render('table')).renderer.writeJson).toBeUndefined();
  });
});

describe('backpressure', () => {
  it.each(['jsonl', 'json', 'csv', 'table'] as const)(
    '%s: a slow Writable with highWaterMark 1 gets everything, in order, never written past a full buffer',
    async (format) => {
      const out = collector({ highWaterMark: 1, slow: true });
      let overfull = 0;
      const write = out.write.bind(out) as (chunk: unknown) => boolean;
      out.write = ((chunk: unknown) => {
        if (out.writableNeedDrain) overfull++;
        return write(chunk);
      }) as typeof out.write;
      const renderer = await createRenderer({ format, out, tableColumns: ['id', 'alert_title'], width: 80 });
      const records = Array.from({ length: 300 }, (_, i) => makeRecall(i));
      for (let i = 0; i < records.length; i += 100) await renderer.write(records.slice(i, i + 100));
      await renderer.end();
      expect(renderer.count).toBe(300);
      expect(overfull).toBe(0);
      const text = out.text();
      const ids = [...text.matchAll(/Recall number (\d+),/g)].map((m) => Number(m[1]));
      expect(ids).toEqual(records.map((r) => r.id));
    },
  );

  it('rejects instead of hanging when the output closes while waiting for drain', async () => {
    const out = collector({ highWaterMark: 1, stalled: true });
    const renderer = await createRenderer({ format: 'jsonl', out, tableColumns: [] });
    const pending = renderer.write([makeRecall(1)]);
    out.destroy();
    await expect(pending).rejects.toThrow(/closed/);
    await expect(renderer.write([makeRecall(2)])).rejects.toThrow(/closed/);
  });
});
