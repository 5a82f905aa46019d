// The csv format: RFC 4180 rows under one header row.
import { defineFormat } from '../output-format.js';

export const csvFormat = defineFormat({
  name: 'csv',
  summary: 'RFC 4180, a header row, lists joined with "; "',
  extensions: ['.csv'],
  kind: 'records',
  can: ['streams', 'appendable', 'resumable', 'headerWhenEmpty', 'headerRow'],
  documentParts: ['rows'],
  load: async () => {
    const { CsvRenderer } = await import('../csv.js');
    return { createRenderer: (opts) => new CsvRenderer(opts) };
  },
});
