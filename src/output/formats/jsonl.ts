// The jsonl format: one JSON object per line, as the API sent it.
import { defineFormat } from '../output-format.js';

export const jsonlFormat = defineFormat({
  name: 'jsonl',
  summary: 'one JSON object per line, as the API sent it',
  extensions: ['.jsonl', '.ndjson'],
  kind: 'records',
  can: ['streams', 'appendable', 'resumable', 'wholeRecords'],
  documentParts: ['items', 'rows'],
  defaultOn: 'pipe',
  load: async () => {
    const { JsonlRenderer } = await import('../jsonl.js');
    return { createRenderer: (opts) => new JsonlRenderer(opts) };
  },
});
