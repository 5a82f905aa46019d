// The parquet format: Apache Parquet files with typed columns.
import { defineFormat } from '../output-format.js';

export const parquetFormat = defineFormat({
  name: 'parquet',
  summary: 'Apache Parquet, typed columns',
  extensions: ['.parquet'],
  kind: 'records',
  can: ['needsFile', 'binary', 'headerWhenEmpty', 'typedColumns'],
  documentParts: ['rows'],
  load: async () => {
    const { ParquetRenderer } = await import('../parquet.js');
    return { createRenderer: (opts) => new ParquetRenderer(opts) };
  },
});
