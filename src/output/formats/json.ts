// The json format: one JSON array of records, or one JSON document (the digest's model, the report's).
import { defineFormat } from '../output-format.js';

export const jsonFormat = defineFormat({
  name: 'json',
  summary: 'one JSON array, one record per line',
  extensions: ['.json'],
  kind: 'records',
  can: ['streams', 'resumable', 'wholeRecords', 'framed'],
  documentParts: ['text', 'whole', 'one', 'rows', 'items'],
  load: async () => {
    const { JsonRenderer } = await import('../json.js');
    return { createRenderer: (opts) => new JsonRenderer(opts) };
  },
});
