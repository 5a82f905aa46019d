// A csv write() resolves only once its rows reached the output: a run that fails right after keeps every row it counted.
import { finished } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { createRenderer } from '../../src/output/renderer.js';
import { collector, makeRecall } from './output-helpers.js';

describe('csv write()', () => {
  it('hands every row to a slow output before it resolves, so ending the output then loses none', async () => {
    const out = collector({ highWaterMark: 1024, slow: true });
    const renderer = await createRenderer({ format: 'csv', out, tableColumns: [], columns: ['id'] });
    const records = Array.from({ length: 400 }, (_, i) => makeRecall(i));
    await renderer.write(records);
    // What a failed export does with its partial file: close it without ending the renderer.
    out.end();
    await finished(out);
    const rows = out
      .text()
      .split('\n')
      .filter((l) => l !== '');
    expect(rows).toEqual(['id', ...records.map((r) => String(r.id))]);
  });
});
