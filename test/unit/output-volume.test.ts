// 100k records through jsonl, json and csv into a null sink: everything arrives, memory stays flat.
import { describe, expect, it } from 'vitest';
import { createRenderer } from '../../src/output/renderer.js';
import { makeRecall, nullSink } from './output-helpers.js';

const TOTAL = 100_000;
const PAGE = 500;
/** How far output may trail the records given: one 64 KiB chunk plus csv-stringify's own buffers. */
const SLACK = 200 * 1024;

describe.each(['jsonl', 'json', 'csv'] as const)('%s, 100k records', (format) => {
  it('writes every record as it goes, never holding more than a chunk', async () => {
    const sink = nullSink();
    const renderer = await createRenderer({ format, out: sink, tableColumns: [], formulaGuard: true });
    let expectedBytes = format === 'json' ? 2 : 0; // "[\n"
    let header = format === 'csv';
    let maxLag = 0;
    for (let start = 0; start < TOTAL; start += PAGE) {
      // Pages are made on the fly and dropped, as a feed would: only the renderer could keep them.
      const page = Array.from({ length: PAGE }, (_, k) => makeRecall(start + k));
      for (const record of page) {
        if (format === 'csv') {
          if (header)
            expectedBytes += 'id,data_source,alert_title,risk_severity,risk_types,product_name,published_at\n'.length;
          header = false;
          const r = record as { id: number; alert_title: string; risk_severity: string; product_name: string };
          expectedBytes +=
            `${r.id},us_cpsc,"${r.alert_title.replaceAll('"', '""')}",${r.risk_severity},fire; shock,${r.product_name},2024-05-01T10:00:00\n`
              .length;
        } else {
          expectedBytes += JSON.stringify(record).length + (format === 'json' ? 2 : 1); // ",\n" or "\n"
        }
      }
      await renderer.write(page);
      maxLag = Math.max(maxLag, expectedBytes - (sink.bytes + sink.writableLength));
    }
    await renderer.end();
    await new Promise<void>((resolve) => sink.end(resolve));
    expect(renderer.count).toBe(TOTAL);
    // json: counted above as "[\n" + ",\n" + record each; really the first record has no ",\n" (-2)
    // and the document ends with "\n]\n" (+3).
    expect(sink.bytes).toBe(expectedBytes + (format === 'json' ? 1 : 0));
    expect(maxLag).toBeLessThan(SLACK);
    expect(sink.maxBuffered).toBeLessThan(SLACK);
  });
});
